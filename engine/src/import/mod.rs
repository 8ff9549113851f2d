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
//! skyplan's and the research traces' line formats ([`Format::NativeLog`],
//! [`Format::RunsCsv`], [`Format::UtilizationCsv`],
//! [`Format::UtilizationLongCsv`], [`Format::SwimTsv`],
//! [`Format::JobHistoryCsv`]) and what a running cluster exports
//! ([`Format::YarnAppsJson`], [`Format::MapreduceHistoryJson`],
//! [`Format::SparkEventLog`], [`Format::PrometheusJson`],
//! [`Format::GrafanaCsv`], [`Format::GoogleInstanceUsage`],
//! [`Format::GoogleEvents`], [`Format::AlibabaBatchCsv`]).
//! docs/formats.md documents each.
//!
//! A Spark event log compressed with one of the codecs Spark writes (lz4,
//! lzf, snappy, zstd: [`Codec`]) is decompressed as it streams, in front of
//! everything else (`codec`), chosen by its magic bytes.
//!
//! Memory stays bounded whatever the file: a line format's line is buffered
//! up to [`MAX_LINE_BYTES`] (a longer one is a located error, skipped, never
//! held), a JSON document streams through a push tokenizer (`json`), and
//! utilization series are aggregated past a budget (`series_set`).

mod alibaba_batch;
mod alibaba_v2018;
mod codec;
mod concurrency;
mod csv;
mod csv_records;
mod decisions_csv;
mod detect;
mod format;
mod google_2019;
mod google_instances;
mod grafana_csv;
pub(crate) mod headerless;
mod job_history;
mod json;
mod json_locate;
mod json_record;
mod loaded;
mod located;
mod mapreduce_history;
mod native_log;
mod prometheus;
mod queue_csv;
mod record_rows;
mod recurring;
mod runs_csv;
mod series_set;
mod shaping_csv;
mod spark_events;
mod swim;
mod utilization;
mod yarn_apps;

use crate::model::{Dataset, Resource};
use located::FieldError;
use serde::{Deserialize, Serialize};

pub use alibaba_v2018::{
    latest_requests, read_container_meta, read_container_usage, ContainerMeta, ContainerUsage,
    CONTAINER_META_COLUMNS, CONTAINER_USAGE_COLUMNS,
};
pub use codec::Codec;
pub use decisions_csv::{read_decisions_csv, DECISION_COLUMNS};
pub use detect::detect;
pub use format::Format;
pub(crate) use google_instances::{
    google_table, read_instance_events, read_instance_usage, GoogleTable, InstanceUsage,
};
pub use loaded::{FileSummary, LoadedFile, SourceFile, RELATIVE_TIME_BEFORE};
pub use located::ParseError;
pub use queue_csv::{read_queue_csv, QUEUE_COLUMNS};
pub use shaping_csv::{
    read_shaping_apps_csv, read_shaping_usage_csv, ShapingAppRow, ShapingUsageRow,
    SHAPING_APP_COLUMNS, SHAPING_USAGE_COLUMNS,
};

