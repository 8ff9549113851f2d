//! GP checks against closed forms and finite differences, parameter
//! validation at the edge, and the estimator and evaluation end to end on a
//! small generated history. (scikit-learn's answers are checked in
//! `engine/tests/estimate_reference.rs`.)

use super::*;
use crate::model::{JobFeatures, WorkloadJob};
use std::f64::consts::PI;

fn fixed(h: Hyperparameters) -> GpParams {
    GpParams {
        standardize_features: false,
        normalize_targets: false,
        optimize: false,
        initial: Some(h),
        ..GpParams::default()
    }
}

fn hyper(ls: &[f64], sf2: f64, sn2: f64) -> Hyperparameters {
    Hyperparameters {
        length_scales: ls.to_vec(),
        signal_variance: sf2,
        noise_variance: sn2,
    }
}

/// A smooth function of three features plus seeded noise.
fn smooth_data(n: usize, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut rng = crate::numerics::Rng::new(seed);
    let x: Vec<Vec<f64>> = (0..n)
        .map(|_| (0..3).map(|_| rng.uniform(-2.0, 2.0)).collect())
        .collect();
    let y = x
        .iter()
        .map(|r| (1.5 * r[0]).sin() + 0.3 * r[1] * r[1] + 0.1 * rng.normal())
        .collect();
    (x, y)
}

#[test]
fn one_training_point_in_closed_form() {
    let gp = GaussianProcess::fit(&[vec![0.0]], &[2.0], &fixed(hyper(&[1.0], 1.5, 0.5))).unwrap();
    let p = gp.predict(&[1.0]).unwrap();
    let k = 1.5 * (-0.5f64).exp();
    assert!((p.mean - k / 2.0 * 2.0).abs() < 1e-14);
    assert!((p.latent_variance - (1.5 - k * k / 2.0)).abs() < 1e-14);
    assert!((p.variance - (1.5 - k * k / 2.0 + 0.5)).abs() < 1e-14);
    // LML of one point: N(2 | 0, 2).
    let want = -0.5 * 4.0 / 2.0 - 0.5 * 2f64.ln() - 0.5 * (2.0 * PI).ln();
    assert!((gp.fit_summary().log_marginal_likelihood - want).abs() < 1e-14);
    // With normalization a single target is its own mean everywhere.
    let norm = GpParams {
        normalize_targets: true,
        ..fixed(hyper(&[1.0], 1.5, 0.5))
    };
    let gp = GaussianProcess::fit(&[vec![0.0]], &[2.0], &norm).unwrap();
    assert!((gp.predict(&[5.0]).unwrap().mean - 2.0).abs() < 1e-14);
}

#[test]
fn two_points_known_kernel_matrix() {
    // K = [[1.1, e^-½], [e^-½, 1.1]] for x = 0, 1, ℓ = 1, σf² = 1, σn² = 0.1.
    let (x, y) = (vec![vec![0.0], vec![1.0]], [1.0, -1.0]);
    let gp = GaussianProcess::fit(&x, &y, &fixed(hyper(&[1.0], 1.0, 0.1))).unwrap();
    let (a, b) = (1.1, (-0.5f64).exp());
    let det = a * a - b * b;
    // yᵀK⁻¹y for y = (1, −1): (a + a + 2b) / det.
    let quad = (2.0 * a + 2.0 * b) / det;
    let want = -0.5 * quad - 0.5 * det.ln() - (2.0 * PI).ln();
    assert!((gp.fit_summary().log_marginal_likelihood - want).abs() < 1e-13);
    // K⁻¹y = (a + b)/det · (1, −1). Mean at x* = 0: (1, b)·K⁻¹y =
    // (a + b)(1 − b)/det; at x* = 0.5, k* = (e^-⅛, e^-⅛): 0 by symmetry.
    let p = gp.predict(&[0.0]).unwrap();
    assert!((p.mean - (a + b) * (1.0 - b) / det).abs() < 1e-14);
    assert!(gp.predict(&[0.5]).unwrap().mean.abs() < 1e-14);
}

