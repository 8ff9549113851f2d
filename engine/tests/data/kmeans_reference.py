#!/usr/bin/env python3
"""Reference values for skyplan's K-Means (harvest::kmeans::lloyd).

Writes kmeans_reference.json, which engine/tests/kmeans_reference.rs checks
skyplan against: for each case the data, the initial centres (given to both),
and scikit-learn's KMeans(init=centres, n_init=1, algorithm="lloyd", tol,
max_iter=300) labels, centres, inertia and iterations. tol=0 makes
scikit-learn stop when no label changes; tol=1e-4 (its default, skyplan's
too) also when the centres' squared shift is at most tol × the mean
variance of the features, then assigns the points once more.

Cases: three separated 2-D blobs; 24-feature "average days" of periodic
tenants (the features the clustering service uses) with four peak hours;
five overlapping 3-D clusters started from poor centres (several Lloyd
iterations before convergence); uniform 2-D points with tol=1e-4; the blobs
from a centre no point is nearest (scikit-learn moves it to the point
farthest from its centre). Then whole seeded fits ("seeded"):
KMeans(k, n_init=3, random_state=7) on three of those data sets.

None of this shares code with skyplan. Run once:
    pip install scikit-learn numpy && python3 kmeans_reference.py
"""
import json

import numpy as np
import sklearn
from sklearn.cluster import KMeans


def case(name, x, init, tol=0.0):
    km = KMeans(n_clusters=len(init), init=np.array(init), n_init=1,
                algorithm="lloyd", tol=tol, max_iter=300)
    km.fit(x)
    return {
        "name": name,
        "tol": tol,
        "data": x.tolist(),
        "init": np.asarray(init).tolist(),
        "labels": km.labels_.tolist(),
        "centres": km.cluster_centers_.tolist(),
        "inertia": float(km.inertia_),
        "iterations": int(km.n_iter_),
    }


def main():
    rng = np.random.default_rng(20161102)
    cases = []
    # Three separated blobs, initial centres three points of one blob and two others.
    blobs = np.vstack([rng.normal(c, 1.0, size=(30, 2)) for c in ([0, 0], [20, 5], [5, 25])])
    cases.append(case("blobs", blobs, blobs[[0, 1, 60]]))
    # Average days: periodic tenants peaking at 10, 13, 16 or 20 h.
    hours = np.arange(24)
    days = []
    for peak in (10, 13, 16, 20):
        for _ in range(15):
            base = rng.uniform(5, 20)
            amp = rng.uniform(25, 45)
            day = base + amp * (0.5 + 0.5 * np.cos(2 * np.pi * (hours - peak) / 24)) ** 1.5
            days.append(day + rng.normal(0, 2, 24))
    days = np.array(days)
    order = rng.permutation(len(days))
    days = days[order]
    cases.append(case("average_days", days, days[[0, 1, 2, 3]]))
    # Overlapping clusters from poor starting centres.
    centres = rng.uniform(0, 30, size=(5, 3))
    pts = np.vstack([rng.normal(c, 4.0, size=(40, 3)) for c in centres])
    pts = pts[rng.permutation(len(pts))]
    cases.append(case("overlapping", pts, pts[:5] * 0.5))
    # Uniform points: many small late moves, so tol=1e-4 stops well before
    # no label changes.
    flat = rng.uniform(0, 1, size=(2000, 2))
    cases.append(case("uniform_tol", flat, flat[:16], tol=1e-4))
    far = np.vstack([blobs[[0, 30]], [[200.0, -150.0]]])
    cases.append(case("empty_cluster", blobs, far))
    # Whole fits, seeding included: KMeans(k, n_init=3, random_state=7)
    # with its defaults (greedy k-means++, tol=1e-4) on three of the cases'
    # data; skyplan draws numpy's stream, so it picks the same centres.
    seeded = []
    for i, k in ((1, 4), (2, 5), (3, 16)):
        x = np.array(cases[i]["data"])
        km = KMeans(n_clusters=k, n_init=3, random_state=7).fit(x)
        seeded.append({"case": i, "k": k, "n_init": 3, "seed": 7,
                       "labels": km.labels_.tolist(), "inertia": float(km.inertia_)})
    out = {
        "generator": "engine/tests/data/kmeans_reference.py",
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "cases": cases,
        "seeded": seeded,
    }
    with open("kmeans_reference.json", "w") as f:
        json.dump(out, f, indent=1)
    for c in cases:
        print(c["name"], len(c["data"]), "points, inertia", c["inertia"], "iterations", c["iterations"])


if __name__ == "__main__":
    main()