/// Field and located-error helpers for standalone readers outside `import`
/// (the harvesting module's tenants CSV and Alibaba machine tables; the
/// agenda's YARN reservation JSON, located by path).
pub(crate) mod fields {
    pub(crate) use super::csv::{count, number, read_rows, shorten, split};
    pub(crate) use super::headerless;
    pub(crate) use super::json_locate::{locate, JsonPath};
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
    /// A compressed file whose stream is corrupt or cut short.
    #[error("{file}: byte {offset}: {codec} stream: {reason}")]
    Compressed {
        /// File name.
        file: String,
        /// The codec it is compressed with.
        codec: Codec,
        /// Offset in the (compressed) file of the block at fault.
        offset: u64,
        /// What is wrong, in words.
        reason: String,
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
    Grafana(grafana_csv::GrafanaCsv),
    GoogleUsage(csv_records::CsvRecords<google_2019::GoogleUsage>),
    GoogleEvents(csv_records::CsvRecords<google_2019::GoogleEvents>),
    Alibaba(alibaba_batch::AlibabaBatch),
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
            Format::GrafanaCsv => Parser::Grafana(grafana_csv::GrafanaCsv::new()),
            Format::GoogleInstanceUsage => Parser::GoogleUsage(csv_records::CsvRecords::new(
                google_2019::USAGE_COLUMNS,
                google_2019::GoogleUsage::new(),
            )),
            Format::GoogleEvents => Parser::GoogleEvents(csv_records::CsvRecords::new(
                google_2019::EVENTS_COLUMNS,
                google_2019::GoogleEvents::default(),
            )),
            Format::AlibabaBatchCsv => Parser::Alibaba(alibaba_batch::AlibabaBatch::new()),
            // JSON formats never reach the line parsers (`Stage::Json`);
            // a forced JSON format on a non-JSON file is read as lines of
            // JSON, whose first line then fails to parse.
            Format::YarnAppsJson
            | Format::MapreduceHistoryJson
            | Format::SparkEventLog
            | Format::PrometheusJson => Parser::Grafana(grafana_csv::GrafanaCsv::new()),
        }
    }

    fn line(&mut self, line: &str) -> Result<(), FieldError> {
        match self {
            Parser::Native(p) => p.line(line),
            Parser::Runs(p) => p.line(line),
            Parser::Util(p) => p.line(line),
            Parser::Swim(p) => p.line(line),
            Parser::History(p) => p.line(line),
            Parser::Grafana(p) => p.line(line),
            Parser::GoogleUsage(p) => p.line(line),
            Parser::GoogleEvents(p) => p.line(line),
            Parser::Alibaba(p) => p.line(line),
        }
    }

    fn finish(self) -> Dataset {
        match self {
            Parser::Native(p) => p.finish(),
            Parser::Runs(p) => p.finish(),
            Parser::Util(p) => p.finish(),
            Parser::Swim(p) => p.finish(),
            Parser::History(p) => p.finish(),
            Parser::Grafana(p) => p.finish(),
            Parser::GoogleUsage(p) => p.reader.finish(),
            Parser::GoogleEvents(p) => p.reader.finish(),
            Parser::Alibaba(p) => p.finish(),
        }
    }
}

/// The reader of a JSON format, fed by the push tokenizer.
enum JsonReader {
    Yarn(Box<json_record::RecordStream<yarn_apps::YarnApps>>),
    History(Box<json_record::RecordStream<mapreduce_history::JobHistory>>),
    Spark(Box<json_record::RecordStream<spark_events::SparkEvents>>),
    Prometheus(Box<prometheus::Prometheus>),
    GoogleUsage(Box<json_record::RecordStream<google_2019::GoogleUsage>>),
    GoogleEvents(Box<json_record::RecordStream<google_2019::GoogleEvents>>),
}

impl JsonReader {
    /// The reader of `format`, and how its file is framed; `None` for a
    /// line format.
    fn new(format: Format) -> Option<(JsonReader, json::Framing)> {
        use json::Framing::{Document, Lines};
        use json_record::RecordStream as S;
        Some(match format {
            Format::YarnAppsJson => (
                JsonReader::Yarn(Box::new(S::new(
                    yarn_apps::RECORDS,
                    "an application",
                    Default::default(),
                ))),
                Document,
            ),
            Format::MapreduceHistoryJson => (
                JsonReader::History(Box::new(S::new(
                    mapreduce_history::RECORDS,
                    "a job or task",
                    Default::default(),
                ))),
                Document,
            ),
            Format::SparkEventLog => (
                JsonReader::Spark(Box::new(S::new(
                    spark_events::RECORDS,
                    "an event",
                    Default::default(),
                ))),
                Lines,
            ),
            Format::PrometheusJson => (
                JsonReader::Prometheus(Box::new(prometheus::Prometheus::new())),
                Document,
            ),
            Format::GoogleInstanceUsage => (
                JsonReader::GoogleUsage(Box::new(S::new(
                    google_2019::RECORDS,
                    "a usage row",
                    google_2019::GoogleUsage::new(),
                ))),
                Lines,
            ),
            Format::GoogleEvents => (
                JsonReader::GoogleEvents(Box::new(S::new(
                    google_2019::RECORDS,
                    "an event row",
                    Default::default(),
                ))),
                Lines,
            ),
            _ => return None,
        })
    }

    fn finish(self) -> Dataset {
        match self {
            JsonReader::Yarn(r) => r.reader.finish(),
            JsonReader::History(r) => r.reader.finish(),
            JsonReader::Spark(r) => r.reader.finish(),
            JsonReader::Prometheus(r) => r.finish(),
            JsonReader::GoogleUsage(r) => r.reader.finish(),
            JsonReader::GoogleEvents(r) => r.reader.finish(),
        }
    }
}

