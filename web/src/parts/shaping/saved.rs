//! What the Shaping panel keeps across a reload, as the `meta` record
//! `shaping`: the workload files read (names and text, with the cluster
//! they were checked against) and the latest run — its settings and its
//! results as shown (the report, the application list, the timelines of
//! the application and host shown, the worker times).
//!
//! The results are saved, not only the settings, so a reload shows them at
//! once instead of forecasting again. The default run's record is 1.78 MB
//! as JSON in the native test below (1.53 MB of it the timelines shown —
//! the application's and the host's, minute by minute over the whole run,
//! in both runs — 0.2 MB the per-application outcomes, 45 kB the
//! application list) and 2.3 MB as `JSON.stringify` of the stored record
//! in Chrome (tests/e2e/shaping.test.mjs logs it; its timelines are
//! longer). That is about the message the worker posts to the page after
//! every run anyway, so saving it costs about what showing it does, against
//! seconds of GP forecasting to redo it. What the worker needs for the
//! follow-ups (the workload and the forecasts, for another application's
//! timelines, Figure 2 and the export) is not saved: it is rebuilt from the
//! saved settings on the first follow-up — the runs are seeded, so it is
//! the same run, and the host checks that it is.

use super::protocol::{ShapingSettings, ShapingView};
use crate::store::{MetaRecord, PanelRecord};
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::ShapingState;

/// The record's version; a record of another version is ignored.
pub const SAVED_VERSION: u32 = 1;

/// The Shaping panel's saved state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedShaping {
    /// [`SAVED_VERSION`] when written by this build.
    pub version: u32,
    /// The workload files read, if any.
    pub files: Option<FilesRead>,
    /// The latest run that completed, if any.
    pub run: Option<SavedRun>,
    /// The settings to run when there is no run: a workspace bundle's,
    /// which carries settings, not results (absent in records written
    /// before bundles).
    #[serde(default)]
    pub settings: Option<ShapingSettings>,
}

impl Default for SavedShaping {
    fn default() -> Self {
        SavedShaping {
            version: SAVED_VERSION,
            files: None,
            run: None,
            settings: None,
        }
    }
}

impl MetaRecord for SavedShaping {
    const KEY: &'static str = "shaping";
    const WHAT: &'static str = "Shaping panel";
    const VERSION: u32 = SAVED_VERSION;
    // The panel redoes its default run by itself: nothing the user built
    // is lost with a record of another version.
    const TELL_OTHER_VERSION: bool = false;
    fn version(&self) -> u32 {
        self.version
    }
}

impl PanelRecord for SavedShaping {
    type State = ShapingState;
    /// No run: the panel runs the state's settings when it opens (seeded,
    /// so the run is the one the bundle was saved after).
    fn of_state(state: ShapingState) -> Self {
        SavedShaping {
            files: state.files,
            settings: state.settings,
            ..SavedShaping::default()
        }
    }
    /// The latest run's settings, else the settings kept to run.
    fn into_state(self) -> ShapingState {
        ShapingState {
            files: self.files,
            settings: self.run.map(|r| r.settings).or(self.settings),
        }
    }
}

/// Workload files as read, enough to read them again: the engine's panel
/// type, which a workspace bundle carries too.
pub use skyplan_engine::bundle::ShapingFiles as FilesRead;

/// The latest run: its settings and its results as shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedRun {
    /// The settings it ran with.
    pub settings: ShapingSettings,
    /// Its results, with the timelines shown last (which application and
    /// host).
    pub view: ShapingView,
}

impl SavedRun {
    /// The run shown again under `ticket` (the results' tickets are the
    /// page's, which start afresh with every page).
    pub fn reticketed(&self, ticket: u32) -> ShapingView {
        let mut view = self.view.clone();
        view.ticket = ticket;
        if let Some(t) = &mut view.timelines {
            t.ticket = ticket;
        }
        view
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::shaping::protocol::{WorkloadFile, WorkloadSource};
    use crate::parts::shaping::views::run;

    /// The record after the panel's default run, with a file read.
    fn default_record() -> SavedShaping {
        let settings = ShapingSettings::default();
        let (view, _) = run(7, &settings, None, &mut |_, _| {}, &mut |_, _| {}, &|| 0.0)
            .expect("the default run");
        SavedShaping {
            files: Some(FilesRead {
                files: vec![WorkloadFile {
                    name: "workload.json".into(),
                    text: "{\"applications\": []}".into(),
                }],
                params: settings.params.clone(),
            }),
            run: Some(SavedRun { settings, view }),
            ..SavedShaping::default()
        }
    }

    #[test]
    fn default_run_record_round_trips_within_its_size() {
        let record = default_record();
        // Through serde's data model, as serde-wasm-bindgen takes it to
        // IndexedDB (JSON text would round numbers off in its last digit).
        let value = serde_json::to_value(&record).expect("serialized");
        let back: SavedShaping = serde_json::from_value(value.clone()).expect("read back");
        assert_eq!(back, record, "the record reads back as written");
        let size = value.to_string().len();
        let part = |v: &serde_json::Value| v.to_string().len();
        let view = &value["run"]["view"];
        eprintln!(
            "default run record: {size} bytes as JSON; outcomes {} + {}, timelines {}, apps {}",
            part(&view["report"]["baseline"]["apps"]),
            part(&view["report"]["shaped"]["apps"]),
            part(&view["timelines"]),
            part(&view["apps"]),
        );
        let run = back.run.expect("the run");
        assert_eq!(run.settings, ShapingSettings::default());
        assert_eq!(run.settings.source, WorkloadSource::Generated);
        let timelines = run.view.timelines.as_ref().expect("timelines shown");
        assert!(!timelines.timelines.shaped_app.events.is_empty());
        // The size the module doc states, with room to spare.
        assert!(size < 2_500_000, "{size} bytes");
    }

    #[test]
    fn a_restored_run_takes_the_new_pages_ticket() {
        let run = default_record().run.expect("the run");
        let view = run.reticketed(42);
        assert_eq!(view.ticket, 42);
        assert_eq!(view.timelines.as_ref().map(|t| t.ticket), Some(42));
        assert_eq!(view.report, run.view.report);
    }

    #[test]
    fn another_version_is_told_apart_before_its_shape() {
        let other: serde_json::Value =
            serde_json::json!({ "version": SAVED_VERSION + 1, "run": "a shape of its own" });
        assert_ne!(
            other["version"].as_u64(),
            Some(u64::from(SavedShaping::VERSION))
        );
        assert!(serde_json::from_value::<SavedShaping>(other).is_err());
    }
}
