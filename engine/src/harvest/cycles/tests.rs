//! Tests of the thresholds rule, the critical path and the §6 setup,
//! against brute force and hand-checked answers.

use super::dag::{JobDag, Vertex};
use super::select::{JobType, SelectParams};
use super::thresholds::{thresholds, JobDemand, ThresholdRule};
use crate::harvest::tenants::classify::UtilClass;
use crate::harvest::tenants::pattern::Pattern;
use crate::numerics::Rng;

fn util_class(id: &str, pattern: Pattern, servers: usize, average: f64, peak: f64) -> UtilClass {
    UtilClass {
        id: id.into(),
        pattern,
        tenants: vec![id.into()],
        servers,
        cores: 12.0 * servers as f64,
        average,
        peak,
        average_day: vec![],
        centre: vec![],
        utilization: vec![],
    }
}

fn jobs_of(lengths_work: &[(f64, f64)]) -> Vec<JobDemand> {
    lengths_work
        .iter()
        .map(|&(length_secs, work_secs)| JobDemand {
            length_secs,
            work_secs,
        })
        .collect()
}

#[test]
fn critical_path_is_the_longest_chain() {
    // a(10) → c(30) → d(5); b(50) → d: the longest chain is b, d = 55.
    let v = |name: &str, secs: f64| Vertex {
        name: name.into(),
        tasks: 3,
        task_secs: secs,
    };
    let dag = JobDag {
        name: "j".into(),
        last_run_secs: None,
        vertices: vec![v("d", 5.0), v("a", 10.0), v("b", 50.0), v("c", 30.0)],
        edges: vec![
            ["a".into(), "c".into()],
            ["c".into(), "d".into()],
            ["b".into(), "d".into()],
        ],
    };
    assert_eq!(dag.critical_path_secs().unwrap(), 55.0);
    let mut longer = dag.clone();
    longer.vertices[3].task_secs = 60.0; // a, c, d = 75
    assert_eq!(longer.critical_path_secs().unwrap(), 75.0);
}

/// The share of all work in jobs of `t` under `p`, counted directly.
fn share(jobs: &[JobDemand], p: &SelectParams, t: JobType) -> f64 {
    let all: f64 = jobs.iter().map(|j| j.work_secs).sum();
    jobs.iter()
        .filter(|j| p.job_type(Some(j.length_secs)) == t)
        .map(|j| j.work_secs)
        .sum::<f64>()
        / all
}

