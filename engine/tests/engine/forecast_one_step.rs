//! The rolling one-step forecasts the studio draws (`keep_one_step`) are the
//! ones the evaluation scores: recomputing MAE and coverage from them gives
//! the report's figures, each forecasts the value after its origin, and the
//! last-value baseline's mean is the value before it.

use skyplan_engine::forecast::{evaluate, EvaluateParams, ForecastMethod, ForecastParams};

/// A deterministic AR(1)-like series with a daily wave and a little noise.
fn series(n: usize) -> Vec<f64> {
    let mut y = Vec::with_capacity(n);
    let mut x: f64 = 0.0;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let noise = (state % 10_000) as f64 / 10_000.0 - 0.5;
        x = 0.7 * x + noise;
        y.push(50.0 + 10.0 * (i as f64 * std::f64::consts::TAU / 48.0).sin() + x);
    }
    y
}

#[test]
fn kept_one_step_forecasts_are_the_scored_ones() {
    let y = series(400);
    let params = EvaluateParams {
        forecast: ForecastParams::default(),
        origins: 60,
        methods: vec![ForecastMethod::LastValue, ForecastMethod::Gp],
        keep_one_step: true,
        ..EvaluateParams::default()
    };
    let ev = evaluate(&y, &params).unwrap();
    assert_eq!(ev.origins, 60);
    for report in &ev.methods {
        let kept = &report.one_step;
        assert_eq!(
            kept.len() + report.failures,
            ev.origins,
            "{}",
            report.method
        );
        let mut last = None;
        let (mut abs, mut covered) = (0.0, 0usize);
        for (i, f) in kept {
            assert_eq!(f.step, 1);
            assert!(*i >= ev.first_origin && *i < y.len());
            assert!(last.is_none_or(|l| l < *i), "in order");
            last = Some(*i);
            if report.method == ForecastMethod::LastValue {
                assert_eq!(f.mean, y[i - 1], "last value forecasts the value before");
            }
            abs += (y[*i] - f.mean).abs();
            covered += usize::from(f.lower <= y[*i] && y[*i] <= f.upper);
        }
        let score = &report.steps[0];
        let n = kept.len() as f64;
        assert!((score.mae - abs / n).abs() < 1e-12, "{}", report.method);
        assert!((score.coverage - covered as f64 / n).abs() < 1e-12);
    }
}

#[test]
fn one_step_forecasts_are_not_kept_by_default() {
    let y = series(200);
    let params = EvaluateParams {
        origins: 20,
        methods: vec![ForecastMethod::LastValue],
        ..EvaluateParams::default()
    };
    let ev = evaluate(&y, &params).unwrap();
    assert!(ev.methods[0].one_step.is_empty());
}
