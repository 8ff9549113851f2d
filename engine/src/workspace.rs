//! The workspace: everything loaded, file by file, and the user's SLO
//! decisions.
//!
//! It sits above [`crate::import`](mod@crate::import) (it keeps the [`LoadedFile`]s an import
//! gives) and [`crate::slo`] (it records [`SloDecision`]s), so it is a module
//! of its own rather than part of [`crate::model`]: the data model stays at
//! the bottom, imported by import and SLO inference, and imports neither.

use crate::import::{FileSummary, LoadedFile};
use crate::model::{JobRun, Timestamp, UtilizationSeries, WorkloadJob};
use crate::slo::{SloDecision, SloError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Totals over the whole workspace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceSummary {
    /// One row per loaded file, in load order.
    pub files: Vec<FileSummary>,
    /// Distinct job names over all runs.
    pub jobs: usize,
    /// Job runs.
    pub runs: usize,
    /// Utilization series.
    pub series: usize,
    /// Utilization samples.
    pub points: usize,
    /// Workload jobs.
    pub workload_jobs: usize,
    /// Calendar time span covered by everything loaded (files with
    /// trace-relative times are left out).
    pub span: Option<(Timestamp, Timestamp)>,
}

/// Everything loaded, kept per file so a file can be removed again.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Workspace {
    files: Vec<LoadedFile>,
    next_id: u32,
    #[serde(default)]
    decisions: BTreeMap<String, SloDecision>,
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Workspace::default()
    }

    /// Adds a file and returns the id it was given.
    pub fn add(&mut self, mut file: LoadedFile) -> u32 {
        self.next_id += 1;
        file.id = self.next_id;
        self.files.push(file);
        self.next_id
    }

    /// Removes a file; returns it, or `None` if no file has that id.
    pub fn remove(&mut self, id: u32) -> Option<LoadedFile> {
        let i = self.files.iter().position(|f| f.id == id)?;
        Some(self.files.remove(i))
    }

    /// Removes every file.
    pub fn clear(&mut self) {
        self.files.clear();
    }

    /// The loaded files, in load order.
    pub fn files(&self) -> &[LoadedFile] {
        &self.files
    }

    /// A loaded file by id.
    pub fn file(&self, id: u32) -> Option<&LoadedFile> {
        self.files.iter().find(|f| f.id == id)
    }

    /// All job runs.
    pub fn runs(&self) -> impl Iterator<Item = &JobRun> {
        self.files.iter().flat_map(|f| f.data.runs.iter())
    }

    /// All utilization series.
    pub fn series(&self) -> impl Iterator<Item = &UtilizationSeries> {
        self.files.iter().flat_map(|f| f.data.series.iter())
    }

    /// All workload jobs.
    pub fn workload(&self) -> impl Iterator<Item = &WorkloadJob> {
        self.files.iter().flat_map(|f| f.data.workload.iter())
    }

    /// Runs grouped by job name, names sorted.
    pub fn runs_by_job(&self) -> BTreeMap<&str, Vec<&JobRun>> {
        let mut m: BTreeMap<&str, Vec<&JobRun>> = BTreeMap::new();
        for r in self.runs() {
            m.entry(r.job.as_str()).or_default().push(r);
        }
        m
    }

    /// Records (or replaces) the user's decision on a job's SLO.
    pub fn decide(&mut self, decision: SloDecision) -> Result<(), SloError> {
        decision.validate()?;
        self.decisions.insert(decision.job.clone(), decision);
        Ok(())
    }

    /// Withdraws the decision on `job`, if any.
    pub fn undecide(&mut self, job: &str) -> Option<SloDecision> {
        self.decisions.remove(job)
    }

    /// All decisions, by job name.
    pub fn decisions(&self) -> impl Iterator<Item = &SloDecision> {
        self.decisions.values()
    }

    /// Totals for the workspace table.
    pub fn summary(&self) -> WorkspaceSummary {
        let files: Vec<FileSummary> = self.files.iter().map(LoadedFile::summary).collect();
        let span = files
            .iter()
            .filter(|f| !f.relative_time)
            .filter_map(|f| f.span)
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)));
        WorkspaceSummary {
            jobs: self.runs_by_job().len(),
            runs: files.iter().map(|f| f.runs).sum(),
            series: files.iter().map(|f| f.series).sum(),
            points: files.iter().map(|f| f.points).sum(),
            workload_jobs: files.iter().map(|f| f.workload_jobs).sum(),
            span,
            files,
        }
    }
}
