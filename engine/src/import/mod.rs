//! Trace import: text in, [`LoadedFile`] out.
//!
//! Every parser reads from byte chunks through one [`Importer`], so a 100 MB
//! file streams through a bounded buffer (only the unfinished last line is
//! kept between chunks) and the caller — the CLI reading a file, the Web
//! Worker reading a `Blob` slice by slice — decides how the bytes arrive.
//!
//! Input is strict by default: a file with any bad line is refused, with every
//! bad line reported by file, line, column and reason. In lenient mode the
//! good lines are kept and the bad ones come back as warnings. A bad header is
//! always fatal. No input makes a parser panic (see the property tests).
//!
//! Formats (detected from content, or forced with [`ImportOptions::format`]):
//! [`Format::NativeLog`], [`Format::RunsCsv`], [`Format::UtilizationCsv`],
//! [`Format::UtilizationLongCsv`], [`Format::SwimTsv`], [`Format::JobHistoryCsv`].
//! The README documents each.

mod alibaba_v2018;
mod csv;
mod decisions_csv;
mod detect;
mod format;
pub(crate) mod headerless;
mod job_history;
mod loaded;
mod located;
mod native_log;
mod queue_csv;
mod runs_csv;
mod shaping_csv;
mod swim;
mod utilization;

use crate::model::{Dataset, Resource};
use located::FieldError;
use serde::{Deserialize, Serialize};

pub use alibaba_v2018::{
    latest_requests, read_container_meta, read_container_usage, ContainerMeta, ContainerUsage,
    CONTAINER_META_COLUMNS, CONTAINER_USAGE_COLUMNS,
};
pub use decisions_csv::{read_decisions_csv, DECISION_COLUMNS};
pub use detect::detect;
pub use format::Format;
pub use loaded::{FileSummary, LoadedFile, RELATIVE_TIME_BEFORE};
pub use located::ParseError;
pub use queue_csv::{read_queue_csv, QUEUE_COLUMNS};
pub use shaping_csv::{
    read_shaping_apps_csv, read_shaping_usage_csv, ShapingAppRow, ShapingUsageRow,
    SHAPING_APP_COLUMNS, SHAPING_USAGE_COLUMNS,
};

/// Field and located-error helpers for standalone readers outside `import`
/// (the harvesting module's tenants CSV and Alibaba machine tables).
pub(crate) mod fields {
    pub(crate) use super::csv::{count, number, read_rows, shorten, split};
    pub(crate) use super::headerless;
    pub(crate) use super::located::{column_of, FieldError};
}

/// How to read a file. Defaults: detect the format, strict, report up to 1,000
/// bad lines, Hadoop's 5 s native-log interval, `cpu` for single series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ImportOptions {
    /// Force a format instead of detecting it from the content.
    pub format: Option<Format>,
    /// Keep the good lines of a file with bad ones (the bad ones become warnings).
    pub lenient: bool,
    /// Bad lines listed in full; the rest are only counted.
    pub max_reported_errors: usize,
    /// Interval of a native-log usage sample, seconds (Hadoop's
    /// `resourceestimator.timeInterval`, default 5).
    pub native_interval_secs: u32,
    /// Resource of a single `timestamp,value` series.
    pub series_resource: Resource,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            format: None,
            lenient: false,
            max_reported_errors: 1000,
            native_interval_secs: 5,
            series_resource: Resource::Cpu,
        }
    }
}

/// Why a file was not loaded.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum ImportError {
    /// The content matches none of the formats.
    #[error(
        "{file}: unrecognised format; first line: `{first_line}` (choose a format explicitly)"
    )]
    UnknownFormat {
        /// File name.
        file: String,
        /// The first non-blank line, shortened.
        first_line: String,
    },
    /// Nothing to load.
    #[error("{file}: no records found{}", if *.skipped > 0 { format!(" ({} bad lines skipped)", .skipped) } else { String::new() })]
    Empty {
        /// File name.
        file: String,
        /// Lines skipped as bad.
        skipped: u64,
    },
    /// Bad lines in strict mode, or a bad header.
    #[error("{file}: {total} bad line(s) in {format}; first: {}", .errors.first().map(|e| e.to_string()).unwrap_or_default())]
    Malformed {
        /// File name.
        file: String,
        /// Format it was read as.
        format: Format,
        /// The bad lines (at most `max_reported_errors`).
        errors: Vec<ParseError>,
        /// Number of bad lines in all.
        total: u64,
    },
}

