#!/usr/bin/env python3
"""The Python side of the forecasting benchmark (bench/benches/forecast.rs):
per forecast step with h = 10 on the same NAB series and windows,

- scikit-learn GaussianProcessRegressor on the latest N = 100 history
  patterns (standardized, normalize_y, ConstantKernel * RBF(ARD) +
  WhiteKernel): refit with the kernel fixed (optimizer=None: one Cholesky,
  what a step costs without an incremental update) and with ML-II
  (L-BFGS-B, n_restarts_optimizer=2: 3 starts, as skyplan's), then the
  one-step prediction with its std;
- pmdarima auto_arima on the latest N + h = 110 values: the default
  stepwise search, and stepwise=False over skyplan's grid (p, q <= 5,
  p + q <= 5, with_intercept=True), then the one-step forecast with its
  interval.

BLAS threads are pinned to 1 (more only oversubscribes a shared machine:
auto_arima took 39 s instead of 5 s with the default threads here).

    pip install numpy==2.4.6 scipy==1.17.1 scikit-learn==1.9.1 \
        statsmodels==0.15.0 pmdarima==2.1.1
    python3 forecast_bench.py [CSV] [--gp-steps 50] [--arima-steps 5]

(the versions of the last recorded run, BENCHMARKS.md).
"""
import os

for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"

import argparse  # noqa: E402
import csv  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pmdarima  # noqa: E402
from sklearn.gaussian_process import GaussianProcessRegressor  # noqa: E402
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "fixtures", "real", "nab",
                       "ec2_cpu_utilization_5f5533.csv")


def patterns(y, h, n):
    end = len(y)
    ts = range(end - n, end)
    x = np.array([[t] + list(y[t - h:t]) for t in ts], dtype=float)
    q = np.array([[end] + list(y[end - h:end])], dtype=float)
    return x, y[end - n:end], q


def gp_step(w, h, n, optimize):
    x, t, q = patterns(w, h, n)
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1.0
    z, zq = (x - mean) / std, (q - mean) / std
    if optimize:
        k = (ConstantKernel(1.0, (1e-3, 1e3)) * RBF(np.ones(h + 1), (1e-2, 1e3))
             + WhiteKernel(0.1, (1e-6, 10.0)))
        g = GaussianProcessRegressor(k, alpha=0.0, normalize_y=True,
                                     n_restarts_optimizer=2, random_state=0)
    else:
        k = (ConstantKernel(1.0, "fixed") * RBF(np.ones(h + 1), "fixed")
             + WhiteKernel(0.1, "fixed"))
        g = GaussianProcessRegressor(k, alpha=0.0, normalize_y=True, optimizer=None)
    g.fit(z, t)
    return g.predict(zq, return_std=True)


def timed(f, steps):
    ts = []
    for k in range(steps):
        t0 = time.perf_counter()
        f(k)
        ts.append((time.perf_counter() - t0) * 1e3)
    return np.median(ts), np.mean(ts), steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="?", default=DEFAULT)
    ap.add_argument("--gp-steps", type=int, default=50)
    ap.add_argument("--arima-steps", type=int, default=5)
    a = ap.parse_args()
    with open(a.csv) as f:
        y = np.array([float(r["value"]) for r in csv.DictReader(f)])
    h, n = 10, 100
    start = len(y) - 1000 - 1  # the Rust bench's first step
    rows = [
        ("scikit-learn GPR, kernel fixed (refit = one Cholesky) + predict",
         timed(lambda k: gp_step(y[:start + k], h, n, False), a.gp_steps)),
        ("scikit-learn GPR, ML-II (3 starts) + predict",
         timed(lambda k: gp_step(y[:start + k], h, n, True), max(1, a.gp_steps // 5))),
        ("pmdarima auto_arima (stepwise, default) + 1-step forecast",
         timed(lambda k: pmdarima.auto_arima(
             y[start + k - n - h:start + k], seasonal=False, suppress_warnings=True,
             error_action="ignore").predict(1, return_conf_int=True), a.arima_steps)),
        ("pmdarima auto_arima (stepwise=False, p, q <= 5, p + q <= 5) + 1-step forecast",
         timed(lambda k: pmdarima.auto_arima(
             y[start + k - n - h:start + k], seasonal=False, stepwise=False,
             max_order=5, with_intercept=True, suppress_warnings=True,
             error_action="ignore").predict(1, return_conf_int=True),
             max(1, a.arima_steps // 2))),
    ]
    print(f"series {a.csv}: {len(y)} values; h = {h}, N = {n}")
    print("| step | Python, median (ms) | Python, mean (ms) | steps |")
    print("| --- | ---: | ---: | ---: |")
    for label, (med, mean, steps) in rows:
        print(f"| {label} | {med:.2f} | {mean:.2f} | {steps} |")


if __name__ == "__main__":
    main()
