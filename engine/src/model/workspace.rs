//! The workspace: everything loaded, file by file.

use super::{JobRun, Timestamp, UtilizationSeries, WorkloadJob};
use crate::import::{Format, ParseError};
use crate::slo::{SloDecision, SloError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The records one file contributed, by kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    /// Job runs with skylines.
    pub runs: Vec<JobRun>,
    /// Utilization series.
    pub series: Vec<UtilizationSeries>,
    /// Workload jobs with size features.
    pub workload: Vec<WorkloadJob>,
}

impl Dataset {
    /// Number of records of all kinds (series count as one each).
    pub fn records(&self) -> usize {
        self.runs.len() + self.series.len() + self.workload.len()
    }

    /// Earliest and latest time the dataset mentions.
    pub fn span(&self) -> Option<(Timestamp, Timestamp)> {
        let runs = self.runs.iter().map(|r| (r.submit.min(r.start), r.end));
        let series = self.series.iter().filter_map(|s| s.span());
        let jobs = self.workload.iter().map(|j| (j.submit, j.submit));
        runs.chain(series)
            .chain(jobs)
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
    }
}

/// A file that was imported, with what it contained and the lines that were
/// skipped (lenient mode only: strict imports with bad lines are refused).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadedFile {
    /// Workspace-assigned id (0 until added to a [`Workspace`]).
    pub id: u32,
    /// File name as given by the user.
    pub name: String,
    /// The format it was read as.
    pub format: Format,
    /// Size in bytes.
    pub bytes: u64,
    /// Number of lines read.
    pub lines: u64,
    /// What it contained.
    pub data: Dataset,
    /// Bad lines that were skipped (at most `max_reported_errors` of them).
    pub warnings: Vec<ParseError>,
    /// Number of skipped lines, including those not listed in `warnings`.
    pub skipped_lines: u64,
}

/// Job-history `submit` times before this instant (1980-01-01 00:00 UTC,
/// 315,532,800 s: ten years of seconds) are read as seconds from the start
/// of the trace, not calendar times: no real history predates it, and no
/// trace lasts ten years.
pub const RELATIVE_TIME_BEFORE: Timestamp = 315_532_800;

impl LoadedFile {
    /// Whether the file's times are seconds from the start of its trace
    /// rather than calendar times, so its span is shown as durations and
    /// kept out of the workspace's calendar span: always for a format that
    /// only has relative times (SWIM, [`Format::relative_times`]); for a
    /// job-history CSV, whose `submit` may be either, when every submit is
    /// before [`RELATIVE_TIME_BEFORE`] (as in a history generated from a
    /// SWIM sample without an origin).
    pub fn relative_time(&self) -> bool {
        self.format.relative_times()
            || (self.format == Format::JobHistoryCsv
                && self
                    .data
                    .span()
                    .is_some_and(|(_, last)| last < RELATIVE_TIME_BEFORE))
    }

    /// A summary row for tables.
    pub fn summary(&self) -> FileSummary {
        let jobs: std::collections::BTreeSet<&str> =
            self.data.runs.iter().map(|r| r.job.as_str()).collect();
        FileSummary {
            id: self.id,
            name: self.name.clone(),
            format: self.format,
            bytes: self.bytes,
            lines: self.lines,
            jobs: jobs.len(),
            runs: self.data.runs.len(),
            series: self.data.series.len(),
            points: self.data.series.iter().map(|s| s.len()).sum(),
            workload_jobs: self.data.workload.len(),
            skipped_lines: self.skipped_lines,
            span: self.data.span(),
            relative_time: self.relative_time(),
        }
    }
}

/// One row of the loaded-files table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileSummary {
    /// File id.
    pub id: u32,
    /// File name.
    pub name: String,
    /// Format read.
    pub format: Format,
    /// Size in bytes.
    pub bytes: u64,
    /// Lines read.
    pub lines: u64,
    /// Distinct job names among its runs.
    pub jobs: usize,
    /// Job runs.
    pub runs: usize,
    /// Utilization series.
    pub series: usize,
    /// Utilization samples over all series.
    pub points: usize,
    /// Workload jobs (features).
    pub workload_jobs: usize,
    /// Lines skipped in lenient mode.
    pub skipped_lines: u64,
    /// Time span covered.
    pub span: Option<(Timestamp, Timestamp)>,
    /// The span is in seconds from the start of the trace, not calendar
    /// time (SWIM traces, trace-relative job histories:
    /// [`LoadedFile::relative_time`]): show it as durations and keep it out
    /// of the workspace's span.
    #[serde(default)]
    pub relative_time: bool,
}

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
