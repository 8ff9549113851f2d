//! Batch optimization of the agenda: place many requests (or re-place a
//! plan's unlocked reservations) together so the peak cost is as low as
//! can be found, with a certified lower bound and gap.
//!
//! LowCost places requests one at a time and never moves them; on a batch
//! that leaves 15–60 % above the optimum. The optimizer starts from
//! LowCost's plan, improves it by min-conflicts moves (remove a reservation
//! on a step above a falling target peak, re-place it at its exact best
//! position when it has a fixed shape), bounds the optimum below by an LP
//! relaxation of a time-indexed model, and, for small plans of fixed-shape
//! requests, runs that model as an integer program (`microlp`, pure Rust,
//! runs in the browser) warm-started from the search.
//!
//! Files, from the bottom: `params` (settings, report, errors), `item`
//! (what moves and the board it moves on), `search` (the moves), `bound`
//! (LP bound and integer program), `batch` (the entry points).

mod batch;
mod bound;
mod item;
mod params;
mod search;

pub use batch::{
    batch_fits, optimize_batch, optimize_batch_with_progress, optimize_plan,
    optimize_plan_with_progress, Optimized,
};
pub use params::{
    BoundKind, OptimizeError, OptimizeParams, OptimizeProgress, OptimizeReport, OptimizeStage,
};

#[cfg(test)]
mod tests;
