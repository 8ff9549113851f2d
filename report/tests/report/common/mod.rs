//! The demo workspace as a bundle, built the way the studio's panels seed
//! it: the demo's trace files, its SLO decisions admitted on the agenda
//! (LowCost, stretched skylines, capacity derived from the requests), the
//! demo pricing queue at its quoted prices, the tenants and reimages files,
//! and the Shaping and Tuning panels at their defaults.
#![allow(dead_code)]

use skyplan_engine::agenda::{
    derived_capacity, requests_from_decisions, AgendaParams, Method, Plan, Recurrence,
};
use skyplan_engine::bundle::{
    AdmittedJob, AgendaState, Bundle, BundleFile, ForecastState, HarvestState, PricingState,
    ShapingState, TuningState,
};
use skyplan_engine::fixtures::{demo_queue, QueueParams};
use skyplan_engine::import::read_decisions_csv;
use skyplan_engine::Workspace;
use skyplan_report::{render, Report, ReportOptions};

/// A demo file's text.
pub fn demo(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/demo/");
    std::fs::read_to_string(format!("{path}{name}"))
        .unwrap_or_else(|e| panic!("fixtures/demo/{name}: {e}"))
}

/// A demo file as a bundle file (format detected, strict).
pub fn demo_file(name: &str) -> BundleFile {
    BundleFile {
        name: name.to_string(),
        format: None,
        lenient: false,
        bytes: demo(name).into_bytes(),
        kept: None,
    }
}

/// The trace files the studio loads for the demo.
pub const TRACE_FILES: [&str; 5] = [
    "runs.csv",
    "native.log",
    "utilization.csv",
    "history.csv",
    "tenant_utilization.csv",
];

/// The agenda the Agenda panel seeds: every decision admitted by LowCost
/// with stretched skylines, periodic requests first, on a capacity derived
/// from the requests.
pub fn seeded_agenda(decisions: &[skyplan_engine::slo::SloDecision]) -> AgendaState {
    seeded_agenda_with_refusals(decisions).0
}

/// [`seeded_agenda`] and the requests it refused, (name, reason).
pub fn seeded_agenda_with_refusals(
    decisions: &[skyplan_engine::slo::SloDecision],
) -> (AgendaState, Vec<(String, String)>) {
    let params = AgendaParams::default();
    let earliest = decisions.iter().map(|d| d.reference).min().unwrap_or(0);
    let origin = earliest - earliest.rem_euclid(86_400);
    let (requests, _) = requests_from_decisions(decisions, origin, &params, 1.0);
    let (mut ordered, one_offs): (Vec<_>, Vec<_>) = requests
        .into_iter()
        .partition(|r| matches!(r.recurrence, Recurrence::Periodic { .. }));
    ordered.extend(one_offs);
    let (capacity, note) = derived_capacity(&params, &ordered).expect("capacity");
    let mut plan = Plan::new(params, vec![capacity]).expect("plan");
    let mut refused = Vec::new();
    for r in ordered {
        match plan.admit(r, Method::LowCost) {
            Ok((_, displaced)) => refused.extend(displaced.into_iter().map(|r| (r.name, r.reason))),
            Err(r) => refused.push((r.name, r.reason)),
        }
    }
    let state = AgendaState {
        origin: Some(origin),
        capacity: Some(capacity),
        capacity_note: Some(note),
        plan: Some(plan),
        refused: refused.clone(),
        locked: Vec::new(),
    };
    (state, refused)
}

