//! `harvest`: its help's defaults; the storage side (reimages, `place`,
//! durability and availability simulations, bad reimage files) and the
//! compute side (tenant classes and capacity, `select`, scheduling
//! simulation).

use crate::common::{default_of, option_text, skyplan, temp_file};

#[test]
fn harvest_help_shows_the_engines_defaults() {
    use skyplan_engine::harvest::{CapacityParams, ClassifyParams, SelectParams, SimParams};
    let h = skyplan(&["help", "harvest"]).1;
    let c = ClassifyParams::default();
    let s = SelectParams::default();
    let m = SimParams::default();
    let levels: Vec<String> = m.levels.iter().map(|l| l.to_string()).collect();
    for (opt, v) in [
        ("--max-std", c.pattern.constant_max_std.to_string()),
        ("--max-cv", c.pattern.constant_max_cv.to_string()),
        ("--min-share", c.pattern.periodic_min_share.to_string()),
        (
            "--min-prominence",
            c.pattern.periodic_min_prominence.to_string(),
        ),
        ("--k-max", c.k_max.to_string()),
        ("--min-explained", c.min_explained.to_string()),
        ("--peak-percentile", c.peak_percentile.to_string()),
        ("--seed", c.seed.to_string()),
        ("--reserved", s.reserved_cores.to_string()),
        (
            "--percentile",
            CapacityParams::default().percentile.to_string(),
        ),
        ("--levels", levels.join(",")),
        ("--runs", m.runs.to_string()),
        ("--days", m.days.to_string()),
        ("--cores", m.cores_per_server.to_string()),
        ("--interarrival", m.mean_interarrival_secs.to_string()),
        ("--batch-load", m.batch_load.to_string()),
        ("--duration-scale", m.duration_scale.to_string()),
        ("--scaling", "linear".into()),
        ("--tpcds", "52".into()),
    ] {
        assert_eq!(default_of(&h, opt), v, "harvest {opt}");
    }
    for opt in [
        "--tenants",
        "--mapping",
        "--machine-meta",
        "--dag",
        "--job",
        "--json",
        "--short",
        "--long",
        "--scale-counts-only",
    ] {
        option_text(&h, opt);
    }
    // The thresholds are derived unless given: the paper's only as a note.
    assert!(option_text(&h, "--short").contains("derived"));
    assert_eq!((s.short_max_secs, s.long_min_secs), (173.0, 433.0));
}

#[test]
fn harvest_help_shows_the_storage_defaults() {
    use skyplan_engine::harvest::{AvailabilityParams, DurabilityParams, PlacementParams};
    let h = skyplan(&["help", "harvest"]).1;
    let p = PlacementParams::default();
    let d = DurabilityParams::default();
    let a = AvailabilityParams::default();
    let join = |v: &[String]| v.join(",");
    let reps: Vec<String> = d.replications.iter().map(|r| r.to_string()).collect();
    let levels: Vec<String> = a.levels.iter().map(|l| l.to_string()).collect();
    assert_eq!(d.replications, a.replications);
    assert_eq!(d.runs, a.runs);
    for (opt, v) in [
        ("--blocks", d.blocks.to_string()),
        ("--replication", p.replication.to_string()),
        ("--replications", join(&reps)),
        ("--grid", p.grid.to_string()),
        ("--block-mb", p.block_mb.to_string()),
        ("--rack-size", p.rack_size.to_string()),
        ("--policy", "hdfs-h".into()),
        ("--span-days", d.days.to_string()),
        ("--recreate-per-hour", d.recreate_per_hour.to_string()),
        ("--threads", d.threads.to_string()),
        ("--availability-blocks", a.blocks.to_string()),
        ("--util-levels", join(&levels)),
        ("--reserve-threshold", a.reserve_threshold.to_string()),
        ("--runs", d.runs.to_string()),
        ("--seed", p.seed.to_string()),
    ] {
        assert_eq!(default_of(&h, opt), v, "harvest {opt}");
    }
    for opt in ["--reimages", "--writer", "--replay"] {
        option_text(&h, opt);
    }
}

const REIMAGES: &str = "fixtures/demo/reimages.csv";