#[test]
fn noiseless_interpolation() {
    let x: Vec<Vec<f64>> = [0.0, 1.0, 2.0, 3.5].iter().map(|v| vec![*v]).collect();
    let y: Vec<f64> = x.iter().map(|r| r[0].sin()).collect();
    let gp = GaussianProcess::fit(&x, &y, &fixed(hyper(&[1.0], 1.0, 0.0))).unwrap();
    assert_eq!(gp.fit_summary().jitter, 0.0);
    for (r, t) in x.iter().zip(&y) {
        let p = gp.predict(r).unwrap();
        assert!((p.mean - t).abs() < 1e-9, "{} vs {t}", p.mean);
        assert!(p.latent_variance < 1e-9 && p.variance < 1e-9);
    }
    // Far away: the prior.
    let p = gp.predict(&[100.0]).unwrap();
    assert!(p.mean.abs() < 1e-12 && (p.variance - 1.0).abs() < 1e-12);
}

#[test]
fn gradient_matches_finite_differences() {
    let (x, y) = smooth_data(25, 3);
    let gp = GaussianProcess::fit(
        &x,
        &y,
        &GpParams {
            optimize: false,
            ..GpParams::default()
        },
    )
    .unwrap();
    let h = hyper(&[0.7, 1.8, 3.0], 1.3, 0.05);
    let (_, grad) = gp.log_marginal_likelihood_at(&h).unwrap();
    let theta = h.to_log();
    let step = 1e-5;
    for k in 0..theta.len() {
        let at = |delta: f64| {
            let mut t = theta.clone();
            t[k] += delta;
            gp.log_marginal_likelihood_at(&Hyperparameters::from_log(&t))
                .unwrap()
                .0
        };
        let fd = (at(step) - at(-step)) / (2.0 * step);
        assert!(
            (fd - grad[k]).abs() <= 1e-6 * grad[k].abs().max(1.0),
            "θ[{k}]: analytic {} vs finite difference {fd}",
            grad[k]
        );
    }
}

#[test]
fn optimization_climbs_and_is_seeded() {
    let (x, y) = smooth_data(40, 5);
    let params = GpParams::default();
    let gp = GaussianProcess::fit(&x, &y, &params).unwrap();
    let fit = gp.fit_summary();
    assert_eq!(fit.starts.len(), 1 + params.restarts);
    assert_eq!(fit.hyper_points, 40);
    let start = gp
        .log_marginal_likelihood_at(&Hyperparameters::initial(3))
        .unwrap()
        .0;
    assert!(fit.log_marginal_likelihood > start + 1.0);
    // The best start is a stationary point: the gradient vanishes, but for
    // the third feature's length scale, which the irrelevant feature pushes
    // to its upper bound.
    let (lml, grad) = gp.log_marginal_likelihood_at(&fit.hyperparameters).unwrap();
    assert!((lml - fit.log_marginal_likelihood).abs() < 1e-9);
    let ls = &fit.hyperparameters.length_scales;
    assert!(
        (ls[2] / params.length_scale_bounds[1] - 1.0).abs() < 1e-9,
        "{ls:?}"
    );
    assert!(grad[2] > 0.0, "{grad:?}");
    for k in [0, 1, 3, 4] {
        assert!(grad[k].abs() < 1e-3, "{grad:?}");
    }
    let again = GaussianProcess::fit(&x, &y, &params).unwrap();
    assert_eq!(again.fit_summary(), fit);
    // Starts on a subset of 20, the variances refined on all 40 (the
    // length scales stay), then every job in the solve.
    let sub = GaussianProcess::fit(
        &x,
        &y,
        &GpParams {
            hyper_subset: 20,
            ..params.clone()
        },
    )
    .unwrap();
    let f = sub.fit_summary();
    assert_eq!((f.restart_points, f.hyper_points, f.points), (20, 40, 40));
    assert!(f.polish.as_ref().is_some_and(|p| p.converged));
    let unpolished = GaussianProcess::fit(
        &x,
        &y,
        &GpParams {
            hyper_subset: 20,
            polish_subset: 0,
            ..params
        },
    )
    .unwrap();
    let u = unpolished.fit_summary();
    assert_eq!(
        (u.restart_points, u.hyper_points, u.polish.is_none()),
        (20, 20, true)
    );
    assert_eq!(
        u.hyperparameters.length_scales,
        f.hyperparameters.length_scales
    );
    assert!(f.log_marginal_likelihood >= u.log_marginal_likelihood);
}

