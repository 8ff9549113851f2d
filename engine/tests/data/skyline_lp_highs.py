#!/usr/bin/env python3
"""Reference optima of the Morpheus §5 skyline LP, computed by HiGHS.

Writes skyline_lp_highs.json: random histories (seeded) and, for each, the
optimal objective of the LP *as the paper writes it* (over-allocation,
debt recursion, instantaneous under-allocation, epsilon) solved by
scipy.optimize.linprog(method="highs"). engine/tests/skyline_reference.rs
checks skyplan's flow and simplex solvers against these numbers, so the
LP optimum is verified by a solver that shares no code with skyplan.

Run: pip install scipy numpy && python3 skyline_lp_highs.py
"""
import json
import numpy as np
from scipy.optimize import linprog
from scipy.sparse import lil_matrix


def solve(rows, alpha, beta, lo, hi):
    c = np.asarray(rows, dtype=float)
    n, k = c.shape
    # Variable layout: s (k) | o (n*k) | d (n*k) | u (n*k) | eps (1)
    ns, no = k, n * k
    nvar = ns + 3 * no + 1
    o0, d0, u0, e0 = ns, ns + no, ns + 2 * no, ns + 3 * no
    cost = np.zeros(nvar)
    cost[o0:o0 + no] = alpha / n
    for i in range(n):
        cost[d0 + i * k + k - 1] = (1 - alpha) / n
    cost[e0] = beta
    rows_a, rhs = [], []
    a = lil_matrix((3 * no + 1, nvar))
    r = 0
    for i in range(n):
        tot = c[i].sum()
        for kk in range(k):
            # o_ik >= s_k - c_ik   ->  s_k - o_ik <= c_ik
            a[r, kk] = 1; a[r, o0 + i * k + kk] = -1; rhs.append(c[i, kk]); r += 1
            # d_ik >= d_i,k-1 + c_ik - s_k  ->  -d_ik + d_i,k-1 - s_k <= -c_ik
            a[r, d0 + i * k + kk] = -1; a[r, kk] = -1
            if kk > 0:
                a[r, d0 + i * k + kk - 1] = 1
            rhs.append(-c[i, kk]); r += 1
            # u_ik >= c_ik - s_k  ->  -u_ik - s_k <= -c_ik
            a[r, u0 + i * k + kk] = -1; a[r, kk] = -1; rhs.append(-c[i, kk]); r += 1
            # (1/N) sum u_ik / tot_i <= eps
            a[3 * no, u0 + i * k + kk] = 1.0 / (n * tot)
    a[3 * no, e0] = -1
    rhs.append(0.0)
    bounds = [(lo, None if hi is None else hi)] * k + [(0, None)] * (3 * no + 1)
    res = linprog(cost, A_ub=a.tocsr(), b_ub=np.array(rhs), bounds=bounds, method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    assert res.status == 0, res.message
    return res.fun


def main():
    rng = np.random.default_rng(20261122)
    cases = []
    for case in range(24):
        n = int(rng.integers(2, 12))
        k = int(rng.integers(5, 60))
        base = rng.uniform(5, 60)
        rows = []
        for _ in range(n):
            scale = rng.uniform(0.8, 1.2)
            row = [max(0.0, round(base * scale * (1 + 0.6 * np.sin(j / 4.0)) + rng.normal(0, 3))) for j in range(k)]
            rows.append(row)
        alpha = float([0.0, 0.01, 0.1, 0.5, 1.0][case % 5])
        beta = float([0.0, 0.5, 3.0][case % 3])
        lo = float(case % 2)
        hi = None if case % 4 else float(base * 1.3)
        cases.append({"rows": rows, "alpha": alpha, "beta": beta, "lo": lo, "hi": hi,
                      "objective": solve(rows, alpha, beta, lo, hi)})
    with open("skyline_lp_highs.json", "w") as f:
        json.dump({"solver": "scipy.optimize.linprog(method='highs')", "cases": cases}, f, indent=1)


if __name__ == "__main__":
    main()
