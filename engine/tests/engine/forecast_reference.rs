//! The forecasters against independent references: values computed once
//! by `data/forecast_reference.py` with statsmodels (SARIMAX / ARIMA by
//! exact ML, forecasts and prediction intervals), pmdarima (`auto_arima`,
//! `ndiffs`) and scikit-learn (`GaussianProcessRegressor` on the history
//! patterns), stored in `data/forecast_reference.json`.

use serde_json::Value;
use skyplan_engine::estimate::{GpParams, Hyperparameters};
use skyplan_engine::forecast::gp::HistoryGp;
use skyplan_engine::forecast::{
    auto_arima, kpss_ndiffs, Arima, ArimaOrder, ArimaParams, HistoryGpParams, SelectParams,
};

use crate::support::{close, num, reference, vector};

fn doc() -> Value {
    reference(include_str!("../data/forecast_reference.json"))
}

fn order(v: &Value) -> ArimaOrder {
    let o: Vec<usize> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect();
    ArimaOrder::new(o[0], o[1], o[2])
}

/// The likelihood, forecast and interval at statsmodels' own estimates
/// agree to rounding; skyplan's fit reaches at least statsmodels'
/// likelihood, and where both found the same optimum the estimates agree
/// to the optimizers' tolerance.
#[test]
fn arima_matches_statsmodels() {
    let d = doc();
    for (name, cases) in d["arima"].as_object().unwrap() {
        let y = vector(&d["series"][name]);
        for c in cases.as_array().unwrap() {
            let o = order(&c["order"]);
            let what = format!("{name} ARIMA{o}");
            let ar = vector(&c["ar"]);
            let ma = vector(&c["ma"]);
            let intercept = num(&c["intercept"]);
            let mean = intercept / (1.0 - ar.iter().sum::<f64>());
            let sigma2 = num(&c["sigma2"]);
            let llf = num(&c["llf"]);

            // 1. Same parameters → same likelihood, forecasts, intervals.
            let at = Arima::with_coefficients(&y, o, &ar, &ma, Some(mean), Some(sigma2)).unwrap();
            let f = at.fit_summary();
            close(
                f.log_likelihood,
                llf,
                1e-9,
                1.0,
                &format!("{what}: llf at statsmodels' params"),
            );
            assert_eq!(
                f.observations,
                c["nobs"].as_u64().unwrap() as usize,
                "{what}"
            );
            let fc = at.forecast(10, 0.95).unwrap();
            let (m, lo, hi, var) = (
                vector(&c["forecast_mean"]),
                vector(&c["forecast_lower"]),
                vector(&c["forecast_upper"]),
                vector(&c["forecast_var"]),
            );
            // d > 0: statsmodels' levels model starts the integrated state
            // approximately diffuse (variance 1e6), which moves forecasts
            // by ~1e-7 of the series' scale.
            let rel = if o.d == 0 { 1e-9 } else { 1e-6 };
            for k in 0..10 {
                close(fc[k].mean, m[k], rel, 1.0, &format!("{what}: mean {k}"));
                close(
                    fc[k].variance,
                    var[k],
                    rel,
                    1e-3,
                    &format!("{what}: var {k}"),
                );
                close(fc[k].lower, lo[k], rel, 1.0, &format!("{what}: lower {k}"));
                close(fc[k].upper, hi[k], rel, 1.0, &format!("{what}: upper {k}"));
            }

            // 2. skyplan's own fit.
            let fit = Arima::fit(&y, o, &ArimaParams::default()).unwrap();
            let g = fit.fit_summary();
            assert!(
                g.log_likelihood >= llf - 1e-6 * llf.abs(),
                "{what}: skyplan llf {} below statsmodels' {llf}",
                g.log_likelihood
            );
            assert_eq!(g.parameters, ar.len() + ma.len() + 2);
            if (g.log_likelihood - llf).abs() < 1e-4 {
                // The same optimum (flat likelihoods allow ~1e-3 movement).
                for (a, b) in g.ar.iter().zip(&ar).chain(g.ma.iter().zip(&ma)) {
                    close(*a, *b, 5e-3, 1.0, &format!("{what}: coefficient"));
                }
                close(
                    g.constant.unwrap(),
                    intercept,
                    5e-3,
                    1.0,
                    &format!("{what}: δ"),
                );
                close(g.sigma2, sigma2, 1e-3, 1e-6, &format!("{what}: σ²"));
                close(g.aic, num(&c["aic"]), 1e-6, 1.0, &format!("{what}: AIC"));
            } else {
                eprintln!(
                    "{what}: skyplan llf {:.6} > statsmodels' {llf:.6} (statsmodels stopped short)",
                    g.log_likelihood
                );
            }
            // statsmodels' ARIMA class (d = 0): its `const` is the mean.
            if let Some(arima_llf) = c.get("arima_llf").and_then(Value::as_f64) {
                assert!(
                    g.log_likelihood >= arima_llf - 1e-6 * arima_llf.abs(),
                    "{what}"
                );
                if (g.log_likelihood - arima_llf).abs() < 1e-4 {
                    close(
                        g.mean.unwrap(),
                        num(&c["arima_const_mean"]),
                        5e-3,
                        1.0,
                        &format!("{what}: ARIMA const (mean)"),
                    );
                }
            }
        }
    }
}