#[test]
fn derived_thresholds_match_a_brute_force_over_every_split() {
    let mut rng = Rng::new(5);
    for case in 0..200 {
        let n = rng.int(1, 12) as usize;
        // Lengths from a small set so ties happen.
        let jobs: Vec<JobDemand> = (0..n)
            .map(|_| JobDemand {
                length_secs: (rng.int(1, 8) * 50) as f64,
                work_secs: rng.uniform(1.0, 100.0),
            })
            .collect();
        let classes = vec![
            util_class(
                "u",
                Pattern::Unpredictable,
                rng.int(0, 30) as usize,
                30.0,
                60.0,
            ),
            util_class("p", Pattern::Periodic, rng.int(0, 30) as usize, 30.0, 70.0),
            util_class("c", Pattern::Constant, rng.int(0, 30) as usize, 20.0, 25.0),
        ];
        let p = SelectParams::default();
        let d = thresholds(
            ThresholdRule::Derived,
            &jobs,
            &classes,
            None,
            &p,
            1.0 / 300.0,
        )
        .unwrap();
        assert_eq!(d.rule, ThresholdRule::Derived);
        let total_cap: f64 = d.types.iter().map(|t| t.capacity_containers).sum();
        if total_cap == 0.0 {
            continue;
        }
        let target_short = d.types[0].capacity_share;
        let target_long = d.types[2].capacity_share;
        // Every threshold worth trying: below, between and above the lengths.
        let mut cands = vec![0.0];
        for j in &jobs {
            cands.push(j.length_secs - 1.0);
            cands.push(j.length_secs + 1.0);
        }
        let best_short = cands
            .iter()
            .map(|&t| {
                let q = SelectParams {
                    short_max_secs: t,
                    long_min_secs: f64::MAX,
                    ..p.clone()
                };
                (share(&jobs, &q, JobType::Short) - target_short).abs()
            })
            .fold(f64::INFINITY, f64::min);
        let ours = SelectParams {
            short_max_secs: d.short_max_secs,
            long_min_secs: d.long_min_secs,
            ..p.clone()
        };
        let err_short = (share(&jobs, &ours, JobType::Short) - target_short).abs();
        assert!(
            err_short <= best_short + 1e-9,
            "case {case}: short {err_short} > {best_short}"
        );
        // The long cut is the best among those above the short one.
        let best_long = cands
            .iter()
            .filter(|&&t| t >= d.short_max_secs)
            .map(|&t| {
                let q = SelectParams {
                    short_max_secs: d.short_max_secs,
                    long_min_secs: t,
                    ..p.clone()
                };
                (share(&jobs, &q, JobType::Long) - target_long).abs()
            })
            .fold(f64::INFINITY, f64::min);
        let err_long = (share(&jobs, &ours, JobType::Long) - target_long).abs();
        assert!(
            err_long <= best_long + 1e-9,
            "case {case}: long {err_long} > {best_long}"
        );
        // The table's shares are the ones counted directly.
        for (i, t) in [JobType::Short, JobType::Medium, JobType::Long]
            .iter()
            .enumerate()
        {
            assert!((d.types[i].work_share - share(&jobs, &ours, *t)).abs() < 1e-9);
        }
    }
}

#[test]
fn a_workload_whose_demand_doubles_moves_the_thresholds_the_right_way() {
    // 30 jobs of 20–600 s, each 100 task-seconds; a third of the capacity
    // in each pattern.
    let base: Vec<(f64, f64)> = (1..=30).map(|i| (20.0 * i as f64, 100.0)).collect();
    let classes = vec![
        util_class("u", Pattern::Unpredictable, 20, 50.0, 80.0),
        util_class("p", Pattern::Periodic, 20, 50.0, 80.0),
        util_class("c", Pattern::Constant, 20, 50.0, 50.0),
    ];
    let p = SelectParams::default();
    let derive = |jw: &[(f64, f64)]| {
        thresholds(
            ThresholdRule::Derived,
            &jobs_of(jw),
            &classes,
            None,
            &p,
            1.0 / 300.0,
        )
        .unwrap()
    };
    let d0 = derive(&base);
    assert!((d0.types[0].capacity_share - 1.0 / 3.0).abs() < 1e-9);
    // Ten jobs a type: the cuts after the 10th and the 20th job.
    assert_eq!(d0.short_max_secs, 210.0);
    assert_eq!(d0.long_min_secs, 410.0);
    assert_eq!(
        d0.types.iter().map(|t| t.jobs).collect::<Vec<_>>(),
        [10, 10, 10]
    );

    // The long jobs' demand doubles: fewer jobs may be long.
    let heavy_long: Vec<(f64, f64)> = base
        .iter()
        .map(|&(l, w)| (l, if l > d0.long_min_secs { 2.0 * w } else { w }))
        .collect();
    let d1 = derive(&heavy_long);
    assert!(d1.long_min_secs > d0.long_min_secs, "{d1:?}");
    assert!(d1.types[2].jobs < 10);

    // The short jobs' demand doubles: fewer jobs may be short.
    let heavy_short: Vec<(f64, f64)> = base
        .iter()
        .map(|&(l, w)| (l, if l < d0.short_max_secs { 2.0 * w } else { w }))
        .collect();
    let d2 = derive(&heavy_short);
    assert!(d2.short_max_secs < d0.short_max_secs, "{d2:?}");

    // Every job's demand doubles: the shares, and so the thresholds, stay;
    // the containers demanded double.
    let all_double: Vec<(f64, f64)> = base.iter().map(|&(l, w)| (l, 2.0 * w)).collect();
    let d3 = derive(&all_double);
    assert_eq!(
        (d3.short_max_secs, d3.long_min_secs),
        (d0.short_max_secs, d0.long_min_secs)
    );
    for (a, b) in d3.types.iter().zip(&d0.types) {
        assert!((a.demand_containers - 2.0 * b.demand_containers).abs() < 1e-9);
    }

    // The constant classes' capacity doubles: more jobs may be long.
    let mut more_constant = classes.clone();
    more_constant[2].servers = 40;
    more_constant[2].cores = 480.0;
    let d4 = thresholds(
        ThresholdRule::Derived,
        &jobs_of(&base),
        &more_constant,
        None,
        &p,
        1.0 / 300.0,
    )
    .unwrap();
    assert!(d4.long_min_secs < d0.long_min_secs, "{d4:?}");
}