/// The demo bundle.
pub fn demo_bundle() -> Bundle {
    let files: Vec<BundleFile> = TRACE_FILES.iter().map(|n| demo_file(n)).collect();
    let decisions = read_decisions_csv("decisions.csv", &demo("decisions.csv")).expect("decisions");
    let history = skyplan_engine::import(
        "history.csv",
        demo("history.csv").as_bytes(),
        Default::default(),
    )
    .expect("history")
    .data
    .workload;
    let queue = demo_queue(&history, &QueueParams::default())
        .expect("demo queue")
        .into_iter()
        .map(|a| AdmittedJob {
            job: a.job,
            price: Some(a.price),
            method: Some(a.method),
        })
        .collect();
    Bundle {
        harvest: Some(HarvestState {
            tenants: Some(("tenants.csv".into(), demo("tenants.csv"))),
            reimages: Some(("reimages.csv".into(), demo("reimages.csv"))),
            machines: None,
        }),
        shaping: Some(ShapingState::default()),
        tuning: Some(TuningState::default()),
        forecast: Some(ForecastState::default()),
        runway: Some(skyplan_engine::bundle::RunwayState::default()),
        ..planned_bundle(files, decisions, queue)
    }
}

/// A bundle of `files` and `decisions` as the planners leave it: the
/// decisions admitted on the agenda as the panel seeds it
/// ([`seeded_agenda`]) and `queue` the pricing queue (settings at their
/// defaults); no other panel's state, for the caller to add its own.
pub fn planned_bundle(
    files: Vec<BundleFile>,
    decisions: Vec<skyplan_engine::slo::SloDecision>,
    queue: Vec<AdmittedJob>,
) -> Bundle {
    Bundle {
        files,
        agenda: Some(seeded_agenda(&decisions)),
        decisions,
        pricing: Some(PricingState {
            settings: None,
            queue,
        }),
        ..Bundle::default()
    }
}

/// The report of `bundle` with the default options, checked to load and
/// run nothing ([`assert_inert`]), as every test of what a report says
/// wants it.
pub fn render_inert(bundle: &Bundle) -> Report {
    let report = render(bundle, &ReportOptions::default()).expect("report");
    assert_inert(&report.html);
    report
}

/// The workspace of a bundle's files, read independently of the report.
pub fn workspace_of(b: &Bundle) -> Workspace {
    let mut w = Workspace::new();
    for f in &b.files {
        w.add(skyplan_engine::import(&f.name, &f.bytes, Default::default()).expect("import"));
    }
    w
}

/// The part of `html` inside `<section id="{id}">`.
pub fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let open = format!("<section id=\"{id}\">");
    let start = html
        .find(&open)
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = html[start..].find("</section>").expect("closed") + start;
    &html[start..end]
}

/// Checks a page loads and runs nothing: no script element or handler
/// attribute, no `src`/`href` with a URL scheme, no external style.
pub fn assert_inert(html: &str) {
    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<script"), "a <script> in the page");
    assert!(!lower.contains("<img"), "an <img> in the page");
    assert!(!lower.contains("<iframe"), "an <iframe> in the page");
    assert!(!lower.contains("<link"), "a <link> in the page");
    assert!(!lower.contains("@import"), "an @import in the style");
    assert!(!lower.contains("url("), "a url() in the style");
    // Every attribute value the page has: src and href never name a scheme.
    let bytes = lower.as_bytes();
    for attr in ["src=", "href="] {
        let mut from = 0;
        while let Some(k) = lower[from..].find(attr) {
            let at = from + k;
            from = at + attr.len();
            // Inside a tag, not in text: the last '<' before it is after the last '>'.
            let lt = lower[..at].rfind('<');
            let gt = lower[..at].rfind('>');
            if lt <= gt {
                continue;
            }
            let value = lower[from..].trim_start_matches(['"', '\'', ' ']);
            assert!(
                value.starts_with('#'),
                "{attr} with a value other than an anchor: {}",
                &lower[at..(at + 60).min(bytes.len())]
            );
        }
    }
    for handler in [" onerror=", " onload=", " onclick=", "javascript:"] {
        let mut from = 0;
        while let Some(k) = lower[from..].find(handler) {
            let at = from + k;
            from = at + handler.len();
            let lt = lower[..at].rfind('<');
            let gt = lower[..at].rfind('>');
            assert!(lt <= gt, "{handler} inside a tag");
        }
    }
}
