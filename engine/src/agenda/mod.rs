//! The reservation agenda of Morpheus §6–§7: periodic reservations packed on
//! one LCM period by LowCost, one-off reservations on the residual capacity,
//! baselines and lower bounds to compare with, and moves of a reservation
//! within its window with instant feedback. Requests come from SLO
//! decisions ([`requests_from_decisions`]) or from YARN ReservationSystem
//! JSON ([`read_yarn`]); a plan goes back to YARN with [`plan_to_yarn`].
//!
//! The files are layered and only ever import from lower layers: `request`,
//! `error` and `params` at the bottom; `placement` and `view` (what a
//! placement algorithm gets and gives); the algorithms `lowcost` and
//! `baseline`; `plan`, which dispatches to them by [`Method`]; and above it
//! `bounds`, `replay`, `landing`, `from_slo`, `yarn` and `evaluate`;
//! `capacity` (a plan's capacity sized from its first requests) on
//! `bounds`; `state` (the plan as the studio keeps it, and admission of
//! decisions into it) on `capacity` and `from_slo`. This
//! file only declares them and re-exports the public names.

mod baseline;
mod bounds;
mod capacity;
mod error;
mod evaluate;
mod from_slo;
mod landing;
mod lowcost;
mod optimize;
mod params;
mod placement;
mod plan;
mod replay;
mod request;
mod state;
mod view;
mod yarn;

pub use bounds::{lower_bounds, LowerBounds};
pub use capacity::{
    derived_capacity, SizingError, HEADROOM, LP_MAX_VARS, MB_PER_CORE, REFERENCE_CORES,
};
pub use error::AgendaError;
pub use evaluate::{evaluate, EvalError, EvalParams, EvalReport, Scenario};
pub use from_slo::{of_job, requests_from_decisions};
pub use optimize::{
    batch_fits, optimize_batch, optimize_batch_with_progress, optimize_plan,
    optimize_plan_with_progress, BoundKind, OptimizeError, OptimizeParams, OptimizeProgress,
    OptimizeReport, OptimizeStage, Optimized,
};
pub use params::AgendaParams;
pub use placement::{Placement, Rejection};
pub use plan::{Method, MovePreview, Plan, Reservation};
pub use replay::{replay, ReplayRun, ReprovisionParams, RunOutcome};
pub use request::{Capacity, Interpreter, Recurrence, ReservationRequest, Stage};
pub use state::{day_of, Admission, AgendaState};
pub use yarn::{
    parse_yarn, plan_to_yarn, read_yarn, yarn_requests, YarnError, YarnReservation, YarnStage,
};

#[cfg(test)]
mod greedy_tests;
#[cfg(test)]
mod state_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod yarn_tests;