impl json::Sink for JsonReader {
    fn event(&mut self, event: json::Event<'_>, at: json::Pos) -> Result<(), json::Fault> {
        match self {
            JsonReader::Yarn(r) => r.event(event, at),
            JsonReader::History(r) => r.event(event, at),
            JsonReader::Spark(r) => r.event(event, at),
            JsonReader::Prometheus(r) => r.event(event, at),
            JsonReader::GoogleUsage(r) => r.event(event, at),
            JsonReader::GoogleEvents(r) => r.event(event, at),
        }
    }

    fn reset(&mut self) {
        match self {
            JsonReader::Yarn(r) => r.reset(),
            JsonReader::History(r) => r.reset(),
            JsonReader::Spark(r) => r.reset(),
            JsonReader::Prometheus(_) => {}
            JsonReader::GoogleUsage(r) => r.reset(),
            JsonReader::GoogleEvents(r) => r.reset(),
        }
    }
}

/// A JSON file being read: the tokenizer and the format's reader.
struct JsonStage {
    tokenizer: json::Tokenizer,
    reader: JsonReader,
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

/// The longest line a line format buffers: a longer one is refused with
/// its line number and skipped to its end, never held whole (the longest
/// real lines, native-log skylines of day-long jobs, are a few megabytes).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// Bytes looked at, at most, to tell a file's format.
const DETECT_BYTES: usize = 64 << 10;

/// Where the importer is in the file.
enum Stage {
    /// No format yet: the first bytes are kept in `prefix`.
    Detecting,
    /// Reading lines with a parser.
    Lines(Format, Box<Parser>),
    /// Reading JSON with the push tokenizer.
    Json(Format, Box<JsonStage>),
    /// The first content line matched no format.
    Unknown(String),
    /// A fatal (header or JSON syntax) error: the rest is not read.
    Dead(Format),
}

/// What the importer does with the file's bytes before reading them as
/// text.
enum Compression {
    /// The first bytes are kept until they tell whether (and how) the file
    /// is compressed.
    Sniffing(Vec<u8>),
    /// Not compressed: the bytes are the text.
    Plain,
    /// Compressed: the bytes are decompressed as they stream.
    Decoding(Box<codec::Decoder>),
    /// The compressed stream failed (`Importer::codec_error`): nothing more
    /// is read.
    Failed,
}

/// Streaming importer: feed it chunks of any size, then [`Importer::finish`].
pub struct Importer {
    file: String,
    options: ImportOptions,
    compression: Compression,
    /// Why the compressed stream stopped, if it did.
    codec_error: Option<(Codec, codec::CodecError)>,
    stage: Stage,
    /// The bytes seen while detecting.
    prefix: Vec<u8>,
    /// The unfinished last line (line formats).
    tail: Vec<u8>,
    /// Skipping the rest of an over-long line.
    skipping: bool,
    line_no: u64,
    bytes: u64,
    /// Newlines read (JSON formats count lines so).
    newlines: u64,
    last_byte: u8,
    errors: Vec<ParseError>,
    total_errors: u64,
    hasher: xxhash_rust::xxh3::Xxh3,
}

impl Importer {
    /// An importer for the file `file` (the name is used in errors and, for a
    /// single series, as the series name).
    pub fn new(file: impl Into<String>, options: ImportOptions) -> Self {
        Importer {
            file: file.into(),
            options,
            compression: Compression::Sniffing(Vec::new()),
            codec_error: None,
            stage: Stage::Detecting,
            prefix: Vec::new(),
            tail: Vec::new(),
            skipping: false,
            line_no: 0,
            bytes: 0,
            newlines: 0,
            last_byte: b'\n',
            errors: Vec::new(),
            total_errors: 0,
            hasher: xxhash_rust::xxh3::Xxh3::new(),
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
            Stage::Lines(f, _) | Stage::Json(f, _) | Stage::Dead(f) => Some(*f),
            _ => None,
        }
    }

    /// The codec the file is compressed with, once known.
    pub fn codec(&self) -> Option<Codec> {
        match &self.compression {
            Compression::Decoding(d) => Some(d.codec()),
            _ => self.codec_error.as_ref().map(|(c, _)| *c),
        }
    }

