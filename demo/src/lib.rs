//! The built-in demo workspace: the files of `fixtures/demo/` (written by
//! `skyplan fixtures --seed 7`) compiled into the binaries that default to
//! it — the studio's worker (a first visit, "Load demo") and every CLI
//! command run without input (`skyplan bundle`, `skyplan runway`) — so
//! they work from any directory. One copy: the studio and the CLI read
//! these constants, never the files at run time.
#![forbid(unsafe_code)]

/// The demo's trace files, as the studio names them, and their content.
pub const DEMO_FILES: [(&str, &str); 4] = [
    (
        "demo/runs.csv",
        include_str!("../../fixtures/demo/runs.csv"),
    ),
    (
        "demo/utilization.csv",
        include_str!("../../fixtures/demo/utilization.csv"),
    ),
    (
        "demo/history.csv",
        include_str!("../../fixtures/demo/history.csv"),
    ),
    (
        "demo/tenant_utilization.csv",
        include_str!("../../fixtures/demo/tenant_utilization.csv"),
    ),
];

/// The demo's tenants file (the Harvest panel's), in the tenants CSV.
pub const DEMO_TENANTS: (&str, &str) = (
    "demo/tenants.csv",
    include_str!("../../fixtures/demo/tenants.csv"),
);

/// The demo's SLO decisions (the actionable jobs signed off), in the
/// studio's decisions CSV.
pub const DEMO_DECISIONS: (&str, &str) = (
    "demo/decisions.csv",
    include_str!("../../fixtures/demo/decisions.csv"),
);

/// The demo's reimages file (the Harvest panel's storage view): the year of
/// disk reimages before the demo for the tenants of [`DEMO_TENANTS`].
pub const DEMO_REIMAGES: (&str, &str) = (
    "demo/reimages.csv",
    include_str!("../../fixtures/demo/reimages.csv"),
);

/// The demo's pricing queue (name, work, deadline of each job), as
/// `fixtures::demo_queue` admits it from the demo's job history. The
/// studio's worker seeds the Pricing panel from it when the workspace's
/// history is the demo's, instead of refitting the estimators on a first
/// visit. Not one of [`demo_file`]'s: the CLI admits its queue itself.
pub const DEMO_QUEUE: (&str, &str) = (
    "demo/queue.csv",
    include_str!("../../fixtures/demo/queue.csv"),
);

/// The file of the demo called `name` (`runs.csv`, `tenants.csv`, …),
/// as [`DEMO_FILES`] and the single files name it under `demo/`.
pub fn demo_file(name: &str) -> Option<&'static str> {
    DEMO_FILES
        .iter()
        .chain([&DEMO_TENANTS, &DEMO_DECISIONS, &DEMO_REIMAGES])
        .find(|(n, _)| n.strip_prefix("demo/") == Some(name))
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_demo_file_is_found_by_its_name_and_is_the_committed_one() {
        for name in [
            "runs.csv",
            "utilization.csv",
            "history.csv",
            "tenant_utilization.csv",
            "tenants.csv",
            "decisions.csv",
            "reimages.csv",
        ] {
            let text = super::demo_file(name).unwrap_or_else(|| panic!("{name}"));
            let on_disk = std::fs::read_to_string(format!(
                "{}/../fixtures/demo/{name}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            assert_eq!(text, on_disk, "{name}");
        }
        assert_eq!(super::demo_file("queue.csv"), None);
        let queue = std::fs::read_to_string(format!(
            "{}/../fixtures/demo/queue.csv",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert_eq!(super::DEMO_QUEUE.1, queue);
    }
}
