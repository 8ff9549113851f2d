//! Harvestable capacity — beyond the paper, what a planner asks first: per
//! class and hour of day, the containers batch work can have with the
//! primary's reserve kept, from the class's history: in every slot, per
//! server the cores left after the primary's usage (rounded up to whole
//! cores, as NM-H reports it) and the reserve, over the class's servers;
//! then per hour of day the mean over the history's slots and a low
//! percentile (what is there on all but the worst days).

use super::select::SelectParams;
use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::classify::Classification;
use serde::{Deserialize, Serialize};

/// Settings of [`capacity`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CapacityParams {
    /// The low percentile (default 10).
    pub percentile: f64,
    /// Reserve and container size (the selection's, default 4 cores kept,
    /// 1-core containers).
    pub select: SelectParams,
}

impl Default for CapacityParams {
    fn default() -> Self {
        CapacityParams {
            percentile: 10.0,
            select: SelectParams::default(),
        }
    }
}

/// One class's row of the matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassCapacity {
    /// Class id.
    pub class: String,
    /// Servers.
    pub servers: usize,
    /// Mean harvestable containers per hour of day (24, UTC).
    pub mean: Vec<f64>,
    /// The low percentile per hour of day (24).
    pub low: Vec<f64>,
}

/// The class × hour matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapacityMatrix {
    /// The low percentile used.
    pub percentile: f64,
    /// One row per class, in the classification's order.
    pub classes: Vec<ClassCapacity>,
}

/// Harvestable containers of `servers` servers of `cores` cores at
/// utilization `u` percent.
pub fn harvestable(u: f64, servers: usize, cores: f64, p: &SelectParams) -> f64 {
    let used = (u / 100.0 * cores - 1e-9).ceil().max(0.0);
    let free = (cores - used - p.reserved_cores).max(0.0);
    (servers as f64 * free / p.container_cores).floor()
}

/// The matrix of a classification.
pub fn capacity(c: &Classification, p: &CapacityParams) -> Result<CapacityMatrix, HarvestError> {
    check(
        (0.0..=100.0).contains(&p.percentile),
        "percentile",
        "must be in [0, 100]",
    )?;
    p.select.validate()?;
    let mut classes = Vec::new();
    for class in &c.classes {
        check(
            class.utilization.len() == c.slots,
            "classes",
            "carry no utilization (a deserialized classification): classify again",
        )?;
        let cores = class.cores / class.servers.max(1) as f64;
        let mut by_hour: Vec<Vec<f64>> = vec![Vec::new(); 24];
        for (i, &u) in class.utilization.iter().enumerate() {
            let h = ((c.start + i as i64 * c.step_secs).rem_euclid(86_400) / 3600) as usize;
            by_hour[h].push(harvestable(u, class.servers, cores, &p.select));
        }
        let mut mean = Vec::with_capacity(24);
        let mut low = Vec::with_capacity(24);
        for v in &by_hour {
            mean.push(crate::numerics::stats::mean(v));
            low.push(crate::numerics::stats::percentile(v, p.percentile).unwrap_or(0.0));
        }
        classes.push(ClassCapacity {
            class: class.id.clone(),
            servers: class.servers,
            mean,
            low,
        });
    }
    Ok(CapacityMatrix {
        percentile: p.percentile,
        classes,
    })
}
