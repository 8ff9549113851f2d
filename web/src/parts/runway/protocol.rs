//! The Runway part's messages. Carried by
//! [`crate::protocol::Request::Runway`] and
//! [`crate::protocol::Response::Runway`].

use crate::toolkit::protocol::{Failure, Progress, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::RunwayState;
use skyplan_engine::runway::{Lever, LeverKind, Outlook, Runway, RunwayParams, WarmStep};

/// What the Runway panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum RunwayRequest {
    /// The runway of the saved workspace under `params` (answered by
    /// [`RunwayResponse::Ready`] or [`RunwayResponse::Failed`], with
    /// [`RunwayResponse::Progress`] and the [`RunwayResponse::Outlook`]
    /// between): the workspace gathered, and planned afresh when it
    /// changed since the planner kept. Only the latest of those queued
    /// runs.
    Run {
        /// The page's ticket, echoed; stale answers are dropped.
        ticket: u32,
        /// The settings.
        params: RunwayParams,
    },
    /// The runway under `params` from the planner kept by the last run,
    /// the workspace not read again: a change of growth or headroom while
    /// dragging, answered without re-planning the agenda. A run when no
    /// planner is kept. Only the latest of those queued runs.
    Redraw {
        /// The page's ticket, echoed; stale answers are dropped.
        ticket: u32,
        /// The settings.
        params: RunwayParams,
    },
    /// One lever's row at the grown load of the runway under `params`,
    /// from the planner kept (answered by [`RunwayResponse::Lever`]). The
    /// page asks the levers one at a time, so other panels are answered
    /// between them.
    Lever {
        /// The ticket of the runway the lever belongs to.
        ticket: u32,
        /// The settings of that runway.
        params: RunwayParams,
        /// Which lever.
        lever: LeverKind,
    },
    /// Re-plan at most one more size the growth slider would need, up to
    /// `growth_max` % a month, on the planner kept (answered by
    /// [`RunwayResponse::Warmed`]): asked one at a time while the panel is
    /// idle, so a later first drag of the growth finds its sizes planned
    /// and other panels are answered between the steps.
    Warm {
        /// The ticket of the runway whose settings are warmed.
        ticket: u32,
        /// The settings of that runway (its growth not read).
        params: RunwayParams,
        /// The growth slider's largest value, % a month.
        growth_max: f64,
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
            RunwayRequest::Redraw { .. } => Supersedes::any("runway redraw"),
            RunwayRequest::Lever { lever, .. } => Supersedes::same("runway lever", lever.name()),
            RunwayRequest::Keep(_) => Supersedes::any("runway keep"),
            RunwayRequest::Warm { .. } => Supersedes::any("runway warm"),
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
    /// How far a run is: the workspace gathered, its outlook, the runway.
    Progress(Progress),
    /// A run's dates before its purchase plans, which take a re-planned
    /// size a machine added: shown while those are planned.
    Outlook(Box<OutlookView>),
    /// The runway.
    Ready(Box<RunwayView>),
    /// One lever's row, or why it could not be measured.
    Lever(Box<LeverView>),
    /// How far the sizes for the growth slider are planned.
    Warmed(WarmView),
    /// The workspace could not be read, or the engine refused the
    /// settings (its message).
    Failed(Failure),
}

/// The runway of the workspace: the report's `RunwayOutcome` without its
/// lever table, which comes a lever at a time ([`LeverView`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunwayView {
    /// The request's ticket.
    pub ticket: u32,
    /// The settings it was made with.
    pub params: RunwayParams,
    /// The runway.
    pub runway: Runway,
    /// Worker time, milliseconds.
    pub millis: f64,
    /// Answered from the kept planner, the workspace not read again.
    pub redrawn: bool,
}

/// The outlook of a run, its purchase plans still being planned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutlookView {
    /// The request's ticket.
    pub ticket: u32,
    /// The settings it was made with.
    pub params: RunwayParams,
    /// The dates, the binding limit, its demand against today's capacity.
    pub outlook: Outlook,
    /// Worker time, milliseconds.
    pub millis: f64,
}

