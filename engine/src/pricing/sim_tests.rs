//! Tests of the §6.3 simulation: the guarantees each policy must keep with
//! exact estimates, the empty-queue slacks eq. (13) implies, the metrics on
//! a hand-made run, validation and determinism.

use super::sim_report::{report, Outcome, Run};
use super::sim_workload::SimJob;
use super::*;
use crate::numerics::Rng;

fn poisson(jobs: usize, gap: f64) -> SimParams {
    SimParams {
        jobs,
        arrivals: Arrivals::Poisson {
            mean_interarrival_secs: gap,
        },
        ..SimParams::default()
    }
}

fn policy(r: &SimReport, p: Policy) -> &PolicyReport {
    r.policies.iter().find(|x| x.policy == p).unwrap()
}

/// The "done when": with exact estimates, EDF on the committed
/// deadlines never misses one — over many seeds, loads (up to ρ = 0.9),
/// budgets and κ, and a heavy-tailed duration list.
#[test]
fn edf_meets_every_deadline_with_exact_estimates() {
    let mut rng = Rng::new(2);
    for case in 0..40 {
        let mut p = poisson(2_000, rng.uniform(40.0, 200.0));
        p.seed = rng.next_u64();
        p.error_share = 0.0;
        p.alpha = rng.uniform(1.0, 4.0);
        p.kappa = rng.uniform(1.0, 4.0);
        p.ds_share = rng.uniform(0.0, 1.0);
        if case % 4 == 0 {
            p.durations = Durations::List {
                secs: (0..50).map(|_| (2.0 * rng.normal()).exp() * 10.0).collect(),
            };
            p.arrivals = Arrivals::Poisson {
                mean_interarrival_secs: 400.0,
            };
        }
        let r = simulate(&p).unwrap();
        let m = policy(&r, Policy::Mrm);
        assert_eq!(m.tardy_percent.all, Some(0.0), "case {case}: {p:?}");
        assert!(m.tardiness.is_none());
        // FCFS promises exactly its own schedule.
        let f = policy(&r, Policy::Fcfs);
        assert_eq!(f.tardy_percent.all, Some(0.0), "case {case}");
    }
}

/// Priority with exact estimates: delay-sensitive jobs only wait for
/// earlier delay-sensitive ones and the job in service, so they are never
/// late; delay-tolerant ones overtaken by later arrivals are.
#[test]
fn priority_breaks_delay_tolerant_promises_at_high_load() {
    let mut p = poisson(20_000, 40.0);
    p.error_share = 0.0;
    let r = simulate(&p).unwrap();
    let pr = policy(&r, Policy::Priority);
    assert_eq!(pr.tardy_percent.ds, Some(0.0));
    assert!(
        pr.tardy_percent.dt.unwrap() > 20.0,
        "{:?}",
        pr.tardy_percent
    );
    // … and it is the fastest for delay-sensitive jobs.
    let w = |p| policy(&r, p).waiting.ds.unwrap().mean;
    assert!(w(Policy::Priority) < w(Policy::Mrm));
    assert!(w(Policy::Priority) < w(Policy::Fcfs));
    assert_eq!(policy(&r, Policy::Fcfs).jumped_ahead_percent, Some(0.0));
}

/// Arrivals far apart see an empty queue: with κ = 2 a delay-tolerant job
/// (budget p̂) offers exactly one mean job γ of slack and pays p̂; a
/// delay-sensitive one at α = κ offers none and pays 2p̂; at α = 1.5 it
/// offers γ/3 (the paper's 14.7 s of Table 6).
#[test]
fn empty_queue_slacks() {
    let trace: Vec<f64> = (0..400).map(|i| f64::from(i) * 10_000.0).collect();
    for (alpha, ds_slack) in [(2.0, 0.0), (1.5, 1.0 / 3.0)] {
        let p = SimParams {
            arrivals: Arrivals::Trace {
                times: trace.clone(),
            },
            alpha,
            ..SimParams::default()
        };
        let r = simulate(&p).unwrap();
        let gamma = r.mean_job_secs;
        let m = policy(&r, Policy::Mrm);
        let pr = m.pricing.unwrap();
        let (ds, dt) = (pr.slack.ds.unwrap(), pr.slack.dt.unwrap());
        assert!((dt.p5 - gamma).abs() < 1e-6 && (dt.p95 - gamma).abs() < 1e-6);
        assert!((ds.p5 - ds_slack * gamma).abs() < 1e-6, "{ds:?}");
        assert!((ds.p95 - ds_slack * gamma).abs() < 1e-6, "{ds:?}");
        // Nobody waits; the deadline gap is the slack.
        assert!(m.waiting.all.unwrap().p95 < 1e-6);
        let gap = pr.deadline_gap.dt.unwrap();
        assert!((gap.p50 - gamma).abs() < 1e-6);
        assert_eq!(m.jumped_ahead_percent, Some(0.0));
    }
    // γ defaults to the mean estimate: 36 s + 1.645 × 4.8 s.
    let r = simulate(&SimParams {
        arrivals: Arrivals::Trace { times: trace },
        ..SimParams::default()
    })
    .unwrap();
    assert!((r.mean_job_secs - 43.9).abs() < 0.05, "{}", r.mean_job_secs);
}

