//! `report`: a bundle written with the engine's encoder, reported to a
//! file and to stdout; the page inert; bad bundles and usage refused.

use crate::common::{skyplan, skyplan_ok};
use skyplan_engine::bundle::{encode, AdmittedJob, Bundle, BundleFile, PricingState};
use skyplan_engine::import::{read_decisions_csv, read_queue_csv};

fn demo(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/demo/");
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

/// A file in this test process's temporary directory.
fn temp_path(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("skyplan-cli-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

/// The demo's runs, decisions (one renamed `<script>…`) and queue.
fn bundle_file() -> String {
    let mut decisions = read_decisions_csv("decisions.csv", &demo("decisions.csv")).unwrap();
    decisions[0].job = "<script>alert(1)</script>".into();
    let queue = read_queue_csv("queue.csv", &demo("queue.csv"))
        .unwrap()
        .into_iter()
        .map(|job| AdmittedJob {
            job,
            price: None,
            method: None,
        })
        .collect();
    let bundle = Bundle {
        files: vec![BundleFile {
            name: "runs.csv".into(),
            format: None,
            lenient: false,
            bytes: demo("runs.csv").into_bytes(),
            kept: None,
        }],
        decisions,
        pricing: Some(PricingState {
            settings: None,
            queue,
        }),
        ..Bundle::default()
    };
    let path = temp_path("demo.skyplan");
    std::fs::write(&path, encode(&bundle).unwrap()).unwrap();
    path
}

#[test]
fn report_writes_one_inert_page_with_every_section() {
    let bundle = bundle_file();
    let out = temp_path("report.html");
    let said = skyplan_ok(&["report", &bundle, "-o", &out, "--title", "Q3 <plan>"]);
    assert!(said.starts_with(&format!("wrote {out}: ")), "{said}");
    assert!(
        said.contains(
            "3 of 8 sections (not in the bundle: runway, agenda, harvest, shaping, tuning)"
        ),
        "{said}"
    );
    let html = std::fs::read_to_string(&out).unwrap();
    for id in [
        "runway", "sources", "slos", "agenda", "pricing", "harvest", "shaping", "tuning",
    ] {
        assert!(html.contains(&format!("<section id=\"{id}\">")), "{id}");
    }
    assert!(html.contains("<title>Q3 &lt;plan&gt;</title>"));
    assert!(html.contains("Workspace demo.skyplan"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.to_ascii_lowercase().contains("<script"));
    assert!(html.contains("job31"), "the queue's jobs");
    assert!(html.contains("No agenda in this workspace."));
    // `-o -`: the same page on stdout (but for the time it was made).
    let stdout = skyplan_ok(&["report", &bundle, "-o", "-", "--title", "Q3 <plan>"]);
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("made "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&stdout), strip(&html));
}

#[test]
fn report_refuses_bad_bundles_and_usage() {
    let bundle = bundle_file();
    // No -o: usage (2).
    let (code, _, err) = skyplan(&["report", &bundle]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("-o FILE is needed"), "{err}");
    // No bundle, two bundles: usage.
    assert_eq!(skyplan(&["report", "-o", "x.html"]).0, 2);
    assert_eq!(skyplan(&["report", &bundle, &bundle, "-o", "x.html"]).0, 2);
    // A missing file, a file that is not a bundle, a cut bundle: input (1),
    // and no page is written.
    let out = temp_path("never.html");
    let (code, _, err) = skyplan(&["report", "/nonexistent/b.skyplan", "-o", &out]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/b.skyplan"), "{err}");
    let text = temp_path("not-a-bundle.skyplan");
    std::fs::write(&text, "job,decision\n").unwrap();
    let (code, _, err) = skyplan(&["report", &text, "-o", &out]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with(&format!("skyplan: {text} ")), "{err}");
    assert!(err.contains("not a skyplan workspace bundle"), "{err}");
    let bytes = std::fs::read(&bundle).unwrap();
    let cut = temp_path("cut.skyplan");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, err) = skyplan(&["report", &cut, "-o", &out]);
    assert_eq!(code, 1, "{err}");
    assert!(!std::path::Path::new(&out).exists());
}
