//! What an import gives: a [`LoadedFile`] (the records, the format read,
//! the lines skipped) and its [`FileSummary`] row. They belong to the import
//! layer because they name its [`Format`] and [`ParseError`]; the
//! [`crate::workspace::Workspace`] above keeps them.

use super::{Format, ParseError};
use crate::model::{Dataset, Timestamp};
use serde::{Deserialize, Serialize};

/// A file that was imported, with what it contained and the lines that were
/// skipped (lenient mode only: strict imports with bad lines are refused).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadedFile {
    /// Workspace-assigned id (0 until added to a
    /// [`Workspace`](crate::workspace::Workspace)).
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
    /// The file read: name, size and content hash (`None` only for a
    /// file loaded by an older build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceFile>,
    /// The workspace keeps this file's records, not its bytes: it was
    /// reopened from a bundle or the browser's storage that kept a large
    /// import so ([`SourceFile`] says what it came from).
    #[serde(default)]
    pub kept: bool,
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
            notes: self.data.notes.clone(),
            source: self.source.clone(),
            kept: self.kept,
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
    /// What the reader aggregated, left out or estimated
    /// ([`Dataset::notes`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The file read ([`LoadedFile::source`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceFile>,
    /// Its records are kept, not its bytes ([`LoadedFile::kept`]).
    #[serde(default)]
    pub kept: bool,
}

/// The file a kept import came from: enough to tell it again (name, size,
/// a hash of its bytes) without holding its bytes — a workspace keeps the
/// records of a large import, not the gigabytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceFile {
    /// Its name.
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// XXH3-128 of its bytes, 32 hex digits (`xxhsum -H2`).
    pub hash: String,
}
