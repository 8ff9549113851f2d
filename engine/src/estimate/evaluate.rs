//! How good each method is on jobs it has not seen: the analogues of the
//! paper's Table 2 (R²) and Table 3 (PI error — jobs whose duration falls
//! outside the 95 % PI — and mean PI length), on a seeded train/test split
//! of a history (§6.1 trained on five of ten runs and tested on the rest).

use super::estimator::{EstimateParams, Estimator};
use super::gp::GpFit;
use super::history::duration;
use super::{EstimateError, Method, Phase};
use crate::model::WorkloadJob;
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

/// Settings of an evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EvaluateParams {
    /// Share of the jobs that train (default 0.5, as §6.1's five of ten
    /// runs); the rest test.
    pub train_share: f64,
    /// Seed of the split.
    pub split_seed: u64,
    /// The estimators' settings.
    pub estimate: EstimateParams,
}

impl Default for EvaluateParams {
    fn default() -> Self {
        EvaluateParams {
            train_share: 0.5,
            split_seed: 1,
            estimate: EstimateParams::default(),
        }
    }
}

/// One method's scores on one phase's test jobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodScore {
    /// The method.
    pub method: Method,
    /// Test jobs it estimated (same-job: those with enough past runs).
    pub predicted: usize,
    /// Test jobs it could not estimate.
    pub skipped: usize,
    /// Coefficient of determination `1 − SS_res/SS_tot` over the estimated
    /// jobs (Table 2); `None` without estimates or without spread.
    pub r2: Option<f64>,
    /// Share of estimated jobs whose duration is inside the PI.
    pub coverage: Option<f64>,
    /// `100 · (1 − coverage)`: the paper's "PI error" (Table 3), percent.
    pub pi_error_percent: Option<f64>,
    /// Mean PI length, seconds (Table 3's last row).
    pub mean_pi_length: Option<f64>,
    /// Why the method made no estimates at all, if so.
    pub note: Option<String>,
}

/// The scores of one phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseEvaluation {
    /// The phase.
    pub phase: Phase,
    /// Test jobs with this phase (the reduce phase skips map-only jobs,
    /// whose zero the estimators know exactly).
    pub test_jobs: usize,
    /// Mean actual duration of the test jobs, seconds (to read PI lengths
    /// against, as the paper does: "3.5 times the total Map duration").
    pub mean_actual_secs: f64,
    /// One row per method.
    pub methods: Vec<MethodScore>,
    /// The GP fitted on the training jobs, when it could be.
    pub gp: Option<GpFit>,
}

/// The result of [`evaluate`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Training jobs.
    pub train_jobs: usize,
    /// Test jobs.
    pub test_jobs: usize,
    /// PI coverage level.
    pub level: f64,
    /// Map, then reduce.
    pub phases: Vec<PhaseEvaluation>,
}

/// Splits `history` (seeded), fits every method on the training part and
/// scores it on the test part.
pub fn evaluate(
    history: &[WorkloadJob],
    params: &EvaluateParams,
) -> Result<Evaluation, EstimateError> {
    params.estimate.validate()?;
    let s = params.train_share;
    if !(s.is_finite() && s > 0.0 && s < 1.0) {
        return Err(EstimateError::param(
            "train_share",
            format!("must be strictly between 0 and 1, got {s}"),
        ));
    }
    if history.is_empty() {
        return Err(EstimateError::EmptyHistory);
    }
    let n = history.len();
    if n < 3 {
        return Err(EstimateError::TooFewJobs {
            method: Method::Gp,
            needed: 3,
            got: n,
        });
    }
    let n_train = ((n as f64 * s).round() as usize).clamp(1, n - 1);
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(params.split_seed);
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let (train_idx, test_idx) = order.split_at(n_train);
    let train: Vec<WorkloadJob> = train_idx.iter().map(|&i| history[i].clone()).collect();
    let test: Vec<&WorkloadJob> = test_idx.iter().map(|&i| &history[i]).collect();
    let model = Estimator::fit(&train, &params.estimate)?;
    let queries: Vec<_> = test
        .iter()
        .map(|j| (Some(j.name.as_str()), &j.features))
        .collect();
    let estimates = model.estimate_many(&queries)?;
    let mut phases = Vec::new();
    for (p, phase) in Phase::ALL.into_iter().enumerate() {
        let with: Vec<usize> = (0..test.len())
            .filter(|&k| phase.applies(&test[k].features))
            .collect();
        let actual = with
            .iter()
            .map(|&k| duration(test[k], test_idx[k], phase))
            .collect::<Result<Vec<f64>, _>>()?;
        let mean_actual_secs = if actual.is_empty() {
            0.0
        } else {
            actual.iter().sum::<f64>() / actual.len() as f64
        };
        let methods = Method::ALL
            .iter()
            .enumerate()
            .map(|(m, &method)| {
                let answers: Vec<_> = with
                    .iter()
                    .map(|&k| &estimates[k].phases[p].methods[m])
                    .collect();
                let pairs: Vec<(f64, _)> = actual
                    .iter()
                    .zip(&answers)
                    .filter_map(|(a, e)| e.prediction.map(|p| (*a, p)))
                    .collect();
                let note = if pairs.is_empty() {
                    answers.iter().find_map(|e| e.note.clone())
                } else {
                    None
                };
                score(method, &pairs, actual.len(), note)
            })
            .collect();
        phases.push(PhaseEvaluation {
            phase,
            test_jobs: actual.len(),
            mean_actual_secs,
            methods,
            gp: model.gp_fit(phase).ok().cloned(),
        });
    }
    Ok(Evaluation {
        train_jobs: train.len(),
        test_jobs: test.len(),
        level: params.estimate.level,
        phases,
    })
}

/// R², coverage and PI length of `(actual, prediction)` pairs.
fn score(
    method: Method,
    pairs: &[(f64, super::Prediction)],
    total: usize,
    note: Option<String>,
) -> MethodScore {
    let k = pairs.len();
    if k == 0 {
        return MethodScore {
            method,
            predicted: 0,
            skipped: total,
            r2: None,
            coverage: None,
            pi_error_percent: None,
            mean_pi_length: None,
            note,
        };
    }
    let kf = k as f64;
    let mean = pairs.iter().map(|(a, _)| a).sum::<f64>() / kf;
    let ss_tot: f64 = pairs.iter().map(|(a, _)| (a - mean).powi(2)).sum();
    let ss_res: f64 = pairs.iter().map(|(a, p)| (a - p.mean).powi(2)).sum();
    let covered = pairs.iter().filter(|(a, p)| p.covers(*a)).count() as f64 / kf;
    MethodScore {
        method,
        predicted: k,
        skipped: total - k,
        r2: (ss_tot > 0.0).then(|| 1.0 - ss_res / ss_tot),
        coverage: Some(covered),
        pi_error_percent: Some(100.0 * (1.0 - covered)),
        mean_pi_length: Some(pairs.iter().map(|(_, p)| p.length()).sum::<f64>() / kf),
        note,
    }
}
