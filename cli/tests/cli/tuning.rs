//! `tune`: scheduler candidates, the best one and the container split, the
//! exported `capacity-scheduler.xml`, and bad files refused with their
//! location.

use crate::common::{skyplan, temp_file, SWIM};

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
