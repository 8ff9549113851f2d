//! Tests of the shaping module: Algorithm 1 on hand-built hosts and against
//! a literal transcription (all hosts copied per application, lines 8–9);
//! the baseline reproduced by the oracle with K1 = 100 %; failures of the
//! optimistic policy; conservation at every event; refused settings.

use super::*;
use crate::numerics::Rng;

fn host(cpu: f64, mem: f64) -> Host {
    Host { cpu, mem }
}

/// An application of `len` components from `first` in the shaper's slice,
/// arriving at `arrival`.
fn shaper_app(arrival: f64, id: usize, first: usize, len: usize) -> ShaperApp {
    ShaperApp {
        arrival,
        id,
        first,
        len,
    }
}

fn comp(host: usize, kind: Kind, started: f64, cpu: f64, mem: f64) -> ShaperComponent {
    ShaperComponent {
        host,
        kind,
        started,
        cpu,
        mem,
    }
}

/// Algorithm 1 transcribed literally: the whole host arrays copied per
/// application (lines 8–9), kept or dropped.
fn literal(hosts: &[Host], apps: &[ShaperApp], comps: &[ShaperComponent]) -> ShaperDecision {
    let mut cpus_free: Vec<f64> = hosts.iter().map(|h| h.cpu).collect();
    let mut mem_free: Vec<f64> = hosts.iter().map(|h| h.mem).collect();
    let mut j: Vec<usize> = (0..apps.len()).collect();
    j.sort_by(|&a, &b| {
        apps[a]
            .arrival
            .total_cmp(&apps[b].arrival)
            .then(apps[a].id.cmp(&apps[b].id))
    });
    let mut d = ShaperDecision::default();
    for &r in &j {
        let mut cpus = cpus_free.clone();
        let mut mem = mem_free.clone();
        let mut remove = false;
        let cs = &comps[apps[r].first..apps[r].first + apps[r].len];
        for c in cs.iter().filter(|c| c.kind == Kind::Core) {
            cpus[c.host] -= c.cpu;
            if cpus[c.host] < -pessimistic::EPS {
                remove = true;
                break;
            }
            mem[c.host] -= c.mem;
            if mem[c.host] < -pessimistic::EPS {
                remove = true;
                break;
            }
        }
        if remove {
            d.preempted_apps.push(r);
            continue;
        }
        cpus_free = cpus;
        mem_free = mem;
        let mut e: Vec<usize> = (apps[r].first..apps[r].first + apps[r].len)
            .filter(|&i| comps[i].kind == Kind::Elastic)
            .collect();
        e.sort_by(|&a, &b| {
            comps[a]
                .started
                .total_cmp(&comps[b].started)
                .then(a.cmp(&b))
        });
        for i in e {
            let c = cpus_free[comps[i].host] - comps[i].cpu;
            let m = mem_free[comps[i].host] - comps[i].mem;
            if c < -pessimistic::EPS || m < -pessimistic::EPS {
                d.preempted_components.push(i);
            } else {
                cpus_free[comps[i].host] = c;
                mem_free[comps[i].host] = m;
            }
        }
        d.kept.push(r);
    }
    d.free = cpus_free
        .into_iter()
        .zip(mem_free)
        .map(|(cpu, mem)| host(cpu, mem))
        .collect();
    d
}

#[test]
fn algorithm1_core_first_and_whole_preemption() {
    let hosts = [host(8.0, 32.0), host(8.0, 32.0)];
    // A (arrival 0): core 6 cores on host 0. B (arrival 1): core 4 cores on
    // host 0 and an elastic on host 1. B's core does not fit after A's: B is
    // preempted whole, its elastic with it; A is kept.
    let comps = [
        comp(0, Kind::Core, 0.0, 6.0, 4.0),
        comp(0, Kind::Core, 5.0, 4.0, 4.0),
        comp(1, Kind::Elastic, 5.0, 2.0, 2.0),
    ];
    // B listed first: the sort by arrival must still serve A first.
    let apps = [shaper_app(1.0, 1, 1, 2), shaper_app(0.0, 0, 0, 1)];
    let d = pessimistic(&hosts, &apps, &comps, false);
    assert_eq!(d.preempted_apps, vec![0]);
    assert_eq!(d.kept, vec![1]);
    assert!(d.preempted_components.is_empty());
    assert_eq!(d.free[0], host(2.0, 28.0));
    // B's elastic was never charged: host 1 stays free.
    assert_eq!(d.free[1], host(8.0, 32.0));
}

