//! The optimizer on small plans: brute force optimum, locked reservations,
//! infeasible batches, flexible requests, settings.

use super::*;
use crate::agenda::{
    AgendaParams, Capacity, Interpreter, Method, Plan, Recurrence, ReservationRequest, Stage,
};
use crate::model::ContainerSize;

fn gang(name: &str, window: (i64, i64), len: f64, g: f64) -> ReservationRequest {
    ReservationRequest {
        name: name.into(),
        recurrence: Recurrence::OneOff,
        arrival_secs: window.0 * 60,
        deadline_secs: window.1 * 60,
        container: ContainerSize::default(),
        stages: vec![Stage {
            demand: len * g * 60.0,
            max_parallelism: g,
            gang: g,
        }],
        interpreter: Interpreter::ROrderNoGap,
        problematic: false,
    }
}

fn plan(steps: i64, cores: f64) -> Plan {
    Plan::new(
        AgendaParams {
            period_secs: steps * 60,
            ..AgendaParams::default()
        },
        vec![Capacity {
            cores,
            memory_mb: cores * 1024.0,
        }],
    )
    .unwrap()
}

fn batch() -> Vec<ReservationRequest> {
    vec![
        gang("a", (0, 8), 4.0, 3.0),
        gang("b", (2, 10), 3.0, 4.0),
        gang("c", (0, 12), 5.0, 2.0),
        gang("d", (4, 12), 2.0, 5.0),
        gang("e", (1, 9), 4.0, 2.0),
    ]
}

/// The optimum by trying every start of every request.
fn brute_force(reqs: &[ReservationRequest], steps: usize, cap: f64) -> f64 {
    let shapes: Vec<(usize, usize, usize, f64)> = reqs
        .iter()
        .map(|r| {
            let s = r.stages[0];
            let len = (s.demand / 60.0 / s.max_parallelism) as usize;
            let a = (r.arrival_secs / 60) as usize;
            let d = (r.deadline_secs / 60) as usize;
            (a, d - len, len, s.max_parallelism)
        })
        .collect();
    let mut best = f64::INFINITY;
    let mut starts: Vec<usize> = shapes.iter().map(|s| s.0).collect();
    loop {
        let mut load = vec![0.0; steps];
        for (&s, &(_, _, len, h)) in starts.iter().zip(&shapes) {
            for l in &mut load[s..s + len] {
                *l += h;
            }
        }
        best = best.min(load.iter().copied().fold(0.0, f64::max) / cap);
        let mut k = 0;
        loop {
            if k == starts.len() {
                return best;
            }
            if starts[k] < shapes[k].1 {
                starts[k] += 1;
                break;
            }
            starts[k] = shapes[k].0;
            k += 1;
        }
    }
}

#[test]
fn a_small_batch_reaches_the_brute_force_optimum() {
    let reqs = batch();
    let opt = brute_force(&reqs, 12, 20.0);
    let out = optimize_batch(&plan(12, 20.0), &reqs, &OptimizeParams::default()).unwrap();
    assert!(
        (out.report.peak - opt).abs() < 1e-9,
        "{:?} vs {opt}",
        out.report
    );
    assert!(out.report.lower_bound <= opt + 1e-9);
    assert_eq!(out.report.bound, BoundKind::Exact, "{:?}", out.report);
    assert_eq!(out.report.gap, 0.0);
    for r in out.plan.reservations() {
        assert_eq!(r.method, Method::Optimized);
        assert!(r.start >= r.window.0 && r.start + r.alloc.len() <= r.window.1);
    }
}

#[test]
fn locked_reservations_never_move() {
    let mut p = plan(12, 20.0);
    for r in batch() {
        p.admit(r, Method::EarliestFirst).unwrap();
    }
    let locked: Vec<u32> = p.reservations().iter().take(2).map(|r| r.id).collect();
    let out = optimize_plan(&p, &locked, &OptimizeParams::default()).unwrap();
    for id in &locked {
        assert_eq!(out.plan.reservation(*id), p.reservation(*id));
    }
    assert_eq!(out.report.locked, 2);
    assert_eq!(out.report.unlocked, 3);
    assert!(out.plan.peak() <= p.peak() + 1e-12);
    assert!(out.report.lower_bound <= out.report.peak + 1e-12);
    // Every id is still there, with its request.
    let mut ids: Vec<u32> = out.plan.reservations().iter().map(|r| r.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, [1, 2, 3, 4, 5]);
    assert_eq!(
        optimize_plan(&p, &[99], &OptimizeParams::default()).unwrap_err(),
        OptimizeError::NoSuchReservation(99)
    );
}

