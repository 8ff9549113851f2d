//! The forecast view's state: the settings as typed, the latest forecasts
//! (a [`Job`]: an answer to anything but the latest run is dropped) and the
//! method whose band is drawn.

use super::protocol::{ForecastRequest, ForecastResponse, ForecastSettings, ForecastView};
use crate::page::Page;
use crate::toolkit::form::whole;
use crate::toolkit::job::Job;
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
        Ok(ForecastSettings {
            window: whole(&self.window, "Window h")?,
            latest: whole(&self.latest, "Latest N")?,
            horizon: whole(&self.horizon, "Horizon")?,
            origins: whole(&self.origins, "Origins")?,
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
    /// The forecasts of the series shown.
    pub run: Job<ForecastView>,
    /// The method whose band the chart draws.
    pub band: RwSignal<ForecastMethod>,
}

impl ForecastDesk {
    /// Nothing forecast yet; the GP's band drawn.
    pub fn new(page: Page) -> ForecastDesk {
        ForecastDesk {
            page,
            form: RwSignal::new(ForecastForm::default()),
            run: Job::new(page),
            band: RwSignal::new(ForecastMethod::Gp),
        }
    }

    /// Forecasts the series at `index` with the form's settings.
    pub fn forecast(self, index: usize) {
        let asked = self.form.with_untracked(ForecastForm::settings);
        if let Some((ticket, settings)) = self.run.start_with(asked) {
            self.page.send(ForecastRequest::Run {
                ticket,
                index,
                settings,
            });
        }
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: ForecastResponse) {
        match response {
            ForecastResponse::Ready(view) => {
                self.run.done(view.ticket, *view);
            }
            ForecastResponse::Failed(failure) => {
                self.run.failed(&failure);
            }
        }
    }
}