    /// Feeds the next chunk of the file. Lines and JSON values may span
    /// chunks, and so may a compressed file's blocks.
    pub fn push(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        self.hasher.update(chunk);
        match &mut self.compression {
            Compression::Plain => self.push_text(chunk),
            Compression::Sniffing(first) => {
                first.extend_from_slice(chunk);
                let sniffed = codec::sniff(&self.file, first, false);
                self.start_compression(sniffed);
            }
            Compression::Decoding(_) => self.decode(chunk),
            Compression::Failed => {}
        }
    }

    /// Leaves sniffing once the first bytes tell, and replays them.
    fn start_compression(&mut self, sniffed: codec::Sniff) {
        let Compression::Sniffing(first) = &mut self.compression else {
            return;
        };
        let first = std::mem::take(first);
        match sniffed {
            codec::Sniff::Undecided => self.compression = Compression::Sniffing(first),
            codec::Sniff::Plain => {
                self.compression = Compression::Plain;
                self.push_text(&first);
            }
            codec::Sniff::Compressed(codec) => {
                self.compression = Compression::Decoding(Box::new(codec::Decoder::new(codec)));
                self.decode(&first);
            }
            codec::Sniff::Mismatch(codec) => {
                self.compression = Compression::Failed;
                self.codec_error = Some((
                    codec,
                    codec::CodecError {
                        offset: 0,
                        reason: format!(
                            "the name says {codec} but the file starts with neither a {codec} stream's magic bytes nor text"
                        ),
                    },
                ));
            }
        }
    }

    /// Decompresses a chunk into the text stage.
    fn decode(&mut self, chunk: &[u8]) {
        let Compression::Decoding(mut decoder) =
            std::mem::replace(&mut self.compression, Compression::Failed)
        else {
            return;
        };
        match decoder.push(chunk, &mut |text| self.push_text(text)) {
            Ok(()) => self.compression = Compression::Decoding(decoder),
            Err(e) => self.codec_error = Some((decoder.codec(), e)),
        }
    }

    /// Ends the compressed stream (an error if it is cut short) and, in
    /// lenient mode, turns a stream error into a warning after the text
    /// read before it.
    fn finish_compression(&mut self) -> Option<ImportError> {
        match std::mem::replace(&mut self.compression, Compression::Plain) {
            Compression::Sniffing(first) => {
                self.compression = Compression::Sniffing(first);
                let sniffed = codec::sniff(&self.file, self.sniffed_bytes(), true);
                self.start_compression(sniffed);
            }
            Compression::Decoding(mut decoder) => {
                if let Err(e) = decoder.finish() {
                    self.codec_error = Some((decoder.codec(), e));
                }
            }
            other => self.compression = other,
        }
        let (codec, e) = self.codec_error.take()?;
        if self.options.lenient {
            let line = self.newlines + 1;
            self.error_at(
                line,
                1,
                format!(
                    "byte {}: {codec} stream: {}; the rest of the file is not read",
                    e.offset, e.reason
                ),
            );
            return None;
        }
        Some(ImportError::Compressed {
            file: self.file.clone(),
            codec,
            offset: e.offset,
            reason: e.reason,
        })
    }

    /// The bytes kept while sniffing.
    fn sniffed_bytes(&self) -> &[u8] {
        match &self.compression {
            Compression::Sniffing(first) => first,
            _ => &[],
        }
    }

    /// Feeds decompressed (or plain) text.
    fn push_text(&mut self, chunk: &[u8]) {
        if let Some(&last) = chunk.last() {
            self.newlines += memchr::memchr_iter(b'\n', chunk).count() as u64;
            self.last_byte = last;
        }
        if let Stage::Detecting = self.stage {
            self.prefix.extend_from_slice(chunk);
            self.detect(false);
            return;
        }
        self.feed(chunk);
    }

    /// Hands bytes to the stage decided.
    fn feed(&mut self, chunk: &[u8]) {
        match &mut self.stage {
            Stage::Lines(..) => self.push_lines(chunk),
            Stage::Json(format, state) => {
                let format = *format;
                let mut faults = Vec::new();
                let JsonStage { tokenizer, reader } = state.as_mut();
                let fed = tokenizer.feed(chunk, reader, &mut |f| faults.push(f));
                for f in faults {
                    self.error_at(f.at.line, f.at.column, f.reason);
                }
                if let Err(f) = fed {
                    self.error_at(f.at.line, f.at.column, f.reason);
                    self.stage = Stage::Dead(format);
                }
            }
            _ => {}
        }
    }

