//! Headerless CSV with a fixed schema, as the Alibaba cluster-trace-v2018
//! tables come (`schema.md` gives the columns): each line split into
//! exactly the schema's fields, and the fields every table has — an id, a
//! `time_stamp`, optional numbers. Used by the container tables
//! ([`super::read_container_usage`]) and, through [`super::fields`], by
//! the harvesting module's machine tables.

use super::csv::{shorten, split, Field};
use super::located::{column_of, FieldError, ParseError};

/// Calls `row` with every non-blank line of `text` (a trailing `\r`
/// removed) and collects its errors located by `file` and line. Strict:
/// any error refuses the file, with every bad line listed.
pub(crate) fn each_line<'a>(
    file: &str,
    text: &'a str,
    mut row: impl FnMut(&'a str) -> Result<(), FieldError>,
) -> Result<(), Vec<ParseError>> {
    let mut errors = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        if let Err(e) = row(line) {
            errors.push(ParseError {
                file: file.to_string(),
                line: i as u64 + 1,
                column: e.column,
                reason: e.reason,
            });
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Splits a headerless line into exactly `width` fields.
pub(crate) fn fields<'a>(
    line: &'a str,
    width: usize,
    out: &mut Vec<Field<'a>>,
) -> Result<(), FieldError> {
    split(line, b',', out)?;
    if out.len() != width {
        return Err(FieldError::at(
            1,
            format!(
                "expected {width} fields (the trace's schema), found {}",
                out.len()
            ),
        ));
    }
    Ok(())
}

/// A required id (`what` names its column).
pub(crate) fn id(line: &str, f: &Field<'_>, what: &str) -> Result<String, FieldError> {
    let t = f.text.trim();
    if t.is_empty() {
        return Err(FieldError::at(
            column_of(line, f.offset),
            format!("{what} is empty"),
        ));
    }
    Ok(t.to_string())
}

/// A `time_stamp`: non-negative seconds, possibly fractional.
pub(crate) fn time(line: &str, f: &Field<'_>) -> Result<f64, FieldError> {
    match f.text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(FieldError::at(
            column_of(line, f.offset),
            format!(
                "time_stamp `{}` is not a non-negative number of seconds",
                shorten(f.text.trim())
            ),
        )),
    }
}

/// An optional number: empty → `None`; NaN → `Some(NaN)`; not a number →
/// error.
pub(crate) fn optional(line: &str, f: &Field<'_>, what: &str) -> Result<Option<f64>, FieldError> {
    let t = f.text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse::<f64>().map(Some).map_err(|_| {
        FieldError::at(
            column_of(line, f.offset),
            format!("{what} `{}` is not a number", shorten(t)),
        )
    })
}
