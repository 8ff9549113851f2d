#!/usr/bin/env python3
"""Reference optima for skyplan's batch optimizer (engine/src/agenda/optimize).

Writes optimize_highs.json, which engine/tests/optimize_reference.rs (the
tests) and bench/benches/optimize.rs (the 40-request benchmark) check
skyplan against. None of this shares code with skyplan: the instances are
drawn with a port of skyplan's seeded generator (xoshiro256** seeded by
SplitMix64, engine/src/fixtures/rng.rs) so that `skyplan_bench::data::rigid_batch`
builds the same requests, and each is solved by HiGHS through
scipy.optimize.milp as a time-indexed integer program:

    minimize z  s.t.  for every request (stage) exactly one start in its
    window; R_ORDER stages start after the previous one ends; at every plan
    step, the containers of every (instance of every) request running there
    <= z * capacity (one resource: containers are 1 core, 1 GiB, and
    capacity is proportional).

Instances:
- tests: five seeded small plans of each kind: `rigid` (8 one-off gangs),
  `order` (5 R_ORDER requests of 2-3 fixed stages), `periodic` (6 periodic
  gangs with 2-4 instances per 48-step LCM, windows may wrap);
- bench: ten batches of 40 rigid one-offs (gangs of 5-40 containers for
  5-30 one-minute steps, windows 1-3x their length, a 4-hour horizon,
  capacity not binding) with HiGHS's solve time to optimality.

Run once:  python3 optimize_highs.py
"""
import json
import math
import time

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import lil_matrix

M64 = (1 << 64) - 1


class Rng:
    def __init__(self, seed):
        x = seed & M64
        s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            s.append(z ^ (z >> 31))
        self.s = s

    def next_u64(self):
        s = self.s
        rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & M64
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def unit(self):
        return (self.next_u64() >> 11) / float(1 << 53)

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.unit()

    def int(self, lo, hi):
        if hi <= lo:
            return lo
        return lo + self.next_u64() % (hi - lo + 1)


def rnd(x):
    return int(math.floor(x + 0.5))


# A request: dict(name, period (steps, or None), a, d, stages [(len, h)],
# order (True: R_ORDER with gaps; False: stages back to back)).

def rigid_batch(n, seed, horizon=240):
    """skyplan_bench::data::rigid_batch: n one-off gangs on a 4-hour horizon."""
    rng = Rng(seed)
    reqs = []
    for i in range(n):
        g = rng.int(5, 40)
        length = rng.int(5, 30)
        w = min(rnd(length * rng.uniform(1.0, 3.0)), horizon)
        a = rng.int(0, horizon - w)
        reqs.append(dict(name=f"r{i}", period=None, a=a, d=a + w, stages=[(length, g)], order=False))
    return reqs


def small_rigid(seed):
    rng = Rng(seed)
    reqs = []
    for i in range(8):
        g = rng.int(1, 6)
        length = rng.int(2, 6)
        w = min(rnd(length * rng.uniform(1.0, 2.5)), 40)
        a = rng.int(0, 40 - w)
        reqs.append(dict(name=f"r{i}", period=None, a=a, d=a + w, stages=[(length, g)], order=False))
    return dict(kind="rigid", steps=40, capacity=40, requests=reqs)


def small_order(seed):
    rng = Rng(seed)
    reqs = []
    for i in range(5):
        k = rng.int(2, 3)
        stages = [(rng.int(1, 4), rng.int(1, 5)) for _ in range(k)]
        total = sum(s[0] for s in stages)
        w = min(rnd(total * rng.uniform(1.2, 2.2)), 40)
        a = rng.int(0, 40 - w)
        reqs.append(dict(name=f"o{i}", period=None, a=a, d=a + w, stages=stages, order=True))
    return dict(kind="order", steps=40, capacity=40, requests=reqs)


def small_periodic(seed):
    rng = Rng(seed)
    reqs = []
    for i in range(6):
        p = [12, 16, 24][rng.int(0, 2)]
        g = rng.int(1, 5)
        length = rng.int(2, 5)
        w = min(rnd(length * rng.uniform(1.0, 2.0)), p)
        a = rng.int(0, p - 1)
        reqs.append(dict(name=f"p{i}", period=p, a=a, d=a + w, stages=[(length, g)], order=False))
    return dict(kind="periodic", steps=48, capacity=40, requests=reqs)


