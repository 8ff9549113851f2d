//! The resource-shaping applications as CSV (what `skyplan shape` reads and
//! [`crate::shaping::input`] assembles into a workload). Two files:
//!
//! - **applications**: one row per group of identical components, header
//!   `app,arrival,runtime,kind,count,cpu,mem` (any order, case-insensitive,
//!   all required): the application's name, its submission and runtime in
//!   seconds, `core` or `elastic`, how many, and each one's request in
//!   cores and GB;
//! - **usage**: header `app,minute,cpu,mem`: the application's use at each
//!   minute since its start, as fractions of the request in [0, 1].
//!
//! Numbers are finite; counts are whole and ≥ 1; requests > 0; arrival ≥ 0;
//! runtime > 0. Every bad line is reported with its line and column; a bad
//! header stops the reading.

use super::csv;
use super::located::{column_of, FieldError, ParseError};
use serde::{Deserialize, Serialize};

/// Columns of the applications CSV.
pub const SHAPING_APP_COLUMNS: [&str; 7] =
    ["app", "arrival", "runtime", "kind", "count", "cpu", "mem"];
/// Columns of the usage CSV.
pub const SHAPING_USAGE_COLUMNS: [&str; 4] = ["app", "minute", "cpu", "mem"];

/// One row of the applications CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapingAppRow {
    /// 1-based line.
    pub line: u64,
    /// Application name.
    pub app: String,
    /// Submission (s).
    pub arrival: f64,
    /// Runtime (s).
    pub runtime: f64,
    /// `true` for core, `false` for elastic.
    pub core: bool,
    /// Components.
    pub count: u32,
    /// CPU request of each (cores).
    pub cpu: f64,
    /// Memory request of each (GB).
    pub mem: f64,
}

/// One row of the usage CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapingUsageRow {
    /// 1-based line.
    pub line: u64,
    /// Application name.
    pub app: String,
    /// Minute since the start.
    pub minute: u32,
    /// CPU fraction of the request.
    pub cpu: f64,
    /// Memory fraction of the request.
    pub mem: f64,
}

/// The line of each row, counted on from the previous row's: rows come in
/// file order, so the reading stays linear (counting from the start of the
/// text at every row made a 4.6 MB usage file take over a minute).
struct LineCounter<'t> {
    text: &'t str,
    offset: usize,
    line: u64,
}

impl<'t> LineCounter<'t> {
    fn new(text: &'t str) -> Self {
        LineCounter {
            text,
            offset: 0,
            line: 1,
        }
    }

    /// The 1-based line of `line`, a slice of the text at or after the
    /// previous one asked.
    fn of(&mut self, line: &str) -> u64 {
        let at = line.as_ptr() as usize - self.text.as_ptr() as usize;
        if at < self.offset {
            *self = LineCounter::new(self.text);
        }
        self.line += self.text.as_bytes()[self.offset..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        self.offset = at;
        self.line
    }
}

/// The `app` column, required in both files.
fn app_name(line: &str, f: &csv::Field<'_>) -> Result<String, FieldError> {
    let app = f.text.trim();
    if app.is_empty() {
        return Err(FieldError::at(column_of(line, f.offset), "app is required"));
    }
    Ok(app.to_string())
}

/// Reads the applications CSV (`file` names it in errors).
pub fn read_shaping_apps_csv(
    file: &str,
    text: &str,
) -> Result<Vec<ShapingAppRow>, Vec<ParseError>> {
    let mut lines = LineCounter::new(text);
    csv::read_rows(
        file,
        text,
        &SHAPING_APP_COLUMNS,
        &SHAPING_APP_COLUMNS,
        |line, fields, h| {
            let field = |k: usize| &fields[h.pos[k].unwrap_or(0)];
            let num = |k: usize, positive: bool| -> Result<f64, FieldError> {
                let f = field(k);
                let v = csv::number(line, f, SHAPING_APP_COLUMNS[k])?;
                if v < 0.0 || (positive && v == 0.0) {
                    return Err(FieldError::at(
                        column_of(line, f.offset),
                        format!(
                            "{} must be {}, got {v}",
                            SHAPING_APP_COLUMNS[k],
                            if positive { "> 0" } else { "≥ 0" }
                        ),
                    ));
                }
                Ok(v)
            };
            let app = app_name(line, field(0))?;
            let kind = field(3).text.trim().to_ascii_lowercase();
            let core = match kind.as_str() {
                "core" => true,
                "elastic" => false,
                other => {
                    return Err(FieldError::at(
                        column_of(line, field(3).offset),
                        format!(
                            "kind must be `core` or `elastic`, got `{}`",
                            csv::shorten(other)
                        ),
                    ))
                }
            };
            let count = csv::count(line, field(4), "count")?;
            if count == 0 || count > u32::MAX as u64 {
                return Err(FieldError::at(
                    column_of(line, field(4).offset),
                    format!("count must be between 1 and {}, got {count}", u32::MAX),
                ));
            }
            Ok(ShapingAppRow {
                line: lines.of(line),
                app,
                arrival: num(1, false)?,
                runtime: num(2, true)?,
                core,
                count: count as u32,
                cpu: num(5, true)?,
                mem: num(6, true)?,
            })
        },
    )
}

/// Reads the usage CSV (`file` names it in errors).
pub fn read_shaping_usage_csv(
    file: &str,
    text: &str,
) -> Result<Vec<ShapingUsageRow>, Vec<ParseError>> {
    let mut lines = LineCounter::new(text);
    csv::read_rows(
        file,
        text,
        &SHAPING_USAGE_COLUMNS,
        &SHAPING_USAGE_COLUMNS,
        |line, fields, h| {
            let field = |k: usize| &fields[h.pos[k].unwrap_or(0)];
            let frac = |k: usize| -> Result<f64, FieldError> {
                let f = field(k);
                let v = csv::number(line, f, SHAPING_USAGE_COLUMNS[k])?;
                if !(0.0..=1.0).contains(&v) {
                    return Err(FieldError::at(
                        column_of(line, f.offset),
                        format!(
                            "{} is a fraction of the request and must be in [0, 1], got {v}",
                            SHAPING_USAGE_COLUMNS[k]
                        ),
                    ));
                }
                Ok(v)
            };
            let app = app_name(line, field(0))?;
            let minute = csv::count(line, field(1), "minute")?;
            if minute > u32::MAX as u64 {
                return Err(FieldError::at(
                    column_of(line, field(1).offset),
                    "minute is too large",
                ));
            }
            Ok(ShapingUsageRow {
                line: lines.of(line),
                app,
                minute: minute as u32,
                cpu: frac(2)?,
                mem: frac(3)?,
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_carry_their_lines_past_comments_blank_lines_and_crlf() {
        let apps = "# generated\r\napp,arrival,runtime,kind,count,cpu,mem\r\n\r\na,0,60,core,1,2,4\r\n# b next\r\nb,5,120,elastic,3,1,2\r\n";
        let rows = read_shaping_apps_csv("apps.csv", apps).expect("reads");
        let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![4, 6]);
        let usage = "app,minute,cpu,mem\na,0,0.5,0.5\n\na,1,0.25,0.75\nb,0,1,1\n";
        let rows = read_shaping_usage_csv("usage.csv", usage).expect("reads");
        let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![2, 4, 5]);
        // A counter asked out of order starts again rather than miscounting.
        let mut c = LineCounter::new(usage);
        let third = usage.lines().nth(3).expect("line");
        let second = usage.lines().nth(1).expect("line");
        assert_eq!(c.of(third), 4);
        assert_eq!(c.of(second), 2);
    }
}
