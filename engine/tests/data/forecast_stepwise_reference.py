#!/usr/bin/env python3
"""Reference walks of pmdarima's stepwise order search (engine/src/forecast/
stepwise.rs), written to forecast_stepwise_reference.json, which
engine/tests/engine/forecast_stepwise.rs checks skyplan against. None of
this shares code with skyplan.

For each series, pmdarima.auto_arima with its defaults for a non-seasonal
series (stepwise=True, start_p = start_q = 2, max_p = max_q = 5,
with_intercept="auto", d by KPSS at 5 %, max_d = 2, AIC, maxiter 50): the
chosen order, whether it has a constant, its AIC, and every model the walk
fitted, in the order it fitted them, with the AIC the walk compared (after
pmdarima's near-non-invertible root test, which sets it to infinity:
written as null). The walk is recorded by wrapping pmdarima's own
`_fit_candidate_model`, the function the stepwise wrapper calls per model.

Series: the five of forecast_reference.json (read from it, so both files
describe the same data) and the first 20 windows of the forecasting
benchmark (bench/benches/forecast.rs): 110 values of the NAB series
ec2_cpu_utilization_5f5533, the k-th ending 1,001 − k values before the
series' end.

Run once (the packages are not needed at test time):
    pip install numpy==2.4.6 statsmodels==0.15.0 pmdarima==2.1.1
    python3 forecast_stepwise_reference.py
"""
import csv
import json
import os
import warnings

for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"

import numpy as np  # noqa: E402
import pmdarima  # noqa: E402
import statsmodels  # noqa: E402
from pmdarima.arima import _auto_solvers as solvers  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
NAB = os.path.join(HERE, "..", "..", "..", "fixtures", "real", "nab",
                   "ec2_cpu_utilization_5f5533.csv")

WALK = []
_fit = solvers._fit_candidate_model


def recording_fit(*args, **kwargs):
    fit, fit_time, ic = _fit(*args, **kwargs)
    p, d, q = kwargs["order"]
    WALK.append({
        "order": [p, d, q],
        "constant": bool(kwargs["with_intercept"]),
        "aic": float(ic) if np.isfinite(ic) else None,
    })
    return fit, fit_time, ic


solvers._fit_candidate_model = recording_fit


def case(y):
    WALK.clear()
    fit = pmdarima.auto_arima(np.asarray(y, dtype=float), seasonal=False,
                              suppress_warnings=True, error_action="ignore")
    return {
        "order": list(fit.order),
        "constant": bool(fit.with_intercept),
        "aic": float(fit.aic()),
        "walk": list(WALK),
    }


def main():
    with open(os.path.join(HERE, "forecast_reference.json")) as f:
        series = json.load(f)["series"]
    with open(NAB) as f:
        y = [float(r["value"]) for r in csv.DictReader(f)]
    start = len(y) - 1000 - 1
    windows = {f"bench_window_{k:02}": y[start + k - 110:start + k] for k in range(20)}
    out = {
        "versions": {"pmdarima": pmdarima.__version__,
                     "statsmodels": statsmodels.__version__,
                     "numpy": np.__version__},
        "series": windows,
        "cases": {},
    }
    for name, values in list(series.items()) + list(windows.items()):
        out["cases"][name] = case(values)
        c = out["cases"][name]
        print(name, c["order"], c["constant"], round(c["aic"], 3), len(c["walk"]), "fits")
    with open(os.path.join(HERE, "forecast_stepwise_reference.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
