//! The forecast view's state: the settings as typed, the latest forecasts
//! (a [`Job`]: an answer to anything but the latest run is dropped) and the
//! method whose band is drawn.

use super::protocol::{ForecastRequest, ForecastResponse, ForecastSettings, ForecastView};
use crate::page::Page;
use crate::parts::traces::desk::{series_key, TracesDesk};
use crate::toolkit::form::whole;
use crate::toolkit::job::Job;
use leptos::prelude::*;
use skyplan_engine::bundle::ForecastState;
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
    /// Interval coverage (not on the form: the paper's 95 %, or a bundle's).
    pub level: f64,
}

impl Default for ForecastForm {
    fn default() -> Self {
        ForecastForm::of(&ForecastSettings::default())
    }
}

impl ForecastForm {
    /// The form showing `s`.
    pub fn of(s: &ForecastSettings) -> Self {
        ForecastForm {
            window: s.window.to_string(),
            latest: s.latest.to_string(),
            horizon: s.horizon.to_string(),
            origins: s.origins.to_string(),
            level: s.level,
        }
    }

    /// The settings, or what is wrong with the form (the engine checks
    /// the ranges).
    pub fn settings(&self) -> Result<ForecastSettings, String> {
        Ok(ForecastSettings {
            window: whole(&self.window, "Window h")?,
            latest: whole(&self.latest, "Latest N")?,
            horizon: whole(&self.horizon, "Horizon")?,
            origins: whole(&self.origins, "Origins")?,
            level: self.level,
        })
    }
}

/// The forecast view's signals.
#[derive(Clone, Copy)]
pub struct ForecastDesk {
    page: Page,
    /// The Traces panel, whose chart selection is the series forecast.
    traces: TracesDesk,
    /// The saved state has arrived: from then on every change of the form,
    /// the band or the series shown is saved (not before, or the defaults
    /// would overwrite what was saved).
    restored: RwSignal<bool>,
    /// The form as typed.
    pub form: RwSignal<ForecastForm>,
    /// The forecasts of the series shown.
    pub run: Job<ForecastView>,
    /// The method whose band the chart draws.
    pub band: RwSignal<ForecastMethod>,
}

impl ForecastDesk {
    /// Nothing forecast yet; the GP's band drawn.
    pub fn new(page: Page, traces: TracesDesk) -> ForecastDesk {
        let desk = ForecastDesk {
            page,
            traces,
            restored: RwSignal::new(false),
            form: RwSignal::new(ForecastForm::default()),
            run: Job::new(page),
            band: RwSignal::new(ForecastMethod::Gp),
        };
        Effect::new(move |_| desk.keep());
        desk
    }

    /// Asks the worker for the saved state (once, when the page starts).
    pub fn open(self) {
        self.page.send(ForecastRequest::Open);
    }

    /// Saves the form (when it parses), the band and the series shown;
    /// tracked by the desk's effect, so every change is saved once the
    /// saved state is in.
    fn keep(self) {
        let Ok(settings) = self.form.with(ForecastForm::settings) else {
            return;
        };
        let method = Some(self.band.get());
        let series = self
            .traces
            .selection
            .with(|s| s.strip_prefix("series:").and_then(|i| i.parse().ok()));
        if self.restored.get() {
            self.page.send(ForecastRequest::Keep(ForecastState {
                settings,
                series,
                method,
            }));
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
            ForecastResponse::Restored(state) => {
                self.form.set(ForecastForm::of(&state.settings));
                if let Some(method) = state.method {
                    self.band.set(method);
                }
                let shown = state.series.filter(|&i| {
                    self.traces
                        .workspace
                        .with_untracked(|w| w.series.iter().any(|s| s.index == i))
                });
                if let Some(index) = shown {
                    self.traces.select_chart(series_key(index));
                }
                self.restored.set(true);
            }
            ForecastResponse::Ready(view) => {
                self.run.done(view.ticket, *view);
            }
            ForecastResponse::Failed(failure) => {
                self.run.failed(&failure);
            }
        }
    }
}
