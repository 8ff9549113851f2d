//! The Harvest part: spare cycles and storage of primary tenants for batch
//! work (the harvesting paper). Two halves, each in the standard part
//! shape (protocol, host, views, desk, panel, charts):
//!
//! - [`cycles`]: tenants and their patterns, classes, harvestable capacity,
//!   class selection, the §6 task-scheduling simulation;
//! - [`storage`]: the reimage × peak grid, Algorithm 2's placement,
//!   durability and availability (§4.2, §6).
//!
//! What they share is here: the envelope of their messages ([`protocol`]),
//! the tenants and reimages files the worker keeps for both ([`files`]),
//! the Alibaba machine tables that may stand in for the tenants
//! ([`machines`]),
//! the worker host that hands each request to its half ([`host`]), the
//! page state holding both halves' desks ([`desk`]) and the panel laying
//! out both halves' cards ([`panel`]).

pub mod cycles;
pub mod protocol;
pub mod storage;
page_side! {
    pub mod desk;
    pub mod panel;
}
worker_side! {
    pub mod files;
    pub mod host;
    pub mod machines;
}
