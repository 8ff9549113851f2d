//! A bundle without panel states (or with empty ones) still makes a whole
//! report: each section missing its input says so in one line, never an
//! empty placeholder; a bundle that does not hold together is refused.

use crate::common::{demo, render_inert, section};
use skyplan_engine::bundle::{
    AgendaState, Bundle, PricingState, ShapingState, TuningSettings, TuningState,
};
use skyplan_report::{render, ReportError, ReportOptions};

const ABSENT: [(&str, &str); 7] = [
    (
        "sources",
        "No files and no SLO decisions in this workspace.",
    ),
    ("slos", "No SLO decisions in this workspace."),
    ("agenda", "No agenda in this workspace."),
    ("pricing", "No pricing queue in this workspace."),
    ("harvest", "No harvesting inputs in this workspace."),
    ("shaping", "No shaping run in this workspace."),
    ("tuning", "No scheduler tuning in this workspace."),
];

#[test]
fn an_empty_bundle_says_what_is_absent_section_by_section() {
    let report = render_inert(&Bundle::default());
    assert!(report.sections.iter().all(|s| !s.present));
    for (id, line) in ABSENT {
        let body = section(&report.html, id);
        assert!(
            body.contains(&format!("<p class=\"absent\">{line}</p>")),
            "{id}: {body}"
        );
        // The heading and that one line: nothing else.
        assert_eq!(body.matches("<p").count(), 1, "{id}: {body}");
        assert!(!body.contains("<table") && !body.contains("<svg"), "{id}");
    }
}

#[test]
fn files_without_panel_states_still_report_the_workspace() {
    let bundle = Bundle {
        files: vec![crate::common::demo_file("runs.csv")],
        ..Bundle::default()
    };
    let report = render(&bundle, &ReportOptions::default()).expect("report");
    let present: Vec<&str> = report
        .sections
        .iter()
        .filter(|s| s.present)
        .map(|s| s.id)
        .collect();
    assert_eq!(present, ["sources"]);
    assert!(section(&report.html, "sources").contains("runs.csv"));
    for (id, line) in &ABSENT[1..] {
        assert!(section(&report.html, id).contains(line), "{id}");
    }
}

#[test]
fn empty_panel_states_say_what_they_lack() {
    let bundle = Bundle {
        agenda: Some(AgendaState::default()),
        pricing: Some(PricingState::default()),
        harvest: Some(Default::default()),
        shaping: Some(ShapingState::default()),
        tuning: Some(TuningState {
            settings: TuningSettings {
                jobs: 5,
                ..TuningSettings::default()
            },
            ..TuningState::default()
        }),
        ..Bundle::default()
    };
    let html = &render_inert(&bundle).html;
    assert!(section(html, "agenda").contains("The agenda has no plan: nothing was admitted."));
    assert!(section(html, "pricing").contains("The pricing queue is empty: no job was admitted."));
    // No tenants file and no series: nothing to classify, said once.
    assert!(section(html, "harvest").contains("No tenants file and no CPU utilization series"));
    // No history to tune on: the engine's reason, with the settings.
    let tuning = section(html, "tuning");
    assert!(tuning.contains("No job history is loaded"), "{tuning}");
    assert!(tuning.contains("1 group(s) of 5 jobs"));
    // Shaping runs on its generated workload whatever the workspace holds.
    assert!(section(html, "shaping").contains("turnaround speed-up"));
}

#[test]
fn a_bundle_that_does_not_hold_together_is_refused() {
    let decisions =
        skyplan_engine::import::read_decisions_csv("d.csv", &demo("decisions.csv")).unwrap();
    let twice = Bundle {
        decisions: vec![decisions[0].clone(), decisions[0].clone()],
        ..Bundle::default()
    };
    match render(&twice, &ReportOptions::default()) {
        Err(ReportError::Bundle(e)) => assert!(e.to_string().contains("two SLO decisions")),
        other => panic!("not refused: {:?}", other.map(|r| r.sections)),
    }
}

