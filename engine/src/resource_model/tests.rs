//! The skyline LP against independent references: brute force over the
//! integer grid on small cases (the LP is a network LP with integral
//! breakpoints, so an integral optimum exists), minilp on the LP as written,
//! the flow's own dual bound, and Hadoop ResourceEstimator's published answer.

use super::*;
use crate::fixtures::demo;
use crate::import::{import, ImportOptions};
use crate::model::ContainerSize;
use crate::numerics::Rng;

#[path = "../../tests/cases/hadoop.rs"]
mod hadoop;
use hadoop::{TPCH_Q12_ANSWER, TPCH_Q12_USAGE};

fn lp(rows: Vec<Vec<f64>>, alpha: f64, beta: f64, lo: f64, hi: f64) -> SkylineLp {
    SkylineLp {
        rows,
        alpha,
        beta,
        lo,
        hi,
    }
}

fn brute_force(lp: &SkylineLp) -> f64 {
    let k = lp.k();
    let top = lp
        .rows
        .iter()
        .flatten()
        .fold(lp.lo, |a, &c| a.max(c))
        .min(lp.hi);
    let values: Vec<f64> = (lp.lo as i64..=top as i64).map(|v| v as f64).collect();
    let mut best = f64::INFINITY;
    let mut idx = vec![0usize; k];
    loop {
        let s: Vec<f64> = idx.iter().map(|&i| values[i]).collect();
        best = best.min(lp.evaluate(&s).total);
        let mut j = 0;
        while j < k {
            idx[j] += 1;
            if idx[j] < values.len() {
                break;
            }
            idx[j] = 0;
            j += 1;
        }
        if j == k {
            return best;
        }
    }
}

#[test]
fn flow_and_simplex_match_brute_force() {
    let mut rng = Rng::new(5);
    for case in 0..300 {
        let n = rng.int(1, 3) as usize;
        let k = rng.int(1, 4) as usize;
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..k).map(|_| rng.int(0, 4) as f64).collect())
            .collect();
        let alpha = [0.0, 0.01, 0.1, 0.5, 0.9, 1.0][rng.int(0, 5) as usize];
        let beta = [0.0, 0.0, 0.3, 2.0][rng.int(0, 3) as usize];
        let lo = rng.int(0, 1) as f64;
        let hi = if rng.chance(0.3) { 3.0 } else { f64::INFINITY };
        let p = lp(rows, alpha, beta, lo, hi);
        let want = brute_force(&p);
        let f = flow::solve(&p).unwrap();
        let got = p.evaluate(&f.skyline).total;
        assert!(
            (got - want).abs() < 1e-9,
            "case {case}: flow {got} vs brute force {want} on {p:?}"
        );
        assert!(
            (f.lower_bound - want).abs() < 1e-9,
            "case {case}: dual bound {} vs {want}",
            f.lower_bound
        );
        assert!(f
            .skyline
            .iter()
            .all(|&x| x >= lo - 1e-12 && x <= hi + 1e-12));
        let s = p.solve_simplex().unwrap();
        let got = p.evaluate(&s).total;
        assert!(
            (got - want).abs() < 1e-7,
            "case {case}: simplex {got} vs brute force {want}"
        );
    }
}

#[test]
fn flow_matches_simplex_on_larger_random_histories() {
    let mut rng = Rng::new(11);
    for case in 0..12 {
        let n = rng.int(3, 10) as usize;
        let k = rng.int(10, 40) as usize;
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                (0..k)
                    .map(|j| {
                        ((j as f64 / 3.0).sin() * 20.0 + 25.0 + rng.gauss(0.0, 5.0))
                            .round()
                            .max(0.0)
                    })
                    .collect()
            })
            .collect();
        let p = lp(
            rows,
            [0.01, 0.1, 0.5][case % 3],
            [0.0, 1.5][case % 2],
            1.0,
            f64::INFINITY,
        );
        let f = flow::solve(&p).unwrap();
        let a = p.evaluate(&f.skyline).total;
        let b = p.evaluate(&p.solve_simplex().unwrap()).total;
        assert!(
            (a - b).abs() <= 1e-6 * b.abs().max(1.0),
            "case {case}: flow {a} vs simplex {b}"
        );
        assert!(
            (a - f.lower_bound).abs() <= 1e-6 * a.abs().max(1.0),
            "case {case}: gap {}",
            a - f.lower_bound
        );
    }
}

