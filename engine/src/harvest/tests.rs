//! Tests of the harvesting module against known answers.

use super::*;
use crate::fixtures::{datacenter, DatacenterParams};
use crate::harvest::cycles::{capacity, dag};
use crate::model::{Resource, UtilizationSeries};
use crate::numerics::Rng;

fn nab(name: &str) -> Vec<f64> {
    let text = match name {
        "nyc_taxi" => include_str!("../../../fixtures/real/nab/nyc_taxi.csv"),
        _ => include_str!("../../../fixtures/real/nab/ec2_cpu_utilization_77c1ca.csv"),
    };
    text.lines()
        .filter_map(|l| l.rsplit(',').next()?.trim().parse().ok())
        .collect()
}

fn set_of(dc: &crate::fixtures::Datacenter) -> TenantSet {
    group_series(&dc.series, Some(&dc.tenants), None, &GroupParams::default())
        .unwrap()
        .0
}

fn series(name: &str, start: i64, step: i64, values: &[f64]) -> UtilizationSeries {
    let mut s = UtilizationSeries::new(name, Resource::Cpu);
    s.timestamps = (0..values.len() as i64).map(|i| start + i * step).collect();
    s.values = values.to_vec();
    s
}

#[test]
fn patterns_of_generated_tenants_are_their_true_patterns() {
    for (days, step) in [(7u32, 1800i64), (30, 600)] {
        let dc = datacenter(&DatacenterParams {
            tenants: 80,
            days,
            step_secs: step,
            ..DatacenterParams::default()
        });
        let set = set_of(&dc);
        let c = classify(&set, &ClassifyParams::default()).unwrap();
        let mut seen = [0usize; 3];
        for row in &c.tenants {
            let truth = dc.patterns.iter().find(|p| p.0 == row.name).unwrap().1;
            assert_eq!(
                row.pattern, truth,
                "{days} d: {} — {}",
                row.name, row.reason
            );
            seen[truth as usize] += 1;
            assert!(c
                .classes
                .iter()
                .any(|k| k.id == row.class && k.tenants.contains(&row.name)));
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        // §3's mix: constant the majority, periodic ~40 % of the servers.
        assert!(seen[1] > seen[0] && seen[1] > seen[2]);
        let servers = |p: Pattern| -> usize {
            c.tenants
                .iter()
                .filter(|t| t.pattern == p)
                .map(|t| t.servers)
                .sum()
        };
        let share = servers(Pattern::Periodic) as f64 / set.servers() as f64;
        assert!((0.3..0.6).contains(&share), "periodic server share {share}");
        // Every class is one pattern, its tags consistent with its tenants.
        for k in &c.classes {
            assert!(k.peak >= k.average);
            assert_eq!(k.average_day.len(), 24);
            let n: usize = k
                .tenants
                .iter()
                .map(|t| set.find(t).unwrap().info.servers)
                .sum();
            assert_eq!(n, k.servers);
        }
    }
}

#[test]
fn nyc_taxi_is_periodic_with_its_daily_peak_and_a_random_walk_is_not() {
    let v = classify_series(&nab("nyc_taxi"), 1800.0, &PatternParams::default()).unwrap();
    assert_eq!(v.pattern, Pattern::Periodic, "{}", v.reason);
    let peak = v.evidence.peak.unwrap();
    assert!(
        (peak.period_secs - 86_400.0).abs() < 0.01 * 86_400.0,
        "{peak:?}"
    );
    assert_eq!(v.evidence.top[0].cycles, peak.cycles);
    // The NAB CPU series 77c1ca: bursty, no isolated peak.
    let v = classify_series(&nab("77c1ca"), 300.0, &PatternParams::default()).unwrap();
    assert_eq!(v.pattern, Pattern::Unpredictable, "{}", v.reason);
    // A random walk: energy falling with frequency, never periodic.
    let mut rng = Rng::new(3);
    let mut x = 50.0;
    let walk: Vec<f64> = (0..4096)
        .map(|_| {
            x = (x + rng.gauss(0.0, 2.0)).clamp(0.0, 100.0);
            x
        })
        .collect();
    let v = classify_series(&walk, 120.0, &PatternParams::default()).unwrap();
    assert_eq!(v.pattern, Pattern::Unpredictable, "{}", v.reason);
    assert!(v.evidence.low_frequency_share > 0.8);
    // A flat line with jitter is constant.
    let flat: Vec<f64> = (0..500).map(|i| 40.0 + (i % 3) as f64 * 0.5).collect();
    let v = classify_series(&flat, 120.0, &PatternParams::default()).unwrap();
    assert_eq!(v.pattern, Pattern::Constant);
}

#[test]
fn bad_series_are_refused() {
    let mut x = vec![1.0; 100];
    x[7] = f64::NAN;
    assert!(matches!(
        classify_series(&x, 60.0, &PatternParams::default()),
        Err(HarvestError::NotFinite { index: 7, .. })
    ));
    assert!(classify_series(&[1.0; 3], 60.0, &PatternParams::default()).is_err());
    let bad = PatternParams {
        periodic_min_share: f64::NAN,
        ..PatternParams::default()
    };
    assert!(classify_series(&[1.0; 100], 60.0, &bad).is_err());
    // In grouping: NaN, empty series, unknown tenant.
    let s = series("a/s1", 0, 120, &[1.0, f64::NAN]);
    assert!(matches!(
        group_series(&[s], None, None, &GroupParams::default()),
        Err(HarvestError::NotFinite { index: 1, .. })
    ));
    let e = UtilizationSeries::new("a/s1", Resource::Cpu);
    assert!(matches!(
        group_series(&[e], None, None, &GroupParams::default()),
        Err(HarvestError::EmptySeries { .. })
    ));
    let tenants = read_tenants_csv(
        "t.csv",
        "tenant,environment,machine_function,servers\na,e,f,2\n",
    )
    .unwrap();
    let s = series("b/s1", 0, 120, &[1.0, 2.0]);
    let err = group_series(&[s], Some(&tenants), None, &GroupParams::default()).unwrap_err();
    assert!(
        matches!(&err, HarvestError::UnknownTenant { tenant, .. } if tenant == "b"),
        "{err}"
    );
}

#[test]
fn grouping_averages_servers_per_slot_on_one_grid() {
    let a1 = series("web/s1", 0, 120, &[10.0, 20.0, 30.0]);
    let a2 = series("web/s2", 120, 120, &[40.0, 50.0]);
    let b = series("db", 0, 240, &[5.0, 7.0]);
    let (set, missing) = group_series(&[a1, a2, b], None, None, &GroupParams::default()).unwrap();
    assert!(missing.is_empty());
    assert_eq!((set.start, set.step_secs, set.slots), (0, 120, 3));
    let web = set.find("web").unwrap();
    assert_eq!(web.utilization, vec![10.0, 30.0, 40.0]);
    assert_eq!(web.info.servers, 2);
    let db = set.find("db").unwrap();
    // Slot 1 has no db sample: carried from slot 0.
    assert_eq!(db.utilization, vec![5.0, 5.0, 7.0]);
    assert_eq!(db.filled_slots, 1);
    // A mapping file names servers.
    let tenants = read_tenants_csv(
        "t.csv",
        "tenant,environment,machine_function,servers,cores_per_server\nfront,prod,rank,4,16\n",
    )
    .unwrap();
    let map = read_mapping_csv("m.csv", "server,tenant\nm1,front\n", Some(&tenants)).unwrap();
    let m1 = series("m1", 0, 120, &[1.0, 3.0]);
    let (set, _) =
        group_series(&[m1], Some(&tenants), Some(&map), &GroupParams::default()).unwrap();
    assert_eq!(set.tenants[0].info.cores_per_server, 16.0);
    assert_eq!(set.tenants[0].info.servers, 4);
    let err = read_mapping_csv(
        "m.csv",
        "server,tenant\nm1,front\nm2,ghost\n",
        Some(&tenants),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "m.csv:3:4: unknown tenant `ghost` (not in the tenants CSV)"
    );
}

#[test]
fn tenants_csv_round_trips_and_locates_errors() {
    let dc = datacenter(&DatacenterParams::default());
    let text = write_tenants_csv(&dc.tenants);
    assert_eq!(read_tenants_csv("t.csv", &text).unwrap(), dc.tenants);
    let err = read_tenants_csv(
        "t.csv",
        "tenant,environment,machine_function,servers,cores_per_server\na,e,f,x,12\nb,e,f,2,-1\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("t.csv:2:7: servers: `x` is not a non-negative integer"),
        "{err}"
    );
    assert!(
        err.contains("t.csv:3:9: cores_per_server must be positive"),
        "{err}"
    );
}

#[test]
fn alibaba_machines_group_by_failure_domain() {
    let meta = "m_1,0,1,10,96,100,USING\nm_2,0,1,10,96,100,USING\nm_3,0,2,11,,100,USING\n";
    let usage =
        "m_1,0,10,50,,,,,\nm_1,10,30,50,,,,,\nm_2,0,20,40,,,,,\nm_3,0,-1,3,,,,,\nm_3,10,5,3,,,,,\n";
    let meta = read_machine_meta("machine_meta.csv", meta).unwrap();
    let usage = read_machine_usage("machine_usage.csv", usage).unwrap();
    assert_eq!((usage.rows, usage.bad_values), (5, 1));
    let tenants = tenants_from_machines(&meta, None, 96.0);
    assert_eq!(tenants.len(), 2);
    assert_eq!(tenants[0].name, "fd1-1");
    assert_eq!(tenants[0].servers, 2);
    let (set, _) = group_series(
        &usage.series,
        Some(&tenants),
        None,
        &GroupParams {
            step_secs: Some(10),
            ..GroupParams::default()
        },
    )
    .unwrap();
    assert_eq!(set.find("fd1-1").unwrap().utilization, vec![15.0, 30.0]);
    // The core-weighted mean: two servers at 22.5 %, one at 5 % (its bad
    // first sample filled from the next), all of 96 cores; scaling to it
    // leaves the set as it is.
    assert!((set.mean_utilization() - 50.0 / 3.0).abs() < 1e-9);
    let (same, a) = scale_to(&set, set.mean_utilization(), Scaling::Linear).unwrap();
    assert!((a - 1.0).abs() < 1e-6, "{a}");
    assert_eq!(same.servers(), set.servers());
    let err = read_machine_usage("u.csv", "m_1,0,lots,5,,,,,\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "u.csv:1:7: cpu_util_percent `lots` is not a number"
    );
}

fn dag(name: &str, v: &[(&str, u32)], e: &[(&str, &str)]) -> JobDag {
    JobDag {
        name: name.into(),
        last_run_secs: None,
        vertices: v
            .iter()
            .map(|(n, t)| Vertex {
                name: (*n).into(),
                tasks: *t,
                task_secs: 10.0,
            })
            .collect(),
        edges: e.iter().map(|(a, b)| [(*a).into(), (*b).into()]).collect(),
    }
}

#[test]
fn dag_concurrency_on_hand_checked_dags() {
    // Diamond: A(2) → B(3), C(4) → D(1): waves {A}, {B, C}, {D}.
    let d = dag(
        "diamond",
        &[("A", 2), ("B", 3), ("C", 4), ("D", 1)],
        &[("A", "B"), ("A", "C"), ("B", "D"), ("C", "D")],
    );
    let c = d.concurrency().unwrap();
    assert_eq!(c.tasks_per_wave, vec![2, 7, 1]);
    assert_eq!(c.max, 7);
    // A shortcut A → D does not pull D before B and C are done.
    let mut d2 = d.clone();
    d2.edges.push(["A".into(), "D".into()]);
    assert_eq!(d2.concurrency().unwrap().waves, vec![0, 1, 1, 2]);
    // Two independent maps feed a reducer: both maps run together.
    let q = dag(
        "q",
        &[
            ("Map 1", 300),
            ("Map 2", 169),
            ("Reducer 3", 20),
            ("Reducer 4", 1),
        ],
        &[
            ("Map 1", "Reducer 3"),
            ("Map 2", "Reducer 3"),
            ("Reducer 3", "Reducer 4"),
        ],
    );
    assert_eq!(q.concurrency().unwrap().max, 469);
    // Cycles and bad edges are refused.
    let cyc = dag("cyc", &[("A", 1), ("B", 1)], &[("A", "B"), ("B", "A")]);
    assert!(matches!(
        cyc.concurrency(),
        Err(HarvestError::CyclicDag { .. })
    ));
    let bad = dag("bad", &[("A", 1)], &[("A", "Z")]);
    assert!(matches!(
        bad.concurrency(),
        Err(HarvestError::BadDag { .. })
    ));
    let json = r#"{"jobs":[{"name":"j","vertices":[{"name":"m","tasks":3},{"name":"r","tasks":2}],"edges":[["m","r"],["r","m"]]}]}"#;
    assert!(matches!(
        read_dag_json("d.json", json),
        Err(HarvestError::CyclicDag { .. })
    ));
    let err = read_dag_json("d.json", "{\n \"name\": 3\n}").unwrap_err();
    assert!(err.to_string().starts_with("d.json:2:"), "{err}");
    let ok = read_dag_json(
        "d.json",
        r#"{"name":"j","last_run_secs":500,"vertices":[{"name":"m","tasks":3,"task_secs":5}]}"#,
    )
    .unwrap();
    assert_eq!(ok[0].concurrency().unwrap().max, 3);
}

#[test]
fn task_name_dags_from_batch_task() {
    assert_eq!(dag::parse_task_name("R3_1_2"), Some((3, vec![1, 2])));
    assert_eq!(dag::parse_task_name("M1"), Some((1, vec![])));
    assert_eq!(
        dag::parse_task_name("task_Nzg3ODAwNjgwNTAwMjYwNTI3Mg=="),
        None
    );
    let text = "\
M1,10,j_1,1,Terminated,100,160,100,0.2
M2,5,j_1,1,Terminated,100,150,100,0.2
R3_1_2,4,j_1,1,Terminated,160,200,100,0.2
J4_3,1,j_1,1,Terminated,200,230,100,0.2
task_abc,7,j_2,1,Terminated,5,9,100,0.2
M1,2,j_3,1,Terminated,0,0,100,0.2
R2_1_9,2,j_3,1,Terminated,0,0,100,0.2
";
    let b = read_batch_task("batch_task.csv", text).unwrap();
    assert_eq!(b.jobs.len(), 3);
    assert_eq!(b.dangling, 1);
    let j1 = &b.jobs[0];
    assert_eq!(j1.concurrency().unwrap().tasks_per_wave, vec![15, 4, 1]);
    assert_eq!(j1.last_run_secs, Some(130.0));
    assert_eq!(b.jobs[1].concurrency().unwrap().max, 7);
    let err = read_batch_task("b.csv", "M1,x,j,1,T,0,0,1,1\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "b.csv:1:4: instance_num `x` is not a non-negative integer"
    );
    let cyc = "M1_2,1,j,1,T,0,0,1,1\nM2_1,1,j,1,T,0,0,1,1\n";
    assert!(matches!(
        read_batch_task("b.csv", cyc),
        Err(HarvestError::CyclicDag { .. })
    ));
}

fn class(id: &str, pattern: Pattern, servers: usize, avg: f64, peak: f64, cur: f64) -> ClassState {
    ClassState {
        id: id.into(),
        pattern,
        servers,
        cores_per_server: 12.0,
        average: avg,
        peak,
        current: cur,
        used_containers: 0.0,
    }
}

#[test]
fn algorithm_1_types_headroom_and_outcomes() {
    let p = SelectParams::default();
    assert_eq!(p.job_type(None), JobType::Medium);
    assert_eq!(p.job_type(Some(100.0)), JobType::Short);
    assert_eq!(p.job_type(Some(300.0)), JobType::Medium);
    assert_eq!(p.job_type(Some(500.0)), JobType::Long);
    // 10 servers × 12 cores at 25 % current: ceil(3) used, 4 kept → 5 free.
    let c = class("c", Pattern::Constant, 10, 30.0, 60.0, 25.0);
    assert_eq!(c.headroom_containers(JobType::Short, &p), 50.0);
    // Medium: max(30, 25) → ceil(3.6) = 4 used → 4 free.
    assert_eq!(c.headroom_containers(JobType::Medium, &p), 40.0);
    // Long: max(60, 25) → ceil(7.2) = 8 used → 0 free.
    assert_eq!(c.headroom_containers(JobType::Long, &p), 0.0);
    let classes = vec![
        class("p", Pattern::Periodic, 10, 20.0, 40.0, 10.0),
        class("k", Pattern::Constant, 10, 20.0, 25.0, 20.0),
        class("u", Pattern::Unpredictable, 10, 20.0, 90.0, 5.0),
    ];
    let mut rng = Rng::new(1);
    // One fits.
    let job = JobRequest {
        last_run_secs: Some(600.0),
        containers: 40,
    };
    let s = select(&job, &classes, &p, &mut rng).unwrap();
    assert_eq!((s.job_type, s.outcome), (JobType::Long, Outcome::One));
    // Long headrooms: p: 1−0.4 → ceil(4.8)=5 used → 3 free → 30; k: ceil(3)=3 → 5 → 50; u: 0.
    let rooms: Vec<f64> = s.options.iter().map(|o| o.headroom_containers).collect();
    assert_eq!(rooms, vec![30.0, 50.0, 0.0]);
    assert_eq!(s.picked, vec!["k".to_string()]);
    assert_eq!(s.options[1].probability, 1.0);
    // Several: 70 long containers need p and k together.
    let s = select(
        &JobRequest {
            containers: 70,
            ..job
        },
        &classes,
        &p,
        &mut rng,
    )
    .unwrap();
    assert_eq!(s.outcome, Outcome::Several);
    assert_eq!(s.picked.len(), 2);
    // First-draw probabilities ∝ weighted room: p 30×2, k 50×3.
    assert!((s.options[0].probability - 60.0 / 210.0).abs() < 1e-12);
    // None: more than all classes hold.
    let s = select(
        &JobRequest {
            containers: 81,
            ..job
        },
        &classes,
        &p,
        &mut rng,
    )
    .unwrap();
    assert_eq!(s.outcome, Outcome::None);
    assert!(s.picked.is_empty() && s.options.iter().all(|o| o.probability == 0.0));
    // Bad inputs.
    let mut bad = classes.clone();
    bad[0].current = f64::NAN;
    assert!(select(&job, &bad, &p, &mut rng).is_err());
    let bad_p = SelectParams {
        long_min_secs: 100.0,
        ..p.clone()
    };
    assert!(select(&job, &classes, &bad_p, &mut rng).is_err());
}

#[test]
fn algorithm_1_picks_with_its_stated_probabilities() {
    let p = SelectParams::default();
    let classes = vec![
        class("p", Pattern::Periodic, 10, 20.0, 40.0, 10.0),
        class("k", Pattern::Constant, 20, 20.0, 25.0, 20.0),
        class("u", Pattern::Unpredictable, 10, 20.0, 90.0, 5.0),
    ];
    let job = JobRequest {
        last_run_secs: Some(50.0),
        containers: 10,
    };
    let mut rng = Rng::new(42);
    let s = select(&job, &classes, &p, &mut rng).unwrap();
    assert_eq!(s.outcome, Outcome::One);
    let probs: Vec<f64> = s.options.iter().map(|o| o.probability).collect();
    assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let n = 20_000;
    let mut counts = [0usize; 3];
    for _ in 0..n {
        let s = select(&job, &classes, &p, &mut rng).unwrap();
        let i = classes.iter().position(|c| c.id == s.picked[0]).unwrap();
        counts[i] += 1;
    }
    // Pearson's chi-square with 2 degrees of freedom: 13.8 is p = 0.001.
    let chi2: f64 = (0..3)
        .map(|i| {
            let e = probs[i] * n as f64;
            (counts[i] as f64 - e).powi(2) / e
        })
        .sum();
    assert!(chi2 < 13.8, "chi² {chi2}: {counts:?} vs {probs:?}");
}

#[test]
fn capacity_matrix_counts_harvestable_containers() {
    let dc = datacenter(&DatacenterParams {
        tenants: 12,
        ..DatacenterParams::default()
    });
    let set = set_of(&dc);
    let c = classify(&set, &ClassifyParams::default()).unwrap();
    let m = capacity(&c, &CapacityParams::default()).unwrap();
    assert_eq!(m.classes.len(), c.classes.len());
    for (row, class) in m.classes.iter().zip(&c.classes) {
        assert_eq!(row.mean.len(), 24);
        for h in 0..24 {
            assert!(row.low[h] >= 0.0 && row.low[h] <= class.servers as f64 * 8.0);
            assert!(row.mean[h] <= class.servers as f64 * 8.0);
        }
    }
    let p = SelectParams::default();
    assert_eq!(capacity::harvestable(0.0, 3, 12.0, &p), 24.0);
    assert_eq!(capacity::harvestable(50.0, 3, 12.0, &p), 6.0);
    assert_eq!(capacity::harvestable(70.0, 3, 12.0, &p), 0.0);
}

#[test]
fn kmeans_finds_separated_groups_and_the_elbow_stops_there() {
    let mut rng = Rng::new(5);
    let mut data = Vec::new();
    for centre in [[0.0, 0.0], [50.0, 0.0], [0.0, 50.0]] {
        for _ in 0..20 {
            data.push(vec![
                centre[0] + rng.gauss(0.0, 1.0),
                centre[1] + rng.gauss(0.0, 1.0),
            ]);
        }
    }
    let (k, r, inertias) = choose_k(&data, 8, 0.9, 3, 300, &mut rng).unwrap();
    assert_eq!(k, 3, "{inertias:?}");
    for g in 0..3 {
        let l = r.labels[g * 20];
        assert!(r.labels[g * 20..(g + 1) * 20].iter().all(|&x| x == l));
    }
    let brute: f64 = data
        .iter()
        .zip(&r.labels)
        .map(|(x, &l)| {
            x.iter()
                .zip(&r.centres[l])
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
        })
        .sum();
    assert!((brute - r.inertia).abs() < 1e-9 * brute.max(1.0));
    assert!(kmeans(&data, 0, 1, 10, &mut rng).is_err());
    assert!(kmeans(&[vec![f64::NAN]], 1, 1, 10, &mut rng).is_err());
}

#[test]
fn scaling_reaches_the_target_average() {
    let dc = datacenter(&DatacenterParams {
        tenants: 10,
        ..DatacenterParams::default()
    });
    let set = set_of(&dc);
    for scaling in [Scaling::Linear, Scaling::Root { n: 2.0 }] {
        for target in [10.0, 45.0] {
            let (s, _) = scale_to(&set, target, scaling).unwrap();
            let (mut sum, mut w) = (0.0, 0.0);
            for t in &s.tenants {
                let c = t.info.servers as f64 * t.info.cores_per_server;
                sum += c * t.mean();
                w += c;
                assert!(t.utilization.iter().all(|&u| (0.0..=100.0).contains(&u)));
            }
            assert!((sum / w - target).abs() < 1e-6, "{scaling:?} {target}");
        }
    }
    assert!(scale_to(&set, 120.0, Scaling::Linear).is_err());
}

fn small_sim() -> SimParams {
    SimParams {
        days: 2.0,
        runs: 2,
        levels: vec![0.0],
        ..SimParams::default()
    }
}

#[test]
fn no_primary_load_means_no_kills() {
    let dc = datacenter(&DatacenterParams {
        tenants: 8,
        step_secs: 600,
        ..DatacenterParams::default()
    });
    let set = set_of(&dc);
    let mut calls = Vec::new();
    let r = simulate(&set, &tpcds_like(10, 3), &small_sim(), &mut |d, t| {
        calls.push((d, t))
    })
    .unwrap();
    assert_eq!(calls.last(), Some(&(4, 4)));
    let l = &r.levels[0];
    for run in l.pt.runs.iter().chain(&l.h.runs) {
        assert_eq!(run.kills, 0);
        assert!(run.finished > 0 && run.finished <= run.jobs);
        assert!(run.primary_utilization.abs() < 1e-9);
    }
}

#[test]
fn yarn_h_is_never_worse_when_classes_are_separable() {
    // Half the servers flat and low, half swinging from idle to 90 %: a
    // long job on the swinging half is killed at every peak.
    let step = 600;
    let slots = 4 * 144;
    let mut tenants = Vec::new();
    let mut all = Vec::new();
    for i in 0..4 {
        let name = format!("flat{i}");
        all.push(series(&format!("{name}/s"), 0, step, &vec![20.0; slots]));
        tenants.push(TenantInfo {
            name,
            environment: "e".into(),
            machine_function: "f".into(),
            servers: 10,
            server_names: vec![],
            cores_per_server: 12.0,
            storage_gb_per_server: crate::harvest::DEFAULT_STORAGE_GB,
        });
    }
    for i in 0..4 {
        let name = format!("swing{i}");
        let v: Vec<f64> = (0..slots)
            .map(|k| if (k / 6 + i) % 4 == 0 { 90.0 } else { 5.0 })
            .collect();
        all.push(series(&format!("{name}/s"), 0, step, &v));
        tenants.push(TenantInfo {
            name,
            environment: "e".into(),
            machine_function: "g".into(),
            servers: 10,
            server_names: vec![],
            cores_per_server: 12.0,
            storage_gb_per_server: crate::harvest::DEFAULT_STORAGE_GB,
        });
    }
    let (set, _) = group_series(&all, Some(&tenants), None, &GroupParams::default()).unwrap();
    let long_jobs: Vec<JobDag> = (0..4)
        .map(|i| JobDag {
            name: format!("long{i}"),
            last_run_secs: Some(3000.0),
            vertices: vec![Vertex {
                name: "m".into(),
                tasks: 10,
                task_secs: 900.0,
            }],
            edges: vec![],
        })
        .collect();
    let p = SimParams {
        days: 4.0,
        runs: 3,
        levels: vec![30.0],
        batch_load: 0.1,
        duration_scale: 1.0,
        ..SimParams::default()
    };
    let r = simulate(&set, &long_jobs, &p, &mut |_, _| {}).unwrap();
    let l = &r.levels[0];
    for (pt, h) in l.pt.runs.iter().zip(&l.h.runs) {
        assert!(h.kills <= pt.kills, "kills H {} PT {}", h.kills, pt.kills);
        assert!(
            h.avg_job_secs <= pt.avg_job_secs,
            "H {} PT {}",
            h.avg_job_secs,
            pt.avg_job_secs
        );
    }
    assert!(l.pt.kills.avg > 0.0);
    assert!(l.improvement.min >= 0.0);
}

#[test]
fn simulation_refuses_bad_settings() {
    let dc = datacenter(&DatacenterParams {
        tenants: 4,
        ..DatacenterParams::default()
    });
    let set = set_of(&dc);
    let jobs = tpcds_like(3, 1);
    for bad in [
        SimParams {
            levels: vec![],
            ..small_sim()
        },
        SimParams {
            mean_interarrival_secs: -1.0,
            ..small_sim()
        },
        SimParams {
            batch_load: f64::NAN,
            ..small_sim()
        },
    ] {
        assert!(simulate(&set, &jobs, &bad, &mut |_, _| {}).is_err());
    }
    assert!(simulate(&set, &[], &small_sim(), &mut |_, _| {}).is_err());
}

#[test]
fn percentile_by_selection_is_numpys() {
    let mut rng = Rng::new(9);
    let mut scratch = Vec::new();
    for n in [1usize, 2, 7, 100, 1001] {
        let v: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 100.0).round()).collect();
        for p in [0.0, 10.0, 50.0, 99.0, 99.9, 100.0] {
            let want = crate::numerics::stats::percentile(&v, p).unwrap();
            assert_eq!(
                crate::numerics::stats::percentile_select(&v, p, &mut scratch),
                want,
                "n {n} p {p}"
            );
        }
    }
}
