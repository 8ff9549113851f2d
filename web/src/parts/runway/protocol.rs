//! The Runway part's messages. Carried by
//! [`crate::protocol::Request::Runway`] and
//! [`crate::protocol::Response::Runway`].

use crate::toolkit::protocol::{Failure, Progress, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::RunwayState;
use skyplan_engine::runway::{Lever, Runway, RunwayParams};

/// What the Runway panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum RunwayRequest {
    /// The runway of the saved workspace under `params` (answered by
    /// [`RunwayResponse::Ready`] or [`RunwayResponse::Failed`], with
    /// [`RunwayResponse::Progress`] between). Only the latest of those
    /// queued runs.
    Run {
        /// The page's ticket, echoed; stale answers are dropped.
        ticket: u32,
        /// The settings.
        params: RunwayParams,
    },
    /// Send the panel's saved settings (answered by
    /// [`RunwayResponse::Restored`]); the page asks once, at start.
    Open,
    /// Save the panel's settings for the next page and the workspace
    /// bundle; no answer.
    Keep(RunwayState),
}

impl RunwayRequest {
    /// A later run supersedes one still queued, a later save another.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            RunwayRequest::Run { .. } => Supersedes::any("runway run"),
            RunwayRequest::Keep(_) => Supersedes::any("runway keep"),
            RunwayRequest::Open => None,
        }
    }
}

/// What the worker tells the Runway panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum RunwayResponse {
    /// The panel's saved settings (the defaults when nothing was saved).
    Restored(RunwayState),
    /// How far a run is: the workspace gathered, the runway, the levers.
    Progress(Progress),
    /// The runway and its levers.
    Ready(Box<RunwayView>),
    /// The workspace could not be read, or the engine refused the
    /// settings (its message).
    Failed(Failure),
}

/// The runway of the workspace and its lever table: the report's
/// `RunwayOutcome`, as it crosses the boundary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunwayView {
    /// The request's ticket.
    pub ticket: u32,
    /// The settings it was made with.
    pub params: RunwayParams,
    /// The runway.
    pub runway: Runway,
    /// One row per lever: reservations, shaping, harvesting, tuning.
    pub levers: Vec<Lever>,
    /// Worker time, milliseconds.
    pub millis: f64,
}