#[test]
fn algorithm1_elastic_by_age_and_memory_counts() {
    // One application: a core on host 0, three elastic components on host 1
    // started at 30, 10 and 20; host 1 holds two of them by memory.
    let hosts = [host(8.0, 16.0), host(8.0, 10.0)];
    let comps = [
        comp(0, Kind::Core, 0.0, 1.0, 1.0),
        comp(1, Kind::Elastic, 30.0, 1.0, 4.0),
        comp(1, Kind::Elastic, 10.0, 1.0, 4.0),
        comp(1, Kind::Elastic, 20.0, 1.0, 4.0),
    ];
    let apps = [shaper_app(0.0, 0, 0, 4)];
    let d = pessimistic(&hosts, &apps, &comps, false);
    // The youngest (started at 30) goes.
    assert_eq!(d.preempted_components, vec![1]);
    assert_eq!(d.kept, vec![0]);
    assert_eq!(d.free[1], host(6.0, 2.0));
}

#[test]
fn algorithm1_resizes_survivors_to_forecast_plus_beta() {
    // Components asking 4 cores / 8 GB, forecast at 50 % / 25 % with
    // variance 0.0004 (σ = 2 %): targets 4·(0.5 + 0.05 + 3·0.02) = 2.44
    // cores and 8·(0.25 + 0.05 + 0.06) = 2.88 GB; two such components
    // fill a 5-core host that their requests (8 cores) would not fit.
    let t_cpu = buffer::target(4.0, 0.5, 0.0004, 0.05, 3.0, Spread::StdDev);
    let t_mem = buffer::target(8.0, 0.25, 0.0004, 0.05, 3.0, Spread::StdDev);
    assert!((t_cpu - 2.44).abs() < 1e-12);
    assert!((t_mem - 2.88).abs() < 1e-12);
    let hosts = [host(5.0, 16.0)];
    let comps = [
        comp(0, Kind::Core, 0.0, t_cpu, t_mem),
        comp(0, Kind::Elastic, 0.0, t_cpu, t_mem),
    ];
    let apps = [shaper_app(0.0, 0, 0, 2)];
    let d = pessimistic(&hosts, &apps, &comps, false);
    assert!(d.preempted_apps.is_empty() && d.preempted_components.is_empty());
    assert!((d.free[0].cpu - (5.0 - 2.0 * t_cpu)).abs() < 1e-12);
    assert!((d.free[0].mem - (16.0 - 2.0 * t_mem)).abs() < 1e-12);
}

#[test]
fn algorithm1_line_29_as_printed_preempts_an_exact_fill() {
    let hosts = [host(4.0, 8.0)];
    let comps = [
        comp(0, Kind::Core, 0.0, 2.0, 2.0),
        comp(0, Kind::Elastic, 0.0, 2.0, 2.0),
    ];
    let apps = [shaper_app(0.0, 0, 0, 2)];
    assert!(pessimistic(&hosts, &apps, &comps, false)
        .preempted_components
        .is_empty());
    assert_eq!(
        pessimistic(&hosts, &apps, &comps, true).preempted_components,
        vec![1]
    );
}

#[test]
fn algorithm1_matches_its_literal_transcription() {
    let mut rng = Rng::new(11);
    for case in 0..300 {
        let nh = rng.int(1, 4) as usize;
        let hosts: Vec<Host> = (0..nh)
            .map(|_| host(rng.int(2, 16) as f64, rng.uniform(4.0, 64.0)))
            .collect();
        let mut comps = Vec::new();
        let mut apps = Vec::new();
        for a in 0..rng.int(1, 6) as usize {
            let first = comps.len();
            let n = rng.int(1, 6) as usize;
            for k in 0..n {
                comps.push(comp(
                    rng.int(0, nh as i64 - 1) as usize,
                    if k == 0 || rng.chance(0.3) {
                        Kind::Core
                    } else {
                        Kind::Elastic
                    },
                    rng.int(0, 50) as f64,
                    rng.int(1, 6) as f64 * 0.5,
                    rng.uniform(0.1, 16.0),
                ));
            }
            apps.push(ShaperApp {
                arrival: rng.int(0, 5) as f64,
                id: a,
                first,
                len: n,
            });
        }
        let fast = pessimistic(&hosts, &apps, &comps, false);
        let slow = literal(&hosts, &apps, &comps);
        assert_eq!(fast.preempted_apps, slow.preempted_apps, "case {case}");
        assert_eq!(
            fast.preempted_components, slow.preempted_components,
            "case {case}"
        );
        assert_eq!(fast.kept, slow.kept, "case {case}");
        for (f, s) in fast.free.iter().zip(&slow.free) {
            assert!(
                (f.cpu - s.cpu).abs() < 1e-9 && (f.mem - s.mem).abs() < 1e-9,
                "case {case}"
            );
        }
    }
}

