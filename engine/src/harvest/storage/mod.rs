//! Harvesting spare storage (the harvesting paper, §3's reimages, §4.2,
//! §5.2, §6's Figures 15–16): where the replicas of a block go so that
//! reimages and busy primaries lose as little as possible, and the
//! simulations that measure it. It builds on [`super::tenants`] (the tenants
//! and their utilization, its scaling).
//!
//! From the bottom: `reimages` (the reimages CSV, the server numbering),
//! `reimage_stats` (Figures 4–6), `reimage_year` (a simulated year);
//! `params` (placement, durability and availability settings, the
//! policies), `tenant` (tenants with space, reimage rate and peak; the
//! cluster), `grid_cells` (Algorithm 2's n × n classes), `placement`
//! (Algorithm 2 and stock HDFS, one block at a time, explained on demand),
//! `placement_run` (many blocks, the diversity checks), `replay` (a year of
//! reimages over one placement), `durability` (Figure 15) and
//! `availability` (Figure 16).
//!
//! This file only declares the files; [`crate::harvest`] re-exports their
//! public names.

pub mod availability;
pub mod durability;
pub mod grid_cells;
pub mod params;
pub mod placement;
pub mod placement_run;
pub mod reimage_stats;
pub mod reimage_year;
pub mod reimages;
pub mod replay;
pub mod tenant;

#[cfg(test)]
mod tests;
