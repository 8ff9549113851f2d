#!/usr/bin/env python3
"""Times HiGHS (scipy.optimize.linprog) on the skyline LPs of the skyline
benchmark, written as the paper writes them, with the paper's two passes
(β = 0.1·V). Usage:

    cargo bench -p skyplan-bench --bench skyline -- --dump target/bench/lp
    python3 scripts/bench_highs.py target/bench/lp

Needs scipy (pip install scipy); prints one markdown row per size.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "engine", "tests", "data"))
from skyline_lp_highs import solve  # noqa: E402


def main(d):
    print("| runs × steps | HiGHS two-pass (ms) | objective |")
    print("| --- | --- | --- |")
    for name in ["13x90", "30x288", "30x1440"]:
        doc = json.load(open(os.path.join(d, name + ".json")))
        rows, alpha, lo = doc["rows"], doc["alpha"], doc["lo"]
        t = time.perf_counter()
        v = solve(rows, alpha, 0.0, lo, None)
        obj = solve(rows, alpha, doc["beta_fraction"] * v, lo, None)
        ms = (time.perf_counter() - t) * 1000
        n, k = name.split("x")
        print(f"| {n} × {k} | {ms:.1f} | {obj:.6f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target/bench/lp")