#[test]
fn duplicate_rows_get_jitter_with_a_warning() {
    let x = vec![vec![1.0, 2.0], vec![1.0, 2.0], vec![3.0, 1.0]];
    let y = [5.0, 5.0, 7.0];
    let gp = GaussianProcess::fit(&x, &y, &fixed(hyper(&[1.0, 1.0], 1.0, 0.0))).unwrap();
    let fit = gp.fit_summary();
    assert!(fit.jitter >= 1e-10 && fit.jitter <= 1e-4, "{}", fit.jitter);
    assert!(matches!(fit.warnings[0], GpWarning::Jitter { .. }));
    assert!(fit.warnings[0].to_string().contains("jitter"));
    assert!((gp.predict(&[1.0, 2.0]).unwrap().mean - 5.0).abs() < 1e-4);
    // Optimizing on duplicates works too (the noise bound keeps K regular).
    let many: Vec<Vec<f64>> = (0..12).map(|i| vec![(i / 3) as f64, 0.0]).collect();
    let ys: Vec<f64> = (0..12)
        .map(|i| (i / 3) as f64 + 0.01 * (i % 3) as f64)
        .collect();
    assert!(GaussianProcess::fit(&many, &ys, &GpParams::default()).is_ok());
}

#[test]
fn gp_inputs_and_parameters_are_validated() {
    let ok = GpParams::default();
    assert_eq!(
        GaussianProcess::fit(&[], &[], &ok).unwrap_err(),
        EstimateError::EmptyHistory
    );
    let nan = GaussianProcess::fit(&[vec![1.0], vec![f64::NAN]], &[1.0, 2.0], &ok).unwrap_err();
    assert!(matches!(nan, EstimateError::BadInput(_)), "{nan}");
    let ragged = GaussianProcess::fit(&[vec![1.0], vec![1.0, 2.0]], &[1.0, 2.0], &ok);
    assert!(matches!(ragged, Err(EstimateError::BadInput(_))));
    let lengths = GaussianProcess::fit(&[vec![1.0]], &[1.0, 2.0], &ok);
    assert!(matches!(lengths, Err(EstimateError::BadInput(_))));
    let y_nan = GaussianProcess::fit(&[vec![1.0]], &[f64::INFINITY], &ok);
    assert!(matches!(y_nan, Err(EstimateError::BadInput(_))));
    for bad in [
        GpParams {
            noise_variance_bounds: [-1.0, 1.0],
            ..GpParams::default()
        },
        GpParams {
            length_scale_bounds: [f64::NAN, 1.0],
            ..GpParams::default()
        },
        GpParams {
            signal_variance_bounds: [2.0, 1.0],
            ..GpParams::default()
        },
        GpParams {
            max_jitter: 0.0,
            ..GpParams::default()
        },
        GpParams {
            hyper_subset: 1,
            ..GpParams::default()
        },
        GpParams {
            max_iterations: 0,
            ..GpParams::default()
        },
        fixed(hyper(&[1.0], -1.0, 0.1)),
        fixed(hyper(&[0.0], 1.0, 0.1)),
        fixed(hyper(&[1.0, 1.0], 1.0, 0.1)),
        fixed(hyper(&[1.0], 1.0, f64::NAN)),
    ] {
        let e = GaussianProcess::fit(&[vec![1.0], vec![2.0]], &[1.0, 2.0], &bad).unwrap_err();
        assert!(matches!(e, EstimateError::Param { .. }), "{bad:?}: {e}");
    }
    let gp = GaussianProcess::fit(&[vec![1.0], vec![2.0]], &[1.0, 2.0], &ok).unwrap();
    assert!(matches!(
        gp.predict(&[1.0, 2.0]),
        Err(EstimateError::BadQuery(_))
    ));
    assert!(matches!(
        gp.predict(&[f64::NAN]),
        Err(EstimateError::BadQuery(_))
    ));
    let p = gp.predict(&[1.5]).unwrap();
    for level in [0.0, 1.0, -0.5, f64::NAN, 95.0] {
        assert!(matches!(
            p.interval(level),
            Err(EstimateError::Param { .. })
        ));
    }
    let i = p.interval(0.95).unwrap();
    assert!((i.upper - i.mean - 1.959_963_984_540_054 * p.variance.sqrt()).abs() < 1e-12);
    // An indefinite matrix stays so under any allowed jitter: the largest
    // tried comes back (the fit turns it into NotPositiveDefinite).
    let k = nalgebra::DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
    let tried = crate::numerics::linalg::factor(&k, 0.0, 1e-4).unwrap_err();
    assert!((tried - 1e-4).abs() < 1e-12, "{tried}");
}

