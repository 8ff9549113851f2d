//! The processing-time estimators against independent references: values
//! computed once by `data/estimate_reference.py` with scipy (quantiles),
//! scikit-learn's `GaussianProcessRegressor` (fixed and fitted kernels) and
//! numpy (OLS and its prediction interval), stored in
//! `data/estimate_reference.json`.

use serde_json::Value;
use skyplan_engine::estimate::{GaussianProcess, GpParams, Hyperparameters, Ols};
use skyplan_engine::numerics::quantile::{normal_quantile, student_t_quantile};

use crate::support::{close, matrix, reference, vector};

fn doc() -> Value {
    reference(include_str!("../data/estimate_reference.json"))
}

#[test]
fn quantiles_match_scipy() {
    let d = doc();
    for row in d["quantiles"]["normal"].as_array().unwrap() {
        let r = vector(row);
        close(
            normal_quantile(r[0]),
            r[1],
            1e-12,
            1e-3,
            &format!("norm.ppf({})", r[0]),
        );
    }
    for row in d["quantiles"]["t"].as_array().unwrap() {
        let r = vector(row);
        close(
            student_t_quantile(r[0], r[1]),
            r[2],
            1e-10,
            1e-3,
            &format!("t.ppf({}, {})", r[0], r[1]),
        );
    }
}

#[test]
fn gp_with_fixed_kernel_matches_scikit_learn() {
    let d = doc();
    let g = &d["gp_fixed"];
    let h = Hyperparameters {
        length_scales: vector(&g["length_scales"]),
        signal_variance: g["signal_variance"].as_f64().unwrap(),
        noise_variance: g["noise_variance"].as_f64().unwrap(),
    };
    let params = GpParams {
        optimize: false,
        initial: Some(h.clone()),
        ..GpParams::default()
    };
    let gp = GaussianProcess::fit(&matrix(&g["x"]), &vector(&g["y"]), &params).unwrap();
    let want_mean = vector(&g["mean"]);
    let want_std = vector(&g["std"]);
    let got = gp.predict_many(&matrix(&g["x_test"])).unwrap();
    for (k, p) in got.iter().enumerate() {
        close(p.mean, want_mean[k], 1e-10, 1.0, &format!("mean {k}"));
        close(
            p.variance.sqrt(),
            want_std[k],
            1e-9,
            1e-3,
            &format!("std {k}"),
        );
    }
    let lml = g["log_marginal_likelihood"].as_f64().unwrap();
    close(
        gp.fit_summary().log_marginal_likelihood,
        lml,
        1e-10,
        1.0,
        "log marginal likelihood",
    );
    // The analytic gradient against scikit-learn's.
    let (at, grad) = gp.log_marginal_likelihood_at(&h).unwrap();
    close(at, lml, 1e-10, 1.0, "log marginal likelihood at h");
    for (k, want) in vector(&g["gradient"]).iter().enumerate() {
        close(grad[k], *want, 1e-8, 1e-3, &format!("gradient {k}"));
    }
}

#[test]
fn gp_optimum_matches_scikit_learn() {
    let d = doc();
    let g = &d["gp_optimized"];
    let b = &g["bounds"];
    let pair = |v: &Value| {
        let v = vector(v);
        [v[0], v[1]]
    };
    let params = GpParams {
        restarts: 5,
        length_scale_bounds: pair(&b["length_scale"]),
        signal_variance_bounds: pair(&b["signal_variance"]),
        noise_variance_bounds: pair(&b["noise_variance"]),
        ..GpParams::default()
    };
    let gp = GaussianProcess::fit(&matrix(&g["x"]), &vector(&g["y"]), &params).unwrap();
    let fit = gp.fit_summary();
    let want = g["log_marginal_likelihood"].as_f64().unwrap();
    // Both optimizers stop at a gradient of ~1e-5: the optimum's value
    // agrees to far better than the tolerance, and skyplan's is not worse.
    assert!(
        (fit.log_marginal_likelihood - want).abs() < 1e-5,
        "optimum: skyplan {} vs scikit-learn {want}",
        fit.log_marginal_likelihood
    );
    let h = &fit.hyperparameters;
    for (k, want) in vector(&g["length_scales"]).iter().enumerate() {
        close(
            h.length_scales[k],
            *want,
            1e-2,
            0.0,
            &format!("length scale {k}"),
        );
    }
    close(
        h.signal_variance,
        g["signal_variance"].as_f64().unwrap(),
        1e-2,
        0.0,
        "σf²",
    );
    close(
        h.noise_variance,
        g["noise_variance"].as_f64().unwrap(),
        1e-2,
        0.0,
        "σn²",
    );
}

#[test]
fn ols_and_its_interval_match_numpy() {
    let d = doc();
    for (case, o) in d["ols"].as_array().unwrap().iter().enumerate() {
        let m = Ols::fit(&matrix(&o["x"]), &vector(&o["y"])).unwrap();
        let f = m.fit_summary();
        assert_eq!(f.rank as u64, o["rank"].as_u64().unwrap(), "case {case}");
        assert_eq!(f.dof as u64, o["dof"].as_u64().unwrap(), "case {case}");
        close(
            f.residual_variance,
            o["residual_variance"].as_f64().unwrap(),
            1e-10,
            0.0,
            "s²",
        );
        if let Some(c) = o["coefficients"].as_array() {
            for (k, want) in c.iter().enumerate() {
                close(f.coefficients[k], want.as_f64().unwrap(), 1e-9, 1.0, "β");
            }
        }
        let level = o["level"].as_f64().unwrap();
        let (mean, std, lower, upper) = (
            vector(&o["mean"]),
            vector(&o["std"]),
            vector(&o["lower"]),
            vector(&o["upper"]),
        );
        for (k, row) in matrix(&o["x_test"]).iter().enumerate() {
            let p = m.predict(row, level).unwrap();
            let what = format!("case {case}, point {k}");
            close(p.mean, mean[k], 1e-10, 1.0, &what);
            close(p.std_dev, std[k], 1e-10, 1.0, &what);
            close(p.lower, lower[k], 1e-10, 1.0, &what);
            close(p.upper, upper[k], 1e-10, 1.0, &what);
        }
    }
}
