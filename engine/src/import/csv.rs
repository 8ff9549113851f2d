//! Minimal CSV field splitting and header mapping shared by the CSV formats.
//!
//! RFC 4180 quoting is supported (`"a, b"`, `""` for a quote) because job
//! names may contain commas; the unquoted fast path is what 100 MB files hit.

use super::located::{column_of, FieldError, ParseError};
use crate::csv_cell::unguard;
use std::borrow::Cow;

/// One field of a line and where it starts.
pub(crate) struct Field<'a> {
    pub text: Cow<'a, str>,
    /// Byte offset of the field in the line.
    pub offset: usize,
}

/// Splits `line` on `sep` into `out` (cleared first). A text cell guarded
/// against spreadsheet formulas by our writers (a leading `'`, see
/// [`crate::csv_cell`]) is read back without its guard.
pub(crate) fn split<'a>(
    line: &'a str,
    sep: u8,
    out: &mut Vec<Field<'a>>,
) -> Result<(), FieldError> {
    out.clear();
    let b = line.as_bytes();
    if !b.contains(&b'"') {
        let mut start = 0;
        for i in memchr::memchr_iter(sep, b) {
            out.push(Field {
                text: Cow::Borrowed(unguard(&line[start..i])),
                offset: start,
            });
            start = i + 1;
        }
        out.push(Field {
            text: Cow::Borrowed(unguard(&line[start..])),
            offset: start,
        });
        return Ok(());
    }
    let mut i = 0;
    loop {
        let start = i;
        if i < b.len() && b[i] == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                match b[i..].iter().position(|&c| c == b'"') {
                    None => {
                        return Err(FieldError::at(
                            column_of(line, start),
                            "unterminated quoted field",
                        ))
                    }
                    Some(p) => {
                        s.push_str(&line[i..i + p]);
                        i += p + 1;
                        if i < b.len() && b[i] == b'"' {
                            s.push('"');
                            i += 1;
                        } else {
                            break;
                        }
                    }
                }
            }
            out.push(Field {
                text: match unguard(&s) {
                    u if u.len() == s.len() => Cow::Owned(s),
                    u => Cow::Owned(u.to_owned()),
                },
                offset: start,
            });
            if i == b.len() {
                return Ok(());
            }
            if b[i] != sep {
                return Err(FieldError::at(
                    column_of(line, i),
                    "unexpected text after a closing quote",
                ));
            }
            i += 1;
        } else {
            let end = b[i..].iter().position(|&c| c == sep).map(|p| i + p);
            let stop = end.unwrap_or(b.len());
            if b[i..stop].contains(&b'"') {
                return Err(FieldError::at(
                    column_of(line, start),
                    "stray quote inside an unquoted field",
                ));
            }
            out.push(Field {
                text: Cow::Borrowed(unguard(&line[i..stop])),
                offset: start,
            });
            match end {
                None => return Ok(()),
                Some(e) => i = e + 1,
            }
        }
    }
}

/// Fast path for unquoted lines: byte ranges of the fields into `out`.
/// Returns `false` (and leaves `out` unspecified) when the line has quotes,
/// in which case the caller uses [`split`].
pub(crate) fn split_ranges(line: &str, sep: u8, out: &mut Vec<(usize, usize)>) -> bool {
    out.clear();
    let b = line.as_bytes();
    let mut start = 0;
    // One pass for both bytes: a quote anywhere sends the line to `split`.
    for i in memchr::memchr2_iter(sep, b'"', b) {
        if b[i] == b'"' {
            return false;
        }
        out.push((start, i));
        start = i + 1;
    }
    out.push((start, b.len()));
    true
}

/// Which known column each field of the header is.
pub(crate) struct Header {
    /// For each known column, the index of the field holding it.
    pub pos: Vec<Option<usize>>,
    /// Number of fields the header has.
    pub width: usize,
}

impl Header {
    /// Reads a header line. Missing required or duplicated columns are fatal;
    /// an unknown column is reported (non-fatal) and ignored.
    pub(crate) fn read(
        line: &str,
        fields: &[Field<'_>],
        known: &[&str],
        required: &[&str],
    ) -> (Result<Header, FieldError>, Option<FieldError>) {
        let mut pos = vec![None; known.len()];
        let mut unknown = None;
        for (i, f) in fields.iter().enumerate() {
            let name = f.text.trim().to_ascii_lowercase();
            match known.iter().position(|k| *k == name) {
                Some(k) if pos[k].is_some() => {
                    return (
                        Err(FieldError::fatal(
                            column_of(line, f.offset),
                            format!("column `{name}` appears twice in the header"),
                        )),
                        None,
                    )
                }
                Some(k) => pos[k] = Some(i),
                None if unknown.is_none() => {
                    unknown = Some(FieldError::at(
                        column_of(line, f.offset),
                        format!(
                            "unknown column `{name}` ignored (known: {})",
                            known.join(", ")
                        ),
                    ))
                }
                None => {}
            }
        }
        for r in required {
            let k = known.iter().position(|k| k == r).unwrap_or(0);
            if pos[k].is_none() {
                return (
                    Err(FieldError::fatal(
                        1,
                        format!(
                            "header lacks the required column `{r}` (required: {})",
                            required.join(", ")
                        ),
                    )),
                    None,
                );
            }
        }
        (
            Ok(Header {
                pos,
                width: fields.len(),
            }),
            unknown,
        )
    }
}

/// The start of every line of a header-based CSV: the first line is read
/// into `slot` as the header (`Ok(None)`, or its first unknown column as a
/// non-fatal error); a later line must have as many fields as the header,
/// which is returned.
pub(crate) fn header_or_width<'h>(
    slot: &'h mut Option<Header>,
    line: &str,
    fields: &[Field<'_>],
    known: &[&str],
    required: &[&str],
) -> Result<Option<&'h Header>, FieldError> {
    let Some(header) = slot else {
        let (header, unknown) = Header::read(line, fields, known, required);
        *slot = Some(header?);
        return match unknown {
            Some(e) => Err(e),
            None => Ok(None),
        };
    };
    if fields.len() != header.width {
        let col = fields
            .get(header.width)
            .map(|f| column_of(line, f.offset))
            .unwrap_or_else(|| column_of(line, line.len()));
        return Err(FieldError::at(
            col,
            format!(
                "expected {} fields as in the header, found {}",
                header.width,
                fields.len()
            ),
        ));
    }
    Ok(Some(header))
}

