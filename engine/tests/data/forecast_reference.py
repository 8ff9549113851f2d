#!/usr/bin/env python3
"""Reference values for skyplan's forecasters (engine/src/forecast).

Writes forecast_reference.json, which engine/tests/forecast_reference.rs
checks skyplan against. None of this shares code with skyplan.

- series: five series of 300–400 values: simulated AR(1), ARMA(1, 1) and a
  random walk with drift (numpy, seeded), and the latest 400 values of two
  NAB series (ec2_cpu_utilization_5f5533, 5-min CPU %; nyc_taxi, 30-min
  passenger counts), stored so the test does not need the data directory;
- arima: per series and order, statsmodels' SARIMAX(order, trend="c") —
  eq. 2's constant δ as the state intercept, what pmdarima fits and what
  statsmodels' ARIMA class is built on — by exact maximum likelihood
  (L-BFGS, maxiter 1000), with simple_differencing=True so that the
  likelihood is the differenced series' (skyplan's definition; the default
  approximate-diffuse start burns the first d values and differs by
  ~1e-6); intercept, AR, MA, σ², log-likelihood, AIC, and the 10-step
  forecast mean and 95 % interval (get_forecast(...).conf_int(), a
  prediction interval) of the same parameters in levels through the
  default SARIMAX (simple_differencing=False). For d = 0 also statsmodels'
  ARIMA(order, trend="c"), whose "const" is the mean δ/(1 − Σφ);
- auto_arima: pmdarima.auto_arima(stepwise=False, max_p=5, max_q=5,
  max_order=5, with_intercept=True, d chosen by KPSS, max_d=2): the chosen
  order and its AIC, ndiffs, and statsmodels' AIC for every (p, q) of the
  grid at that d (simple_differencing=True);
- gp: scikit-learn GaussianProcessRegressor on the history patterns of
  eq. 5 ([t, y_{t-h}, ..., y_{t-1}] -> y_t, h = 10, the latest N = 100),
  standardized as skyplan does (column mean, population std),
  normalize_y=True, kernel ConstantKernel * RBF(ARD) + WhiteKernel, alpha=0:
  with fixed hyperparameters the one-step predictive mean and std at the
  next pattern and the log marginal likelihood; and fitted (L-BFGS-B, 10
  restarts, skyplan's default bounds): the log marginal likelihood reached.

Run once (the packages are not needed at test time):
    pip install numpy scipy scikit-learn statsmodels pmdarima
    python3 forecast_reference.py
"""
import csv
import json
import os
import warnings

import numpy as np
import pmdarima
import sklearn
import statsmodels
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel
from statsmodels.tsa.arima.model import ARIMA
from statsmodels.tsa.statespace.sarimax import SARIMAX

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
NAB = os.path.join(HERE, "..", "..", "..", "fixtures", "real", "nab")


def nab(name, last):
    with open(os.path.join(NAB, name)) as f:
        rows = list(csv.DictReader(f))
    return [float(r["value"]) for r in rows[-last:]]


def simulate():
    rng = np.random.default_rng(20240611)
    n = 300
    e = rng.standard_normal(n + 100)
    ar1 = np.zeros(n + 100)
    arma = np.zeros(n + 100)
    for t in range(1, n + 100):
        ar1[t] = 0.7 * ar1[t - 1] + 2.0 * e[t]
        arma[t] = 0.6 * arma[t - 1] + e[t] + 0.4 * e[t - 1]
    rw = 10.0 + np.cumsum(0.2 + rng.standard_normal(n))
    return {
        "ar1": list(50.0 + ar1[100:]),
        "arma11": list(20.0 + arma[100:]),
        "rw_drift": list(rw),
    }


def sarimax_fit(y, order, simple):
    m = SARIMAX(y, order=order, trend="c", simple_differencing=simple)
    return m, m.fit(method="lbfgs", maxiter=1000, disp=False)


def arima_case(y, order):
    y = np.asarray(y)
    p, d, q = order
    model, res = sarimax_fit(y, order, True)
    params = dict(zip(model.param_names, res.params))
    # The same parameters, forecast in levels.
    levels = SARIMAX(y, order=order, trend="c").filter(res.params)
    fc = levels.get_forecast(10)
    ci = fc.conf_int(alpha=0.05)
    case = {
        "order": list(order),
        "intercept": params["intercept"],
        "ar": [params[f"ar.L{i}"] for i in range(1, p + 1)],
        "ma": [params[f"ma.L{i}"] for i in range(1, q + 1)],
        "sigma2": params["sigma2"],
        "llf": res.llf,
        "aic": res.aic,
        "nobs": int(res.nobs),
        "forecast_mean": list(fc.predicted_mean),
        "forecast_lower": list(ci[:, 0]),
        "forecast_upper": list(ci[:, 1]),
        "forecast_var": list(fc.var_pred_mean),
    }
    if d == 0:
        a = ARIMA(y, order=order, trend="c").fit()
        case["arima_const_mean"] = float(a.params[0])
        case["arima_llf"] = a.llf
    return case