#[test]
fn extreme_settings_are_refused_in_place_never_panicking() {
    use skyplan_engine::bundle::{PricingSettings, ShapingSettings};
    use skyplan_engine::pricing::Slots;
    let mut decisions =
        skyplan_engine::import::read_decisions_csv("d.csv", &demo("decisions.csv")).unwrap();
    decisions.truncate(2);
    let mut agenda = crate::common::seeded_agenda(&decisions);
    agenda.origin = None;
    let history = crate::common::demo_file("history.csv");
    let mut shaping = ShapingSettings::default();
    shaping.params.hosts = 0;
    let queue: Vec<skyplan_engine::bundle::AdmittedJob> =
        skyplan_engine::import::read_queue_csv("q.csv", &demo("queue.csv"))
            .unwrap()
            .into_iter()
            .map(|job| skyplan_engine::bundle::AdmittedJob {
                job,
                price: None,
                method: None,
            })
            .collect();
    for (first_job, groups) in [(usize::MAX, 1), (0, usize::MAX), (usize::MAX, usize::MAX)] {
        let bundle = Bundle {
            files: vec![history.clone()],
            decisions: decisions.clone(),
            agenda: Some(agenda.clone()),
            pricing: Some(PricingState {
                settings: Some(PricingSettings {
                    slots: Slots {
                        map: 0.0,
                        reduce: f64::NAN,
                    },
                    ..PricingSettings::default()
                }),
                queue: queue.clone(),
            }),
            shaping: Some(ShapingState {
                files: None,
                settings: Some(shaping.clone()),
            }),
            tuning: Some(TuningState {
                settings: TuningSettings {
                    first_job,
                    groups,
                    ..TuningSettings::default()
                },
                ..TuningState::default()
            }),
            ..Bundle::default()
        };
        let html = &render_inert(&bundle).html;
        assert!(
            section(html, "tuning").contains("class=\"problem\""),
            "{first_job} {groups}"
        );
        assert!(section(html, "shaping").contains("The shaping run was refused"));
        assert!(section(html, "pricing").contains("The queue has no schedule"));
        // Without an origin the agenda counts steps from the plan's start.
        assert!(section(html, "agenda").contains("+"));
    }
}

#[test]
fn without_a_tenants_file_every_cpu_series_is_classified() {
    let bundle = Bundle {
        files: vec![crate::common::demo_file("tenant_utilization.csv")],
        harvest: Some(Default::default()),
        ..Bundle::default()
    };
    let report = render(&bundle, &ReportOptions::default()).expect("report");
    let harvest = section(&report.html, "harvest");
    assert!(!harvest.contains("class=\"problem\""), "{harvest}");
    assert!(harvest.contains("Primary tenants&#39; utilization classes"));
    assert!(harvest.contains("each CPU series a tenant of its own"));
    assert!(harvest.contains("replica placement needs the tenants"));
}

#[test]
fn machine_tables_stand_in_for_the_tenants_file_as_in_the_panel() {
    use skyplan_engine::bundle::HarvestState;
    // Six machines in three failure domains, a week of 5-minute samples:
    // two daily waves and one flat domain.
    let mut meta = String::new();
    let mut usage = String::new();
    for m in 0..6 {
        meta.push_str(&format!("m_{m},0,{},{},96,100,USING\n", m / 2, m % 2));
        for k in 0..(7 * 288) {
            let t = k * 300;
            let day = (t % 86_400) as f64 / 86_400.0 * std::f64::consts::TAU;
            let cpu = match m / 2 {
                0 => 40.0 + 30.0 * day.sin(),
                1 => 50.0 + 20.0 * day.cos(),
                _ => 35.0 + (k % 3) as f64,
            };
            usage.push_str(&format!("m_{m},{t},{cpu:.1},50,,,,,\n"));
        }
    }
    let harvest = |meta: &str| Bundle {
        harvest: Some(HarvestState {
            tenants: Some(("tenants.csv".into(), demo("tenants.csv"))),
            reimages: Some(("reimages.csv".into(), demo("reimages.csv"))),
            machines: Some([
                ("meta.csv".into(), meta.to_string()),
                ("usage.csv".into(), usage.clone()),
            ]),
        }),
        ..Bundle::default()
    };
    let report = render(&harvest(&meta), &ReportOptions::default()).expect("report");
    let body = section(&report.html, "harvest");
    assert!(!body.contains("class=\"problem\""), "{body}");
    assert!(
        body.contains("Alibaba v2018 meta.csv + usage.csv: 3 tenants"),
        "{body}"
    );
    assert!(body.contains("6 CPU series, one a machine"), "{body}");
    assert!(body.contains("Primary tenants&#39; utilization classes"));
    assert!(body.contains("Not computed: the Alibaba machine tables"));
    // A table the engine refuses is said in place.
    let report = render(&harvest("m_1,0,x\n"), &ReportOptions::default()).expect("report");
    let body = section(&report.html, "harvest");
    assert!(
        body.contains("The machine tables were not read: meta.csv:1:"),
        "{body}"
    );
}