impl ImportError {
    /// The per-line errors, if any.
    pub fn errors(&self) -> &[ParseError] {
        match self {
            ImportError::Malformed { errors, .. } => errors,
            _ => &[],
        }
    }
}

/// The per-format line parser.
enum Parser {
    Native(native_log::NativeLogParser),
    Runs(runs_csv::RunsCsvParser),
    Util(utilization::UtilizationParser),
    Swim(swim::SwimParser),
    History(job_history::JobHistoryParser),
}

impl Parser {
    fn new(format: Format, file: &str, options: &ImportOptions) -> Parser {
        match format {
            Format::NativeLog => Parser::Native(native_log::NativeLogParser::new(
                options.native_interval_secs,
            )),
            Format::RunsCsv => Parser::Runs(runs_csv::RunsCsvParser::new(options.lenient)),
            Format::UtilizationCsv => Parser::Util(utilization::UtilizationParser::single(
                series_name_from_file(file),
                options.series_resource.clone(),
            )),
            Format::UtilizationLongCsv => {
                Parser::Util(utilization::UtilizationParser::long(options.lenient))
            }
            Format::SwimTsv => Parser::Swim(swim::SwimParser::default()),
            Format::JobHistoryCsv => Parser::History(job_history::JobHistoryParser::new()),
        }
    }

    fn line(&mut self, line: &str) -> Result<(), FieldError> {
        match self {
            Parser::Native(p) => p.line(line),
            Parser::Runs(p) => p.line(line),
            Parser::Util(p) => p.line(line),
            Parser::Swim(p) => p.line(line),
            Parser::History(p) => p.line(line),
        }
    }

    fn finish(self) -> Dataset {
        match self {
            Parser::Native(p) => p.finish(),
            Parser::Runs(p) => p.finish(),
            Parser::Util(p) => p.finish(),
            Parser::Swim(p) => p.finish(),
            Parser::History(p) => p.finish(),
        }
    }
}

/// The name of a single-series file's series: its file name without
/// directories and extension (`ec2_cpu_utilization_24ae8d`).
pub fn series_name_from_file(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = match base.rfind('.') {
        Some(i) if i > 0 => &base[..i],
        _ => base,
    };
    if stem.is_empty() {
        "series".into()
    } else {
        stem.into()
    }
}

/// Where the importer is in the file.
enum Stage {
    /// No content line seen yet.
    Detecting,
    /// Reading with a parser.
    Reading(Format, Box<Parser>),
    /// The first content line matched no format.
    Unknown(String),
    /// A fatal (header) error: the rest is not read.
    Dead(Format),
}

/// Streaming importer: feed it chunks of any size, then [`Importer::finish`].
pub struct Importer {
    file: String,
    options: ImportOptions,
    stage: Stage,
    tail: Vec<u8>,
    line_no: u64,
    bytes: u64,
    errors: Vec<ParseError>,
    total_errors: u64,
}

impl Importer {
    /// An importer for the file `file` (the name is used in errors and, for a
    /// single series, as the series name).
    pub fn new(file: impl Into<String>, options: ImportOptions) -> Self {
        Importer {
            file: file.into(),
            options,
            stage: Stage::Detecting,
            tail: Vec::new(),
            line_no: 0,
            bytes: 0,
            errors: Vec::new(),
            total_errors: 0,
        }
    }

    /// Bytes pushed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// Bad lines so far.
    pub fn error_count(&self) -> u64 {
        self.total_errors
    }

    /// The format being read, once known.
    pub fn format(&self) -> Option<Format> {
        match &self.stage {
            Stage::Reading(f, _) | Stage::Dead(f) => Some(*f),
            _ => None,
        }
    }

