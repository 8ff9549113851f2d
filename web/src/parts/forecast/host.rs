//! The Forecast part in the worker: forecasts a loaded utilization series
//! by every method and times the work; keeps the card's settings, series
//! and band in the `meta` record `forecast` ([`super::saved`]).

use super::protocol::{ForecastRequest, ForecastResponse};
use super::saved::SavedForecast;
use super::views::forecast_view;
use crate::store::PanelRecord;
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::Failure;

/// The Forecast part's worker state: none, every run starts afresh and
/// the card's state is read from and written to its record.
#[derive(Default)]
pub struct ForecastHost;

impl PartHost for ForecastHost {
    type Request = ForecastRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: ForecastRequest) {
        match request {
            ForecastRequest::Run {
                ticket,
                index,
                settings,
            } => {
                let (view, millis) =
                    timed(|| forecast_view(ctx.workspace(), ticket, index, &settings));
                ctx.send(match view {
                    Ok(mut view) => {
                        view.millis = millis;
                        ForecastResponse::Ready(Box::new(view))
                    }
                    Err(message) => ForecastResponse::Failed(Failure::new(ticket, message)),
                });
            }
            ForecastRequest::Open => {
                let saved = ctx.read_record::<SavedForecast>().await;
                ctx.send(ForecastResponse::Restored(
                    saved.map(PanelRecord::into_state).unwrap_or_default(),
                ));
            }
            ForecastRequest::Keep(state) => {
                ctx.write_record(&SavedForecast::of_state(state)).await;
            }
        }
    }
}