#[test]
fn optimistic_kills_the_largest_memory_user_and_shares_cpu() {
    let hosts = [host(4.0, 10.0)];
    let comps = [
        comp(0, Kind::Core, 0.0, 3.0, 6.0),
        comp(0, Kind::Core, 0.0, 3.0, 5.0),
    ];
    let apps = [shaper_app(0.0, 0, 0, 1), shaper_app(1.0, 1, 1, 1)];
    // Memory 11 > 10: the largest *user* (app 1 uses 5.5 GB, app 0 4 GB) dies.
    let d = optimistic(&hosts, &apps, &comps, &[4.0, 5.5]);
    assert_eq!(d.killed_apps, vec![1]);
    assert_eq!(d.cpu_scale, vec![1.0]);
    // Without the memory shortage, 6 cores on 4 are shared out by 4/6.
    let d = optimistic(&[host(4.0, 20.0)], &apps, &comps, &[4.0, 5.5]);
    assert!(d.killed_apps.is_empty());
    assert!((d.cpu_scale[0] - 4.0 / 6.0).abs() < 1e-12);
}

fn small_params() -> Params {
    Params {
        hosts: 12,
        workload: GeneratorParams {
            apps: 150,
            ..GeneratorParams::default()
        },
        ..Params::default()
    }
}

#[test]
fn oracle_with_k1_full_reproduces_the_baseline_exactly() {
    let base = small_params();
    let w = generate_for(&base).expect("workload");
    for policy in [Policy::Pessimistic, Policy::Optimistic] {
        let p = Params {
            predictor: Predictor::Oracle,
            policy,
            k1: 1.0,
            k2: 0.0,
            ..base.clone()
        };
        let r = simulate(&w, &p, |_, _| {}).expect("simulate");
        // Nothing reclaimed, measured either way: the same core-seconds.
        assert_eq!(
            r.shaped.summary.allocated_cpu_s,
            r.baseline.summary.allocated_cpu_s
        );
        assert_eq!(super::LoadRow::of(&r).reclaimed_cpu_pct, 0.0);
        let b: Vec<Option<f64>> = r.baseline.apps.iter().map(|a| a.finish).collect();
        let s: Vec<Option<f64>> = r.shaped.apps.iter().map(|a| a.finish).collect();
        assert_eq!(b, s, "{policy}");
        assert_eq!(r.shaped.summary.failures, 0);
        assert_eq!(r.shaped.summary.app_preemptions, 0);
        assert_eq!(r.shaped.summary.component_preemptions, 0);
        assert_eq!(
            r.baseline.summary.mean_turnaround_s,
            r.shaped.summary.mean_turnaround_s
        );
        assert!(r.baseline.summary.completed == w.applications.len());
    }
    // And shaping with a smaller K1 does change the run.
    let p = Params {
        predictor: Predictor::Oracle,
        k1: 0.05,
        ..base
    };
    let r = simulate(&w, &p, |_, _| {}).expect("simulate");
    assert_ne!(
        r.baseline.summary.mean_turnaround_s,
        r.shaped.summary.mean_turnaround_s
    );
    assert!(r.shaped.summary.cluster_slack_mem_pct < r.baseline.summary.cluster_slack_mem_pct);
}

/// One application on one host: memory at 30 % of its request for 15
/// minutes, then 90 %: a forecaster that has only seen the flat part
/// predicts 30 %.
fn jumping_app() -> Workload {
    let minutes = 40;
    let mem: Vec<f32> = (0..minutes)
        .map(|m| if m < 15 { 0.3 } else { 0.9 })
        .collect();
    Workload {
        applications: vec![Application {
            name: "jumper".into(),
            arrival: 0.0,
            runtime: minutes as f64 * 60.0,
            components: vec![ComponentGroup {
                kind: Kind::Core,
                count: 2,
                cpu: 1.0,
                mem: 4.0,
            }],
            usage: UsageTrace {
                cpu: vec![0.5; minutes],
                mem,
            },
        }],
    }
}