    /// Decides the format from the prefix when it can (`eof`: nothing more
    /// comes), then replays the prefix into the stage.
    fn detect(&mut self, eof: bool) {
        let Some(format) = self.decide(eof) else {
            return;
        };
        let prefix = std::mem::take(&mut self.prefix);
        let start = prefix.strip_prefix(b"\xEF\xBB\xBF").map_or(0, |_| 3);
        let json_text = first_significant(&prefix[start..]).is_some_and(|b| b == b'{' || b == b'[');
        let (json, framing) = match JsonReader::new(format) {
            Some((reader, framing)) if json_text || format.json_document() => {
                (Some(reader), framing)
            }
            _ => (None, json::Framing::Lines),
        };
        self.stage = match json {
            Some(reader) => Stage::Json(
                format,
                Box::new(JsonStage {
                    tokenizer: json::Tokenizer::new(framing),
                    reader,
                }),
            ),
            None => Stage::Lines(
                format,
                Box::new(Parser::new(format, &self.file, &self.options)),
            ),
        };
        match self.stage {
            Stage::Json(..) => self.feed(&prefix[start..]),
            _ => self.feed(&prefix),
        }
    }

    /// The format of the prefix, once it says; `Unknown` is set here.
    fn decide(&mut self, eof: bool) -> Option<Format> {
        if let Some(f) = self.options.format {
            // A byte-order mark cut between chunks is waited for, so that
            // it is stripped whole whatever the chunks.
            if !eof && self.prefix.len() < 3 && b"\xEF\xBB\xBF".starts_with(&self.prefix) {
                return None;
            }
            return Some(f);
        }
        let text = self
            .prefix
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(&self.prefix);
        let full = eof || text.len() >= DETECT_BYTES;
        // The first content line: not blank, not a `#` comment.
        let mut rest = text;
        let line = loop {
            let (line, complete, next) = match memchr::memchr(b'\n', rest) {
                Some(i) => (&rest[..i], true, &rest[i + 1..]),
                None => (rest, false, &rest[rest.len()..]),
            };
            let trimmed = String::from_utf8_lossy(line);
            let trimmed = trimmed.trim();
            if complete && (trimmed.is_empty() || trimmed.starts_with('#')) {
                rest = next;
                continue;
            }
            if !complete && !full {
                if trimmed.starts_with(['{', '[']) {
                    break None;
                }
                return None;
            }
            break Some(trimmed.to_string());
        };
        let starts_json = first_significant(text).is_some_and(|b| b == b'{' || b == b'[');
        if starts_json {
            let mut probe = detect::KeyProbe::default();
            let mut tokenizer = json::Tokenizer::new(json::Framing::Document);
            let probed = tokenizer.feed(
                &text[..text.len().min(DETECT_BYTES)],
                &mut probe,
                &mut |_| {},
            );
            if probed.is_ok() && !probe.enough() && !full {
                return None;
            }
            if let Some(f) = detect::detect_json(&probe, true) {
                return Some(f);
            }
        } else if let Some(line) = &line {
            if let Some(f) = detect(line) {
                return Some(f);
            }
        } else if !full {
            return None;
        }
        if !full && line.is_none() {
            return None;
        }
        let first: String = line.unwrap_or_default().chars().take(80).collect();
        if first.is_empty() && !starts_json {
            // Only blank lines and comments so far.
            if eof {
                self.stage = Stage::Unknown(String::new());
            }
            return None;
        }
        self.stage = Stage::Unknown(first);
        self.prefix.clear();
        None
    }

    /// Splits bytes into lines for the line parser, refusing any line
    /// longer than [`MAX_LINE_BYTES`].
    fn push_lines(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        if self.skipping {
            match memchr::memchr(b'\n', rest) {
                None => return,
                Some(i) => {
                    self.skipping = false;
                    rest = &rest[i + 1..];
                }
            }
        }
        if !self.tail.is_empty() {
            match memchr::memchr(b'\n', rest) {
                None => {
                    self.grow_tail(rest);
                    return;
                }
                Some(i) => {
                    if self.tail.len() + i > MAX_LINE_BYTES {
                        self.too_long();
                        self.tail.clear();
                    } else {
                        self.tail.extend_from_slice(&rest[..i]);
                        let line = std::mem::take(&mut self.tail);
                        self.line(&line);
                        self.tail = line;
                        self.tail.clear();
                    }
                    rest = &rest[i + 1..];
                }
            }
        }
        let mut start = 0;
        for i in memchr::memchr_iter(b'\n', rest) {
            if i - start > MAX_LINE_BYTES {
                self.too_long();
            } else {
                self.line(&rest[start..i]);
            }
            start = i + 1;
        }
        self.grow_tail(&rest[start..]);
    }