/// A small history of jobs of 10 MB to 100 GB (so that sizes, not noise,
/// decide most of the durations), half of them with reduces.
fn small_history(n: usize) -> Vec<WorkloadJob> {
    let mut rng = crate::numerics::Rng::new(3);
    let sources: Vec<WorkloadJob> = (0..n.div_ceil(3))
        .map(|i| {
            let input = 10f64.powf(rng.uniform(7.0, 11.0)).round();
            let shuffle = if i % 2 == 0 {
                0.0
            } else {
                (input * rng.uniform(0.1, 1.0)).round()
            };
            WorkloadJob {
                name: format!("job{i}"),
                submit: 60 * i as i64,
                features: JobFeatures {
                    map_tasks: None,
                    reduce_tasks: None,
                    input_bytes: input,
                    shuffle_bytes: shuffle,
                    output_bytes: (0.1 * input).round(),
                },
                map_secs: None,
                reduce_secs: None,
            }
        })
        .collect();
    let params = HistoryParams {
        jobs: n,
        ..HistoryParams::default()
    };
    history_from_swim(&sources, &params).unwrap()
}

/// Cheap GP settings for debug-build tests.
fn quick() -> EstimateParams {
    EstimateParams {
        gp: GpParams {
            restarts: 0,
            max_iterations: 40,
            ..GpParams::default()
        },
        ..EstimateParams::default()
    }
}

#[test]
fn estimator_and_evaluation_on_a_generated_history() {
    let history = small_history(60);
    assert_eq!(history.len(), 60);
    let model = Estimator::fit(&history, &quick()).unwrap();
    let j = history
        .iter()
        .find(|j| j.features.reduce_tasks.unwrap_or(0) > 0)
        .expect("a job with reduces");
    let e = model.estimate(Some(&j.name), &j.features).unwrap();
    assert_eq!(e.phases.len(), 2);
    for ph in &e.phases {
        let methods: Vec<Method> = ph.methods.iter().map(|m| m.method).collect();
        assert_eq!(methods, Method::ALL);
        for m in &ph.methods[..2] {
            let p = m.prediction.expect("GP and OLS answer");
            assert!(
                0.0 <= p.lower && p.lower <= p.mean && p.mean <= p.upper,
                "{p:?}"
            );
        }
    }
    let unnamed = model.estimate(None, &j.features).unwrap();
    assert!(unnamed.phases[0].methods[2].prediction.is_none());
    let unseen = model.estimate(Some("never-ran"), &j.features).unwrap();
    let note = unseen.phases[0].methods[2].note.clone().unwrap();
    assert!(note.contains("too few past runs"), "{note}");
    // A map-only job has no reduce phase: exactly zero, from every method.
    let map_only = JobFeatures {
        reduce_tasks: Some(0),
        shuffle_bytes: 0.0,
        ..j.features.clone()
    };
    let e = model.estimate(Some(&j.name), &map_only).unwrap();
    assert!(e.phases[1]
        .methods
        .iter()
        .all(|m| m.prediction.map(|p| p.upper) == Some(0.0)));
    let unknown = JobFeatures {
        map_tasks: None,
        ..j.features.clone()
    };
    assert!(matches!(
        model.estimate(None, &unknown),
        Err(EstimateError::BadQuery(_))
    ));

    let ev = evaluate(
        &history,
        &EvaluateParams {
            estimate: quick(),
            ..EvaluateParams::default()
        },
    )
    .unwrap();
    assert_eq!((ev.train_jobs, ev.test_jobs), (30, 30));
    let map = &ev.phases[0];
    assert_eq!(map.test_jobs, 30);
    let gp = &map.methods[0];
    assert_eq!((gp.method, gp.predicted), (Method::Gp, 30));
    assert!(gp.r2.unwrap() > 0.5, "{gp:?}");
    // Thirty training jobs: maximum likelihood is optimistic about the
    // noise, so the PIs cover somewhat less than 95 % (the CLI's evaluation
    // on 500 SWIM jobs gets 93–95 %).
    assert!(gp.coverage.unwrap() > 0.7, "{gp:?}");
    assert!(map.gp.is_some());
    // Only jobs with reduces are scored on the reduce phase.
    let reduce = &ev.phases[1];
    assert!(reduce.test_jobs < 30);
    assert_eq!(reduce.methods[0].predicted, reduce.test_jobs);
    // Same-job only for names with two training runs.
    let same = &map.methods[2];
    assert_eq!(same.predicted + same.skipped, 30);
    let json = serde_json::to_string(&ev).unwrap();
    let back: Evaluation = serde_json::from_str(&json).unwrap();
    assert_eq!(back.phases[1].test_jobs, reduce.test_jobs);
}

