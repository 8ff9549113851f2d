//! The committed demo workspace under `fixtures/demo/` is exactly what the
//! generator produces today (so the studio's embedded demo is never stale).

use skyplan_engine::fixtures::demo;

#[test]
fn committed_demo_matches_generator() {
    let files = demo().files();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/demo/");
    for (name, content) in [
        ("runs.csv", &files.runs_csv),
        ("utilization.csv", &files.utilization_csv),
        ("native.log", &files.native_log),
    ] {
        let committed = std::fs::read_to_string(format!("{dir}{name}")).unwrap_or_else(|e| {
            panic!("fixtures/demo/{name}: {e}; run `cargo run -p skyplan-cli -- fixtures --seed 7 --out fixtures/demo`")
        });
        assert!(
            committed == *content,
            "fixtures/demo/{name} is stale: run `cargo run -p skyplan-cli -- fixtures --seed 7 --out fixtures/demo`"
        );
    }
}
