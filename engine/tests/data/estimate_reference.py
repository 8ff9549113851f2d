#!/usr/bin/env python3
"""Reference values for skyplan's processing-time estimators (MRM §3.2).

Writes estimate_reference.json, which engine/tests/estimate_reference.rs
checks skyplan against:

- quantiles: scipy.stats.norm.ppf and scipy.stats.t.ppf;
- gp_fixed: scikit-learn's GaussianProcessRegressor with fixed kernel
  hyperparameters, ConstantKernel * RBF (ARD) + WhiteKernel, normalize_y=True,
  alpha=0, on features standardized as skyplan standardizes them (column
  mean, population standard deviation): predictive mean and standard
  deviation at test points, the log marginal likelihood and its gradient in
  the log-hyperparameters (reordered to skyplan's order: length scales,
  signal variance, noise variance);
- gp_optimized: the same model with hyperparameters fitted by scikit-learn
  (L-BFGS-B, 10 restarts) within skyplan's default bounds: the optimum's log
  marginal likelihood and hyperparameters;
- ols: ordinary least squares on [1, standardized features] by numpy
  (lstsq's rank cut-off rcond = eps * max(n, p), the pseudo-inverse for the
  leverage), its Student-t prediction interval for new observations
  (statsmodels' get_prediction(...).conf_int(obs=True) formula), and the
  coefficients in raw units from lstsq on [1, raw features]; once full rank
  and once with a duplicated column (rank-deficient).

None of this shares code with skyplan. Run once:
    pip install scikit-learn numpy scipy && python3 estimate_reference.py
"""
import json

import numpy as np
import scipy
import sklearn
from scipy.stats import norm, t
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel


def standardize(x, x_test):
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std[std == 0] = 1.0
    return (x - mean) / std, (x_test - mean) / std


def smooth(rng, n, d):
    x = rng.uniform(-2.0, 2.0, size=(n, d)) * np.array([1.0, 3.0, 50.0])[:d] + np.array([0.0, 10.0, 100.0])[:d]
    z = (x - np.array([0.0, 10.0, 100.0])[:d]) / np.array([1.0, 3.0, 50.0])[:d]
    y = np.sin(1.5 * z[:, 0]) + 0.3 * z[:, 1] ** 2 + 0.1 * rng.standard_normal(n)
    return x, 20.0 + 5.0 * y


def gp_fixed(rng):
    x, y = smooth(rng, 30, 3)
    x_test = rng.uniform(-2.5, 2.5, size=(8, 3)) * np.array([1.0, 3.0, 50.0]) + np.array([0.0, 10.0, 100.0])
    ls, sf2, sn2 = [0.8, 1.7, 4.0], 1.3, 0.05
    kernel = (ConstantKernel(sf2, "fixed") * RBF(ls, "fixed")
              + WhiteKernel(sn2, "fixed"))
    z, z_test = standardize(x, x_test)
    gpr = GaussianProcessRegressor(kernel, alpha=0.0, optimizer=None,
                                   normalize_y=True).fit(z, y)
    mean, std = gpr.predict(z_test, return_std=True)
    # The gradient needs free hyperparameters: the same kernel, not fixed.
    free = ConstantKernel(sf2) * RBF(ls) + WhiteKernel(sn2)
    g2 = GaussianProcessRegressor(free, alpha=0.0, optimizer=None,
                                  normalize_y=True).fit(z, y)
    lml, grad = g2.log_marginal_likelihood(g2.kernel_.theta, eval_gradient=True)
    # sklearn's order: log σf², log ℓ_1..ℓ_d, log σn²; skyplan's: ℓ.., σf², σn².
    grad = list(grad[1:4]) + [grad[0], grad[4]]
    return {
        "x": x.tolist(), "y": y.tolist(), "x_test": x_test.tolist(),
        "length_scales": ls, "signal_variance": sf2, "noise_variance": sn2,
        "mean": mean.tolist(), "std": std.tolist(),
        "log_marginal_likelihood": float(gpr.log_marginal_likelihood_value_),
        "log_marginal_likelihood_free": float(lml),
        "gradient": [float(v) for v in grad],
    }