fn run(instance: &str, step: u32, containers: Vec<f64>) -> JobRun {
    JobRun {
        job: "job".into(),
        instance: instance.into(),
        submit: 0,
        start: 0,
        end: containers.len() as i64 * i64::from(step),
        input_available: None,
        output_first_read: None,
        container: ContainerSize::default(),
        skyline: Skyline::new(step, containers),
    }
}

/// Hadoop ResourceEstimator's own LP test (`TestLpSolver`): 13 runs of TPC-H
/// Q12 in its native log format and the answer it ships, checked, as Hadoop
/// checks it, to within 10% per interval.
#[test]
fn hadoop_variant_agrees_with_resource_estimator() {
    let log: String = TPCH_Q12_USAGE
        .iter()
        .enumerate()
        .map(|(i, u)| {
            format!(
                "tpch_q12 50 {0} {0} {1} tpch_q12_{i} 8192:0| {u}\n",
                1_462_148_517_000i64 + i as i64 * 400_000,
                1_462_148_552_000i64 + i as i64 * 400_000
            )
        })
        .collect();
    let file = import("tpch_q12.txt", log.as_bytes(), ImportOptions::default()).unwrap();
    let runs: Vec<&JobRun> = file.data.runs.iter().collect();
    let answer = TPCH_Q12_ANSWER;
    for solver in [SolverKind::Flow, SolverKind::Simplex] {
        let m = fit(
            &runs,
            &ModelParams {
                solver,
                ..ModelParams::hadoop()
            },
        )
        .unwrap();
        assert_eq!(m.skyline.step_secs, 5);
        assert_eq!(m.skyline.len(), answer.len());
        for (k, (&got, &want)) in m.skyline.containers.iter().zip(&answer).enumerate() {
            assert!(
                (got - want).abs() <= 0.1 * want,
                "{solver:?} interval {k}: {got} vs Hadoop's {want}"
            );
            assert_eq!(got, got.floor(), "Hadoop truncates to whole containers");
        }
    }
}

#[test]
fn paper_two_pass_scheme() {
    let runs = [
        run("a", 60, vec![2.0, 10.0, 10.0, 4.0]),
        run("b", 60, vec![2.0, 12.0, 8.0, 4.0, 1.0]),
        run("c", 60, vec![3.0, 9.0, 11.0, 5.0]),
    ];
    let refs: Vec<&JobRun> = runs.iter().collect();
    let m = fit(&refs, &ModelParams::paper()).unwrap();
    let v = m.first_pass.unwrap().total;
    assert!((m.beta - 0.1 * v).abs() < 1e-12);
    // Runs of different lengths are padded; the reservation covers the longest.
    assert_eq!(m.steps, 5);
    assert!(
        m.skyline.containers.iter().all(|&x| x >= 1.0 - 1e-9),
        "min parallelism 1"
    );
    let gap = m.objective.total - m.lower_bound.unwrap();
    assert!(gap.abs() < 1e-9, "{gap}");
    // With α small the reservation lets every run finish.
    let q = quality(&m.skyline, &refs);
    assert_eq!(q.completion_share, 1.0);
    // The same fit with minilp.
    let s = fit(
        &refs,
        &ModelParams {
            solver: SolverKind::Simplex,
            ..ModelParams::paper()
        },
    )
    .unwrap();
    assert!((s.objective.total - m.objective.total).abs() < 1e-7);
    // α = 1 only penalizes over-allocation: the reservation drops to the floor.
    let lazy = fit(
        &refs,
        &ModelParams {
            alpha: 1.0,
            min_parallelism: 0.0,
            ..ModelParams::paper()
        },
    )
    .unwrap();
    assert!(lazy.objective.over < 1e-9);
}