fn storage_args<'a>(sub: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "harvest",
        sub,
        "fixtures/demo/tenant_utilization.csv",
        "--tenants",
        "fixtures/demo/tenants.csv",
        "--reimages",
        REIMAGES,
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn harvest_reimages_and_place_on_the_demo() {
    let (code, out, err) = skyplan(&storage_args("reimages", &["--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["months"].as_array().unwrap().len(), 12);
    assert!(v["servers_at_most_monthly"].as_f64().unwrap() >= 0.9);
    let (code, out, err) = skyplan(&storage_args("place", &["--blocks", "5000", "--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["report"]["blocks"], 5000);
    assert_eq!(v["report"]["diversity"]["environment_repeats"], 0);
    assert_eq!(v["report"]["diversity"]["over_room_servers"], 0);
    assert_eq!(v["grid"]["cells"].as_array().unwrap().len(), 9);
    let (code, out, err) = skyplan(&storage_args(
        "place",
        &["--writer", "nab-24ae8d/s3", "--replication", "4"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("replica 1: nab-24ae8d/s3"), "{out}");
    assert!(out.contains("replica 4:"), "{out}");
    assert!(out.contains("RowUsed"), "{out}");
    let (code, _, err) = skyplan(&storage_args("place", &["--blocks", "900000000"]));
    assert_eq!(code, 1);
    assert!(err.contains("the cluster is full"), "{err}");
    let (code, _, err) = skyplan(&storage_args("place", &["--writer", "nobody/s1"]));
    assert_eq!(code, 1);
    assert!(err.contains("unknown server `nobody/s1`"), "{err}");
}

#[test]
fn harvest_refuses_bad_reimages_with_their_location() {
    let bad = temp_file(
        "bad_reimages.csv",
        "timestamp,server\n2026-01-01 00:00,ads-frontend-01/s1\n2026-01-02,ghost/s1\n",
    );
    let mut args = storage_args("reimages", &[]);
    args[6] = bad.as_str();
    let (code, _, err) = skyplan(&args);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad_reimages.csv:3:12: unknown server `ghost/s1`"),
        "{err}"
    );
    let empty = temp_file("empty_reimages.csv", "timestamp,server\n");
    let mut args = storage_args("place", &[]);
    args[6] = empty.as_str();
    let (code, _, err) = skyplan(&args);
    assert_eq!(code, 1);
    assert!(err.contains("empty_reimages.csv:1:1: no reimage"), "{err}");
    let (code, _, err) = skyplan(&[
        "harvest",
        "place",
        "fixtures/demo/tenant_utilization.csv",
        "--tenants",
        "fixtures/demo/tenants.csv",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--reimages"), "{err}");
}

#[test]
fn harvest_simulates_durability_and_availability() {
    let (code, out, err) = skyplan(&storage_args(
        "simulate-durability",
        &["--blocks", "5000", "--runs", "1", "--json"],
    ));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    assert_eq!(results[0]["policy"], "HDFS-H");
    assert_eq!(results[1]["policy"], "HDFS-Stock");
    assert!(v["paper"]["summary"]
        .as_str()
        .unwrap()
        .contains("Figure 15"));
    // The runs are spread over threads; the results do not depend on how
    // many.
    let results_on = |threads: &str| {
        let (code, out, err) = skyplan(&storage_args(
            "simulate-durability",
            &[
                "--blocks",
                "5000",
                "--runs",
                "3",
                "--threads",
                threads,
                "--json",
            ],
        ));
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["results"].clone()
    };
    let one = results_on("1");
    assert_eq!(one[0]["runs"].as_array().unwrap().len(), 3);
    assert_eq!(one, results_on("2"));
    let (code, out, err) = skyplan(&storage_args(
        "simulate-availability",
        &[
            "--availability-blocks",
            "2000",
            "--runs",
            "1",
            "--util-levels",
            "10,60",
            "--replications",
            "3",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("H fail%"), "{out}");
    assert!(out.contains("Figure 16"), "{out}");
}

const TENANTS: &str = "fixtures/demo/tenants.csv";
const TENANT_UTIL: &str = "fixtures/demo/tenant_utilization.csv";

#[test]
fn harvest_classifies_the_demo_tenants() {
    let (code, json, err) = skyplan(&[
        "harvest",
        "classify",
        "--json",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let tenants = v["tenants"].as_array().unwrap();
    assert_eq!(tenants.len(), 40);
    for p in ["periodic", "constant", "unpredictable"] {
        assert!(tenants.iter().any(|t| t["pattern"] == p), "{p}");
    }
    assert!(tenants
        .iter()
        .all(|t| t["class"].as_str().is_some_and(|c| !c.is_empty())));
    assert!(v["classes"].as_array().unwrap().len() >= 3);
    let (code, out, err) = skyplan(&["harvest", "capacity", TENANT_UTIL, "--tenants", TENANTS]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("constant-1"), "{out}");
}

#[test]
fn harvest_select_returns_type_concurrency_and_probabilities() {
    let dag = temp_file(
        "dag.json",
        r#"{"jobs":[{"name":"q","last_run_secs":100,"vertices":[{"name":"m1","tasks":30},{"name":"m2","tasks":20},{"name":"r","tasks":5}],"edges":[["m1","r"],["m2","r"]]}]}"#,
    );
    let (code, json, err) = skyplan(&[
        "harvest",
        "select",
        "--json",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
        "--dag",
        &dag,
        "--job",
        "tasks=100000",
        "--short",
        "173",
        "--long",
        "433",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["thresholds"]["rule"], "fixed");
    assert_eq!(v["thresholds"]["short_max_secs"], 173.0);
    let v = &v["jobs"];
    let q = &v[0]["selection"];
    assert_eq!(q["job_type"], "short");
    assert_eq!(q["containers"], 50);
    assert_eq!(q["outcome"], "one");
    let total: f64 = q["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert_eq!(v[1]["selection"]["outcome"], "none");
    // Without --short/--long the thresholds come from the jobs and the
    // classes, and the table says how.
    let select = |extra: &[&str]| {
        let mut args = vec!["harvest", "select", TENANT_UTIL, "--tenants", TENANTS];
        args.extend_from_slice(extra);
        skyplan(&args)
    };
    let (code, out, err) = select(&["--job", "tasks=50,last=30", "--job", "tasks=50,last=3000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("thresholds (derived"), "{out}");
    for row in [
        "short   unpredictable",
        "medium  periodic",
        "long    constant",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
    let (code, _, err) = select(&["--job", "tasks=5", "--short", "100"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("give both or neither"), "{err}");
    // A cyclic DAG and an unknown tenant are refused with their place.
    let cyc = temp_file(
        "cyc.json",
        r#"{"name":"c","vertices":[{"name":"a","tasks":1},{"name":"b","tasks":1}],"edges":[["a","b"],["b","a"]]}"#,
    );
    let (code, _, err) = skyplan(&[
        "harvest",
        "select",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
        "--dag",
        &cyc,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("cycle"), "{err}");
    let tenants = temp_file(
        "tenants.csv",
        "tenant,environment,machine_function,servers\nonly,e,f,3\n",
    );
    let (code, _, err) = skyplan(&["harvest", "classify", TENANT_UTIL, "--tenants", &tenants]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown tenant"), "{err}");
    let bad = temp_file(
        "bad.csv",
        "tenant,environment,machine_function,servers\nx,e,f,many\n",
    );
    let (code, _, err) = skyplan(&["harvest", "classify", TENANT_UTIL, "--tenants", &bad]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.csv:2:7"), "{err}");
}

#[test]
fn harvest_simulates_scheduling() {
    let (code, json, err) = skyplan(&[
        "harvest",
        "simulate-scheduling",
        "--json",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
        "--days",
        "1",
        "--runs",
        "1",
        "--levels",
        "0,30",
        "--tpcds",
        "8",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 2);
    assert_eq!(levels[0]["pt"]["kills"]["max"], 0.0);
    assert!(levels[1]["h"]["runs"][0]["finished"].as_u64().unwrap() > 0);
    // Each level carries its thresholds and both systems' branch shares.
    for l in levels {
        assert_eq!(l["thresholds"]["rule"], "derived");
        for s in ["pt", "h"] {
            let shares: f64 = l[s]["branch_shares"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .sum();
            assert!((shares - 1.0).abs() < 1e-9, "{s}: {shares}");
        }
    }
    let (code, _, err) = skyplan(&[
        "harvest",
        "simulate-scheduling",
        TENANT_UTIL,
        "--scaling",
        "cubic",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn harvest_figures_runs_the_generated_datacenters_under_both_scalings() {
    let (code, json, err) = skyplan(&[
        "harvest",
        "figures",
        "--json",
        "--datacenters",
        "2",
        "--servers",
        "300",
        "--days",
        "1",
        "--step",
        "600",
        "--runs",
        "1",
        "--levels",
        "20,40",
        "--tpcds",
        "8",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let f = v["figures"].as_array().unwrap();
    // Two datacenters × linear and root.
    assert_eq!(f.len(), 4);
    assert_eq!(f[0]["datacenter"], "DC-0");
    assert_eq!(f[3]["datacenter"], "DC-1");
    for g in f {
        assert_eq!(g["servers"], 300);
        assert_eq!(g["levels"].as_array().unwrap().len(), 2);
    }
    assert!(v["paper"]["linear_avg_improvement"]
        .as_str()
        .unwrap()
        .contains("12–56"));
}
