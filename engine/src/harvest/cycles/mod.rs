//! Harvesting spare cycles for batch jobs (the harvesting paper, §4.1,
//! §5.1, §6): which class a job should run in, how much is harvestable,
//! and the task-scheduling simulation of YARN-PT against YARN-H. It builds
//! on [`super::tenants`] (classes, scaling).
//!
//! From the bottom: `dag` (job DAGs from JSON, a job history or
//! `batch_task.csv`; their concurrency by BFS waves, their critical path),
//! `select` (Algorithm 1), `capacity` (class × hour harvestable containers,
//! with Algorithm 1's reserve), `thresholds` (Algorithm 1's short/long
//! thresholds by the paper's rule: each type's demand against its
//! preferred classes' capacity), `workload` (TPC-DS-like DAGs, §6's mix)
//! and `simulate` (§6, one datacenter; its pending task `completions`
//! kept in batches by end time, its servers' `free_cores` with per-class
//! totals, RM-H's default `placement` for requests naming no class), then
//! `figures` (Figures 13–14, many datacenters) and `regime` (one paired
//! run per cell of a grid over size, level, scaling, datacenter: where
//! harvesting pays).
//!
//! This file only declares the files; [`crate::harvest`] re-exports their
//! public names.

pub mod capacity;
mod completions;
mod containers;
pub mod dag;
pub mod figures;
mod free_cores;
pub mod placement;
pub mod regime;
pub mod select;
pub mod simulate;
pub mod thresholds;
pub mod workload;

#[cfg(test)]
mod tests;
