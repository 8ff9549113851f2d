//! Hostile names — a script, a spreadsheet formula with a URL, an
//! attribute break-out — in every place a trace or a planner names
//! something (files, jobs, decisions, queued jobs, tenants files, queues)
//! are shown as text: the page has no script, no image, no `src`/`href`
//! with a URL, and each name appears escaped.

use crate::common::{assert_inert, demo, planned_bundle};
use skyplan_engine::bundle::{AdmittedJob, Bundle, BundleFile, HarvestState, TuningState};
use skyplan_engine::import::read_decisions_csv;
use skyplan_engine::pricing::QueuedJob;
use skyplan_engine::tuning::{equal_queues, SchedulerKind};
use skyplan_report::html::escape;
use skyplan_report::{render, ReportOptions};

const HOSTILE: [&str; 3] = [
    "<script>alert(1)</script>",
    "=HYPERLINK(\"http://x\")",
    "\"><img src=x onerror=alert(1)>",
];

/// The demo's runs with every job renamed to `name` + its own name.
fn runs_named(prefix: &str) -> String {
    let text = demo("runs.csv");
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            out.push_str(line);
        } else {
            // The job and instance columns, quoted as CSV.
            let mut fields = line.splitn(3, ',');
            let job = fields.next().unwrap_or("");
            let instance = fields.next().unwrap_or("");
            let rest = fields.next().unwrap_or("");
            let q = |s: String| format!("\"{}\"", s.replace('"', "\"\""));
            out.push_str(&format!(
                "{},{},{rest}",
                q(format!("{prefix}{job}")),
                q(format!("{prefix}{instance}"))
            ));
        }
        out.push('\n');
    }
    out
}

fn hostile_bundle() -> Bundle {
    let mut decisions = read_decisions_csv("decisions.csv", &demo("decisions.csv")).unwrap();
    for (i, d) in decisions.iter_mut().enumerate() {
        d.job = format!("{}{}", HOSTILE[i % HOSTILE.len()], d.job);
    }
    let mut files: Vec<BundleFile> = HOSTILE
        .iter()
        .map(|h| BundleFile {
            name: format!("{h}.csv"),
            format: None,
            lenient: false,
            bytes: runs_named(h).into_bytes(),
            kept: None,
        })
        .collect();
    files.push(crate::common::demo_file("history.csv"));
    let queue = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, h)| AdmittedJob {
            job: QueuedJob {
                name: h.to_string(),
                map_work: 100.0 * (i + 1) as f64,
                reduce_work: 50.0,
                deadline: 600.0,
            },
            price: Some(1.5),
            method: None,
        })
        .collect();
    let mut current = equal_queues(SchedulerKind::Capacity, 3);
    for (q, h) in current.queues.iter_mut().zip(HOSTILE) {
        q.name = h.to_string();
    }
    Bundle {
        harvest: Some(HarvestState {
            tenants: Some((HOSTILE[0].to_string(), "not,a,tenants,file\n".into())),
            reimages: None,
            machines: None,
        }),
        tuning: Some(TuningState {
            current: Some(current),
            ..TuningState::default()
        }),
        ..planned_bundle(files, decisions, queue)
    }
}

#[test]
fn hostile_names_are_shown_not_run() {
    let bundle = hostile_bundle();
    let report = render(
        &bundle,
        &ReportOptions {
            title: Some(HOSTILE[0].into()),
            source: Some(HOSTILE[2].into()),
            generated_at: None,
        },
    )
    .expect("report");
    let html = &report.html;
    assert_inert(html);
    for h in HOSTILE {
        let shown = escape(h);
        assert_ne!(shown, h);
        assert!(html.contains(&shown), "{h} is not shown");
    }
    // Where each kind of name lands.
    let sources = crate::common::section(html, "sources");
    assert!(sources.contains(&escape("<script>alert(1)</script>.csv")));
    let slos = crate::common::section(html, "slos");
    assert!(slos.contains(&escape(&bundle.decisions[0].job)));
    let pricing = crate::common::section(html, "pricing");
    assert!(pricing.contains(&escape(HOSTILE[1])));
    let harvest = crate::common::section(html, "harvest");
    assert!(
        harvest.contains("class=\"problem\""),
        "the bad tenants file is reported"
    );
    let tuning = crate::common::section(html, "tuning");
    assert!(
        tuning.contains(&escape(HOSTILE[2])),
        "queue names are shown"
    );
    // The title too.
    assert!(html.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
}

#[test]
fn escape_leaves_no_markup_for_any_character() {
    // Every ASCII character and a few others, alone and in a name.
    let all: String = (0u8..128)
        .map(char::from)
        .chain("é€😀\u{202e}".chars())
        .collect();
    let e = escape(&all);
    assert!(!e.contains('<') && !e.contains('>') && !e.contains('"') && !e.contains('\''));
    // `&` only as the start of a reference this function writes.
    for (i, _) in e.match_indices('&') {
        let rest = &e[i..];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                .iter()
                .any(|r| rest.starts_with(r)),
            "{rest}"
        );
    }
}
