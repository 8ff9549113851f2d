//! Where tuning pays: §4.3 and §4.4 against how much the queues contend
//! (issue 35).
//!
//! The paper's figures — non-best configurations 52.9 % worse than the
//! best, run-time tuning 2.16× better than the static configurations — are
//! each one point of a curve: a configuration matters only where jobs wait
//! for containers that another share would have given them. With little
//! offered load every configuration runs every job at once and all tie;
//! with more queues the grid has more ways to starve one. So the benefit is
//! a function of the mix load (task work over the span, against the
//! containers: [`EvalParams::mix_load`], and §4.4's stream at the same
//! load) and of the queue count, and this grid draws it: each cell is one
//! [`evaluate_on`] of both schedulers at its queue count, on one thread
//! (the sweep runs the cells on every core).
//!
//! Nothing of the mixes' construction moves: a cell sets only the load
//! (both §4.3's and §4.4's) and the queue count of the base [`EvalParams`].

use super::error::TuneError;
use super::evaluate::{evaluate_on, mean, EvalParams, EvalReport};
use crate::csv_cell;
use crate::model::WorkloadJob;
use serde::{Deserialize, Serialize};

/// The grid: the base evaluation, the SWIM jobs its Facebook mixes and
/// §4.4's stream are cut from, and the values of each swept setting.
/// Cells are every combination, loads outermost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContentionSweep {
    /// Everything a cell does not move (windows, mixes, repeats, the
    /// simulation, §4.4's intervals, …).
    pub base: EvalParams,
    /// SWIM jobs (may be empty: Google-like mixes only, no §4.4). Carried
    /// in the sweep so that a cell is a pure function of it.
    pub swim: Vec<WorkloadJob>,
    /// Mix loads: task work over span, as a multiple of the containers.
    pub loads: Vec<f64>,
    /// Queue counts (both schedulers at each).
    pub queues: Vec<usize>,
}

/// SWIM jobs a tuning sweep takes from a history by default (`skyplan
/// sweep tuning FILE --swim-jobs`, the runway's tuning lever): enough for
/// the base's windows and §4.4's stream.
pub const SWEEP_SWIM_JOBS: usize = 240;

/// One cell's measures: the point, then §4.3's and §4.4's figures over
/// both schedulers' cases at it. A figure with nothing to average (every
/// configuration ties, no SWIM stream) is absent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContentionRow {
    /// Mix load (the setting).
    pub load: f64,
    /// Queues (the setting).
    pub queues: usize,
    /// §4.3 cases evaluated.
    pub cases: usize,
    /// Mean latency increase of every non-best configuration over the
    /// best (paper: 52.92 %): how much the configurations differ.
    pub nonbest_increase: Option<f64>,
    /// Share of cases whose pick is the actual best (paper: 87.26 %).
    pub hit_share: Option<f64>,
    /// Share of cases whose pick is within 2 % of the actual best.
    pub within_2pct_share: Option<f64>,
    /// Regret: the mean latency increase of the pick over the actual best,
    /// over every case (0 when always right).
    pub regret: Option<f64>,
    /// A uniformly random pick's expected exact-hit share.
    pub random_hit_share: Option<f64>,
    /// Median Spearman ρ of estimate against simulation over the grid.
    pub median_spearman: Option<f64>,
    /// §4.4: the representative static configurations' mean latency over
    /// run-time tuning's (paper: 2.16×).
    pub reduction: Option<f64>,
    /// §4.4: the best static configuration's over run-time tuning's.
    pub reduction_vs_best: Option<f64>,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl ContentionSweep {
    /// The base evaluation of `skyplan sweep tuning` and of the runway's
    /// tuning lever: smaller than `tune evaluate`'s default (3 SWIM
    /// windows, 6 Google-like mixes, one noise seed, §4.4 at 2 minutes on
    /// 60 jobs) so that a grid of cells runs in minutes and one cell in a
    /// fraction of a second. The studio's Tuning panel writes the same
    /// numbers out as data (its page links no engine function).
    pub fn small_base() -> EvalParams {
        EvalParams {
            facebook_windows: 3,
            google_mixes: 6,
            repeats: 1,
            adapt_minutes: vec![2.0],
            adapt_jobs: 60,
            ..EvalParams::default()
        }
    }

    /// The sweep of `base` on `swim` over `loads` × `queues`.
    pub fn new(
        base: EvalParams,
        swim: Vec<WorkloadJob>,
        loads: Vec<f64>,
        queues: Vec<usize>,
    ) -> Self {
        ContentionSweep {
            base,
            swim,
            loads,
            queues,
        }
    }

    /// Checks the base and every swept value, once, before any cell runs.
    pub fn validate(&self) -> Result<(), TuneError> {
        for (name, len) in [("loads", self.loads.len()), ("queues", self.queues.len())] {
            if len == 0 {
                return Err(TuneError::BadParam {
                    name: name.into(),
                    why: "needs at least one value".into(),
                });
            }
        }
        for k in 0..self.cells() {
            self.params_at(k)?.validate()?;
        }
        Ok(())
    }

    /// Cells in the grid.
    pub fn cells(&self) -> usize {
        self.loads.len() * self.queues.len()
    }

    /// Cell `k`'s load and queue count, or `None` past the last cell.
    pub fn point(&self, k: usize) -> Option<(f64, usize)> {
        (k < self.cells()).then(|| {
            let q = self.queues.len();
            (self.loads[k / q], self.queues[k % q])
        })
    }

    /// The evaluation of cell `k`: the base with its load (§4.3's mixes
    /// and §4.4's stream) and its queue count.
    pub fn params_at(&self, k: usize) -> Result<EvalParams, TuneError> {
        let (load, queues) = self.point(k).ok_or_else(|| TuneError::BadParam {
            name: "cell".into(),
            why: format!("{k} is past the grid's {} cells", self.cells()),
        })?;
        Ok(EvalParams {
            mix_load: load,
            adapt_load: load,
            queue_counts: vec![queues],
            ..self.base.clone()
        })
    }

    /// Runs cell `k` on one thread. A pure function of the sweep and `k`.
    pub fn run_cell(&self, k: usize) -> Result<ContentionRow, TuneError> {
        let p = self.params_at(k)?;
        let report = evaluate_on(&self.swim, &p, 1, &mut |_, _| {})?;
        Ok(ContentionRow::of(p.mix_load, p.queue_counts[0], &report))
    }
}

