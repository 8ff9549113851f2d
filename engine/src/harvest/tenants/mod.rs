//! Primary tenants and their classes (the harvesting paper, §3, §4.1): the
//! tenant model and what reads it, and the clustering service.
//!
//! From the bottom: `tenant` (a tenant's average server on a shared grid),
//! `tenants_csv`, `alibaba_machines` and `grouping` (inputs → a
//! [`TenantSet`](tenant::TenantSet)); `scaling` (a set's utilization scaled
//! to a target average, which both the cycles and the storage simulations
//! use); `pattern` (periodic / constant / unpredictable from the spectrum,
//! with its evidence), `kmeans`, and `classify` (patterns, then classes
//! tagged with their pattern, average and peak). The spectrum and the
//! percentiles come from [`crate::numerics`].
//!
//! This file only declares the files; [`crate::harvest`] re-exports their
//! public names.

pub mod alibaba_machines;
pub mod classify;
pub mod grouping;
pub mod kmeans;
pub mod pattern;
pub mod scaling;
pub mod tenant;
pub mod tenants_csv;
