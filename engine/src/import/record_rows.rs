//! A whole small table read into rows through a record function, from a
//! CSV with a header or from JSON lines — the two encodings BigQuery
//! exports a table in. The streaming importer feeds the same
//! [`CsvRecords`] and JSON [`Tokenizer`] chunk by chunk into a
//! [`crate::model::Dataset`]; a reader that wants the rows themselves
//! (the shaping workload's per-instance tables) reads through here, so
//! the CSV and JSON parsing stays one.

use super::csv_records::CsvRecords;
use super::json::{Fault, Framing, Tokenizer};
use super::json_record::{Record, RecordAt, RecordSink, RecordStream};
use super::located::ParseError;

/// How one record becomes a row: `Ok(None)` leaves the record out (a row
/// outside the trace's time), `Err` is the record's located fault.
pub(crate) type RowOf<T> = fn(&Record) -> Result<Option<T>, Fault>;

/// A record sink that keeps each row with its 1-based line.
struct Collect<T> {
    row: RowOf<T>,
    fields: &'static [&'static str],
    /// The CSV line being read (a CSV record's own position has no line).
    line: u64,
    rows: Vec<(u64, T)>,
}

impl<T> RecordSink for Collect<T> {
    fn record(&mut self, _kind: usize, r: &Record) -> Result<(), Fault> {
        let line = if r.at.line > 0 { r.at.line } else { self.line };
        if let Some(row) = (self.row)(r)? {
            self.rows.push((line, row));
        }
        Ok(())
    }

    fn fields_read(&self) -> Option<&'static [&'static str]> {
        Some(self.fields)
    }
}

/// The rows of the table `text` (`file` names it in errors), each with
/// its line: JSON lines when the first significant byte is `{`, else a
/// CSV whose header names each of `required` (`|`-separated spellings)
/// and whose columns in `fields` are read. Strict: every bad line is
/// returned, located, and no row is; a bad header or a truncated JSON
/// value is one of them.
pub(crate) fn read_record_rows<T>(
    file: &str,
    text: &str,
    required: &'static [&'static str],
    fields: &'static [&'static str],
    noun: &'static str,
    row: RowOf<T>,
) -> Result<Vec<(u64, T)>, Vec<ParseError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let collect = Collect {
        row,
        fields,
        line: 0,
        rows: Vec::new(),
    };
    let mut errors = Vec::new();
    let located = |line: u64, column: u32, reason: String| ParseError {
        file: file.to_string(),
        line,
        column,
        reason,
    };
    let rows = if text.trim_start().starts_with('{') {
        let mut stream = RecordStream::new(RecordAt::TopLevel, noun, collect);
        let mut tokenizer = Tokenizer::new(Framing::Lines);
        let mut faults = Vec::new();
        let fed = tokenizer.feed(text.as_bytes(), &mut stream, &mut |f| faults.push(f));
        let finished = fed.and_then(|()| tokenizer.finish(&mut stream, &mut |f| faults.push(f)));
        faults.extend(finished.err());
        errors.extend(
            faults
                .into_iter()
                .map(|f| located(f.at.line, f.at.column, f.reason)),
        );
        stream.reader.rows
    } else {
        let mut csv = CsvRecords::new(required, collect);
        let mut header = false;
        for (i, raw) in text.split('\n').enumerate() {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            csv.reader.line = i as u64 + 1;
            match csv.line(line) {
                Ok(()) => header = true,
                Err(e) if e.fatal => {
                    errors.push(located(i as u64 + 1, e.column, e.reason));
                    break;
                }
                Err(e) => {
                    errors.push(located(i as u64 + 1, e.column, e.reason));
                }
            }
        }
        if !header && errors.is_empty() {
            errors.push(located(
                1,
                1,
                format!("no header line (expected columns {})", required.join(",")),
            ));
        }
        csv.reader.rows
    };
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}