#[test]
fn an_application_crashing_five_times_then_completes_with_its_full_request() {
    let w = jumping_app();
    for policy in [Policy::Optimistic, Policy::Pessimistic] {
        let p = Params {
            hosts: 1,
            predictor: Predictor::Gp,
            policy,
            k1: 0.0,
            k2: 0.0,
            ..Params::default()
        };
        assert_eq!(p.max_crashes, 5, "the reference's crashedAllowed");
        let r = simulate(&w, &p, |_, _| {}).expect("simulate");
        assert_eq!(r.baseline.summary.failures, 0);
        // Every start fails at the jump until shaping is turned off.
        let s = &r.shaped.summary;
        assert_eq!(s.failures, 5, "{policy}");
        assert_eq!(s.failed_apps, 1);
        assert_eq!(s.shaping_off_apps, 1);
        assert_eq!(s.unfinished, 0);
        assert_eq!(s.completed, 1);
        assert_eq!(s.resubmissions, 5);
        let app = &r.shaped.apps[0];
        assert!(app.shaping_off && app.finish.is_some());
        assert_eq!(app.attempts, 6);
        assert!(app.wasted > 0.0);
        let tl = r.shaped.app_timeline.expect("timeline");
        let count = |k: EventKind| tl.events.iter().filter(|e| e.kind == k).count();
        assert_eq!(count(EventKind::Fail), 5);
        assert_eq!(count(EventKind::Resubmit), 5);
        assert_eq!(count(EventKind::ShapingOff), 1);
        assert_eq!(count(EventKind::Finish), 1);
        let first_fail = tl
            .events
            .iter()
            .find(|e| e.kind == EventKind::Fail)
            .expect("a failure");
        // Started at 0, failed at the tick of minute 15.
        assert_eq!(first_fail.t, 15.0 * 60.0);
        // The last start runs with its full request to the end.
        let last_start = tl
            .events
            .iter()
            .rfind(|e| e.kind == EventKind::Start)
            .expect("a start")
            .t;
        let after: Vec<_> = tl.points.iter().filter(|q| q.t > last_start).collect();
        assert!(after.len() >= 39, "{} minutes", after.len());
        for q in after {
            assert!((q.alloc_mem - q.request_mem).abs() < 1e-9, "{q:?}");
        }
        // Its turnaround counts: the mean is over all applications.
        assert_eq!(
            s.mean_turnaround_s,
            app.turnaround().expect("finished"),
            "{policy}"
        );
        // With a guaranteed 100 % nothing fails.
        let safe = Params { k1: 1.0, ..p };
        assert_eq!(
            simulate(&w, &safe, |_, _| {})
                .expect("simulate")
                .shaped
                .summary
                .failures,
            0
        );
    }
}

#[test]
fn allocations_never_exceed_capacity_at_any_event() {
    let base = small_params();
    let w = generate_for(&base).expect("workload");
    for (predictor, preempt_on) in [
        (Predictor::Oracle, PreemptOn::CpuAndMemory),
        (Predictor::Gp, PreemptOn::CpuAndMemory),
        (Predictor::Gp, PreemptOn::Memory),
    ] {
        for policy in Policy::ALL {
            let p = Params {
                predictor,
                preempt_on,
                k1: 0.05,
                k2: 1.0,
                ..base.clone()
            };
            let r = simulate_verified(&w, &p, policy).expect("run");
            assert_eq!(r.summary.overcommits, 0, "{policy} {predictor}");
            assert!(r.summary.min_free_cpu > -1e-6 && r.summary.min_free_mem > -1e-6);
            // Nothing is abandoned: every application completes.
            assert_eq!(r.summary.unfinished, 0, "{policy} {predictor}");
            assert_eq!(r.summary.completed, w.applications.len());
            assert!(r.apps.iter().all(|a| a.finish.is_some()));
        }
    }
}

#[test]
fn invalid_settings_are_refused() {
    let w = jumping_app();
    let neg = Params {
        k1: -0.1,
        ..Params::default()
    };
    match simulate(&w, &neg, |_, _| {}) {
        Err(ShapingError::Param { name, .. }) => assert_eq!(name, "k1"),
        other => panic!("{other:?}"),
    }
    let nan = Params {
        k2: f64::NAN,
        ..Params::default()
    };
    assert!(matches!(
        simulate(&w, &nan, |_, _| {}),
        Err(ShapingError::Param { .. })
    ));
    let empty = Params {
        hosts: 0,
        ..Params::default()
    };
    assert!(matches!(
        simulate(&w, &empty, |_, _| {}),
        Err(ShapingError::EmptyCluster(_))
    ));
    assert!(matches!(
        Workload::default().validate(&[host(32.0, 128.0)]),
        Err(ShapingError::EmptyWorkload)
    ));
    let mut big = jumping_app();
    big.applications[0].components[0].mem = 500.0;
    match simulate(&big, &Params::default(), |_, _| {}) {
        Err(e @ ShapingError::Infeasible { .. }) => {
            assert!(e.to_string().contains("larger than any host"))
        }
        other => panic!("{other:?}"),
    }
    let mut wide = jumping_app();
    wide.applications[0].components[0].count = 10;
    wide.applications[0].components[0].cpu = 20.0;
    let one = Params {
        hosts: 2,
        ..Params::default()
    };
    assert!(matches!(
        simulate(&wide, &one, |_, _| {}),
        Err(ShapingError::Infeasible { .. })
    ));
    let mut over = jumping_app();
    over.applications[0].usage.mem[3] = 1.5;
    assert!(matches!(
        simulate(&over, &Params::default(), |_, _| {}),
        Err(ShapingError::Application { .. })
    ));
    assert!(GridParams {
        seeds: 0,
        ..GridParams::default()
    }
    .validate()
    .is_err());
}