def solve(steps, capacity, reqs):
    """HiGHS's optimum of the peak cost, and its solve time (s)."""
    cols = []  # (request, stage, start)
    for j, r in enumerate(reqs):
        if r["order"]:
            for k in range(len(r["stages"])):
                before = sum(s[0] for s in r["stages"][:k])
                after = sum(s[0] for s in r["stages"][k:])
                for s in range(r["a"] + before, r["d"] - after + 1):
                    cols.append((j, k, s))
        else:
            total = sum(s[0] for s in r["stages"])
            for s in range(r["a"], r["d"] - total + 1):
                cols.append((j, -1, s))
    nx = len(cols)
    zc = nx
    load = lil_matrix((steps, nx + 1))
    for c, (j, k, s) in enumerate(cols):
        r = reqs[j]
        period = r["period"] or steps
        inst = steps // period if r["period"] else 1
        if k >= 0:
            pieces = [(s, r["stages"][k])]
        else:
            pieces, at = [], s
            for st in r["stages"]:
                pieces.append((at, st))
                at += st[0]
        for at, (length, h) in pieces:
            for q in range(length):
                for i in range(inst):
                    load[(at + q + i * period) % steps, c] += h
    for t in range(steps):
        load[t, zc] = -capacity
    rows = [LinearConstraint(load.tocsr(), -np.inf, 0.0)]
    one = lil_matrix((0, nx + 1))
    groups = {}
    for c, (j, k, s) in enumerate(cols):
        groups.setdefault((j, k), []).append(c)
    one = lil_matrix((len(groups), nx + 1))
    for g, key in enumerate(sorted(groups)):
        for c in groups[key]:
            one[g, c] = 1
    rows.append(LinearConstraint(one.tocsr(), 1.0, 1.0))
    prec = []
    for j, r in enumerate(reqs):
        if not r["order"]:
            continue
        for k in range(len(r["stages"]) - 1):
            length = r["stages"][k][0]
            for (c1) in groups[(j, k + 1)]:
                s = cols[c1][2]
                row = {}
                for c in groups[(j, k + 1)]:
                    if cols[c][2] <= s:
                        row[c] = 1.0
                for c in groups[(j, k)]:
                    if cols[c][2] + length <= s:
                        row[c] = -1.0
                prec.append(row)
    if prec:
        pm = lil_matrix((len(prec), nx + 1))
        for i, row in enumerate(prec):
            for c, v in row.items():
                pm[i, c] = v
        rows.append(LinearConstraint(pm.tocsr(), -np.inf, 0.0))
    cost = np.zeros(nx + 1)
    cost[zc] = 1.0
    integrality = np.ones(nx + 1)
    integrality[zc] = 0
    lb = np.zeros(nx + 1)
    ub = np.ones(nx + 1)
    ub[zc] = np.inf
    t0 = time.perf_counter()
    res = milp(cost, constraints=rows, integrality=integrality, bounds=Bounds(lb, ub),
               options=dict(mip_rel_gap=0.0))
    elapsed = time.perf_counter() - t0
    assert res.status == 0, res.message
    # The peak as a whole number of containers over capacity.
    z = round(res.x[zc] * capacity) / capacity
    return z, elapsed


def to_json(inst):
    out = []
    for r in inst["requests"]:
        out.append(dict(name=r["name"], period=r["period"], a=r["a"], d=r["d"],
                        stages=[list(s) for s in r["stages"]], order=r["order"]))
    return out


def main():
    tests = []
    for kind, make in (("rigid", small_rigid), ("order", small_order), ("periodic", small_periodic)):
        for seed in range(1, 6):
            inst = make(seed)
            z, _ = solve(inst["steps"], inst["capacity"], inst["requests"])
            tests.append(dict(kind=kind, seed=seed, steps=inst["steps"], capacity=inst["capacity"],
                              requests=to_json(inst), optimum=z))
            print(kind, seed, z)
    bench = []
    for seed in range(1, 11):
        reqs = rigid_batch(40, seed)
        z, secs = solve(240, 10000, reqs)
        bench.append(dict(seed=seed, optimum_containers=round(z * 10000), highs_secs=round(secs, 4)))
        print("bench", seed, round(z * 10000), f"{secs:.2f}s")
    doc = dict(
        note="HiGHS (scipy.optimize.milp) optima of the peak cost; written by optimize_highs.py",
        gap_target=0.02,
        tests=tests,
        bench=bench,
    )
    with open("optimize_highs.json", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