impl ContentionRow {
    /// The row of one evaluation at `load` and `queues`.
    pub fn of(load: f64, queues: usize, r: &EvalReport) -> Self {
        ContentionRow {
            load,
            queues,
            cases: r.cases.len(),
            nonbest_increase: finite(r.nonbest_increase),
            hit_share: finite(r.hit_share),
            within_2pct_share: finite(r.within_2pct_share),
            regret: finite(mean(
                r.cases.iter().map(|c| c.increase).filter(|v| v.is_finite()),
            )),
            random_hit_share: finite(r.random_hit_share),
            median_spearman: finite(r.median_spearman),
            reduction: finite(r.mean_reduction),
            reduction_vs_best: finite(mean(
                r.adaptation
                    .iter()
                    .map(|a| a.reduction_vs_best)
                    .filter(|v| v.is_finite()),
            )),
        }
    }

    /// The column names of [`ContentionRow::cells`], in order.
    pub const COLUMNS: [&'static str; 11] = [
        "load",
        "queues",
        "cases",
        "nonbest_increase",
        "hit_share",
        "within_2pct_share",
        "regret",
        "random_hit_share",
        "median_spearman",
        "reduction",
        "reduction_vs_best",
    ];

    /// The row as CSV cells, in [`ContentionRow::COLUMNS`] order (numbers
    /// written shortest; an absent figure an empty cell).
    pub fn cells(&self) -> Vec<String> {
        let n = csv_cell::number;
        let o = |x: Option<f64>| x.map(n).unwrap_or_default();
        vec![
            n(self.load),
            self.queues.to_string(),
            self.cases.to_string(),
            o(self.nonbest_increase),
            o(self.hit_share),
            o(self.within_2pct_share),
            o(self.regret),
            o(self.random_hit_share),
            o(self.median_spearman),
            o(self.reduction),
            o(self.reduction_vs_best),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> ContentionSweep {
        let base = EvalParams {
            facebook_windows: 0,
            google_mixes: 2,
            jobs_per_mix: 6,
            repeats: 1,
            ..EvalParams::default()
        };
        ContentionSweep::new(base, Vec::new(), vec![0.5, 3.0], vec![2, 4])
    }

    #[test]
    fn a_cell_is_the_evaluation_at_its_load_and_queue_count() {
        let s = small();
        assert_eq!(s.cells(), 4);
        assert_eq!(s.point(0), Some((0.5, 2)));
        assert_eq!(s.point(1), Some((0.5, 4)));
        assert_eq!(s.point(3), Some((3.0, 4)));
        assert_eq!(s.point(4), None);
        s.validate().expect("valid");
        let row = s.run_cell(3).expect("cell");
        // The same evaluation run directly, with the load and the queue
        // count set by hand.
        let p = EvalParams {
            mix_load: 3.0,
            adapt_load: 3.0,
            queue_counts: vec![4],
            ..s.base.clone()
        };
        let direct = evaluate_on(&[], &p, 1, &mut |_, _| {}).expect("evaluation");
        // Capacity and Fair with 4 queues, 2 Google-like mixes each.
        assert_eq!(row.cases, 4);
        assert_eq!(row, ContentionRow::of(3.0, 4, &direct));
        let regret = direct.cases.iter().map(|c| c.increase).sum::<f64>() / 4.0;
        assert!((row.regret.expect("regret") - regret).abs() < 1e-12);
        // No SWIM: no §4.4.
        assert_eq!(row.reduction, None);
        assert_eq!(row.cells().len(), ContentionRow::COLUMNS.len());
        // Its JSON reads back equal (absent figures included).
        let back: ContentionRow =
            serde_json::from_str(&serde_json::to_string(&row).unwrap()).unwrap();
        assert_eq!(back, row);
    }

    #[test]
    fn bad_grids_are_refused_before_any_cell_runs() {
        let mut s = small();
        s.loads.clear();
        assert!(s.validate().is_err());
        let mut s = small();
        s.loads = vec![f64::NAN];
        assert!(s.validate().is_err());
        let mut s = small();
        s.queues = vec![0];
        assert!(s.validate().is_err());
        assert!(small().run_cell(9).is_err());
    }
}
