//! `tune`: scheduler candidates, the best one and the container split, the
//! exported `capacity-scheduler.xml`, and bad files refused with their
//! location.

use crate::common::{skyplan, skyplan_ok, temp_file, SWIM};

#[test]
fn tune_prints_candidates_best_and_split_and_exports_xml() {
    let (code, out, err) = skyplan(&["tune", SWIM, "--scheduler", "fair", "--queues", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("est. latency s"), "{out}");
    assert!(out.contains(" *"), "{out}");
    assert!(out.contains("best: fair "), "{out}");
    assert!(out.contains("cluster-level split of 8 containers"), "{out}");
    // Two groups: Algorithm 3 splits 16 containers.
    let (code, out, err) = skyplan(&["tune", SWIM, SWIM, "--containers", "16", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = v["split"]["containers"].as_array().unwrap();
    assert_eq!(c.iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 16);
    check_advice(&v);
    // From the cluster's file, back into it.
    let current = temp_file(
        "capacity-scheduler.xml",
        "<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n    <name>yarn.scheduler.capacity.root.queues</name>\n    <value>hi,lo</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.hi.capacity</name>\n    <value>50</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.lo.capacity</name>\n    <value>50</value>\n  </property>\n</configuration>\n",
    );
    let out_xml = format!("{current}.tuned");
    let (code, out, err) = skyplan(&["tune", SWIM, "--config", &current, "--export-xml", &out_xml]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("written to"), "{out}");
    let tuned = std::fs::read_to_string(&out_xml).unwrap();
    assert!(
        tuned.contains("yarn.scheduler.capacity.root.hi.maximum-capacity"),
        "{tuned}"
    );
}

#[test]
fn tune_refuses_bad_files_with_their_location() {
    let bad = temp_file(
        "bad-capacity.xml",
        "<configuration>\n  <property>\n    <name>yarn.scheduler.capacity.root.queues</name>\n    <value>a,b</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.a.capacity</name>\n    <value>60</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.b.capacity</name>\n    <value>30</value>\n  </property>\n</configuration>\n",
    );
    let (code, _, err) = skyplan(&["tune", SWIM, "--config", &bad]);
    assert_eq!(code, 1);
    assert!(err.contains("line 4, column 12"), "{err}");
    assert!(err.contains("sum to 90"), "{err}");
    let (code, _, err) = skyplan(&["tune", SWIM, "--search", "annealing"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = skyplan(&["tune"]);
    assert_eq!(code, 2);
}

#[test]
fn tune_refuses_zero_counts_with_one_line() {
    for flag in ["--containers", "--jobs", "--queues", "--per-machine"] {
        let (code, out, err) = skyplan(&["tune", SWIM, flag, "0"]);
        assert_eq!(code, 2, "{flag}: {out}");
        assert!(
            err.starts_with(&format!("skyplan: {flag} must be ≥ 1")),
            "{err}"
        );
    }
}

#[test]
fn tune_states_a_tie_and_keeps_the_current_configuration() {
    // Two jobs on 64 containers cannot contend: every share ties, and the
    // cluster's own (extreme) split is kept.
    let current = temp_file(
        "tie-capacity.xml",
        "<configuration>\n<!-- two queues -->\n<property><name>yarn.scheduler.capacity.root.queues</name><value>a, b</value></property>\n<property>\n  <name>yarn.scheduler.capacity.root.a.capacity</name>\n  <value> 10 </value>\n</property>\n<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>90</value></property>\n</configuration>\n",
    );
    let (code, out, err) = skyplan(&[
        "tune",
        SWIM,
        "--config",
        &current,
        "--containers",
        "64",
        "--jobs",
        "2",
        "--search",
        "exhaustive",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no contention in this window"), "{out}");
    assert!(out.contains("keep the current one"), "{out}");
    assert!(
        out.contains("best: capacity 0.100/0.900 fifo (current, kept)"),
        "{out}"
    );
    // Three queues are a grid too.
    let (code, out, err) = skyplan(&["tune", SWIM, "--queues", "3", "--scheduler", "fair"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("best: fair "), "{out}");
}

#[test]
fn tune_accepts_with_a_warning_what_yarn_accepts() {
    // A property set twice: the later value, and a located warning.
    let current = temp_file(
        "twice-capacity.xml",
        "<configuration>\n<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b,c</value></property>\n<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>\n<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>40</value></property>\n<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>30</value></property>\n<property><name>yarn.scheduler.capacity.root.c.capacity</name><value>30</value></property>\n</configuration>\n",
    );
    let (code, out, err) = skyplan(&["tune", SWIM, "--config", &current]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning") && err.contains("line 4") && err.contains("set twice"),
        "{err}"
    );
    assert!(out.contains("best: capacity "), "{out}");
}

/// Only confirmed advice: `tune` prints the current configuration's
/// estimate, both simulated latencies and the engine's verdict, and its
/// JSON carries the advice per group, consistent with the figures.
#[test]
fn tune_prints_the_current_estimate_the_simulated_confirmation_and_the_advice() {
    let (code, out, err) = skyplan(&["tune", SWIM]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("current: estimated "), "{out}");
    assert!(out.contains("mean of 5 seeded runs"), "{out}");
    assert!(out.contains("advice: "), "{out}");
}

/// The advice in `--json` (one per group) is the rule on its figures.
fn check_advice(v: &serde_json::Value) {
    let advice = v["advice"].as_array().unwrap();
    assert_eq!(advice.len(), 2);
    for a in advice {
        let sim_best = a["simulated_best_secs"].as_f64().unwrap();
        let sim_current = a["simulated_current_secs"].as_f64().unwrap();
        let verdict = a["verdict"].as_str().unwrap();
        // A change only where the simulation confirms more than 1 %.
        if verdict == "confirmed" {
            assert!(sim_best < sim_current * 0.99, "{a}");
        } else {
            assert!(["current", "unconfirmed"].contains(&verdict), "{a}");
        }
    }
}

/// A small evaluation's options (no SWIM window, one Google-like mix of 6
/// jobs), as `sweep tuning` and `tune evaluate` both take them.
const SMALL: [&str; 6] = ["--windows", "0", "--google-mixes", "1", "--jobs", "6"];

fn tuning_sweep(extra: &[&str]) -> Vec<String> {
    ["sweep", "tuning", "--loads", "1,3", "--queues", "2"]
        .iter()
        .chain(&SMALL)
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
}

/// `sweep tuning` lists its cells, and cells run apart and merged are the
/// whole sweep's JSON; a cell is `tune evaluate`'s figures at its load.
#[test]
fn the_tuning_sweep_runs_apart_and_merges_into_the_whole() {
    let run = |extra: &[&str]| {
        let args = tuning_sweep(extra);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = skyplan(&refs);
        assert_eq!(code, 0, "{err}");
        out
    };
    let listed = run(&["--cells"]);
    assert_eq!(listed.lines().last(), Some("2"));
    assert!(listed.starts_with("0: load=1 queues=2"), "{listed}");
    let whole = run(&["--json"]);
    let v: serde_json::Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(v["sweep"]["part"], "tuning");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["load"], 3.0);
    // Capacity and Fair, one Google-like mix each.
    assert_eq!(rows[1]["cases"], 2);
    // The same cell as `tune evaluate` at that load: its non-best increase.
    let mut eval_args = vec!["tune", "evaluate"];
    eval_args.extend(SMALL);
    eval_args.extend(["--repeats", "1", "--mix-load", "3", "--json"]);
    let (code, eval, err) = skyplan(&eval_args);
    assert_eq!(code, 0, "{err}");
    let e: serde_json::Value = serde_json::from_str(&eval).unwrap();
    let twos: Vec<&serde_json::Value> = e["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["queues"] == 2)
        .collect();
    let hits = twos.iter().filter(|c| c["hit"] == true).count() as f64 / twos.len() as f64;
    assert_eq!(rows[1]["hit_share"].as_f64().unwrap(), hits);
    let mut files = Vec::new();
    for k in ["1", "0"] {
        let piece = run(&["--cell", k, "--json"]);
        files.push(temp_file(&format!("tuning-sweep-{k}.json"), &piece));
    }
    let mut args = vec!["sweep", "merge"];
    args.extend(files.iter().map(String::as_str));
    args.push("--json");
    let (code, merged, err) = skyplan(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, whole, "merged pieces are the whole sweep");
    let csv = run(&["--csv"]);
    assert!(
        csv.starts_with("cell,load,queues,cases,nonbest_increase"),
        "{csv}"
    );
}

/// The demo's job history: every grid point estimates 11 % under the
/// even split in force (the grid lets a job grow past its queue's
/// capacity, user-limit factor 100; the configuration in force is YARN's
/// default 1), and the simulation confirms it — so the advice is a
/// change, and the line names the factor the label does not show.
#[test]
fn tune_advises_a_change_the_label_does_not_show_and_names_it() {
    let history = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/demo/history.csv");
    let (code, out, err) = skyplan(&["tune", history]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("q1: user-limit-factor 100 (current 1)"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&skyplan_ok(&["tune", history, "--json"])).unwrap();
    for a in v["advice"].as_array().unwrap() {
        let f = |k: &str| a[k].as_f64().unwrap();
        let verdict = a["verdict"].as_str().unwrap();
        // "Nothing to change" only where the estimate finds nothing
        // better than the tie tolerance.
        if verdict == "current" {
            assert!(
                f("estimated_best_secs") >= f("estimated_current_secs") * 0.99,
                "{a}"
            );
        }
        if f("simulated_best_secs") < f("simulated_current_secs") * 0.99
            && f("estimated_best_secs") < f("estimated_current_secs") * 0.99
        {
            assert_eq!(verdict, "confirmed", "{a}");
        }
    }
}
