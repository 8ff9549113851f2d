//! Figures 13 and 14 of §6: the job-time improvement of YARN-H over
//! YARN-PT across the primary-utilization spectrum, per datacenter and
//! scaling (linear and n-th root). Every (datacenter, scaling, level) is
//! one independent piece of work — its clustering, thresholds and seeded
//! runs of both systems ([`super::simulate::simulate_serial`]) — so they go
//! to [`crate::parallel`] whole; the results do not depend on the thread
//! count.

use super::dag::JobDag;
use super::simulate::{paper_figures, simulate_serial, LevelResult, PaperFigures, SimParams};
use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::scaling::Scaling;
use crate::harvest::tenants::tenant::TenantSet;
use crate::numerics::MinAvgMax;
use serde::{Deserialize, Serialize};

/// One datacenter under one scaling: Figure 13's curves, one bar of
/// Figure 14.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatacenterFigure {
    /// The datacenter's name.
    pub datacenter: String,
    /// Its servers.
    pub servers: usize,
    /// Its tenants.
    pub tenants: usize,
    /// The scaling.
    pub scaling: Scaling,
    /// Per level: both systems, the improvement, branches, thresholds.
    pub levels: Vec<LevelResult>,
    /// Over the levels, the levels' average improvements (Figure 14's
    /// minimum, average and maximum), percent.
    pub improvement: MinAvgMax,
}

/// Every datacenter under every scaling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FiguresReport {
    /// Datacenter-major, scalings in the order given.
    pub figures: Vec<DatacenterFigure>,
    /// The paper's numbers.
    pub paper: PaperFigures,
}

/// Runs every datacenter of `dcs` (name, tenants) under every scaling of
/// `scalings` at `p`'s levels and runs, with `dags` as the job mix and
/// `p.threads` threads; `progress(done, total)` after each level.
pub fn figures(
    dcs: &[(String, TenantSet)],
    dags: &[JobDag],
    scalings: &[Scaling],
    p: &SimParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<FiguresReport, HarvestError> {
    check(!dcs.is_empty(), "datacenters", "none to simulate")?;
    check(!scalings.is_empty(), "scalings", "none given")?;
    p.validate()?;
    let mut work = Vec::new();
    for d in 0..dcs.len() {
        for &scaling in scalings {
            for &level in &p.levels {
                work.push((d, scaling, level));
            }
        }
    }
    let results = crate::parallel::map_jobs(
        &work,
        p.threads,
        || (),
        |_, &(d, scaling, level)| {
            let q = SimParams {
                scaling,
                levels: vec![level],
                ..p.clone()
            };
            simulate_serial(&dcs[d].1, dags, &q)
        },
        progress,
    );
    let mut results = results.into_iter();
    let mut figures = Vec::new();
    for (name, set) in dcs {
        for &scaling in scalings {
            let mut levels = Vec::new();
            for _ in &p.levels {
                if let Some(r) = results.next() {
                    levels.extend(r?.levels);
                }
            }
            let avgs: Vec<f64> = levels.iter().map(|l| l.improvement.avg).collect();
            figures.push(DatacenterFigure {
                datacenter: name.clone(),
                servers: set.servers(),
                tenants: set.tenants.len(),
                scaling,
                improvement: MinAvgMax::of(&avgs),
                levels,
            });
        }
    }
    Ok(FiguresReport {
        figures,
        paper: paper_figures(),
    })
}