    /// Feeds the next chunk of the file. Lines may span chunks.
    pub fn push(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        let mut rest = chunk;
        if !self.tail.is_empty() {
            match memchr::memchr(b'\n', rest) {
                None => {
                    self.tail.extend_from_slice(rest);
                    return;
                }
                Some(i) => {
                    self.tail.extend_from_slice(&rest[..i]);
                    let line = std::mem::take(&mut self.tail);
                    self.line(&line);
                    self.tail = line;
                    self.tail.clear();
                    rest = &rest[i + 1..];
                }
            }
        }
        let mut start = 0;
        for i in memchr::memchr_iter(b'\n', rest) {
            self.line(&rest[start..i]);
            start = i + 1;
        }
        self.tail.extend_from_slice(&rest[start..]);
    }

    fn error(&mut self, column: u32, reason: String) {
        self.total_errors += 1;
        if self.errors.len() < self.options.max_reported_errors {
            self.errors.push(ParseError {
                file: self.file.clone(),
                line: self.line_no,
                column,
                reason,
            });
        }
    }

    fn line(&mut self, raw: &[u8]) {
        self.line_no += 1;
        let mut raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if self.line_no == 1 {
            raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
        }
        if matches!(self.stage, Stage::Unknown(_) | Stage::Dead(_)) {
            return;
        }
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                let valid = std::str::from_utf8(&raw[..e.valid_up_to()]).unwrap_or("");
                let col = valid.chars().count() as u32 + 1;
                self.error(col, "invalid UTF-8".into());
                return;
            }
        };
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return;
        }
        if let Stage::Detecting = self.stage {
            let format = match self.options.format.or_else(|| detect(text)) {
                Some(f) => f,
                None => {
                    let short: String = trimmed.chars().take(80).collect();
                    self.stage = Stage::Unknown(short);
                    return;
                }
            };
            let parser = Parser::new(format, &self.file, &self.options);
            self.stage = Stage::Reading(format, Box::new(parser));
        }
        let Stage::Reading(format, parser) = &mut self.stage else {
            return;
        };
        let format = *format;
        if let Err(e) = parser.line(text) {
            if e.fatal {
                self.stage = Stage::Dead(format);
            }
            self.error(e.column, e.reason);
        }
    }

    /// Ends the file: returns what was loaded, or why nothing was.
    pub fn finish(mut self) -> Result<LoadedFile, ImportError> {
        if !self.tail.is_empty() {
            let line = std::mem::take(&mut self.tail);
            self.line(&line);
        }
        let file = self.file.clone();
        match self.stage {
            Stage::Detecting => Err(ImportError::Empty {
                file,
                skipped: self.total_errors,
            }),
            Stage::Unknown(first_line) => Err(ImportError::UnknownFormat { file, first_line }),
            Stage::Dead(format) => Err(ImportError::Malformed {
                file,
                format,
                errors: self.errors,
                total: self.total_errors,
            }),
            Stage::Reading(format, parser) => {
                if self.total_errors > 0 && !self.options.lenient {
                    return Err(ImportError::Malformed {
                        file,
                        format,
                        errors: self.errors,
                        total: self.total_errors,
                    });
                }
                let data = parser.finish();
                if data.records() == 0 {
                    return Err(ImportError::Empty {
                        file,
                        skipped: self.total_errors,
                    });
                }
                Ok(LoadedFile {
                    id: 0,
                    name: file,
                    format,
                    bytes: self.bytes,
                    lines: self.line_no,
                    data,
                    warnings: self.errors,
                    skipped_lines: self.total_errors,
                })
            }
        }
    }
}

/// Imports a whole file held in memory.
pub fn import(file: &str, bytes: &[u8], options: ImportOptions) -> Result<LoadedFile, ImportError> {
    let mut imp = Importer::new(file, options);
    imp.push(bytes);
    imp.finish()
}

#[cfg(test)]
mod tests;

/// The columns of skyplan's job-runs CSV, in the order exports write them.
pub fn runs_csv_columns() -> &'static [&'static str] {
    &runs_csv::COLUMNS
}

/// The columns of skyplan's job-history CSV, in the order exports write them.
pub fn job_history_csv_columns() -> &'static [&'static str] {
    &job_history::COLUMNS
}