/// Parses a finite number, with the reason in words on failure.
pub(crate) fn number(line: &str, f: &Field<'_>, what: &str) -> Result<f64, FieldError> {
    let t = f.text.trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(FieldError::at(
            column_of(line, f.offset),
            format!("{what}: `{}` is not a finite number", shorten(t)),
        )),
    }
}

/// Parses a non-negative integer.
pub(crate) fn count(line: &str, f: &Field<'_>, what: &str) -> Result<u64, FieldError> {
    let t = f.text.trim();
    t.parse::<u64>().map_err(|_| {
        FieldError::at(
            column_of(line, f.offset),
            format!("{what}: `{}` is not a non-negative integer", shorten(t)),
        )
    })
}

/// Parses a list of non-negative numbers separated by `;` or spaces (a
/// skyline's samples), at most `max` of them; each error points at its sample.
pub(crate) fn samples(
    line: &str,
    f: &Field<'_>,
    what: &str,
    max: usize,
) -> Result<Vec<f64>, FieldError> {
    let mut out = Vec::new();
    let mut off = f.offset + usize::from(f.text.starts_with('"'));
    for part in f.text.split([';', ' ']) {
        let here = off;
        off += part.len() + 1;
        if part.trim().is_empty() {
            continue;
        }
        match part.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => out.push(v),
            _ => {
                return Err(FieldError::at(
                    column_of(line, here),
                    format!(
                        "{what} sample `{}` is not a non-negative number",
                        shorten(part)
                    ),
                ))
            }
        }
        if out.len() > max {
            return Err(FieldError::at(
                column_of(line, here),
                format!("{what} is too long"),
            ));
        }
    }
    Ok(out)
}

/// A field's text, cut to 40 characters for messages.
pub(crate) fn shorten(t: &str) -> String {
    if t.chars().count() > 40 {
        let s: String = t.chars().take(40).collect();
        format!("{s}…")
    } else {
        t.to_string()
    }
}

/// Reads a whole small header-based CSV (`file` names it in errors): blank
/// lines and `#` comments skipped, a byte-order mark allowed, the header
/// read against `known`/`required` columns, then `row` per line. Strict: any
/// bad line refuses the file, and every bad line is returned (a line with
/// more or fewer fields than the header among them); a bad or missing
/// header stops the reading.
pub(crate) fn read_rows<T>(
    file: &str,
    text: &str,
    known: &[&str],
    required: &[&str],
    mut row: impl FnMut(&str, &[Field<'_>], &Header) -> Result<T, FieldError>,
) -> Result<Vec<T>, Vec<ParseError>> {
    let mut header: Option<Header> = None;
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut fields = Vec::with_capacity(known.len());
    for (i, raw) in text.split('\n').enumerate() {
        let mut line = raw.strip_suffix('\r').unwrap_or(raw);
        if i == 0 {
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut error = |e: FieldError| {
            errors.push(ParseError {
                file: file.to_string(),
                line: i as u64 + 1,
                column: e.column,
                reason: e.reason,
            });
        };
        if let Err(e) = split(line, b',', &mut fields) {
            error(e);
            continue;
        }
        let Some(h) = &header else {
            let (h, unknown) = Header::read(line, &fields, known, required);
            match h {
                Ok(h) => header = Some(h),
                Err(e) => {
                    error(e);
                    return Err(errors);
                }
            }
            if let Some(e) = unknown {
                error(e);
            }
            continue;
        };
        if fields.len() != h.width {
            let col = fields.get(h.width).map_or_else(
                || column_of(line, line.len()),
                |f| column_of(line, f.offset),
            );
            error(FieldError::at(
                col,
                format!(
                    "expected {} fields as in the header, found {}",
                    h.width,
                    fields.len()
                ),
            ));
            continue;
        }
        match row(line, &fields, h) {
            Ok(d) => out.push(d),
            Err(e) => error(e),
        }
    }
    if header.is_none() {
        errors.push(ParseError {
            file: file.to_string(),
            line: 1,
            column: 1,
            reason: format!("no header line (expected columns {})", known.join(",")),
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        let mut v = Vec::new();
        split(line, b',', &mut v).unwrap();
        v.iter().map(|f| f.text.to_string()).collect()
    }

    #[test]
    fn quoting() {
        assert_eq!(texts("a,b,,c"), ["a", "b", "", "c"]);
        assert_eq!(texts(r#""a,1",b"#), ["a,1", "b"]);
        assert_eq!(texts(r#""say ""hi""","""#), [r#"say "hi""#, ""]);
        assert_eq!(texts(r#"x,"y""#), ["x", "y"]);
        let mut v = Vec::new();
        assert!(split(r#""open,b"#, b',', &mut v).is_err());
        assert!(split(r#""a"b,c"#, b',', &mut v).is_err());
        assert!(split(r#"a"b,c"#, b',', &mut v).is_err());
    }
}
