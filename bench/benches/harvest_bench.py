#!/usr/bin/env python3
"""numpy rfft + scikit-learn KMeans on the harvesting benchmark's data.

`cargo bench -p skyplan-bench --bench harvest -- --dump FILE` writes the
1,000 generated tenants × 21,600 two-minute slots (30 days) as little-endian
f64 rows; this script times, on the same numbers, what skyplan's
`harvest::classify` does: each tenant's power spectrum (numpy.fft.rfft,
one call over the 1,000 × 21,600 matrix, then |X|²), its mean and
standard deviation, its 99th percentile, its average day (24 hourly
means), and scikit-learn KMeans (k-means++, n_init=3, lloyd) on the
average days for k = 1…8 (the elbow rule's search, one pattern's worth).
It prints the times in milliseconds (median of 3).

    python3 harvest_bench.py /tmp/harvest_1000x21600.f64
"""
import sys
import time

import numpy as np
import sklearn
from sklearn.cluster import KMeans


def run(x):
    n = x.shape[1]
    t0 = time.perf_counter()
    centred = x - x.mean(axis=1, keepdims=True)
    power = np.abs(np.fft.rfft(centred, axis=1)) ** 2
    t1 = time.perf_counter()
    std = x.std(axis=1)
    peak = np.percentile(x, 99, axis=1)
    hours = (np.arange(n) * 120 // 3600) % 24
    days = np.stack([x[:, hours == h].mean(axis=1) for h in range(24)], axis=1)
    t2 = time.perf_counter()
    for k in range(1, 9):
        KMeans(n_clusters=k, n_init=3, algorithm="lloyd", random_state=7).fit(days)
    t3 = time.perf_counter()
    return (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t3 - t0) * 1e3, power, std, peak


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/harvest_1000x21600.f64"
    x = np.fromfile(path, dtype="<f8").reshape(1000, -1)
    rows = [run(x)[:4] for _ in range(3)]
    med = np.median(np.array(rows), axis=0)
    print(f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, {x.shape[0]} × {x.shape[1]}")
    print("rfft+power %.0f ms, stats %.0f ms, kmeans %.0f ms, total %.0f ms" % tuple(med))


if __name__ == "__main__":
    main()