#[test]
fn an_infeasible_batch_names_the_request_that_cannot_fit() {
    let reqs = vec![
        gang("wall", (0, 4), 4.0, 8.0),
        gang("fits", (4, 12), 2.0, 3.0),
        gang("big", (0, 4), 2.0, 5.0),
    ];
    match optimize_batch(&plan(12, 10.0), &reqs, &OptimizeParams::default()) {
        Err(OptimizeError::Infeasible { name, reason }) => {
            assert_eq!(name, "big", "{reason}");
            assert!(!reason.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

/// `batch_fits` is `optimize_batch(…).is_ok()` — on the small batch around
/// its brute-force optimum, and on random batches too large for the
/// search to always fit, with a move budget that sometimes stops it short.
#[test]
fn fitting_is_whether_the_whole_optimization_succeeds() {
    let small = batch();
    let opt = brute_force(&small, 12, 1.0);
    let mut rng = crate::numerics::Rng::new(3);
    let random: Vec<Vec<ReservationRequest>> = (0..6)
        .map(|b| {
            (0..12)
                .map(|i| {
                    let a = rng.uniform(0.0, 16.0).floor() as i64;
                    let len = rng.uniform(1.0, 6.0).floor();
                    let d = (a + len as i64 + rng.uniform(0.0, 8.0).floor() as i64).min(24);
                    let g = rng.uniform(1.0, 6.0).floor();
                    gang(&format!("r{b}-{i}"), (a, d.max(a + len as i64)), len, g)
                })
                .collect()
        })
        .collect();
    let settings = [
        OptimizeParams::default(),
        OptimizeParams {
            ip_max_vars: 0,
            lp_max_vars: 200,
            ..OptimizeParams::default()
        },
        OptimizeParams {
            max_moves: 30,
            level_moves: 10,
            ..OptimizeParams::default()
        },
    ];
    let (mut fits, mut not) = (0, 0);
    let mut check = |p: &Plan, reqs: &[ReservationRequest], params: &OptimizeParams| {
        let whole = optimize_batch(p, reqs, params).is_ok();
        assert_eq!(batch_fits(p, reqs, params), whole, "{:?}", p.capacity());
        if whole {
            fits += 1;
        } else {
            not += 1;
        }
    };
    for params in &settings {
        for cores in [opt - 1.0, opt - 0.5, opt, opt + 0.5, opt + 2.0] {
            check(&plan(12, cores), &small, params);
        }
        for reqs in &random {
            for cores in (8..=28).step_by(4) {
                check(&plan(24, f64::from(cores)), reqs, params);
            }
        }
    }
    assert!(fits > 10 && not > 10, "{fits} fit, {not} did not");
    // Below the optimum nothing fits; at it, the whole search fits.
    assert!(!batch_fits(&plan(12, opt - 1.0), &small, &settings[0]));
    assert!(batch_fits(&plan(12, opt), &small, &settings[0]));
}

#[test]
fn flexible_requests_keep_their_work_and_never_beat_the_bound() {
    let mut reqs = batch();
    for r in &mut reqs {
        r.stages[0].gang = 1.0;
    }
    let mut periodic = gang("hourly", (0, 6), 2.0, 3.0);
    periodic.recurrence = Recurrence::Periodic { period_secs: 360 };
    periodic.stages[0].gang = 1.0;
    reqs.push(periodic);
    let out = optimize_batch(&plan(12, 20.0), &reqs, &OptimizeParams::default()).unwrap();
    let r = &out.report;
    assert!(r.peak <= r.start_peak + 1e-12, "{r:?}");
    assert!(
        r.lower_bound <= r.peak + 1e-12 && r.lower_bound > 0.0,
        "{r:?}"
    );
    assert!((out.plan.peak() - r.peak).abs() < 1e-12);
    for res in out.plan.reservations() {
        let work: f64 = res.alloc.iter().sum::<f64>() * 60.0;
        assert!((work - res.request.total_demand()).abs() < 1e-6);
        assert!(res
            .alloc
            .iter()
            .all(|&c| c <= res.request.stages[0].max_parallelism + 1e-9));
        assert!(res.start >= res.window.0 && res.start + res.alloc.len() <= res.window.1);
    }
}

#[test]
fn settings_are_checked() {
    let bad = OptimizeParams {
        noise: f64::NAN,
        ..OptimizeParams::default()
    };
    assert!(matches!(
        optimize_batch(&plan(12, 20.0), &batch(), &bad),
        Err(OptimizeError::Param { name: "noise", .. })
    ));
    let bad = OptimizeParams {
        level_moves: 0,
        ..OptimizeParams::default()
    };
    assert!(bad.validate().is_err());
    let mut malformed = batch();
    malformed[0].deadline_secs = 0;
    assert!(matches!(
        optimize_batch(&plan(12, 20.0), &malformed, &OptimizeParams::default()),
        Err(OptimizeError::Request(_))
    ));
}

#[test]
fn progress_goes_through_the_stages_in_order_and_ends_done() {
    let reqs = batch();
    let mut seen: Vec<OptimizeProgress> = Vec::new();
    let quiet = optimize_batch(&plan(12, 20.0), &reqs, &OptimizeParams::default()).unwrap();
    let loud = optimize_batch_with_progress(
        &plan(12, 20.0),
        &reqs,
        &OptimizeParams::default(),
        &mut |p| seen.push(p),
    )
    .unwrap();
    // Reporting changes nothing.
    assert_eq!(quiet, loud);
    let stages: Vec<OptimizeStage> = seen.iter().map(|p| p.stage).collect();
    assert_eq!(stages.first(), Some(&OptimizeStage::Start));
    assert_eq!(stages.last(), Some(&OptimizeStage::Done));
    for w in seen.windows(2) {
        assert!(
            w[1].fraction() >= w[0].fraction(),
            "the bar never goes back: {w:?}"
        );
    }
    assert_eq!(seen.last().unwrap().fraction(), 1.0);
    assert_eq!(seen.last().unwrap().moves, loud.report.moves);

    // The same for a plan re-placed with one reservation locked.
    let placed = quiet.plan;
    let lock = placed.reservations()[0].id;
    let mut stages = Vec::new();
    optimize_plan_with_progress(&placed, &[lock], &OptimizeParams::default(), &mut |p| {
        stages.push(p.stage)
    })
    .unwrap();
    assert_eq!(stages.first(), Some(&OptimizeStage::Start));
    assert_eq!(stages.last(), Some(&OptimizeStage::Done));
}
