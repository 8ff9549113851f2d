//! The Forecast part in the worker: forecasts a loaded utilization series
//! by every method and times the work.

use super::protocol::{ForecastRequest, ForecastResponse};
use super::views::forecast_view;
use crate::protocol::{now_ms, Response};
use skyplan_engine::Workspace;

/// Answers one request of the forecast view.
pub fn handle(workspace: &Workspace, request: ForecastRequest, post: &dyn Fn(&Response)) {
    let ForecastRequest::Run {
        ticket,
        index,
        settings,
    } = request;
    let t0 = now_ms();
    let response = match forecast_view(workspace, ticket, index, &settings) {
        Ok(mut view) => {
            view.millis = now_ms() - t0;
            ForecastResponse::Ready(Box::new(view))
        }
        Err(message) => ForecastResponse::Failed { ticket, message },
    };
    post(&Response::Forecast(response));
}
