//! The Forecast part in the worker: forecasts a loaded utilization series
//! by every method and times the work.

use super::protocol::{ForecastRequest, ForecastResponse};
use super::views::forecast_view;
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::Failure;

/// The Forecast part's worker state: none, every run starts afresh.
#[derive(Default)]
pub struct ForecastHost;

impl PartHost for ForecastHost {
    type Request = ForecastRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: ForecastRequest) {
        let ForecastRequest::Run {
            ticket,
            index,
            settings,
        } = request;
        let (view, millis) = timed(|| forecast_view(ctx.workspace(), ticket, index, &settings));
        ctx.send(match view {
            Ok(mut view) => {
                view.millis = millis;
                ForecastResponse::Ready(Box::new(view))
            }
            Err(message) => ForecastResponse::Failed(Failure::new(ticket, message)),
        });
    }
}
