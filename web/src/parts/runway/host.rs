//! The Runway part in the worker: gathers the saved workspace into a
//! bundle — the one Save and the report build ([`gather`]) — and keeps a
//! planner for it ([`Kept`]): a run re-plans only when the workspace
//! changed, a redraw (a slider dragged) answers from the kept planner
//! without reading the workspace, each lever is asked on its own, and the
//! sizes the growth slider needs are planned ahead a step at a time.
//! Keeps the panel's settings in the `meta` record `runway`
//! ([`super::saved`]), which the bundle carries.

use super::protocol::{LeverView, RunwayRequest, RunwayResponse, WarmView};
use super::saved::SavedRunway;
use super::views::Kept;
use crate::parts::bundle::host::gather;
use crate::store::PanelRecord;
use crate::toolkit::host::{Ctx, PartHost};
use crate::toolkit::protocol::Failure;
use skyplan_engine::runway::RunwayParams;

/// Steps a run reports: the workspace gathered, its outlook (the dates),
/// then the runway planned.
const STEPS: usize = 3;

/// The Runway part's worker state: the planner of the workspace last
/// gathered.
#[derive(Default)]
pub struct RunwayHost {
    kept: Option<Kept>,
}

impl RunwayHost {
    /// Gathers the workspace (re-planning when it changed) and answers
    /// the runway under `params`: its outlook first, so the dates are on
    /// screen while the purchase plans are re-planned.
    async fn run(&mut self, ctx: &mut Ctx<'_>, ticket: u32, params: &RunwayParams) {
        let mut progress = ctx.progress(ticket, RunwayResponse::Progress);
        progress(0, STEPS);
        let answer = match gather(ctx.store).await {
            Ok(mut bundle) => {
                progress(1, STEPS);
                bundle.runway = None;
                let kept = match self.kept.take() {
                    Some(k) if k.bundle == bundle => k,
                    _ => Kept::new(bundle),
                };
                let kept = self.kept.insert(kept);
                match kept.outlook(ticket, params) {
                    Ok(view) => {
                        ctx.send(RunwayResponse::Outlook(Box::new(view)));
                        progress(2, STEPS);
                        kept.runway(ticket, params, false)
                    }
                    Err(message) => Err(message),
                }
            }
            Err(e) => Err(format!("the workspace could not be read: {e}")),
        };
        ctx.send(match answer {
            Ok(view) => RunwayResponse::Ready(Box::new(view)),
            Err(message) => RunwayResponse::Failed(Failure::new(ticket, message)),
        });
    }
}

impl PartHost for RunwayHost {
    type Request = RunwayRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: RunwayRequest) {
        match request {
            RunwayRequest::Run { ticket, params } => self.run(ctx, ticket, &params).await,
            RunwayRequest::Redraw { ticket, params } => match self.kept.as_mut() {
                Some(kept) => ctx.send(match kept.runway(ticket, &params, true) {
                    Ok(view) => RunwayResponse::Ready(Box::new(view)),
                    Err(message) => RunwayResponse::Failed(Failure::new(ticket, message)),
                }),
                None => self.run(ctx, ticket, &params).await,
            },
            RunwayRequest::Lever {
                ticket,
                params,
                lever,
            } => {
                let view = match self.kept.as_mut() {
                    Some(kept) => kept.lever(ticket, &params, lever),
                    None => LeverView {
                        ticket,
                        which: lever,
                        lever: Err("no runway planned in this worker yet".into()),
                        millis: 0.0,
                    },
                };
                ctx.send(RunwayResponse::Lever(Box::new(view)));
            }
            RunwayRequest::Warm {
                ticket,
                params,
                growth_max,
            } => {
                let view = match self.kept.as_mut() {
                    Some(kept) => kept.warm(ticket, &params, growth_max),
                    None => WarmView {
                        ticket,
                        step: Err("no runway planned in this worker yet".into()),
                        millis: 0.0,
                    },
                };
                ctx.send(RunwayResponse::Warmed(view));
            }
            RunwayRequest::Open => {
                let saved = ctx.read_record::<SavedRunway>().await;
                ctx.send(RunwayResponse::Restored(
                    saved.map(PanelRecord::into_state).unwrap_or_default(),
                ));
            }
            RunwayRequest::Keep(state) => {
                ctx.write_record(&SavedRunway::of_state(state)).await;
            }
        }
    }
}