#[test]
fn thresholds_refuse_bad_input() {
    let classes = vec![util_class("c", Pattern::Constant, 4, 20.0, 30.0)];
    let p = SelectParams::default();
    assert!(thresholds(ThresholdRule::Derived, &[], &classes, None, &p, 0.01).is_err());
    for bad in [f64::NAN, -1.0, f64::INFINITY] {
        let jobs = jobs_of(&[(bad, 1.0)]);
        assert!(thresholds(ThresholdRule::Derived, &jobs, &classes, None, &p, 0.01).is_err());
        let jobs = jobs_of(&[(1.0, bad)]);
        assert!(thresholds(ThresholdRule::Derived, &jobs, &classes, None, &p, 0.01).is_err());
        assert!(thresholds(
            ThresholdRule::Derived,
            &jobs_of(&[(1.0, 1.0)]),
            &classes,
            None,
            &p,
            bad
        )
        .is_err());
    }
    assert!(thresholds(
        ThresholdRule::Derived,
        &jobs_of(&[(1.0, 1.0)]),
        &classes,
        Some(0.0),
        &p,
        0.01
    )
    .is_err());
    // No class at all: every job medium, nothing panics.
    let d = thresholds(
        ThresholdRule::Derived,
        &jobs_of(&[(5.0, 1.0), (9.0, 2.0)]),
        &[],
        None,
        &p,
        0.01,
    )
    .unwrap();
    assert_eq!(d.types[1].jobs, 2);
}

#[test]
fn the_runs_give_the_same_answer_on_any_thread_count() {
    use crate::fixtures::{datacenter, DatacenterParams};
    use crate::harvest::{group_series, simulate, simulate_serial, tpcds_like, GroupParams};
    use crate::harvest::{SimParams, ThresholdRule};
    let dc = datacenter(&DatacenterParams {
        tenants: 10,
        step_secs: 600,
        ..DatacenterParams::default()
    });
    let (set, _) =
        group_series(&dc.series, Some(&dc.tenants), None, &GroupParams::default()).unwrap();
    let jobs = tpcds_like(8, 3);
    for thresholds in [ThresholdRule::Derived, ThresholdRule::Fixed] {
        let p = SimParams {
            days: 2.0,
            runs: 2,
            levels: vec![20.0, 40.0],
            thresholds,
            threads: 1,
            ..SimParams::default()
        };
        let one = simulate(&set, &jobs, &p, &mut |_, _| {}).unwrap();
        let two = simulate(
            &set,
            &jobs,
            &SimParams {
                threads: 2,
                ..p.clone()
            },
            &mut |_, _| {},
        )
        .unwrap();
        let serial = simulate_serial(&set, &jobs, &p).unwrap();
        assert_eq!(one, two);
        assert_eq!(one, serial);
        let l = &one.levels[0];
        assert_eq!(l.thresholds.rule, thresholds);
        if thresholds == ThresholdRule::Fixed {
            assert_eq!(
                (l.thresholds.short_max_secs, l.thresholds.long_min_secs),
                (173.0, 433.0)
            );
        }
        // Both systems count a branch for every job that arrived.
        for r in l.pt.runs.iter().chain(&l.h.runs) {
            assert_eq!(r.outcomes.iter().sum::<usize>(), r.jobs);
            assert_eq!(r.types.iter().sum::<usize>(), r.jobs);
            assert_eq!(r.kills_by_pattern.iter().sum::<u64>(), r.kills);
        }
    }
}