#[test]
fn the_recommendation_is_the_best_turnaround_meeting_the_target() {
    let cell = |k1: f64, k2: f64, ratio: f64, failed: f64| GridCell {
        predictor: Predictor::Gp,
        k1,
        k2,
        turnaround_ratio: ratio,
        slack_mem_pct: 10.0,
        slack_cpu_pct: 10.0,
        failed_apps_pct: failed,
        preempted_apps_pct: 0.0,
        wasted_pct: 0.0,
        crashes_per_app: 0.0,
        resubmissions_per_app: 0.0,
        shaping_off_pct: 0.0,
        worst_off_p99: 1.0,
    };
    let cells = vec![
        cell(0.0, 0.0, 9.0, 30.0),
        cell(0.05, 3.0, 6.0, 0.5),
        cell(0.25, 3.0, 4.0, 0.0),
    ];
    let r = recommend(&cells, Predictor::Gp, 1.0).expect("some");
    assert!(r.meets_target);
    assert_eq!((r.cell.k1, r.cell.k2), (0.05, 3.0));
    let r = recommend(&cells, Predictor::Gp, 0.0).expect("some");
    assert_eq!(r.cell.k1, 0.25);
    let strict = vec![cell(0.0, 0.0, 9.0, 30.0), cell(0.05, 0.0, 5.0, 20.0)];
    let r = recommend(&strict, Predictor::Gp, 1.0).expect("some");
    assert!(!r.meets_target);
    assert_eq!(r.cell.k1, 0.05);
    assert!(recommend(&cells, Predictor::Arima, 1.0).is_none());
}

#[test]
fn the_grid_runs_and_k1_full_is_the_baseline() {
    let p = Params {
        hosts: 6,
        workload: GeneratorParams {
            apps: 40,
            ..GeneratorParams::default()
        },
        ..Params::default()
    };
    let g = GridParams {
        k1: vec![0.05, 1.0],
        k2: vec![0.0, 3.0],
        predictors: vec![Predictor::Gp],
        seeds: 1,
        target_failed_pct: 5.0,
    };
    let r = grid_generated(&p, &g, |_, _| {}).expect("grid");
    assert_eq!(r.cells.len(), 4);
    for c in r.cells.iter().filter(|c| c.k1 == 1.0) {
        assert_eq!(c.turnaround_ratio, 1.0);
        assert_eq!(c.failed_apps_pct, 0.0);
    }
    assert_eq!(r.recommended.len(), 1);
}

#[test]
fn the_generator_is_deterministic_and_calibrated() {
    let p = GeneratorParams {
        apps: 400,
        model: UsageModel::Plateau,
        ..GeneratorParams::default()
    };
    let h = host(32.0, 128.0);
    let a = generate(&p, 20, h).expect("gen");
    assert_eq!(a, generate(&p, 20, h).expect("gen"));
    a.validate(&vec![h; 20]).expect("valid");
    let s = WorkloadSummary::of(&a, 20.0 * 32.0);
    // The requested load is the target up to the runtime clamps and the
    // last arrival's gap.
    assert!(
        (s.requested_cpu_load - 1.3).abs() < 0.3,
        "{}",
        s.requested_cpu_load
    );
    assert!(s.used_cpu_load < s.requested_cpu_load);
    assert!(s.rigid > 0 && s.rigid < 400);
}

