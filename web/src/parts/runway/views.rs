//! What the worker sends the Runway panel: the runway of a workspace
//! bundle and its levers, by the calls the report's first section and
//! `skyplan runway` make ([`skyplan_report::runway`]), so the panel shows
//! their numbers. A planner kept between answers
//! ([`skyplan_report::runway::planner`]) answers a change of growth or
//! headroom without re-planning the agenda.
//!
//! Runs in the worker only; the page draws what it gets.

use super::protocol::{LeverView, OutlookView, RunwayView, WarmView};
use crate::toolkit::host::timed;
use skyplan_engine::bundle::Bundle;
use skyplan_engine::runway::{LeverKind, Planner, RunwayParams};

/// Runs one lever request may make (the reservations lever's batch-
/// optimizer runs, the shaping lever's simulated cells): one, so a
/// request of another panel waits for one run (under a second on the
/// demo) rather than for the whole lever (several).
const LEVER_RUNS: usize = 1;

/// A workspace's planner, kept between runs.
pub struct Kept {
    /// The workspace it was made from (its Runway settings left out).
    pub bundle: Bundle,
    /// Its planner, with the sizes re-planned so far.
    pub planner: Planner,
    /// The lever being measured over several requests (runway ticket,
    /// lever) and the worker milliseconds its requests took so far.
    lever_spent: Option<(u32, LeverKind, f64)>,
}

impl Kept {
    /// A planner for `bundle`.
    pub fn new(bundle: Bundle) -> Kept {
        let planner = skyplan_report::runway::planner(&bundle);
        Kept {
            bundle,
            planner,
            lever_spent: None,
        }
    }

    /// The runway under `params`.
    ///
    /// # Errors
    /// The engine's message, one line (bad settings, nothing to plan).
    pub fn runway(
        &mut self,
        ticket: u32,
        params: &RunwayParams,
        redrawn: bool,
    ) -> Result<RunwayView, String> {
        let (runway, millis) = timed(|| self.planner.answer(params));
        Ok(RunwayView {
            ticket,
            params: params.clone(),
            runway: runway.map_err(|e| e.to_string())?,
            millis,
            redrawn,
        })
    }

    /// The outlook under `params`: the dates before the purchase plans
    /// (today's size of each limit re-planned, and kept for the runway).
    ///
    /// # Errors
    /// The engine's message, one line (bad settings, nothing to plan).
    pub fn outlook(&mut self, ticket: u32, params: &RunwayParams) -> Result<OutlookView, String> {
        let (outlook, millis) = timed(|| self.planner.outlook(params));
        Ok(OutlookView {
            ticket,
            params: params.clone(),
            outlook: outlook.map_err(|e| e.to_string())?,
            millis,
        })
    }

    /// One step of the warm-up of the sizes a growth up to `growth_max` %
    /// a month needs under `params` (at most one size re-planned).
    pub fn warm(&mut self, ticket: u32, params: &RunwayParams, growth_max: f64) -> WarmView {
        let (step, millis) = timed(|| self.planner.warm(params, growth_max));
        WarmView {
            ticket,
            step: step.map_err(|e| e.to_string()),
            millis,
        }
    }

    /// Lever `kind`'s row at the grown load of the runway under `params`,
    /// or `Ok(None)` when it needs more runs than one request makes
    /// ([`LEVER_RUNS`]): the page asks again, and the runs
    /// made are kept in the planner. `millis` is the worker time of every
    /// request the row took.
    pub fn lever(&mut self, ticket: u32, params: &RunwayParams, kind: LeverKind) -> LeverView {
        let (lever, millis) = timed(|| {
            skyplan_report::runway::lever_within(
                &self.bundle,
                &mut self.planner,
                params,
                kind,
                LEVER_RUNS,
            )
        });
        let before = match self.lever_spent.take() {
            Some((t, k, spent)) if t == ticket && k == kind => spent,
            _ => 0.0,
        };
        let millis = before + millis;
        if matches!(lever, Ok(None)) {
            self.lever_spent = Some((ticket, kind, millis));
        }
        LeverView {
            ticket,
            which: kind,
            lever,
            millis,
        }
    }
}
