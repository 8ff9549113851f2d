//! A workload ready to run: the settings, the workload and the forecasts
//! that every run of it needs, checked together once.
//!
//! Every entry point ([`simulate`](mod@super::simulate),
//! [`compare`](mod@super::compare), [`grid`](mod@super::grid),
//! [`rerun`](mod@super::rerun)) used to pass the workload, the
//! settings, the cluster built from them and the forecasts side by side
//! and validate them each in its own order. A [`Scenario`] is built by one
//! constructor that validates the settings, builds their cluster and
//! validates the workload on it; forecasts are added after, checked against
//! the workload. A run ([`super::run`]) takes a scenario and only the
//! choices that vary between runs (policy, forecaster, K1, K2, the
//! application followed).

use super::error::ShapingError;
use super::model::{Host, Workload};
use super::params::Params;
use super::predictor::{forecast_app, AppForecast};
use std::borrow::Cow;

/// A validated workload on its cluster, with one forecast per application.
#[derive(Clone, Debug)]
pub struct Scenario<'a> {
    workload: &'a Workload,
    params: &'a Params,
    hosts: Vec<Host>,
    forecasts: Cow<'a, [AppForecast]>,
}

impl<'a> Scenario<'a> {
    /// Validates `params`, builds their cluster and validates `workload` on
    /// it. The forecasts are the oracle's (none) until
    /// [`Scenario::with_forecasts`] or [`Scenario::forecast`].
    pub fn new(workload: &'a Workload, params: &'a Params) -> Result<Self, ShapingError> {
        params.validate()?;
        let hosts = params.cluster();
        workload.validate(&hosts)?;
        let forecasts = Cow::Owned(vec![AppForecast::default(); workload.applications.len()]);
        Ok(Scenario {
            workload,
            params,
            hosts,
            forecasts,
        })
    }

    /// The same scenario with `forecasts`: one per application (computed by
    /// [`Scenario::forecast`] or [`prepare_forecasts`], with
    /// `params.predictor`'s forecaster), or none for the oracle's.
    pub fn with_forecasts(
        self,
        forecasts: impl Into<Cow<'a, [AppForecast]>>,
    ) -> Result<Self, ShapingError> {
        let forecasts = forecasts.into();
        let n = self.workload.applications.len();
        if forecasts.is_empty() {
            return Ok(Scenario {
                forecasts: Cow::Owned(vec![AppForecast::default(); n]),
                ..self
            });
        }
        if forecasts.len() != n {
            return Err(ShapingError::param(
                "forecasts",
                format!(
                    "has {} entries for {n} applications (computed for another workload?)",
                    forecasts.len()
                ),
            ));
        }
        Ok(Scenario { forecasts, ..self })
    }

    /// The same scenario with every application's forecasts by
    /// `params.predictor` ([`prepare_forecasts`]); `progress(done)` per
    /// application.
    pub fn forecast(self, progress: &mut dyn FnMut(usize)) -> Self {
        let forecasts = prepare_forecasts(self.workload, self.params, progress);
        Scenario {
            forecasts: Cow::Owned(forecasts),
            ..self
        }
    }

    /// The workload.
    pub fn workload(&self) -> &Workload {
        self.workload
    }

    /// The settings.
    pub fn params(&self) -> &Params {
        self.params
    }

    /// The cluster the settings describe.
    pub fn hosts(&self) -> &[Host] {
        &self.hosts
    }

    /// One forecast per application (defaults for the oracle).
    pub fn forecasts(&self) -> &[AppForecast] {
        &self.forecasts
    }
}

/// Every application's forecasts by `params.predictor` (empty for the
/// oracle); `progress(done)` per application.
pub fn prepare_forecasts(
    w: &Workload,
    params: &Params,
    progress: &mut dyn FnMut(usize),
) -> Vec<AppForecast> {
    w.applications
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let f = forecast_app(&a.usage, params);
            progress(i + 1);
            f
        })
        .collect()
}