#[test]
fn csv_and_json_inputs_round_trip() {
    let apps = "app,arrival,runtime,kind,count,cpu,mem\n\
                a,0,120,core,1,1,2\n\
                a,0,120,elastic,3,0.5,1\n\
                b,30,60,core,2,2,4\n";
    let usage = "app,minute,cpu,mem\na,0,0.5,0.5\na,1,0.6,0.4\nb,0,1,1\n";
    let w = read_applications_csv("apps.csv", apps, "usage.csv", usage).expect("csv");
    assert_eq!(w.applications.len(), 2);
    assert_eq!(w.applications[0].components.len(), 2);
    assert_eq!(w.applications[0].usage.mem, vec![0.5, 0.4]);
    let json = serde_json::to_string(&w).expect("json");
    assert_eq!(read_applications_json("w.json", &json).expect("json"), w);
    // A bad kind is located.
    let bad = apps.replace("elastic", "flexible");
    match read_applications_csv("apps.csv", &bad, "usage.csv", usage) {
        Err(ShapingError::Input(e)) => assert!(e[0].starts_with("apps.csv:3:"), "{e:?}"),
        other => panic!("{other:?}"),
    }
    // A hole in the usage is named.
    let holed = "app,minute,cpu,mem\na,0,0.5,0.5\na,2,0.6,0.4\nb,0,1,1\n";
    match read_applications_csv("apps.csv", apps, "usage.csv", holed) {
        Err(ShapingError::Input(e)) => assert!(e[0].contains("minute 1"), "{e:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn alibaba_containers_become_core_components() {
    let meta = "c_1,m_1,0,app_1,started,400,400,10\nc_2,m_2,5,app_1,started,200,200,5\n";
    let usage = "c_1,m_1,0,50,40,,,,,,\nc_1,m_1,60,60,40,,,,,,\nc_2,m_2,0,30,20,,,,,,\nc_2,m_2,120,30,20,,,,,,\n";
    let w = workload_from_alibaba("meta.csv", meta, "usage.csv", usage, 128.0).expect("alibaba");
    assert_eq!(w.applications.len(), 1);
    let a = &w.applications[0];
    assert!(a.is_rigid());
    assert_eq!(a.component_count(), 2);
    assert_eq!(a.components[0].cpu, 4.0);
    assert!((a.components[0].mem - 12.8).abs() < 1e-12);
    assert_eq!(a.runtime, 120.0);
    assert_eq!(a.usage.len(), 3);
    // Minute 0: CPU (50 + 30) / 2 %; minute 1 only c_1 (60 %).
    assert!((a.usage.cpu[0] - 0.4).abs() < 1e-6);
    assert!((a.usage.cpu[1] - 0.6).abs() < 1e-6);
}

#[test]
fn forecasts_kept_reproduce_the_simulation_and_another_app_s_timelines() {
    let mut p = small_params();
    p.workload.apps = 60;
    let w = generate_for(&p).expect("workload");
    let f = prepare_forecasts(&w, &p, &mut |_| {});
    let r = simulate(&w, &p, |_, _| {}).expect("simulate");
    assert_eq!(simulate_with(&w, &p, &f, |_, _| {}).expect("again"), r);
    // The recorded application and host, re-run: the same timelines.
    let picked = pick_timeline_app(&w, &p).expect("pick").expect("an app");
    let t = timelines(&w, &p, &f, picked, p.timeline_host).expect("timelines");
    assert_eq!(Some(&t.baseline_app), r.baseline.app_timeline.as_ref());
    assert_eq!(Some(&t.shaped_app), r.shaped.app_timeline.as_ref());
    assert_eq!(t.baseline_host, r.baseline.host_timeline);
    assert_eq!(t.shaped_host, r.shaped.host_timeline);
    // Another application and host: what a simulation told to record them
    // records, and the runs themselves unchanged.
    let other = (0..w.applications.len())
        .rev()
        .find(|&i| i != picked && !w.applications[i].is_rigid())
        .expect("another elastic application");
    let name = w.applications[other].name.clone();
    let q = Params {
        timeline_app: Some(name.clone()),
        timeline_host: 3,
        ..p.clone()
    };
    let r2 = simulate_with(&w, &q, &f, |_, _| {}).expect("told to record");
    let t2 = timelines(&w, &p, &f, other, 3).expect("timelines");
    assert_eq!(t2.shaped_app.app, name);
    assert!(!t2.shaped_app.points.is_empty());
    assert_ne!(t2.shaped_app, t.shaped_app);
    assert_eq!(Some(&t2.baseline_app), r2.baseline.app_timeline.as_ref());
    assert_eq!(Some(&t2.shaped_app), r2.shaped.app_timeline.as_ref());
    assert_eq!(t2.shaped_host, r2.shaped.host_timeline);
    assert_eq!(t2.shaped_host.host, 3);
    assert_eq!(r2.shaped.summary, r.shaped.summary);
    assert_eq!(r2.baseline.apps, r.baseline.apps);
    // The policies compared on the kept forecasts: as compare_policies.
    assert_eq!(
        compare_policies_with(&w, &p, &f, |_, _| {}).expect("with"),
        compare_policies(&w, &p, |_, _| {}).expect("compare")
    );
    // Refused: an application or host out of range, forecasts of another
    // workload.
    assert!(matches!(
        timelines(&w, &p, &f, w.applications.len(), 0),
        Err(ShapingError::Param { ref name, .. }) if name == "app"
    ));
    assert!(matches!(
        timelines(&w, &p, &f, 0, p.hosts),
        Err(ShapingError::Param { ref name, .. }) if name == "timeline_host"
    ));
    assert!(matches!(
        simulate_with(&w, &p, &f[1..], |_, _| {}),
        Err(ShapingError::Param { ref name, .. }) if name == "forecasts"
    ));
}

#[test]
fn turnaround_is_over_all_applications_never_the_finished_only() {
    let out = |arrival: f64, finish: Option<f64>| AppOutcome {
        name: "a".into(),
        arrival,
        finish,
        attempts: 1,
        failures: 0,
        shaping_off: false,
        preemptions: 0,
        component_preemptions: 0,
        wasted: 0.0,
        slack_cpu_pct: 0.0,
        slack_mem_pct: 0.0,
    };
    // One finished after 100 s, one still running at the end (1,000 s): a
    // finished-only mean would say 100 s.
    let outcomes = vec![out(0.0, Some(100.0)), out(0.0, None)];
    let (t, unfinished) = all_turnarounds(&outcomes, 1_000.0);
    assert_eq!(unfinished, 1);
    assert_eq!(t, vec![100.0, 1_000.0]);
    // And in real runs, the summary's mean is the mean over every
    // application's own turnaround.
    let base = small_params();
    let w = generate_for(&base).expect("workload");
    let r = simulate(&w, &base, |_, _| {}).expect("simulate");
    for run in [&r.baseline, &r.shaped] {
        let all: Vec<f64> = run
            .apps
            .iter()
            .map(|a| a.turnaround().expect("every application finishes"))
            .collect();
        let mean = all.iter().sum::<f64>() / all.len() as f64;
        assert_eq!(run.turnaround.count, w.applications.len());
        assert!((run.summary.mean_turnaround_s - mean).abs() < 1e-6 * mean);
    }
    // The worst-off: each application against its own baseline.
    let wo = &r.worst_off;
    let mut ratios: Vec<f64> = r
        .baseline
        .apps
        .iter()
        .zip(&r.shaped.apps)
        .map(|(b, s)| {
            s.turnaround().expect("finished").max(1e-9)
                / b.turnaround().expect("finished").max(1e-9)
        })
        .collect();
    ratios.sort_by(|a, b| a.total_cmp(b));
    assert_eq!(wo.max_slowdown, ratios[ratios.len() - 1]);
    assert!(wo.p99_slowdown <= wo.max_slowdown && wo.p99_slowdown >= wo.median_slowdown);
    assert_eq!(wo.slower_apps, ratios.iter().filter(|&&x| x > 1.01).count());
}

#[test]
fn a_restarted_application_s_forecasts_continue_from_what_it_observed() {
    let w = jumping_app();
    let p = Params {
        hosts: 1,
        predictor: Predictor::Gp,
        policy: Policy::Pessimistic,
        k1: 0.0,
        k2: 0.0,
        ..Params::default()
    };
    let r = simulate(&w, &p, |_, _| {}).expect("simulate");
    let tl = r.shaped.app_timeline.expect("timeline");
    let starts: Vec<f64> = tl
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Start)
        .map(|e| e.t)
        .collect();
    assert!(starts.len() >= 2);
    // Forecasts of memory by minute since each of the first two starts.
    let by_minute = |from: f64, to: f64| -> Vec<Option<f64>> {
        tl.points
            .iter()
            .filter(|q| q.t > from && q.t < to)
            .map(|q| q.forecast_mem.map(|f| f / q.request_mem))
            .collect()
    };
    let first = by_minute(starts[0], starts[1]);
    let second = by_minute(starts[1], starts.get(2).copied().unwrap_or(f64::INFINITY));
    assert_ne!(first, second);
    // The first attempt waits the grace period; the second is forecast
    // from its first minute, from the first attempt's latest observations
    // (nine at 30 %, then the jump to 90 %): above the flat 30 % it would
    // replay (the GP's patterns give 0.386).
    assert!(first[..5].iter().all(Option::is_none), "{first:?}");
    let learned = second[0].expect("forecast from the first minute");
    assert!(learned > 0.31, "{learned}");
    // Replayed, the second attempt would wait the grace period too (the
    // first point is minute 1).
    assert!(first[..r.params.grace_minutes - 1]
        .iter()
        .all(Option::is_none));
    assert!(second[..r.params.grace_minutes - 1]
        .iter()
        .all(Option::is_some));
}

#[test]
fn the_reference_generator_bursts_in_the_first_tenth_with_a_fifth_rigid() {
    let p = GeneratorParams {
        apps: 1_000,
        ..GeneratorParams::default()
    };
    assert_eq!(p.model, UsageModel::Reference);
    let h = host(32.0, 128.0);
    let w = generate(&p, 20, h).expect("gen");
    w.validate(&vec![h; 20]).expect("valid");
    // The span: the paper's rate per host, 1,000 applications on 20 hosts.
    let span = generator::PAPER_GAP_S * 250.0 / 20.0 * 1_000.0;
    let arrivals: Vec<f64> = w.applications.iter().map(|a| a.arrival).collect();
    assert!(arrivals.iter().all(|&t| t <= 0.1 * span + 1e-6));
    // Fifty at each instant.
    for chunk in arrivals.chunks(generator::BURST) {
        assert!(chunk.iter().all(|&t| t == chunk[0]));
    }
    let rigid = w.applications.iter().filter(|a| a.is_rigid()).count();
    assert!((150..250).contains(&rigid), "{rigid}");
    // Every trace in (0, 1], one value per minute of its runtime.
    for a in &w.applications {
        assert_eq!(a.usage.len(), (a.runtime / 60.0).ceil().max(1.0) as usize);
        assert!(a.usage.mem.iter().all(|&x| x > 0.0 && x <= 1.0));
    }
}

#[test]
fn memory_only_preemption_shares_cpu_instead_of_preempting() {
    // Two single-core applications on one 4-core, 100 GB host, each
    // targeting 3 cores and 10 GB: CPU short by 2, memory plenty.
    let hosts = [host(4.0, 100.0)];
    let apps = [shaper_app(0.0, 0, 0, 1), shaper_app(1.0, 1, 1, 1)];
    let comps = [
        comp(0, Kind::Core, 0.0, 3.0, 10.0),
        comp(0, Kind::Core, 1.0, 3.0, 10.0),
    ];
    let (mut d, mut order) = (ShaperDecision::default(), Vec::new());
    pessimistic::pessimistic_on(&hosts, &apps, &comps, false, true, &mut d, &mut order);
    assert_eq!(d.preempted_apps, vec![1], "as printed: the younger goes");
    pessimistic::pessimistic_on(&hosts, &apps, &comps, false, false, &mut d, &mut order);
    assert!(d.preempted_apps.is_empty(), "memory only: both stay");
    assert_eq!(d.kept, vec![0, 1]);
    assert!((d.free[0].cpu + 2.0).abs() < 1e-12 && (d.free[0].mem - 80.0).abs() < 1e-12);
}

#[test]
fn a_generated_workload_written_as_csv_reads_back_equal() {
    // The files `skyplan shape generate --out` writes are what the
    // benchmarks "from files" read: they must be the same workload.
    let mut p = small_params();
    p.workload.apps = 40;
    let w = generate_for(&p).expect("workload");
    let (apps, usage) = crate::export::shaping_workload_csv(&w);
    let back = read_applications_csv("apps.csv", &apps, "usage.csv", &usage).expect("reads");
    assert_eq!(back.applications.len(), w.applications.len());
    assert_eq!(back, w);
}

#[test]
fn reclaimed_cores_are_the_shaped_share_over_the_baselines_span() {
    // A second formulation of the sweep row's reclaimed share: the shaped
    // run's share of the cores, rescaled from its own span (first arrival
    // to last completion) to the baseline's, subtracted from the
    // baseline's share.
    let base = small_params();
    let w = generate_for(&base).expect("workload");
    let mut differ = 0;
    for predictor in [Predictor::Oracle, Predictor::Gp] {
        let p = Params {
            predictor,
            ..base.clone()
        };
        let r = simulate(&w, &p, |_, _| {}).expect("simulate");
        let t0 = w
            .applications
            .iter()
            .map(|a| a.arrival)
            .fold(f64::INFINITY, f64::min);
        let (b, s) = (&r.baseline.summary, &r.shaped.summary);
        let rescaled =
            b.allocated_cpu_pct - s.allocated_cpu_pct * (s.makespan_s - t0) / (b.makespan_s - t0);
        let got = super::LoadRow::of(&r).reclaimed_cpu_pct;
        assert!(
            (got - rescaled).abs() <= 1e-9 * b.allocated_cpu_pct,
            "{predictor}: {got} against {rescaled}"
        );
        differ += usize::from(s.makespan_s != b.makespan_s);
    }
    assert!(differ > 0, "no run whose span differs from the baseline's");
}