/// d by KPSS as pmdarima's `ndiffs`; the order with the smallest AIC over
/// the grid p, q ≤ 5, p + q ≤ 5, never worse than pmdarima's choice or the
/// best statsmodels fit of the grid. The order equals pmdarima's on 3 of
/// the 5 series; on the other two skyplan's likelihood optimum of an order
/// is higher than statsmodels' and pmdarima's fits reached:
/// nyc_taxi (0, 1, 4) at AIC 6679.7, where pmdarima's 50-iteration fits
/// chose (1, 1, 4) at 6726.8; nab_cpu (3, 0, 2) at AIC 890.2 with MA roots
/// at |z| = 1.00008, where statsmodels' fit of that order stops at 1010.5
/// and pmdarima chose (0, 0, 5) at 977.7 — statsmodels' own `loglike` at
/// skyplan's parameters gives skyplan's −438.098 (checked by hand; the
/// likelihoods agree to 1e-9 at the same parameters, `arima_matches_
/// statsmodels`).
#[test]
fn aic_order_matches_pmdarima() {
    let d = doc();
    let mut matches = 0;
    for (name, a) in d["auto_arima"].as_object().unwrap() {
        let y = vector(&d["series"][name]);
        let ndiffs = a["ndiffs"].as_u64().unwrap() as usize;
        assert_eq!(kpss_ndiffs(&y, 0.05, 2), ndiffs, "{name}: ndiffs");
        let sel = auto_arima(&y, &SelectParams::default()).unwrap();
        let got = sel.model.fit_summary();
        // statsmodels' converged AIC per (p, q).
        let grid: Vec<(usize, usize, f64)> = a["statsmodels_grid_aic"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| {
                let r = r.as_array().unwrap();
                Some((
                    r[0].as_u64()? as usize,
                    r[1].as_u64()? as usize,
                    r[2].as_f64()?,
                ))
            })
            .collect();
        let best = grid
            .iter()
            .min_by(|x, y| x.2.total_cmp(&y.2))
            .copied()
            .unwrap();
        // skyplan's AIC per grid model against statsmodels': ARMA
        // likelihoods of over-sized models have local optima at the edge of
        // invertibility (e.g. ar1's (3, 0, 2): statsmodels' MA roots at
        // |z| = 1.0025); skyplan may stop in another one there. Reported,
        // and bounded: at most two such models per series, none the winner.
        let mut worse = 0;
        for cand in &sel.candidates {
            let Ok(aic) = cand.aic else { continue };
            if let Some(g) = grid
                .iter()
                .find(|g| g.0 == cand.order.p && g.1 == cand.order.q)
            {
                if aic > g.2 + 1e-3 {
                    worse += 1;
                    eprintln!(
                        "{name} {}: skyplan AIC {aic:.4}, statsmodels {:.4}",
                        cand.order, g.2
                    );
                }
            }
        }
        assert!(worse <= 2, "{name}: {worse} grid models at a worse optimum");
        let pm = order(&a["order"]);
        let pm_aic = num(&a["aic"]);
        assert_eq!(got.order.d, pm.d, "{name}: d");
        let sm_aic_of_mine = grid
            .iter()
            .find(|g| g.0 == got.order.p && g.1 == got.order.q)
            .map_or(f64::NAN, |g| g.2);
        eprintln!(
            "{name}: skyplan {} AIC {:.3} (statsmodels' fit of that order: {sm_aic_of_mine:.3}); pmdarima {pm} AIC {pm_aic:.3}; statsmodels grid minimum ({}, {}, {}) AIC {:.3}",
            got.order, got.aic, best.0, pm.d, best.1, best.2
        );
        if got.order == pm {
            matches += 1;
        }
        assert!(
            got.aic <= best.2 + 1e-6 * best.2.abs(),
            "{name}: AIC {}",
            got.aic
        );
        assert!(
            got.aic <= pm_aic + 1e-6 * pm_aic.abs(),
            "{name}: AIC {}",
            got.aic
        );
    }
    eprintln!("the AIC order equals pmdarima's on {matches} of 5 series");
}

fn gp_params(c: &Value) -> (usize, usize, Hyperparameters) {
    (
        c["h"].as_u64().unwrap() as usize,
        c["latest"].as_u64().unwrap() as usize,
        Hyperparameters {
            length_scales: vector(&c["length_scales"]),
            signal_variance: num(&c["signal_variance"]),
            noise_variance: num(&c["noise_variance"]),
        },
    )
}

/// Same hyperparameters → scikit-learn's one-step mean, variance and log
/// marginal likelihood to 1e-9; ML-II reaches at least scikit-learn's
/// optimum (10 restarts).
#[test]
fn history_gp_matches_scikit_learn() {
    let d = doc();
    for (name, c) in d["gp"].as_object().unwrap() {
        let y = vector(&d["series"][name]);
        let (h, latest, hyper) = gp_params(c);
        let fixed = HistoryGpParams {
            gp: GpParams {
                optimize: false,
                initial: Some(hyper),
                ..GpParams::default()
            },
            ..HistoryGpParams::default()
        };
        let gp = HistoryGp::fit(&y, h, latest, &fixed).unwrap();
        let f = gp.forecast(1, 0.95).unwrap()[0];
        close(f.mean, num(&c["mean"]), 1e-9, 1.0, &format!("{name}: mean"));
        close(
            f.variance.sqrt(),
            num(&c["std"]),
            1e-9,
            1e-3,
            &format!("{name}: std"),
        );
        close(
            gp.summary().log_marginal_likelihood,
            num(&c["lml"]),
            1e-9,
            1.0,
            &format!("{name}: log marginal likelihood"),
        );
        let fitted = HistoryGp::fit(&y, h, latest, &HistoryGpParams::default()).unwrap();
        let lml = fitted.summary().log_marginal_likelihood;
        let want = num(&c["fitted_lml"]);
        assert!(
            lml >= want - 1e-6 * want.abs(),
            "{name}: ML-II reached {lml}, scikit-learn {want}"
        );
        eprintln!("{name}: ML-II log ML {lml:.4} (scikit-learn, 10 restarts: {want:.4})");
    }
}