#[test]
fn quality_figures_by_hand() {
    let runs = [run("a", 60, vec![2.0, 4.0]), run("b", 60, vec![4.0, 2.0])];
    let refs: Vec<&JobRun> = runs.iter().collect();
    // Reservation 3, 3: run a over 1 then under 1 (owes 1 at the end); run b
    // under 1 then over 1 (catches up).
    let q = quality(&Skyline::new(60, vec![3.0, 3.0]), &refs);
    assert!((q.over_allocation_ch - 1.0 / 60.0).abs() < 1e-12);
    assert!((q.under_allocation_ch - 0.5 / 60.0).abs() < 1e-12);
    assert_eq!(q.completion_share, 0.5);
    assert_eq!(q.area_ratio, 1.0);
    let peak = peak_reservation(&refs, 60);
    assert_eq!(peak.containers, vec![4.0, 4.0]);
    assert_eq!(quality(&peak, &refs).completion_share, 1.0);
    let flat = flat_percentile(&refs, 60, 50.0);
    assert_eq!(flat.containers, vec![3.0, 3.0]);
}

#[test]
fn validation() {
    let r = run("a", 60, vec![1.0, 2.0]);
    let refs = vec![&r];
    for (p, name) in [
        (
            ModelParams {
                alpha: 1.5,
                ..ModelParams::paper()
            },
            "alpha",
        ),
        (
            ModelParams {
                alpha: f64::NAN,
                ..ModelParams::paper()
            },
            "alpha",
        ),
        (
            ModelParams {
                step_secs: 0,
                ..ModelParams::paper()
            },
            "step_secs",
        ),
        (
            ModelParams {
                min_parallelism: -1.0,
                ..ModelParams::paper()
            },
            "min_parallelism",
        ),
        (
            ModelParams {
                max_parallelism: Some(0.5),
                ..ModelParams::paper()
            },
            "max_parallelism",
        ),
        (
            ModelParams {
                beta_fraction: f64::INFINITY,
                ..ModelParams::paper()
            },
            "beta_fraction",
        ),
    ] {
        match fit(&refs, &p) {
            Err(ModelError::Param { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    assert_eq!(
        fit(&[], &ModelParams::paper()),
        Err(ModelError::EmptyHistory)
    );
    let zero = run("z", 60, vec![0.0, 0.0]);
    assert_eq!(
        fit(&[&zero], &ModelParams::paper()),
        Err(ModelError::AllZero)
    );
    let m = fit(&[&zero, &r], &ModelParams::paper()).unwrap();
    assert_eq!(m.dropped_runs, vec!["z".to_string()]);
    let nan = run("n", 60, vec![f64::NAN]);
    assert!(matches!(
        fit(&[&nan], &ModelParams::paper()),
        Err(ModelError::BadRun { .. })
    ));
}

#[test]
fn demo_jobs_fit_with_zero_gap() {
    let fx = demo();
    for job in ["revenue_rollup", "clickstream_agg"] {
        let runs: Vec<&JobRun> = fx.runs.iter().filter(|r| r.job == job).collect();
        let m = fit(&runs, &ModelParams::paper()).unwrap();
        let gap = m.objective.total - m.lower_bound.unwrap();
        assert!(
            gap.abs() <= 1e-7 * m.objective.total.max(1.0),
            "{job}: gap {gap}"
        );
        let q = quality(&m.skyline, &runs);
        let peak = quality(&peak_reservation(&runs, 60), &runs);
        assert!(
            q.area_ratio < peak.area_ratio,
            "{job}: R* should be tighter than the peak"
        );
        assert!(q.completion_share >= 0.5, "{job}: {q:?}");
    }
}
