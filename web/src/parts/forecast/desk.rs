//! The forecast view's state: the settings as typed, the latest forecasts,
//! the method whose band is drawn, and what is in flight. Runs are
//! ticketed: an answer to anything but the latest request is dropped.

use super::protocol::{ForecastRequest, ForecastResponse, ForecastSettings, ForecastView};
use crate::page::Page;
use crate::protocol::Request;
use leptos::prelude::*;
use skyplan_engine::forecast::ForecastMethod;

/// The forecast form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ForecastForm {
    /// History window h.
    pub window: String,
    /// Latest N patterns.
    pub latest: String,
    /// Steps ahead.
    pub horizon: String,
    /// Rolling origins.
    pub origins: String,
}

impl Default for ForecastForm {
    fn default() -> Self {
        let s = ForecastSettings::default();
        ForecastForm {
            window: s.window.to_string(),
            latest: s.latest.to_string(),
            horizon: s.horizon.to_string(),
            origins: s.origins.to_string(),
        }
    }
}

impl ForecastForm {
    /// The settings, or what is wrong with the form (the engine checks
    /// the ranges).
    pub fn settings(&self) -> Result<ForecastSettings, String> {
        let count = |text: &str, what: &str| {
            text.trim()
                .parse::<usize>()
                .map_err(|_| format!("{what}: a whole number, please"))
        };
        Ok(ForecastSettings {
            window: count(&self.window, "Window h")?,
            latest: count(&self.latest, "Latest N")?,
            horizon: count(&self.horizon, "Horizon")?,
            origins: count(&self.origins, "Origins")?,
            ..ForecastSettings::default()
        })
    }
}

/// The forecast view's signals.
#[derive(Clone, Copy)]
pub struct ForecastDesk {
    page: Page,
    /// The form as typed.
    pub form: RwSignal<ForecastForm>,
    /// The latest forecasts.
    pub view: RwSignal<Option<ForecastView>>,
    /// The method whose band the chart draws.
    pub band: RwSignal<ForecastMethod>,
    /// A run is in flight.
    pub running: RwSignal<bool>,
    /// The form's or the engine's last refusal.
    pub error: RwSignal<Option<String>>,
    ticket: StoredValue<u32>,
}

impl ForecastDesk {
    /// Nothing forecast yet; the GP's band drawn.
    pub fn new(page: Page) -> ForecastDesk {
        ForecastDesk {
            page,
            form: RwSignal::new(ForecastForm::default()),
            view: RwSignal::new(None),
            band: RwSignal::new(ForecastMethod::Gp),
            running: RwSignal::new(false),
            error: RwSignal::new(None),
            ticket: StoredValue::new(0),
        }
    }

    /// Forecasts the series at `index` with the form's settings.
    pub fn run(self, index: usize) {
        let settings = match self.form.with_untracked(ForecastForm::settings) {
            Ok(s) => s,
            Err(e) => {
                self.error.set(Some(e));
                return;
            }
        };
        self.ticket.update_value(|t| *t = t.wrapping_add(1));
        let ticket = self.ticket.get_value();
        self.error.set(None);
        self.running.set(true);
        self.page.send(Request::Forecast(ForecastRequest::Run {
            ticket,
            index,
            settings,
        }));
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: ForecastResponse) {
        let latest = self.ticket.get_value();
        match response {
            ForecastResponse::Ready(view) if view.ticket == latest => {
                self.running.set(false);
                self.view.set(Some(*view));
            }
            ForecastResponse::Failed { ticket, message } if ticket == latest => {
                self.running.set(false);
                self.error.set(Some(message));
            }
            // Answers to runs sent before the latest one: stale, dropped.
            ForecastResponse::Ready(_) | ForecastResponse::Failed { .. } => {}
        }
    }
}
