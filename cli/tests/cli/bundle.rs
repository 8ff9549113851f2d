//! `skyplan bundle`: the demo's bundle holds the studio's demo workspace
//! (checked against the engine's own reading of the same files); files
//! and settings from the command line go in as given; bad input writes
//! nothing.

use crate::common::{skyplan, skyplan_ok, temp_file};
use skyplan_engine::agenda::{AgendaParams, AgendaState, Method};
use skyplan_engine::bundle::{decode, Bundle};
use skyplan_engine::import::read_decisions_csv;

fn out_path(name: &str) -> String {
    // A path in this process's temporary directory, not yet written.
    let p = temp_file(name, "");
    std::fs::remove_file(&p).unwrap();
    p
}

fn read(path: &str) -> Bundle {
    decode(path, &std::fs::read(path).unwrap()).expect("a bundle")
}

#[test]
fn the_demo_bundle_is_the_studios_demo_workspace() {
    let out = out_path("demo.skyplan");
    let printed = skyplan_ok(&["bundle", "-o", &out]);
    assert!(printed.contains("written to"), "{printed}");
    let b = read(&out);
    let names: Vec<&str> = b.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "demo/runs.csv",
            "demo/utilization.csv",
            "demo/history.csv",
            "demo/tenant_utilization.csv"
        ]
    );
    let runs = include_bytes!("../../../fixtures/demo/runs.csv");
    assert_eq!(b.files[0].bytes, runs, "the file's bytes as on disk");
    // The decisions, and the agenda the Agenda panel's Admit makes of them.
    let text = include_str!("../../../fixtures/demo/decisions.csv");
    let decisions = read_decisions_csv("decisions.csv", text).unwrap();
    assert_eq!(b.decisions, decisions);
    let mut expected = AgendaState::default();
    expected
        .admit_decisions(&AgendaParams::default(), &decisions, Method::LowCost, 1.0)
        .unwrap();
    assert_eq!(b.agenda.as_ref(), Some(&expected));
    // The pricing queue: five priced jobs, as fixtures/demo/queue.csv lists.
    let queue = b.pricing.as_ref().expect("a queue");
    let listed = include_str!("../../../fixtures/demo/queue.csv")
        .lines()
        .count()
        - 1;
    assert_eq!(queue.queue.len(), listed);
    assert!(queue.queue.iter().all(|a| a.price.is_some_and(|p| p > 0.0)));
    let harvest = b.harvest.as_ref().expect("harvest files");
    assert_eq!(harvest.tenants.as_ref().unwrap().0, "demo/tenants.csv");
    assert!(harvest.reimages.is_some());
    // The panels that run their defaults on the demo carry them.
    assert_eq!(
        b.shaping.as_ref().and_then(|s| s.settings.clone()),
        Some(skyplan_engine::bundle::ShapingSettings::default())
    );
    assert_eq!(
        b.tuning,
        Some(skyplan_engine::bundle::TuningState::default())
    );
    assert!(b.forecast.is_some());
    // --list reads it back and says the same.
    let listed = skyplan_ok(&["bundle", "--list", &out]);
    assert!(listed.contains("SLO decisions: 7"), "{listed}");
    assert!(listed.contains(&format!("pricing queue: {} jobs", queue.queue.len())));
}

#[test]
fn files_and_settings_from_the_command_line() {
    let out = out_path("given.skyplan");
    let xml = temp_file(
        "capacity-scheduler.xml",
        "<configuration>\n<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\n<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>30</value></property>\n<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>70</value></property>\n</configuration>\n",
    );
    skyplan_ok(&[
        "bundle",
        "fixtures/demo/native.log",
        "--queue",
        "fixtures/demo/queue.csv",
        "--yarn",
        &xml,
        "--containers",
        "16",
        "--no-agenda",
        "-o",
        &out,
    ]);
    let b = read(&out);
    assert_eq!(b.files.len(), 1);
    assert_eq!(b.files[0].name, "native.log");
    assert!(b.decisions.is_empty() && b.agenda.is_none() && b.harvest.is_none());
    let pricing = b.pricing.unwrap();
    assert!(
        pricing.queue.iter().all(|a| a.price.is_none()),
        "imported, not priced"
    );
    let tuning = b.tuning.unwrap();
    assert_eq!(tuning.settings.containers, 16);
    let current = tuning.current.unwrap();
    let shares: Vec<f64> = current.queues.iter().map(|q| q.share).collect();
    assert_eq!(shares, [0.3, 0.7]);
    assert_eq!(tuning.xml.unwrap().0, "capacity-scheduler.xml");
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let out = out_path("bad.skyplan");
    // The demo's runs with the second run's submit time spoiled.
    let mut lines: Vec<String> = include_str!("../../../fixtures/demo/runs.csv")
        .lines()
        .take(4)
        .map(String::from)
        .collect();
    let mut fields: Vec<&str> = lines[2].split(',').collect();
    fields[2] = "yesterday";
    lines[2] = fields.join(",");
    let bad = temp_file("bad_runs.csv", &(lines.join("\n") + "\n"));
    let (code, _, err) = skyplan(&["bundle", &bad, "-o", &out]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bad_runs.csv:3"), "located: {err}");
    assert!(!std::path::Path::new(&out).exists());
    let (code, _, err) = skyplan(&[
        "bundle",
        "--reimages",
        "fixtures/demo/reimages.csv",
        "fixtures/demo/runs.csv",
        "-o",
        &out,
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skyplan(&["bundle", "--containers", "0", "-o", &out]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skyplan(&["bundle"]);
    assert_eq!(code, 2, "{err}");
    // --list of something that is not a bundle says what it is.
    let (code, _, err) = skyplan(&["bundle", "--list", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 1);
    assert!(err.contains("not a skyplan workspace bundle"), "{err}");
    assert!(!std::path::Path::new(&out).exists());
}
