#!/usr/bin/env python3
"""The peer of skyplan's `harvest::classify`: numpy + scikit-learn doing the
same work on the same tenants, written as a competent user of those
libraries writes it, timed, and compared label by label with skyplan's.

`cargo bench -p skyplan-bench --bench harvest -- --classify --peer` runs it
in the same run (with `PYTHON`, default `python3`); by hand:

    python3 harvest_bench.py FILE

FILE holds the 1,000 generated tenants × 21,600 two-minute slots (30 days)
as little-endian f64 rows; FILE.json holds the grid (start, step), each
tenant's servers and cores, and skyplan's pattern and class per tenant.

The work, vectorized over the whole tenants × slots matrix where numpy
can:

- each tenant's power spectrum: one `numpy.fft.rfft` over the centred
  matrix, then |X|²;
- mean, population standard deviation, coefficient of variation, the 99th
  percentile (`numpy.percentile`, linear, as skyplan's), the five strongest
  bins and the low-frequency share (evidence skyplan reports too);
- the pattern rule of `engine/src/harvest/tenants/pattern.rs` with its
  default thresholds: constant (std ≤ 3 or CV ≤ 0.05), else periodic when
  the strongest bin with ≥ 2 cycles and its first 4 harmonics (±1 bin)
  carry ≥ 20 % of the energy beyond the mean and that bin stands ≥ 100×
  above the (upper) median bin of k*/2 … max(2k*, k*+8), harmonics
  excluded; else unpredictable;
- the features per pattern: a periodic tenant's average day (24 hourly
  means, one matrix product with the hour-of-day indicator), a constant
  tenant's mean and peak, an unpredictable one's mean, peak and std;
- per pattern, scikit-learn `KMeans(n_clusters=k, n_init=3,
  random_state=7)` (its defaults otherwise: greedy k-means++ with
  2 + log k local trials, Lloyd, tol=1e-4; OpenMP threads on every core,
  and timed again with the native thread pools limited to one — the faster
  setting is the peer's figure)
  for k = 1, 2, … up to 8, stopping at the first k whose inertia is at most
  10 % of k = 1's (the elbow rule skyplan applies; k = 1 with n_init=1);
- each class's core-weighted mean series (one matrix product), its mean,
  99th percentile and average day.

Printed: the times (median of `--reps`, default 5), the patterns and
classes found, and the agreement with skyplan's labels: tenants with the
same pattern, and the adjusted Rand index of the class partitions (1 is
the same partition up to class names).

Requirements (the versions measured): numpy==2.4.6 scikit-learn==1.9.1
threadpoolctl==3.8.0
"""
import argparse
import json
import time

import numpy as np
import sklearn
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score
from threadpoolctl import threadpool_info, threadpool_limits

PATTERNS = ("periodic", "constant", "unpredictable")
MAX_STD, MAX_CV = 3.0, 0.05
MIN_CYCLES, HARMONICS = 2, 4
MIN_SHARE, MIN_PROMINENCE = 0.2, 100.0
K_MAX, MIN_EXPLAINED, N_INIT, SEED = 8, 0.9, 3, 7
PEAK_PERCENTILE, TOP = 99.0, 5


def near_harmonic(j, k):
    """skyplan's rule: j is within one bin of a harmonic h·k, h ≤ 4 (h by
    rounding half away from zero, at least 1)."""
    h = np.maximum(np.floor(j / k + 0.5), 1)
    return (h <= HARMONICS) & (np.abs(j - h * k) <= 1)


def spectra(x):
    mean = x.mean(axis=1)
    return mean, np.abs(np.fft.rfft(x - mean[:, None], axis=1)) ** 2