/// Single-class share of YARN-H's jobs on `servers` servers of 200 §3-mix
/// tenants, one day at 20 %, the default mix and load.
fn single_class_share(servers: usize, batch_load: f64) -> f64 {
    use crate::harvest::{simulate_serial, tpcds_like, SimParams};
    let set = crate::fixtures::harvest_set(200, 1, 600, Some(servers), 100);
    let p = SimParams {
        days: 1.0,
        runs: 1,
        levels: vec![20.0],
        batch_load,
        ..SimParams::default()
    };
    let r = simulate_serial(&set, &tpcds_like(52, p.seed), &p).unwrap();
    r.levels[0].h.branch_shares[0]
}

#[test]
fn jobs_fit_one_class_when_the_classes_outgrow_them() {
    // §6 scales lengths and counts by one factor f with f² ∝ the servers:
    // a job's concurrency grows like f, a class's room like f², so the
    // single-class branch gains with the datacenter's size. At 1,000
    // servers (our figures' size) it is rare; with a light load most jobs
    // take it.
    let small = single_class_share(1_000, 0.21);
    let large = single_class_share(8_000, 0.21);
    assert!(large > small, "1,000 servers {small}, 8,000 {large}");
    assert!(small < 0.5, "{small}");
    assert!(single_class_share(1_000, 0.02) > 0.5);
}

/// Two one-server tenants flat at `u` percent, `days` of 10-minute slots.
fn flat_pair(u: f64, days: usize) -> crate::harvest::TenantSet {
    let slots = days * 144;
    let tenant = |name: &str| crate::harvest::Tenant {
        info: crate::harvest::TenantInfo {
            name: name.into(),
            environment: "e".into(),
            machine_function: "f".into(),
            servers: 1,
            server_names: vec![],
            cores_per_server: 12.0,
            storage_gb_per_server: crate::harvest::DEFAULT_STORAGE_GB,
        },
        utilization: vec![u; slots],
        filled_slots: 0,
        series_used: 1,
    };
    crate::harvest::TenantSet {
        start: 0,
        step_secs: 600,
        slots,
        tenants: vec![tenant("a"), tenant("b")],
    }
}

/// One job of one vertex: 4 tasks of 100 s.
fn four_by_100() -> Vec<JobDag> {
    vec![JobDag {
        name: "q".into(),
        last_run_secs: None,
        vertices: vec![Vertex {
            name: "m".into(),
            tasks: 4,
            task_secs: 100.0,
        }],
        edges: vec![],
    }]
}

/// The run's arrival times as §6 draws them: exponential gaps of mean
/// `mean` from the run's seed, until `horizon` (each draw followed by the
/// template's).
fn arrivals(seed: u64, mean: f64, horizon: f64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    let mut t = 0.0;
    let mut out = Vec::new();
    loop {
        t += -mean * (1.0 - rng.unit()).ln();
        if t >= horizon {
            return out;
        }
        rng.unit();
        out.push(t);
    }
}

/// Settings under which the scaling factor is 1: the batch load is the
/// job's work (400 task-seconds) per arrival over the two servers' cores.
fn unscaled(level: f64) -> crate::harvest::SimParams {
    crate::harvest::SimParams {
        days: 2.0,
        runs: 1,
        levels: vec![level],
        duration_scale: 1.0,
        batch_load: 400.0 / (2.0 * 12.0 * 300.0),
        ..crate::harvest::SimParams::default()
    }
}