/// Paying more buys earlier deadlines: delay-sensitive jobs offer less
/// slack than delay-tolerant ones, and less at α = 2 than at α = 1.1; the
/// premium over resource usage is about α for them and 1 for the others,
/// inflated by the over-estimates (Table 8).
#[test]
fn purchasing_power_orders_slack_and_premium() {
    let run = |alpha| {
        let mut p = poisson(20_000, 50.0);
        p.alpha = alpha;
        simulate(&p).unwrap()
    };
    let (rich, poor) = (run(2.0), run(1.1));
    let pr = |r: &SimReport| policy(r, Policy::Mrm).pricing.unwrap();
    let (a, b) = (pr(&rich), pr(&poor));
    assert!(a.slack.ds.unwrap().p50 < a.slack.dt.unwrap().p50);
    assert!(a.slack.ds.unwrap().p50 < b.slack.ds.unwrap().p50);
    let ds = a.premium.ds.unwrap().p50;
    let dt = a.premium.dt.unwrap().p50;
    assert!((2.0..3.0).contains(&ds), "{ds}");
    assert!((1.0..1.5).contains(&dt), "{dt}");
    // Larger slack makes MRM more robust to under-estimates (Table 5).
    let tardy = |r: &SimReport| policy(r, Policy::Mrm).tardy_percent.all.unwrap();
    assert!(tardy(&poor) < tardy(&rich));
}

#[test]
fn deterministic_for_a_seed() {
    let p = poisson(3_000, 45.0);
    assert_eq!(simulate(&p).unwrap(), simulate(&p).unwrap());
    let q = SimParams {
        seed: 2,
        ..p.clone()
    };
    assert_ne!(simulate(&p).unwrap(), simulate(&q).unwrap());
}

#[test]
fn sweep_runs_each_load_on_the_same_jobs() {
    let p = poisson(2_000, 50.0);
    let s = sweep(&p, &[40.0, 100.0]).unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].0, 40.0);
    assert!(s[0].1.load.unwrap() > s[1].1.load.unwrap());
    assert_eq!(s[0].1.mean_processing_secs, s[1].1.mean_processing_secs);
    assert!(sweep(&p, &[]).is_err());
    assert!(matches!(
        sweep(&p, &[50.0, -1.0]),
        Err(SimError::Param { .. })
    ));
}

#[test]
fn validation() {
    let bad = |f: &dyn Fn(&mut SimParams)| {
        let mut p = poisson(10, 50.0);
        f(&mut p);
        simulate(&p).unwrap_err()
    };
    let name = |e: SimError| match e {
        SimError::Param { name, .. } => name,
        other => panic!("{other:?}"),
    };
    assert_eq!(name(bad(&|p| p.kappa = 0.5)), "kappa");
    assert_eq!(name(bad(&|p| p.kappa = f64::NAN)), "kappa");
    assert_eq!(name(bad(&|p| p.alpha = 0.0)), "alpha");
    assert_eq!(name(bad(&|p| p.alpha = 0.9)), "alpha");
    assert_eq!(name(bad(&|p| p.ds_share = 1.5)), "ds_share");
    assert_eq!(name(bad(&|p| p.error_share = -0.1)), "error_share");
    assert_eq!(name(bad(&|p| p.charge_weight = -1.0)), "charge_weight");
    assert_eq!(name(bad(&|p| p.pi_level = 1.0)), "pi_level");
    assert_eq!(name(bad(&|p| p.jobs = 0)), "jobs");
    assert_eq!(name(bad(&|p| p.mean_job_secs = Some(0.0))), "mean_job_secs");
    assert_eq!(
        name(bad(&|p| p.arrivals = Arrivals::Poisson {
            mean_interarrival_secs: 0.0
        })),
        "mean_interarrival_secs"
    );
    assert_eq!(
        bad(&|p| p.durations = Durations::List { secs: vec![] }),
        SimError::NoDurations
    );
    assert!(matches!(
        bad(&|p| p.durations = Durations::List {
            secs: vec![3.0, f64::NAN]
        }),
        SimError::BadDuration { index: 1, .. }
    ));
    assert!(matches!(
        bad(&|p| p.durations = Durations::List {
            secs: vec![3.0, -1.0]
        }),
        SimError::BadDuration { index: 1, .. }
    ));
    assert!(matches!(
        bad(&|p| p.arrivals = Arrivals::Trace {
            times: vec![0.0, 5.0, 4.0]
        }),
        SimError::BadTrace { index: 2, .. }
    ));
    assert!(matches!(
        bad(&|p| p.arrivals = Arrivals::Trace { times: vec![] }),
        SimError::BadTrace { .. }
    ));
    assert!(matches!(
        bad(&|p| p.arrivals = Arrivals::Trace {
            times: vec![0.0, f64::INFINITY]
        }),
        SimError::BadTrace { index: 1, .. }
    ));
}

