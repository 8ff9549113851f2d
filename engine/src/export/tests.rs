//! Names nobody here controls, through every CSV we write and read back:
//! formula-looking cells are inert when opened in a spreadsheet and come
//! back unchanged through our own importers.

use super::cell::FORMULA_STARTS;
use super::*;
use crate::import::{read_decisions_csv, read_queue_csv};
use crate::pricing::QueuedJob;
use crate::slo::SloDecision;

/// Job names a trace could carry.
const HOSTILE: [&str; 7] = [
    "=HYPERLINK(\"http://example.invalid\",\"open\")",
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "<script>alert(1)</script>",
    "'already quoted",
    "plain, with a comma",
];

/// Every cell of `text` (CSV, no line breaks inside cells) as a spreadsheet
/// would see it: none may start like a formula.
fn assert_inert(text: &str) {
    for line in text.lines() {
        for f in cells(line) {
            assert!(
                !f.starts_with(FORMULA_STARTS),
                "cell {f:?} of {line:?} opens as a formula"
            );
        }
    }
}

/// A line's cells as a spreadsheet reads them: quotes removed, `""` made
/// `"`, nothing else changed (a second reading, independent of ours).
fn cells(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', false) => quoted = true,
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().expect("a cell").push('"');
            }
            ('"', true) => quoted = false,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().expect("a cell").push(c),
        }
    }
    out
}

#[test]
fn hostile_names_survive_the_queue_csv() {
    let queue: Vec<QueuedJob> = HOSTILE
        .iter()
        .map(|n| QueuedJob {
            name: n.to_string(),
            map_work: 10.0,
            reduce_work: 5.0,
            deadline: 60.0,
        })
        .collect();
    let text = queue_csv(&queue);
    assert_inert(&text);
    assert_eq!(read_queue_csv("q.csv", &text).expect("reads"), queue);
}

#[test]
fn hostile_names_survive_the_decisions_csv() {
    let decisions: Vec<SloDecision> = HOSTILE
        .iter()
        .map(|n| SloDecision {
            job: n.to_string(),
            kind: crate::slo::DecisionKind::Rejected,
            period_secs: 86_400,
            reference: 1_793_577_600,
            window: None,
            skyline: None,
            model: None,
            note: Some(format!("={n}")),
        })
        .collect();
    let text = decisions_csv(&decisions);
    assert_inert(&text);
    assert_eq!(
        read_decisions_csv("d.csv", &text).expect("reads"),
        decisions
    );
}

#[test]
fn hostile_names_survive_the_shaping_workload_csv() {
    use crate::shaping::{Application, ComponentGroup, Kind, UsageTrace, Workload};
    let w = Workload {
        applications: HOSTILE
            .iter()
            .enumerate()
            .map(|(i, n)| Application {
                name: n.to_string(),
                arrival: i as f64,
                runtime: 120.0,
                components: vec![ComponentGroup {
                    kind: Kind::Core,
                    count: 1,
                    cpu: 1.0,
                    mem: 2.0,
                }],
                usage: UsageTrace {
                    cpu: vec![0.5, 0.25],
                    mem: vec![0.5, 0.75],
                },
            })
            .collect(),
    };
    let (apps, usage) = shaping_workload_csv(&w);
    assert_inert(&apps);
    assert_inert(&usage);
    let back = crate::shaping::read_applications_csv("apps.csv", &apps, "usage.csv", &usage)
        .expect("reads");
    assert_eq!(back, w);
}