def gp_optimized(rng):
    x, y = smooth(rng, 40, 3)
    bounds = {"length_scale": [1e-2, 1e3], "signal_variance": [1e-3, 1e3],
              "noise_variance": [1e-6, 10.0]}
    kernel = (ConstantKernel(1.0, bounds["signal_variance"])
              * RBF([1.0, 1.0, 1.0], bounds["length_scale"])
              + WhiteKernel(0.1, bounds["noise_variance"]))
    z, _ = standardize(x, x[:1])
    gpr = GaussianProcessRegressor(kernel, alpha=0.0, normalize_y=True,
                                   n_restarts_optimizer=10,
                                   random_state=0).fit(z, y)
    p = np.exp(gpr.kernel_.theta)
    return {
        "x": x.tolist(), "y": y.tolist(), "bounds": bounds,
        "log_marginal_likelihood": float(gpr.log_marginal_likelihood_value_),
        "signal_variance": float(p[0]), "length_scales": p[1:4].tolist(),
        "noise_variance": float(p[4]),
    }


def ols(x, y, x_test, level):
    z, z_test = standardize(x, x_test)
    a = np.column_stack([np.ones(len(z)), z])
    a_test = np.column_stack([np.ones(len(z_test)), z_test])
    n, p = a.shape
    rcond = np.finfo(float).eps * max(n, p)
    beta, _, rank, _ = np.linalg.lstsq(a, y, rcond=rcond)
    dof = n - rank
    resid = y - a @ beta
    s2 = float(resid @ resid / dof)
    pinv = np.linalg.pinv(a, rcond=rcond)
    cov = pinv @ pinv.T  # (AᵀA)⁺
    lev = np.einsum("ij,jk,ik->i", a_test, cov, a_test)
    se = np.sqrt(s2 * (1.0 + lev))
    q = t.ppf(0.5 + 0.5 * level, dof)
    mean = a_test @ beta
    raw = None
    if rank == p:
        raw = np.linalg.lstsq(np.column_stack([np.ones(n), x]), y, rcond=None)[0].tolist()
    return {
        "x": x.tolist(), "y": y.tolist(), "x_test": x_test.tolist(),
        "level": level, "rank": int(rank), "dof": int(dof),
        "residual_variance": s2, "mean": mean.tolist(), "std": se.tolist(),
        "lower": (mean - q * se).tolist(), "upper": (mean + q * se).tolist(),
        "coefficients": raw,
    }


def main():
    rng = np.random.default_rng(20261122)
    ps = [0.6, 0.9, 0.95, 0.975, 0.99, 0.995, 0.9995, 0.025, 1e-6]
    dfs = [1, 2, 3, 4, 7, 12, 30, 120, 1000, 2.5]
    out = {
        "generator": "engine/tests/data/estimate_reference.py",
        "versions": {"numpy": np.__version__, "scipy": scipy.__version__,
                     "scikit-learn": sklearn.__version__},
        "quantiles": {
            "normal": [[p, float(norm.ppf(p))] for p in ps],
            "t": [[p, df, float(t.ppf(p, df))] for p in ps for df in dfs],
        },
        "gp_fixed": gp_fixed(rng),
        "gp_optimized": gp_optimized(rng),
    }
    x = rng.uniform(0.0, 10.0, size=(25, 3))
    y = 3.0 + x @ np.array([1.5, -2.0, 0.5]) + rng.standard_normal(25)
    x_test = rng.uniform(0.0, 12.0, size=(5, 3))
    full = ols(x, y, x_test, 0.95)
    # A fourth column that repeats the first: rank 4 of 5, the minimum-norm
    # solution splits the coefficient between the two.
    xc = np.column_stack([x, x[:, 0]])
    xc_test = np.column_stack([x_test, x_test[:, 0]])
    collinear = ols(xc, y, xc_test, 0.9)
    out["ols"] = [full, collinear]
    with open("estimate_reference.json", "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
