//! The recommendation, beyond the paper: for a target failure rate, the
//! (K1, K2) of the grid with the best turnaround among the cells that meet
//! it (ties: less memory slack, then the larger K1 — more guaranteed).
//! When no cell meets the target, the cell with the fewest failures is
//! returned, flagged. The cell carries what the choice costs: crashes and
//! resubmissions per application, the share run unshaped after the crash
//! limit, and the worst-off applications' (p99) slowdown against their own
//! baseline turnaround.

use super::metrics::GridCell;
use super::params::Predictor;
use serde::{Deserialize, Serialize};

/// The recommended cell for one forecaster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// The forecaster.
    pub predictor: Predictor,
    /// The target (% of applications failing at least once).
    pub target_failed_pct: f64,
    /// Whether the cell meets the target.
    pub meets_target: bool,
    /// The cell.
    pub cell: GridCell,
}

/// The recommendation among `cells` of `predictor`, `None` when it has
/// none.
pub fn recommend(
    cells: &[GridCell],
    predictor: Predictor,
    target_failed_pct: f64,
) -> Option<Recommendation> {
    let mine: Vec<&GridCell> = cells
        .iter()
        .filter(|c| c.predictor == predictor && c.turnaround_ratio.is_finite())
        .collect();
    let meeting: Vec<&GridCell> = mine
        .iter()
        .copied()
        .filter(|c| c.failed_apps_pct <= target_failed_pct)
        .collect();
    let better = |a: &&GridCell, b: &&GridCell| {
        a.turnaround_ratio
            .total_cmp(&b.turnaround_ratio)
            .then(b.slack_mem_pct.total_cmp(&a.slack_mem_pct))
            .then(a.k1.total_cmp(&b.k1))
    };
    if let Some(best) = meeting.iter().copied().max_by(better) {
        return Some(Recommendation {
            predictor,
            target_failed_pct,
            meets_target: true,
            cell: best.clone(),
        });
    }
    mine.iter()
        .copied()
        .min_by(|a, b| {
            a.failed_apps_pct
                .total_cmp(&b.failed_apps_pct)
                .then(b.turnaround_ratio.total_cmp(&a.turnaround_ratio))
        })
        .map(|c| Recommendation {
            predictor,
            target_failed_pct,
            meets_target: false,
            cell: c.clone(),
        })
}