def auto_case(y):
    y = np.asarray(y)
    fit = pmdarima.auto_arima(
        y, stepwise=False, max_p=5, max_q=5, max_order=5, d=None, max_d=2,
        test="kpss", seasonal=False, with_intercept=True,
        information_criterion="aic", error_action="ignore",
        suppress_warnings=True)
    order = fit.order
    d = order[1]
    grid = []
    for p in range(6):
        for q in range(6):
            if p + q > 5:
                continue
            try:
                _, res = sarimax_fit(y, (p, d, q), True)
                grid.append([p, q, res.aic])
            except Exception:  # noqa: BLE001 - a failed fit is listed as such
                grid.append([p, q, None])
    return {
        "ndiffs": int(pmdarima.arima.ndiffs(y, alpha=0.05, test="kpss", max_d=2)),
        "order": list(order),
        "aic": fit.aic(),
        "statsmodels_grid_aic": grid,
    }


def patterns(y, h, latest):
    y = np.asarray(y)
    n = len(y)
    ts = list(range(max(h, n - latest), n))
    x = np.array([[t] + list(y[t - h:t]) for t in ts], dtype=float)
    target = y[ts]
    query = np.array([[n] + list(y[n - h:n])], dtype=float)
    return x, target, query


def gp_case(y, h, latest, ls, sf2, sn2):
    x, target, query = patterns(y, h, latest)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std[std == 0] = 1.0
    z, zq = (x - mean) / std, (query - mean) / std
    kernel = ConstantKernel(sf2, "fixed") * RBF(ls, "fixed") + WhiteKernel(sn2, "fixed")
    gpr = GaussianProcessRegressor(kernel, alpha=0.0, optimizer=None,
                                   normalize_y=True).fit(z, target)
    m, s = gpr.predict(zq, return_std=True)
    fitted_kernel = (ConstantKernel(1.0, (1e-3, 1e3))
                     * RBF(np.ones(h + 1), (1e-2, 1e3))
                     + WhiteKernel(0.1, (1e-6, 10.0)))
    fitted = GaussianProcessRegressor(fitted_kernel, alpha=0.0, normalize_y=True,
                                      n_restarts_optimizer=10,
                                      random_state=0).fit(z, target)
    return {
        "h": h,
        "latest": latest,
        "length_scales": ls,
        "signal_variance": sf2,
        "noise_variance": sn2,
        "mean": float(m[0]),
        "std": float(s[0]),
        "lml": float(gpr.log_marginal_likelihood_value_),
        "fitted_lml": float(fitted.log_marginal_likelihood_value_),
        "fitted_kernel": str(fitted.kernel_),
    }


def main():
    series = simulate()
    series["nab_cpu"] = nab("ec2_cpu_utilization_5f5533.csv", 400)
    series["nyc_taxi"] = nab("nyc_taxi.csv", 400)
    orders = {
        "ar1": [(1, 0, 0), (2, 0, 1)],
        "arma11": [(1, 0, 1), (0, 0, 2)],
        "rw_drift": [(0, 1, 0), (1, 1, 1)],
        "nab_cpu": [(1, 0, 1), (2, 1, 2)],
        "nyc_taxi": [(2, 0, 1), (3, 0, 0)],
    }
    out = {
        "versions": {
            "numpy": np.__version__,
            "statsmodels": statsmodels.__version__,
            "pmdarima": pmdarima.__version__,
            "sklearn": sklearn.__version__,
        },
        "series": series,
        "arima": {k: [arima_case(series[k], o) for o in v] for k, v in orders.items()},
        "auto_arima": {k: auto_case(v) for k, v in series.items()},
        "gp": {
            "nab_cpu": gp_case(series["nab_cpu"], 10, 100,
                               [2.0] + [1.5 + 0.1 * i for i in range(10)], 1.2, 0.3),
            "ar1": gp_case(series["ar1"], 10, 100,
                           [5.0] + [3.0] * 9 + [0.8], 0.9, 0.4),
        },
    }
    with open(os.path.join(HERE, "forecast_reference.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