/// One lever's row, as it crosses the boundary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeverView {
    /// The ticket of the runway it belongs to.
    pub ticket: u32,
    /// Which lever (not `kind`: the name of [`crate::protocol::Response`]'s
    /// tag, which a field of the same name would overwrite).
    pub which: LeverKind,
    /// Its row; `None` while it needs more runs (the batch optimizer's,
    /// the shaping cells') than one request makes (the page asks again: requests of other panels are
    /// answered in between); or the engine's line.
    pub lever: Result<Option<Lever>, String>,
    /// Worker time, milliseconds (of every request the row took).
    pub millis: f64,
}

/// One step of the warm-up of the growth slider's sizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WarmView {
    /// The ticket of the runway it belongs to.
    pub ticket: u32,
    /// How far it got, or the engine's line.
    pub step: Result<WarmStep, String>,
    /// Worker time, milliseconds.
    pub millis: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Request, Response};
    use skyplan_engine::runway::Lever;

    /// `message` written and read back as the protocol's outer enum does
    /// (a field named like its tag would be overwritten).
    fn round_trip<T: Serialize + serde::de::DeserializeOwned>(message: &T) -> T {
        let json = serde_json::to_string(message).expect("written");
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    #[test]
    fn lever_asks_and_answers_cross_the_boundary() {
        let ask = Request::Runway(RunwayRequest::Lever {
            ticket: 3,
            params: RunwayParams::default(),
            lever: LeverKind::Harvesting,
        });
        assert_eq!(round_trip(&ask), ask);
        for lever in [
            Ok(Some(Lever {
                name: "reservations".into(),
                machines: Some(2.0),
                days: Some(31),
                pays: true,
                cost: None,
                detail: "figures".into(),
            })),
            Ok(None),
            Err("why".into()),
        ] {
            let answer = Response::Runway(RunwayResponse::Lever(Box::new(LeverView {
                ticket: 3,
                which: LeverKind::Reservations,
                lever,
                millis: 1.5,
            })));
            assert_eq!(round_trip(&answer), answer);
        }
    }

    #[test]
    fn warm_asks_and_answers_cross_the_boundary() {
        let ask = Request::Runway(RunwayRequest::Warm {
            ticket: 4,
            params: RunwayParams::default(),
            growth_max: 30.0,
        });
        assert_eq!(round_trip(&ask), ask);
        for step in [
            Ok(WarmStep {
                computed: 1,
                kept: 7,
                reach: 3,
                done: false,
            }),
            Err("why".into()),
        ] {
            let answer = Response::Runway(RunwayResponse::Warmed(WarmView {
                ticket: 4,
                step,
                millis: 2.5,
            }));
            assert_eq!(round_trip(&answer), answer);
        }
    }

    #[test]
    fn an_outlook_crosses_the_boundary() {
        use skyplan_engine::runway::{ChartDay, Cluster, LimitRunway};
        let answer = Response::Runway(RunwayResponse::Outlook(Box::new(OutlookView {
            ticket: 5,
            params: RunwayParams::default(),
            outlook: Outlook {
                today: 86_400,
                horizon_days: 1,
                binding: Some("agenda".into()),
                limits: vec![LimitRunway {
                    name: "agenda".into(),
                    description: "the agenda".into(),
                    p10: Some(86_400),
                    p50: None,
                    p90: None,
                    largest_growth: Some(0.68),
                    extrapolated: false,
                    model: "by hand".into(),
                }],
                cluster: Cluster {
                    machines: 24,
                    cores: Some(96.0),
                    machine_cores: None,
                },
                evidence: None,
                chart: vec![ChartDay {
                    date: 86_400,
                    p10: 1.0,
                    p50: 1.0,
                    p90: 1.1,
                    capacity_today: Some(0.68),
                    capacity_planned: None,
                }],
                notes: vec!["agenda: already reached today".into()],
            },
            millis: 130.0,
        })));
        assert_eq!(round_trip(&answer), answer);
    }
}
