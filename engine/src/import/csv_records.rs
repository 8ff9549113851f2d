//! A CSV table with a header read as records: each line becomes a
//! [`Record`] of its header's names, so a reader written for JSON rows (a
//! BigQuery export as JSON lines) reads the same table exported as CSV.

use super::csv::{split, Field};
use super::json::{Fault, Pos};
use super::json_record::{Record, RecordSink};
use super::located::{column_of, FieldError};

/// Lines of a CSV table for a record reader.
pub(crate) struct CsvRecords<R> {
    header: Option<Vec<String>>,
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
            required,
            record: Record::default(),
            reader,
        }
    }

    /// One line: the header first, then rows.
    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        let mut split_fields: Vec<Field<'_>> = Vec::new();
        split(line, b',', &mut split_fields)?;
        let Some(header) = &self.header else {
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
            self.header = Some(names);
            return Ok(());
        };
        if split_fields.len() != header.len() {
            return Err(FieldError::at(
                column_of(line, line.len()),
                format!(
                    "expected {} fields as in the header, found {}",
                    header.len(),
                    split_fields.len()
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
        let rows = header
            .iter()
            .zip(&split_fields)
            .map(|(k, f)| (k.as_str(), f.text.as_ref(), at(f.offset)));
        self.record.refill(at(0), rows);
        self.reader
            .record(0, &self.record)
            .map_err(|f: Fault| FieldError::at(f.at.column, f.reason))
    }
}
