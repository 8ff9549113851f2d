//! All three methods for both phases, fitted on one history, estimating new
//! jobs: what MRM asks when a job arrives (§3.1: the mean and the PI of
//! each phase's processing time).

use super::features::{feature_vector, FeatureScale, TargetScale};
use super::gp::{GaussianProcess, GpFit, GpParams};
use super::history::{duration, training_data};
use super::ols::{Ols, OlsFit};
use super::same_job::{SameJob, SameJobEstimate};
use super::{check_level, EstimateError, Method, Phase, Prediction};
use crate::model::{JobFeatures, WorkloadJob};
use crate::numerics::quantile::normal_quantile;
use serde::{Deserialize, Serialize};

/// Settings of the estimators.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EstimateParams {
    /// Coverage of the prediction intervals (default 0.95, the paper's
    /// Table 3).
    pub level: f64,
    /// How features enter the GP and OLS (default log).
    pub scale: FeatureScale,
    /// How durations enter the GP and OLS (default log).
    pub target: TargetScale,
    /// The GP's settings.
    pub gp: GpParams,
    /// Past runs a job needs for a same-job estimate (default 2, the least
    /// that has a variance).
    pub min_runs: usize,
}

impl Default for EstimateParams {
    fn default() -> Self {
        EstimateParams {
            level: 0.95,
            scale: FeatureScale::Log,
            target: TargetScale::Log,
            gp: GpParams::default(),
            min_runs: 2,
        }
    }
}

impl EstimateParams {
    /// Checks the settings at the engine's edge.
    pub fn validate(&self) -> Result<(), EstimateError> {
        check_level(self.level)?;
        self.gp.validate()?;
        if self.min_runs < 2 {
            return Err(EstimateError::param(
                "min_runs",
                format!(
                    "must be at least 2 (a variance needs two runs), got {}",
                    self.min_runs
                ),
            ));
        }
        Ok(())
    }
}

/// One method's answer for one phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodEstimate {
    /// The method.
    pub method: Method,
    /// The estimate, when the method could make one.
    pub prediction: Option<Prediction>,
    /// Why there is none (or what else to know: past runs used).
    pub note: Option<String>,
}

/// Every method's answer for one phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseEstimate {
    /// The phase.
    pub phase: Phase,
    /// One entry per [`Method::ALL`].
    pub methods: Vec<MethodEstimate>,
}

/// The estimate of a new job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobEstimate {
    /// Its name, if given (the same-job method needs it).
    pub job: Option<String>,
    /// PI coverage.
    pub level: f64,
    /// Map, then reduce.
    pub phases: Vec<PhaseEstimate>,
}

/// One phase's fitted models; a method that could not be fitted keeps its
/// reason.
#[derive(Clone, Debug)]
struct PhaseModels {
    phase: Phase,
    gp: Result<GaussianProcess, EstimateError>,
    ols: Result<Ols, EstimateError>,
    /// `None` when no history job has the phase.
    same: Option<SameJob>,
}

/// The fitted estimators of both phases.
#[derive(Clone, Debug)]
pub struct Estimator {
    params: EstimateParams,
    phases: Vec<PhaseModels>,
}

impl Estimator {
    /// Fits GP, OLS and same-job for both phases on `history` (finished jobs
    /// with task counts and durations). Fails on bad parameters or a bad
    /// history; a method that cannot be fitted (too few jobs, a singular
    /// kernel beyond the jitter limit) is reported per estimate instead.
    pub fn fit(history: &[WorkloadJob], params: &EstimateParams) -> Result<Self, EstimateError> {
        params.validate()?;
        let mut phases = Vec::new();
        for phase in Phase::ALL {
            // Every job is checked; only those with the phase train it.
            let (x, secs) = training_data(history, phase, params.scale)?;
            let has = |j: &WorkloadJob| phase.applies(&j.features);
            let (x, y): (Vec<Vec<f64>>, Vec<f64>) = x
                .into_iter()
                .zip(secs)
                .zip(history)
                .filter(|(_, j)| has(j))
                .map(|((row, s), _)| (row, params.target.forward(s)))
                .unzip();
            let runs = history
                .iter()
                .enumerate()
                .filter(|(_, j)| has(j))
                .map(|(i, j)| Ok((j.name.as_str(), duration(j, i, phase)?)))
                .collect::<Result<Vec<_>, EstimateError>>()?;
            let none = EstimateError::NoJobsWithPhase { phase };
            phases.push(PhaseModels {
                phase,
                gp: if x.is_empty() {
                    Err(none.clone())
                } else {
                    GaussianProcess::fit(&x, &y, &params.gp)
                },
                ols: if x.is_empty() {
                    Err(none.clone())
                } else {
                    Ols::fit(&x, &y)
                },
                same: if runs.is_empty() {
                    None
                } else {
                    Some(SameJob::fit(runs, params.min_runs)?)
                },
            });
        }
        Ok(Estimator {
            params: params.clone(),
            phases,
        })
    }

