//! The Runway part in the worker: gathers the saved workspace into a
//! bundle — the one Save and the report build ([`gather`]) — and plans its
//! runway; keeps the panel's settings in the `meta` record `runway`
//! ([`super::saved`]), which the bundle carries.

use super::protocol::{RunwayRequest, RunwayResponse};
use super::saved::SavedRunway;
use super::views::runway_view;
use crate::parts::bundle::host::gather;
use crate::store::PanelRecord;
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::Failure;

/// Steps a run reports: the workspace gathered, then the runway planned.
const STEPS: usize = 2;

/// The Runway part's worker state: none, every run plans afresh from the
/// saved workspace and the settings are read from and written to the
/// record.
#[derive(Default)]
pub struct RunwayHost;

impl PartHost for RunwayHost {
    type Request = RunwayRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: RunwayRequest) {
        match request {
            RunwayRequest::Run { ticket, params } => {
                let mut progress = ctx.progress(ticket, RunwayResponse::Progress);
                progress(0, STEPS);
                let answer = match gather(ctx.store).await {
                    Ok(mut bundle) => {
                        progress(1, STEPS);
                        bundle.runway = None;
                        let (view, millis) = timed(|| runway_view(&bundle, ticket, &params));
                        view.map(|mut v| {
                            v.millis = millis;
                            v
                        })
                    }
                    Err(e) => Err(format!("the workspace could not be read: {e}")),
                };
                ctx.send(match answer {
                    Ok(view) => RunwayResponse::Ready(Box::new(view)),
                    Err(message) => RunwayResponse::Failed(Failure::new(ticket, message)),
                });
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