#[test]
fn every_job_counts_those_past_the_horizon_drained_and_the_stuck_at_their_time() {
    use crate::harvest::simulate_serial;
    let horizon = 2.0 * 86_400.0;
    // No primary load: 16 free cores, a job needs 4 for 100 s, so every
    // job takes 100 s, those arriving in the horizon's last 100 s too
    // (they finish after it); the mean over all of them is 100 s (end
    // times kept to the millisecond).
    // The first seed with a job arriving in the last 100 s.
    let seed = (0..1000)
        .find(|&s| {
            arrivals(s, 300.0, horizon)
                .iter()
                .any(|&t| t > horizon - 100.0)
        })
        .unwrap();
    let times = arrivals(seed, 300.0, horizon);
    let p = |level| crate::harvest::SimParams {
        seed,
        ..unscaled(level)
    };
    let r = simulate_serial(&flat_pair(30.0, 2), &four_by_100(), &p(0.0)).unwrap();
    for run in r.levels[0].pt.runs.iter().chain(&r.levels[0].h.runs) {
        assert_eq!(run.jobs, times.len());
        assert_eq!(
            (run.finished, run.unfinished, run.kills),
            (times.len(), 0, 0)
        );
        assert!(
            (run.avg_job_secs - 100.0).abs() < 1e-3,
            "{}",
            run.avg_job_secs
        );
    }
    // The primaries take every core (99.9 % rounds up to 12, the reserve
    // leaves none): no task ever starts, the run stops at twice the
    // horizon and every job counts with its wait until then.
    let r = simulate_serial(&flat_pair(30.0, 2), &four_by_100(), &p(99.9)).unwrap();
    let want = times.iter().map(|&t| 2.0 * horizon - t).sum::<f64>() / times.len() as f64;
    for run in r.levels[0].pt.runs.iter().chain(&r.levels[0].h.runs) {
        assert_eq!((run.finished, run.unfinished), (0, times.len()));
        assert_eq!(run.tasks_started, 0);
        assert!(
            (run.avg_job_secs - want).abs() < 1e-6 * want,
            "{} vs {want}",
            run.avg_job_secs
        );
        assert!((run.full_servers - 100.0).abs() < 1e-9);
    }
}

#[test]
fn a_primary_rise_kills_exactly_the_containers_running_on_the_servers_it_fills() {
    use crate::harvest::simulate_serial;
    // Two one-server tenants idle on day 1 and at 60 % on day 2: 12 cores,
    // 4 reserved, 60 % rounds up to 8 cores, so the batch room drops from
    // 8 cores a server to none at t = 86,400 s and every container then
    // running is killed, in both systems; the killed tasks wait for the
    // replay's idle day past the horizon and run once. A job is 4 tasks of
    // 100 s on 16 free cores, so the containers running at the rise are
    // the 4 tasks of each job that arrived in its last 100 s. Counted by
    // hand from the arrivals: a seed with exactly one job there and none in
    // the 100 s before it (no queueing), so 4 kills.
    let mut set = flat_pair(0.0, 2);
    for t in &mut set.tenants {
        for u in &mut t.utilization[144..] {
            *u = 60.0;
        }
    }
    let horizon = 2.0 * 86_400.0;
    let rise = 86_400.0;
    let seed = (0..1000)
        .find(|&s| {
            let times = arrivals(s, 300.0, horizon);
            let near = |lo: f64, hi: f64| times.iter().filter(|&&t| t > lo && t < hi).count();
            near(rise - 100.0, rise) == 1 && near(rise - 200.0, rise - 100.0) == 0
        })
        .unwrap();
    let p = crate::harvest::SimParams {
        seed,
        ..unscaled(30.0)
    };
    let r = simulate_serial(&set, &four_by_100(), &p).unwrap();
    let jobs = arrivals(seed, 300.0, horizon).len();
    for run in r.levels[0].pt.runs.iter().chain(&r.levels[0].h.runs) {
        assert_eq!(run.kills, 4, "{run:?}");
        assert_eq!(run.kills_by_branch.iter().sum::<u64>(), 4);
        assert_eq!((run.finished, run.unfinished), (jobs, 0));
        // Every task ran once to the end, the 4 killed ones twice.
        assert_eq!(run.tasks_started, 4 * jobs as u64 + 4);
    }
}
