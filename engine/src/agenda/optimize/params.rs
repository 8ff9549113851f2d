//! The batch optimizer's settings, what it reports, and why it can fail.
//! The bottom of the optimizer: it imports nothing of it.

use serde::{Deserialize, Serialize};

/// Settings of the batch optimizer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OptimizeParams {
    /// Most improvement moves (remove one reservation, re-place it at its
    /// best position against the rest) over the whole run. The search is
    /// deterministic: moves, not a clock, bound its time.
    pub max_moves: usize,
    /// Moves tried at one target peak before the search gives up lowering it.
    pub level_moves: usize,
    /// Share of moves that shift a reservation at random inside its window
    /// instead of to its best position (escapes plateaus).
    pub noise: f64,
    /// Largest LP relaxation (variables) solved exactly per step; larger
    /// plans get the same LP on coarser time buckets (a weaker, still valid
    /// bound).
    pub lp_max_vars: usize,
    /// Largest exact integer program (binary variables) run by branch and
    /// bound, when every request has a fixed shape; 0 never runs it.
    pub ip_max_vars: usize,
    /// Branch-and-bound nodes the integer program may use. 20: on the
    /// ten 40-request benchmark batches 80 nodes never changed a peak and
    /// tightened three bounds by at most 4 containers, at 2–4× the time
    /// (the worst batch went over the browser's 1 s goal); see
    /// BENCHMARKS.md.
    pub ip_node_limit: u64,
    /// Seed of the search's random choices.
    pub seed: u64,
}

impl Default for OptimizeParams {
    fn default() -> Self {
        OptimizeParams {
            max_moves: 40_000,
            level_moves: 4_000,
            noise: 0.1,
            lp_max_vars: 4_000,
            ip_max_vars: 1_500,
            ip_node_limit: 20,
            seed: 1,
        }
    }
}

impl OptimizeParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), OptimizeError> {
        let bad = |name: &'static str, why: &str| {
            Err(OptimizeError::Param {
                name,
                why: why.into(),
            })
        };
        if self.level_moves == 0 {
            return bad("level_moves", "must be positive");
        }
        if !(self.noise.is_finite() && (0.0..1.0).contains(&self.noise)) {
            return bad("noise", "must be in [0, 1)");
        }
        Ok(())
    }
}

/// Where the certified lower bound comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoundKind {
    /// The integer program ran to optimality: the plan is optimal.
    Exact,
    /// The integer program's best bound after its node budget.
    IntegerProgram,
    /// The LP relaxation per step (fixed-shape requests by start time,
    /// others as work spread within their windows).
    Lp,
    /// The LP relaxation on time buckets (too many variables per step).
    BucketLp,
    /// A single request's gang, or the area, when no LP could be solved.
    Simple,
}

/// What an optimization gives, next to where it started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimizeReport {
    /// Peak cost of the optimized plan.
    pub peak: f64,
    /// Peak cost of the start: LowCost in the given order (a batch) or the
    /// plan as it was.
    pub start_peak: f64,
    /// Certified lower bound on the peak of any placement of the same
    /// requests around the locked reservations.
    pub lower_bound: f64,
    /// Where the bound comes from.
    pub bound: BoundKind,
    /// `peak / lower_bound − 1`: the plan is at most this far above the
    /// optimum.
    pub gap: f64,
    /// Reservations the optimizer was free to move.
    pub unlocked: usize,
    /// Reservations it left where they were.
    pub locked: usize,
    /// Reservations whose placement changed.
    pub moved: usize,
    /// Improvement moves made.
    pub moves: usize,
}

/// What the optimizer is doing, for a progress bar: the stages in order,
/// and the moves made while searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OptimizeStage {
    /// Building the starting plans (LowCost, largest first).
    Start,
    /// Solving the LP relaxation for the lower bound.
    Bound,
    /// Improvement moves towards the bound.
    Search,
    /// The integer program (small plans of fixed-shape requests).
    IntegerProgram,
    /// Finished.
    Done,
}

/// One progress report of the optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimizeProgress {
    /// The stage reached.
    pub stage: OptimizeStage,
    /// Improvement moves made so far.
    pub moves: usize,
    /// The most moves the search may make ([`OptimizeParams::max_moves`]).
    pub max_moves: usize,
}

impl OptimizeProgress {
    /// A share of the run in `[0, 1]` for a bar. The stages' shares are
    /// rough (the search usually stops at the bound long before its move
    /// budget, and the bar then jumps ahead); the stage name says the rest.
    pub fn fraction(&self) -> f64 {
        match self.stage {
            OptimizeStage::Start => 0.0,
            OptimizeStage::Bound => 0.1,
            OptimizeStage::Search => {
                0.3 + 0.5 * (self.moves as f64 / self.max_moves.max(1) as f64).min(1.0)
            }
            OptimizeStage::IntegerProgram => 0.85,
            OptimizeStage::Done => 1.0,
        }
    }
}

/// Why a batch could not be optimized.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum OptimizeError {
    /// A setting is out of range.
    #[error("optimize parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A request is malformed or does not fit the plan's frame.
    #[error("{0}")]
    Request(String),
    /// The batch does not fit the capacity: no placement found puts this
    /// request without exceeding it.
    #[error("request `{name}` cannot fit: {reason}")]
    Infeasible {
        /// The request that cannot fit.
        name: String,
        /// Why, in words.
        reason: String,
    },
    /// A locked id names no reservation.
    #[error("no reservation with id {0}")]
    NoSuchReservation(u32),
}
