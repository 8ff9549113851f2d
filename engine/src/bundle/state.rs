//! What a bundle holds: the files, the SLO decisions and every panel's
//! state.

use super::error::BundleError;
use super::panels::{
    AgendaState, ForecastState, HarvestState, PricingState, RunwayState, ShapingState, TuningState,
};
use crate::import::{import, Format, ImportError, ImportOptions, LoadedFile};
use crate::slo::SloDecision;

/// Files larger than this are kept as their records, not their bytes: a
/// 10 GB trace travels as its runs and aggregated series, with its name,
/// size and content hash ([`crate::import::SourceFile`]).
pub const KEEP_RECORDS_ABOVE: u64 = 64 << 20;

/// Whether a workspace keeps `file`'s records rather than its bytes: a file
/// above [`KEEP_RECORDS_ABOVE`], or one whose series were aggregated (its
/// bytes would give more than it holds), or one already kept so.
pub fn keeps_records(file: &LoadedFile) -> bool {
    file.kept
        || file.bytes > KEEP_RECORDS_ABOVE
        || file.data.notes.iter().any(|n| n.starts_with("aggregated:"))
}

/// One loaded file: its name, how it was read and its bytes as loaded (the
/// demo's files too, so a bundle opens the same on any build) — or, for a
/// large import, the records read from it ([`keeps_records`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BundleFile {
    /// File name as loaded.
    pub name: String,
    /// The format it was read as (`None`: detected when read).
    pub format: Option<Format>,
    /// Whether bad lines were skipped.
    pub lenient: bool,
    /// Its bytes (empty when `kept`).
    pub bytes: Vec<u8>,
    /// The records kept instead of the bytes, with the source file's name,
    /// size and hash; `kept` set.
    pub kept: Option<Box<LoadedFile>>,
}

impl BundleFile {
    /// The file's bytes, as a bundle keeps a file read from them.
    pub fn of_bytes(
        name: impl Into<String>,
        format: Option<Format>,
        lenient: bool,
        bytes: Vec<u8>,
    ) -> Self {
        BundleFile {
            name: name.into(),
            format,
            lenient,
            bytes,
            kept: None,
        }
    }

    /// A loaded file's records, as a bundle keeps a large import.
    pub fn of_records(file: &LoadedFile, lenient: bool) -> Self {
        let mut kept = file.clone();
        kept.kept = true;
        kept.id = 0;
        BundleFile {
            name: file.name.clone(),
            format: Some(file.format),
            lenient,
            bytes: Vec::new(),
            kept: Some(Box::new(kept)),
        }
    }

    /// What the file loads as: its kept records, or its bytes imported
    /// with `options` (its own format and leniency applied).
    pub fn load(&self, options: ImportOptions) -> Result<LoadedFile, ImportError> {
        if let Some(kept) = &self.kept {
            return Ok(kept.as_ref().clone());
        }
        let options = ImportOptions {
            format: self.format,
            lenient: self.lenient,
            ..options
        };
        import(&self.name, &self.bytes, options)
    }
}

/// Everything the studio keeps, in load order: the whole workspace a
/// colleague carries on from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bundle {
    /// The loaded trace files, in load order.
    pub files: Vec<BundleFile>,
    /// The SLO decisions (signed off, overridden, rejected), kept whether or
    /// not their job's runs are loaded.
    pub decisions: Vec<SloDecision>,
    /// The Agenda panel's plan.
    pub agenda: Option<AgendaState>,
    /// The Pricing panel's queue.
    pub pricing: Option<PricingState>,
    /// The Harvest panel's files.
    pub harvest: Option<HarvestState>,
    /// The Shaping panel's files and settings.
    pub shaping: Option<ShapingState>,
    /// The Tuning panel's settings, configuration and YARN file.
    pub tuning: Option<TuningState>,
    /// The Forecast panel's settings.
    pub forecast: Option<ForecastState>,
    /// The Runway panel's settings.
    pub runway: Option<RunwayState>,
}

impl Bundle {
    /// Checks what a bundle must hold together: named files, one decision
    /// per job, finite settings. `what` names the bundle in messages.
    pub fn validate(&self, what: &str) -> Result<(), BundleError> {
        let invalid = |reason: String| Err(BundleError::Invalid(what.to_string(), reason));
        for (i, f) in self.files.iter().enumerate() {
            if f.name.trim().is_empty() {
                return invalid(format!("file {} has no name", i + 1));
            }
        }
        let mut jobs = std::collections::HashSet::new();
        for d in &self.decisions {
            if !jobs.insert(d.job.as_str()) {
                return invalid(format!("job `{}` has two SLO decisions", d.job));
            }
            if let Err(e) = d.validate() {
                return invalid(format!("the SLO decision of `{}`: {e}", d.job));
            }
        }
        if let Some(p) = &self.pricing {
            if let Some(s) = &p.settings {
                if !(s.level > 0.0 && s.level < 1.0) {
                    return invalid(format!(
                        "the pricing level {} is not between 0 and 1",
                        s.level
                    ));
                }
            }
            for a in &p.queue {
                let j = &a.job;
                if !(j.map_work.is_finite() && j.reduce_work.is_finite() && j.deadline.is_finite())
                {
                    return invalid(format!("queued job `{}` has a non-finite size", j.name));
                }
            }
        }
        if let Some(f) = &self.forecast {
            let l = f.settings.level;
            if !(l > 0.0 && l < 1.0) {
                return invalid(format!("the forecast level {l} is not between 0 and 1"));
            }
        }
        if let Some(r) = &self.runway {
            if let Err(e) = r.params.validate() {
                return invalid(format!("the runway settings: {e}"));
            }
        }
        if let Some(t) = &self.tuning {
            if t.settings.containers == 0 || t.settings.per_machine == 0 || t.settings.jobs == 0 {
                return invalid("the tuning settings ask for zero containers or jobs".into());
            }
            if let Some(c) = &t.current {
                if let Err(e) = c.validate() {
                    return invalid(format!("the tuning configuration: {e}"));
                }
            }
        }
        Ok(())
    }
}