def patterns(x, mean, power):
    """The pattern rule over every tenant at once."""
    n, m = x.shape[0], power.shape[1] - 1
    std = x.std(axis=1)
    with np.errstate(divide="ignore"):
        cv = np.where(mean != 0, std / np.abs(mean), np.inf)
    peak = np.percentile(x, PEAK_PERCENTILE, axis=1)
    energy = power[:, 1:].sum(axis=1)
    safe = np.where(energy > 0, energy, 1.0)
    # Evidence: the strongest bins and the lowest tenth's share.
    top = 1 + np.argpartition(power[:, 1:], -TOP, axis=1)[:, -TOP:]
    top_power = np.take_along_axis(power, top, axis=1)
    top = np.take_along_axis(top, np.argsort(-top_power, axis=1, kind="stable"), axis=1)
    low = max(m // 10, 1)
    low_share = power[:, 1:low + 1].sum(axis=1) / safe
    # k*: the strongest bin with at least MIN_CYCLES cycles.
    kstar = MIN_CYCLES + np.argmax(power[:, MIN_CYCLES:], axis=1)
    rows = np.arange(n)[:, None]
    # Its harmonics ±1 bin: gather the candidates, keep those the rule
    # names (each once).
    cand = (kstar[:, None, None] * np.arange(1, HARMONICS + 1)[None, :, None]
            + np.array([-1, 0, 1])[None, None, :]).reshape(n, -1)
    cand = np.clip(cand, 0, m)
    keep = np.zeros((n, m + 1), dtype=bool)
    keep[rows, cand] = near_harmonic(cand, kstar[:, None]) & (cand >= 1)
    band = (power * keep).sum(axis=1)
    share = band / safe
    # The neighbourhood's (upper) median, harmonics excluded: windows of
    # different widths padded with NaN, sorted (NaN last).
    lo = np.maximum(kstar // 2, 1)
    hi = np.minimum(np.maximum(2 * kstar, kstar + 8), m)
    width = int((hi - lo).max()) + 1
    j = lo[:, None] + np.arange(width)[None, :]
    inside = j <= hi[:, None]
    jc = np.minimum(j, m)
    bg = np.where(inside & ~keep[rows, jc], power[rows, jc], np.nan)
    count = (~np.isnan(bg)).sum(axis=1)
    med = np.sort(bg, axis=1)[np.arange(n), np.maximum(count, 1) // 2]
    pk = power[np.arange(n), kstar]
    with np.errstate(divide="ignore", invalid="ignore"):
        prominence = np.where(count == 0, np.inf,
                              np.where(med > 0, pk / np.where(med > 0, med, 1),
                                       np.where(pk > 0, np.inf, 0.0)))
    pattern = np.where((std <= MAX_STD) | (cv <= MAX_CV), 1,
                       np.where((share >= MIN_SHARE) & (prominence >= MIN_PROMINENCE), 0, 2))
    return pattern, std, peak, (top, low_share, share, prominence)


def average_days(x, start, step):
    hours = ((start + np.arange(x.shape[1]) * step) % 86400) // 3600
    onehot = (hours[:, None] == np.arange(24)[None, :]).astype(x.dtype)
    counts = onehot.sum(axis=0)
    sums = x @ onehot
    means = x.mean(axis=1, keepdims=True)
    return np.where(counts > 0, sums / np.where(counts > 0, counts, 1), means)


def elbow(features):
    """k = 1, 2, … until the classes explain MIN_EXPLAINED of the spread."""
    first = None
    k_max = min(K_MAX, len(features))
    for k in range(1, k_max + 1):
        km = KMeans(n_clusters=k, n_init=1 if k == 1 else N_INIT, random_state=SEED).fit(features)
        if first is None:
            first = km.inertia_
        if km.inertia_ <= (1 - MIN_EXPLAINED) * first or k == k_max:
            return km.labels_


def classify(x, meta):
    t0 = time.perf_counter()
    mean, power = spectra(x)
    t1 = time.perf_counter()
    pattern, std, peak, _evidence = patterns(x, mean, power)
    t2 = time.perf_counter()
    labels = np.full(x.shape[0], -1)
    next_class = 0
    weights = np.array(meta["servers"], dtype=float) * np.array(meta["cores"], dtype=float)
    for p in range(3):
        idx = np.flatnonzero(pattern == p)
        if idx.size == 0:
            continue
        if p == 0:
            features = average_days(x[idx], meta["start"], meta["step_secs"])
        elif p == 1:
            features = np.column_stack([mean[idx], peak[idx]])
        else:
            features = np.column_stack([mean[idx], peak[idx], std[idx]])
        labels[idx] = next_class + elbow(features)
        next_class = labels.max() + 1
    t3 = time.perf_counter()
    # The classes' series: core-weighted means of their tenants.
    member = (labels[None, :] == np.arange(next_class)[:, None]) * weights[None, :]
    member = member[member.sum(axis=1) > 0]
    series = (member @ x) / member.sum(axis=1, keepdims=True)
    _class_stats = (series.mean(axis=1), np.percentile(series, PEAK_PERCENTILE, axis=1),
                    average_days(series, meta["start"], meta["step_secs"]))
    t4 = time.perf_counter()
    times = [(t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t4 - t3) * 1e3, (t4 - t0) * 1e3]
    return times, pattern, labels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    with open(a.file + ".json") as f:
        meta = json.load(f)
    x = np.fromfile(a.file, dtype="<f8").reshape(len(meta["servers"]), -1)
    threads = [f"{p['internal_api']} {p['num_threads']}" for p in threadpool_info()]
    print(f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
          f"{x.shape[0]} × {x.shape[1]}, threads: {', '.join(threads)}")
    # Both thread settings of the native pools (OpenMP for KMeans, BLAS for
    # the products): their defaults (every core), and one thread, which a
    # user of small KMeans fits on a busy machine picks (OpenMP's threads
    # wait on each other when the cores are shared). The faster is the peer.
    best = None
    for label, limit in (("default threads", None), ("pools limited to 1 thread", 1)):
        with threadpool_limits(limits=limit):
            runs = [classify(x, meta) for _ in range(a.reps)]
        med = np.median(np.array([r[0] for r in runs]), axis=0)
        print("peer, %s (ms, median of %d): rfft+power %.0f, rule+stats %.0f, kmeans %.0f, "
              "classes %.0f, total %.0f" % ((label, a.reps) + tuple(med)))
        if best is None or med[4] < best[0][4]:
            best = (med, runs[0][1], runs[0][2], label)
    med, pattern, labels, label = best
    ours_pattern = np.array([PATTERNS.index(p) for p in meta["patterns"]])
    ours_class = np.array(meta["classes"])
    same = int((ours_pattern == pattern).sum())
    counts = [int((pattern == p).sum()) for p in range(3)]
    print(f"peer patterns (periodic, constant, unpredictable): {counts}; classes: {labels.max() + 1}")
    print(f"agreement: patterns {same} / {len(pattern)}; class partition ARI "
          f"{adjusted_rand_score(ours_class, labels):.4f}")
    for p in range(3):
        idx = np.flatnonzero((pattern == p) & (ours_pattern == p))
        if idx.size:
            ari = adjusted_rand_score(ours_class[idx], labels[idx])
            print(f"  {PATTERNS[p]}: {idx.size} tenants, "
                  f"{len(set(ours_class[idx]))} classes ours, {len(set(labels[idx]))} peer, ARI {ari:.4f}")
    print(f"PEER-CLASSIFY ({label}) total_ms={med[4]:.1f} patterns_same={same} ari={adjusted_rand_score(ours_class, labels):.6f}")


if __name__ == "__main__":
    main()