/// The metrics on a hand-made run of four jobs: DS job 2 finishes before
/// DT job 1 (it jumped ahead and saw a DT job); DS job 3 is late.
#[test]
fn metrics_on_a_hand_made_run() {
    let job = |arrival, actual, ds| SimJob {
        arrival,
        actual,
        estimate: actual,
        ds,
    };
    let jobs = [
        job(0.0, 10.0, false),
        job(1.0, 10.0, false),
        job(2.0, 5.0, true),
        job(30.0, 5.0, true),
    ];
    let mut run = Run::new(4, false);
    let admit = |run: &mut Run, id, deadline, dt_waiting| {
        run.admit(
            id,
            Outcome {
                deadline,
                dt_waiting,
                ..Outcome::default()
            },
        )
    };
    admit(&mut run, 0, 10.0, false);
    admit(&mut run, 1, 40.0, false);
    admit(&mut run, 2, 15.0, true);
    admit(&mut run, 3, 34.0, false);
    run.finish(0, 10.0);
    run.finish(2, 15.0);
    run.finish(1, 25.0);
    run.finish(3, 35.0);
    let r = report(Policy::Priority, &jobs, &run);
    assert_eq!(r.tardy_percent.ds, Some(50.0));
    assert_eq!(r.tardy_percent.dt, Some(0.0));
    assert_eq!(r.tardy_percent.all, Some(25.0));
    assert_eq!(r.tardiness.unwrap().p50, 1.0);
    assert_eq!(r.jumped_ahead_percent, Some(50.0));
    assert_eq!(r.saw_dt_percent, Some(50.0));
    assert_eq!(r.jumped_ahead_of_those_percent, Some(100.0));
    // Waiting: 0, 14, 8, 0 → DS mean 4; earliness of on-time jobs 0, 15, 0.
    assert_eq!(r.waiting.ds.unwrap().mean, 4.0);
    assert_eq!(r.waiting.dt.unwrap().p95, 14.0 * 0.95 + 0.0 * 0.05);
    assert_eq!(r.earliness.all.unwrap().count, 3);
    assert_eq!(r.earliness.all.unwrap().p50, 0.0);
    assert!(r.pricing.is_none());
}

/// Table 6 at low load: with `Q` the waiting jobs, delay-sensitive users at
/// α = κ offer no slack even at the 95th percentile (a waiting job is
/// rare); charging the job in service as well makes some of them pay with
/// slack.
#[test]
fn the_job_in_service_is_not_charged_by_default() {
    let p = poisson(20_000, 200.0);
    let ds_p95 = |p: &SimParams| {
        let r = simulate(p).unwrap();
        policy(&r, Policy::Mrm)
            .pricing
            .unwrap()
            .slack
            .ds
            .unwrap()
            .p95
    };
    assert_eq!(ds_p95(&p), 0.0);
    let charged = SimParams {
        charge_in_service: true,
        ..p
    };
    assert!(ds_p95(&charged) > 1.0);
}

/// Without the charge (weight 0) delay-sensitive users at α = κ never need
/// slack, and more of them jump ahead than with the full charge.
#[test]
fn the_charge_holds_delay_sensitive_jobs_back() {
    let p = poisson(20_000, 44.0);
    let free = SimParams {
        charge_weight: 0.0,
        ..p.clone()
    };
    let (full, none) = (simulate(&p).unwrap(), simulate(&free).unwrap());
    let m = |r: &SimReport| *policy(r, Policy::Mrm);
    let slack_p95 = |r: &SimReport| m(r).pricing.unwrap().slack.ds.unwrap().p95;
    assert_eq!(slack_p95(&none), 0.0);
    assert!(slack_p95(&full) > 10.0);
    assert!(m(&none).jumped_ahead_percent > m(&full).jumped_ahead_percent);
    assert!(m(&none).waiting.ds.unwrap().mean < m(&full).waiting.ds.unwrap().mean);
}
