//! What the worker sends the Runway panel: the runway and the lever table
//! of a workspace bundle, by the one call the report's first section and
//! `skyplan runway` make ([`skyplan_report::runway::outcome`]), so the
//! panel shows their numbers.
//!
//! Runs in the worker only; the page draws what it gets.

use super::protocol::RunwayView;
use skyplan_engine::bundle::Bundle;
use skyplan_engine::runway::RunwayParams;

/// The runway of `bundle` under `params`.
///
/// # Errors
/// The engine's message, one line (bad settings, nothing to plan).
pub fn runway_view(
    bundle: &Bundle,
    ticket: u32,
    params: &RunwayParams,
) -> Result<RunwayView, String> {
    let o = skyplan_report::runway::outcome(bundle, Some(params))?;
    Ok(RunwayView {
        ticket,
        params: o.params,
        runway: o.runway,
        levers: o.levers,
        millis: 0.0,
    })
}
