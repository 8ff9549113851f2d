//! The reservation agenda of Morpheus §6–§7: periodic reservations packed on
//! one LCM period by LowCost, one-off reservations on the residual capacity,
//! baselines and lower bounds to compare with, and moves of a reservation
//! within its window with instant feedback. Requests come from SLO
//! decisions ([`requests_from_decisions`]) or from YARN ReservationSystem
//! JSON ([`read_yarn`]); a plan goes back to YARN with [`plan_to_yarn`].

mod baseline;
mod bounds;
mod evaluate;
mod from_slo;
mod landing;
mod lowcost;
mod plan;
mod replay;
mod request;
mod yarn;

pub use bounds::{lower_bounds, LowerBounds};
pub use evaluate::{evaluate, EvalError, EvalParams, EvalReport, Scenario};
pub use from_slo::requests_from_decisions;
pub use plan::{AgendaParams, Method, MovePreview, Placement, Plan, Rejection, Reservation};
pub use replay::{replay, ReplayRun, ReprovisionParams, RunOutcome};
pub use request::{Capacity, Interpreter, Recurrence, ReservationRequest, Stage};
pub use yarn::{
    parse_yarn, plan_to_yarn, read_yarn, yarn_requests, YarnError, YarnReservation, YarnStage,
};

/// Why a plan could not be set up or a request is malformed.
#[derive(Clone, Debug, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum AgendaError {
    /// A setting is out of range.
    #[error("agenda parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A request is malformed.
    #[error("request `{name}`: {why}")]
    Request {
        /// The request.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// No reservation has that id.
    #[error("no reservation with id {0}")]
    NoSuchReservation(u32),
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod yarn_tests;