    /// The settings used.
    pub fn params(&self) -> &EstimateParams {
        &self.params
    }

    /// Changes the coverage of the prediction intervals of later estimates
    /// (the fitted models do not depend on it), so a new level costs no
    /// refit.
    pub fn set_level(&mut self, level: f64) -> Result<(), EstimateError> {
        check_level(level)?;
        self.params.level = level;
        Ok(())
    }

    /// The GP fit of a phase, or why there is none.
    pub fn gp_fit(&self, phase: Phase) -> Result<&GpFit, &EstimateError> {
        self.models(phase).gp.as_ref().map(|g| g.fit_summary())
    }

    /// The OLS fit of a phase, or why there is none.
    pub fn ols_fit(&self, phase: Phase) -> Result<&OlsFit, &EstimateError> {
        self.models(phase).ols.as_ref().map(|o| o.fit_summary())
    }

    fn models(&self, phase: Phase) -> &PhaseModels {
        &self.phases[Phase::ALL.iter().position(|p| *p == phase).unwrap_or(0)]
    }

    /// Estimates one job (`name` for the same-job method).
    pub fn estimate(
        &self,
        name: Option<&str>,
        features: &JobFeatures,
    ) -> Result<JobEstimate, EstimateError> {
        let query = [(name, features)];
        Ok(self.estimate_many(&query)?.remove(0))
    }

    /// Estimates many jobs at once (the GP predicts them in one batch).
    pub fn estimate_many(
        &self,
        jobs: &[(Option<&str>, &JobFeatures)],
    ) -> Result<Vec<JobEstimate>, EstimateError> {
        let level = self.params.level;
        let rows = jobs
            .iter()
            .map(|(_, f)| feature_vector(f, self.params.scale).map(|r| r.to_vec()))
            .collect::<Result<Vec<_>, String>>()
            .map_err(EstimateError::BadQuery)?;
        let mut out: Vec<JobEstimate> = jobs
            .iter()
            .map(|(name, _)| JobEstimate {
                job: name.map(str::to_string),
                level,
                phases: Vec::new(),
            })
            .collect();
        let target = self.params.target;
        let z = normal_quantile(0.5 + 0.5 * level);
        for m in &self.phases {
            let gp: Vec<Result<Prediction, String>> = match &m.gp {
                Ok(g) => g
                    .predict_many(&rows)?
                    .iter()
                    .map(|p| Ok(target.back(p.mean, p.variance.sqrt(), z)))
                    .collect(),
                Err(e) => vec![Err(e.to_string()); rows.len()],
            };
            let t = match &m.ols {
                Ok(o) => Some(o.t_quantile(level)?),
                Err(_) => None,
            };
            for (((est, row), gp), (_, features)) in out.iter_mut().zip(&rows).zip(gp).zip(jobs) {
                if !m.phase.applies(features) {
                    let zero = |method| MethodEstimate {
                        method,
                        prediction: Some(Prediction::symmetric(0.0, 0.0, 0.0)),
                        note: Some(format!("no {} tasks: no {} phase", m.phase, m.phase)),
                    };
                    est.phases.push(PhaseEstimate {
                        phase: m.phase,
                        methods: Method::ALL.map(zero).to_vec(),
                    });
                    continue;
                }
                let ols = match (&m.ols, t) {
                    (Ok(o), Some(t)) => {
                        let (mean, sd) = o.moments(row)?;
                        Ok(target.back(mean, sd, t))
                    }
                    (Err(e), _) => Err(e.to_string()),
                    (Ok(_), None) => Err("no t quantile".to_string()),
                };
                let same = match est.job.as_deref() {
                    None => MethodEstimate {
                        method: Method::SameJob,
                        prediction: None,
                        note: Some("no job name given".into()),
                    },
                    Some(name) => match m
                        .same
                        .as_ref()
                        .map(|s| s.estimate(name, level))
                        .transpose()?
                        .unwrap_or(SameJobEstimate::TooFewRuns {
                            runs: 0,
                            needed: self.params.min_runs,
                        }) {
                        SameJobEstimate::Estimate { runs, prediction } => MethodEstimate {
                            method: Method::SameJob,
                            prediction: Some(prediction),
                            note: Some(format!("{runs} past runs")),
                        },
                        SameJobEstimate::TooFewRuns { runs, needed } => MethodEstimate {
                            method: Method::SameJob,
                            prediction: None,
                            note: Some(format!(
                                "too few past runs of `{name}`: {runs} (needs {needed})"
                            )),
                        },
                    },
                };
                let answer = |method, r: Result<Prediction, String>| match r {
                    Ok(p) => MethodEstimate {
                        method,
                        prediction: Some(p),
                        note: None,
                    },
                    Err(e) => MethodEstimate {
                        method,
                        prediction: None,
                        note: Some(e),
                    },
                };
                est.phases.push(PhaseEstimate {
                    phase: m.phase,
                    methods: vec![answer(Method::Gp, gp), answer(Method::Ols, ols), same],
                });
            }
        }
        Ok(out)
    }
}