    /// Keeps the start of an unfinished line, or refuses it when too long.
    fn grow_tail(&mut self, bytes: &[u8]) {
        if self.tail.len() + bytes.len() > MAX_LINE_BYTES {
            self.too_long();
            self.tail = Vec::new();
            self.skipping = true;
        } else {
            self.tail.extend_from_slice(bytes);
        }
    }

    fn too_long(&mut self) {
        self.line_no += 1;
        self.error(
            1,
            format!(
                "the line is longer than {} MiB (not read; is this the right format?)",
                MAX_LINE_BYTES >> 20
            ),
        );
    }

    fn error(&mut self, column: u32, reason: String) {
        self.error_at(self.line_no, column, reason);
    }

    fn error_at(&mut self, line: u64, column: u32, reason: String) {
        self.total_errors += 1;
        if self.errors.len() < self.options.max_reported_errors {
            self.errors.push(ParseError {
                file: self.file.clone(),
                line,
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
        // After a fatal error nothing more is read: the rest of the file
        // arrives, or not, depending on where its chunks were cut.
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
        let Stage::Lines(format, parser) = &mut self.stage else {
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
        if let Some(e) = self.finish_compression() {
            return Err(e);
        }
        if let Stage::Detecting = self.stage {
            self.detect(true);
        }
        if !self.tail.is_empty() && !self.skipping {
            let line = std::mem::take(&mut self.tail);
            self.line(&line);
        }
        if let Stage::Json(format, state) = &mut self.stage {
            let format = *format;
            let mut faults = Vec::new();
            let JsonStage { tokenizer, reader } = state.as_mut();
            let done = tokenizer.finish(reader, &mut |f| faults.push(f));
            for f in faults {
                self.error_at(f.at.line, f.at.column, f.reason);
            }
            if let Err(f) = done {
                self.error_at(f.at.line, f.at.column, f.reason);
                self.stage = Stage::Dead(format);
            }
        }
        let lines = match self.stage {
            Stage::Json(..) => self.newlines + u64::from(self.last_byte != b'\n'),
            _ => self.line_no,
        };
        let hash = format!("{:032x}", self.hasher.digest128());
        let file = self.file.clone();
        match self.stage {
            Stage::Detecting => Err(ImportError::Empty {
                file,
                skipped: self.total_errors,
            }),
            Stage::Unknown(first_line) if first_line.is_empty() => Err(ImportError::Empty {
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
            Stage::Lines(format, _) | Stage::Json(format, _) => {
                if self.total_errors > 0 && !self.options.lenient {
                    return Err(ImportError::Malformed {
                        file,
                        format,
                        errors: self.errors,
                        total: self.total_errors,
                    });
                }
                let data = match self.stage {
                    Stage::Lines(_, parser) => parser.finish(),
                    Stage::Json(_, state) => state.reader.finish(),
                    _ => Dataset::default(),
                };
                if data.records() == 0 {
                    return Err(ImportError::Empty {
                        file,
                        skipped: self.total_errors,
                    });
                }
                Ok(LoadedFile {
                    id: 0,
                    source: Some(SourceFile {
                        name: file.clone(),
                        bytes: self.bytes,
                        hash,
                    }),
                    kept: false,
                    name: file,
                    format,
                    bytes: self.bytes,
                    lines,
                    data,
                    warnings: self.errors,
                    skipped_lines: self.total_errors,
                })
            }
        }
    }
}

/// The first byte that is not whitespace.
fn first_significant(bytes: &[u8]) -> Option<u8> {
    bytes.iter().copied().find(|b| !b.is_ascii_whitespace())
}

/// Imports a whole file held in memory.
pub fn import(file: &str, bytes: &[u8], options: ImportOptions) -> Result<LoadedFile, ImportError> {
    let mut imp = Importer::new(file, options);
    imp.push(bytes);
    imp.finish()
}

#[cfg(test)]
mod cluster_tests;
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
