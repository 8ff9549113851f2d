//! Quality of a reservation skyline against a job's history (Morpheus Fig. 9b
//! and §5): how much it over- and under-allocates, its area relative to what
//! the runs used, and how many runs would have finished on it alone.

use super::history::quantize;
use super::params::Variant;
use crate::model::{JobRun, Skyline};
use crate::numerics::stats::percentile;
use serde::{Deserialize, Serialize};

/// Quality figures of one reservation against a job's history runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    /// Average over runs of the container-hours reserved but unused.
    pub over_allocation_ch: f64,
    /// Average over runs of the container-hours still owed at the end of the
    /// reservation (eventual under-allocation, catch-up allowed).
    pub under_allocation_ch: f64,
    /// Average over runs of the instantaneous shortfall, container-hours.
    pub instantaneous_under_ch: f64,
    /// Reserved area over the average area the runs used (1 is ideal).
    pub area_ratio: f64,
    /// Share of runs whose work fits in the reservation by its end (no debt).
    pub completion_share: f64,
    /// Peak of the reservation, containers.
    pub peak: f64,
    /// Reserved container-hours.
    pub area_ch: f64,
}

/// Evaluates `reservation` against `runs`, both on the reservation's step.
pub fn quality(reservation: &Skyline, runs: &[&JobRun]) -> Quality {
    let step = reservation.step_secs.max(1);
    let hours = f64::from(step) / 3600.0;
    let r = &reservation.containers;
    let (mut over, mut debt_sum, mut inst, mut used, mut finished) = (0.0, 0.0, 0.0, 0.0, 0usize);
    for run in runs {
        let c = quantize(&run.skyline, step, Variant::Paper);
        let k = c.len().max(r.len());
        let mut d = 0.0f64;
        for i in 0..k {
            let ci = c.get(i).copied().unwrap_or(0.0);
            let ri = r.get(i).copied().unwrap_or(0.0);
            over += (ri - ci).max(0.0);
            inst += (ci - ri).max(0.0);
            d = (d + ci - ri).max(0.0);
        }
        used += c.iter().sum::<f64>();
        debt_sum += d;
        if d <= 1e-6 {
            finished += 1;
        }
    }
    let n = runs.len().max(1) as f64;
    let area: f64 = r.iter().sum();
    Quality {
        over_allocation_ch: over / n * hours,
        under_allocation_ch: debt_sum / n * hours,
        instantaneous_under_ch: inst / n * hours,
        area_ratio: if used > 0.0 {
            area / (used / n)
        } else {
            f64::INFINITY
        },
        completion_share: finished as f64 / n,
        peak: reservation.peak(),
        area_ch: area * hours,
    }
}

/// The largest container count any run used, reserved for the longest run:
/// what a cautious user provisions by hand.
pub fn peak_reservation(runs: &[&JobRun], step: u32) -> Skyline {
    let rows: Vec<Vec<f64>> = runs
        .iter()
        .map(|r| quantize(&r.skyline, step, Variant::Hadoop))
        .collect();
    let k = rows.iter().map(Vec::len).max().unwrap_or(0);
    let peak = rows.iter().flatten().copied().fold(0.0, f64::max);
    Skyline::new(step, vec![peak; k])
}

/// A flat reservation at the `p`-th percentile of the per-step usage of all
/// runs while they run, as a Kubernetes VPA-style recommender gives (its
/// target is the 90th percentile), for the longest run.
pub fn flat_percentile(runs: &[&JobRun], step: u32, p: f64) -> Skyline {
    let rows: Vec<Vec<f64>> = runs
        .iter()
        .map(|r| quantize(&r.skyline, step, Variant::Paper))
        .collect();
    let k = rows.iter().map(Vec::len).max().unwrap_or(0);
    let samples: Vec<f64> = rows.into_iter().flatten().collect();
    let level = percentile(&samples, p).unwrap_or(0.0);
    Skyline::new(step, vec![level; k])
}