#[test]
fn estimation_inputs_are_validated() {
    let history = small_history(8);
    let ok = quick();
    assert_eq!(
        Estimator::fit(&[], &ok).unwrap_err(),
        EstimateError::EmptyHistory
    );
    for bad in [
        EstimateParams {
            level: 1.0,
            ..EstimateParams::default()
        },
        EstimateParams {
            level: f64::NAN,
            ..EstimateParams::default()
        },
        EstimateParams {
            min_runs: 1,
            ..EstimateParams::default()
        },
    ] {
        assert!(matches!(
            Estimator::fit(&history, &bad),
            Err(EstimateError::Param { .. })
        ));
    }
    let mut broken = history.clone();
    broken[3].map_secs = Some(f64::NAN);
    let e = Estimator::fit(&broken, &ok).unwrap_err();
    assert!(matches!(e, EstimateError::BadJob { index: 3, .. }), "{e}");
    broken[3].map_secs = None;
    assert!(Estimator::fit(&broken, &ok).is_err());
    broken[3].map_secs = Some(-1.0);
    assert!(Estimator::fit(&broken, &ok).is_err());
    // Too few jobs for OLS: it says so, the others still answer.
    let two = &history[..2];
    let m = Estimator::fit(two, &ok).unwrap();
    let e = m.estimate(Some(&two[0].name), &two[0].features).unwrap();
    let ols = &e.phases[0].methods[1];
    assert!(ols.prediction.is_none());
    assert!(
        ols.note.as_deref().unwrap().contains("needs at least"),
        "{ols:?}"
    );
    assert!(e.phases[0].methods[0].prediction.is_some());
    assert!(matches!(
        m.ols_fit(Phase::Map),
        Err(EstimateError::TooFewJobs { .. })
    ));
    for share in [0.0, 1.0, f64::NAN] {
        let p = EvaluateParams {
            train_share: share,
            ..EvaluateParams::default()
        };
        assert!(matches!(
            evaluate(&history, &p),
            Err(EstimateError::Param { .. })
        ));
    }
    assert!(matches!(
        evaluate(two, &EvaluateParams::default()),
        Err(EstimateError::TooFewJobs { .. })
    ));
}

#[test]
fn a_new_level_is_the_refit_at_that_level() {
    let history = small_history(40);
    let job = &history[3].features;
    let mut model = Estimator::fit(&history, &quick()).unwrap();
    model.set_level(0.8).unwrap();
    let refit = Estimator::fit(
        &history,
        &EstimateParams {
            level: 0.8,
            ..quick()
        },
    )
    .unwrap();
    assert_eq!(
        model.estimate(Some("x"), job).unwrap(),
        refit.estimate(Some("x"), job).unwrap()
    );
    assert!(model.set_level(1.0).is_err());
    assert_eq!(model.params().level, 0.8);
}
