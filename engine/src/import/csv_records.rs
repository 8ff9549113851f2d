//! A CSV table with a header read as records: each line becomes a
//! [`Record`] of its header's names, so a reader written for JSON rows (a
//! BigQuery export as JSON lines) reads the same table exported as CSV.

use super::csv::{split, split_ranges, Field};
use super::json::{Fault, Pos};
use super::json_record::{Record, RecordSink};
use super::located::{column_of, FieldError};
use crate::csv_cell::unguard;

/// Lines of a CSV table for a record reader.
pub(crate) struct CsvRecords<R> {
    header: Option<Vec<String>>,
    /// The header's indices of the columns the reader reads
    /// ([`RecordSink::fields_read`]; all of them when it does not say).
    keep: Vec<usize>,
    /// The fields of an unquoted row, as byte ranges (reused).
    ranges: Vec<(usize, usize)>,
    required: &'static [&'static str],
    record: Record,
    /// The reader the rows go to.
    pub reader: R,
}

impl<R: RecordSink> CsvRecords<R> {
    /// A table whose header must name each of `required` (one of the
    /// `|`-separated spellings of each).
    pub(crate) fn new(required: &'static [&'static str], reader: R) -> Self {
        CsvRecords {
            header: None,
            keep: Vec::new(),
            ranges: Vec::new(),
            required,
            record: Record::default(),
            reader,
        }
    }

    /// One line: the header first, then rows.
    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        let Some(header) = &self.header else {
            return self.header_line(line);
        };
        // Unquoted rows (the common case) are split into byte ranges
        // without a `String` or a `Vec` per row; quoted ones by `split`.
        let mut quoted: Vec<Field<'_>> = Vec::new();
        let plain = split_ranges(line, b',', &mut self.ranges);
        if !plain {
            split(line, b',', &mut quoted)?;
        }
        let width = if plain {
            self.ranges.len()
        } else {
            quoted.len()
        };
        if width != header.len() {
            return Err(FieldError::at(
                column_of(line, line.len()),
                format!(
                    "expected {} fields as in the header, found {}",
                    header.len(),
                    width
                ),
            ));
        }
        // Columns are characters; an ASCII line's are its bytes.
        let ascii = line.is_ascii();
        let at = |off: usize| Pos {
            line: 0,
            column: if ascii {
                u32::try_from(off + 1).unwrap_or(u32::MAX)
            } else {
                column_of(line, off)
            },
        };
        let ranges = &self.ranges;
        let rows = self.keep.iter().map(|&k| {
            let (text, offset) = if plain {
                let (a, b) = ranges[k];
                (unguard(&line[a..b]), a)
            } else {
                (quoted[k].text.as_ref(), quoted[k].offset)
            };
            (header[k].as_str(), text, at(offset))
        });
        self.record.refill(at(0), rows);
        self.reader
            .record(0, &self.record)
            .map_err(|f: Fault| FieldError::at(f.at.column, f.reason))
    }

    /// The header: its names, checked against the required ones.
    fn header_line(&mut self, line: &str) -> Result<(), FieldError> {
        let mut split_fields: Vec<Field<'_>> = Vec::new();
        split(line, b',', &mut split_fields)?;
        let names: Vec<String> = split_fields
            .iter()
            .map(|f| f.text.trim().to_ascii_lowercase())
            .collect();
        for need in self.required {
            if !need.split('|').any(|n| names.iter().any(|h| h == n)) {
                let shown = need.replace('|', "` or `");
                return Err(FieldError::fatal(
                    1,
                    format!("the header has no `{shown}` column"),
                ));
            }
        }
        let read = self.reader.fields_read();
        self.keep = (0..names.len())
            .filter(|&k| read.is_none_or(|read| read.contains(&names[k].as_str())))
            .collect();
        self.header = Some(names);
        Ok(())
    }
}
