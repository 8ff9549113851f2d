//! Grafana's CSV export of a panel (Inspect → Data → Download CSV): a
//! header `Time,<series>,<series>…` (one column per series, as Grafana
//! joins them by time), or the older `Series;Time;Value` (one sample a
//! line), separated by `,` or `;`.
//!
//! Each series column becomes a utilization series named by its header,
//! its resource from its name (as for Prometheus metrics). Times are epoch
//! milliseconds (the export without "Formatted data") or seconds, or a
//! date-time `YYYY-MM-DD HH:MM:SS` with an optional UTC offset
//! (`+02:00`); without an offset a formatted time is read as UTC. Values
//! may carry a `%` unit; an empty cell, `null` or `NaN` is a gap.

use super::csv::{shorten, split, Field};
use super::located::{column_of, FieldError};
use super::prometheus::resource_of;
use super::series_set::SeriesSet;
use crate::model::Dataset;
use crate::time::parse_timestamp;

/// The two layouts.
enum Layout {
    /// `Time,a,b,…`: the series of each column.
    Wide(Vec<usize>),
    /// `Series;Time;Value`: positions of the three.
    Long {
        series: usize,
        time: usize,
        value: usize,
    },
}

/// A Grafana CSV being read.
pub(crate) struct GrafanaCsv {
    sep: u8,
    layout: Option<Layout>,
    set: SeriesSet,
    gaps: u64,
}

/// Whether a header line is Grafana's.
pub(crate) fn is_header(line: &str) -> bool {
    let sep = separator(line);
    // Grafana writes `Time` and `Series` capitalized; a lowercase `time`
    // column is another table's (Google's events).
    let cols: Vec<&str> = line
        .split(sep as char)
        .map(|c| c.trim().trim_matches('"'))
        .collect();
    (cols.len() >= 2 && cols[0] == "Time")
        || (cols.len() == 3 && cols.contains(&"Series") && cols.contains(&"Time"))
}

fn separator(line: &str) -> u8 {
    if !line.contains(',') && line.contains(';') {
        b';'
    } else {
        b','
    }
}

/// A Grafana time: epoch ms or s, or a date-time with an optional offset.
fn time(text: &str) -> Result<i64, String> {
    let t = text.trim();
    if t.len() >= 12 && t.bytes().all(|b| b.is_ascii_digit()) {
        return t
            .parse::<i64>()
            .map(|ms| ms.div_euclid(1000))
            .map_err(|_| format!("time `{t}` is out of range"));
    }
    let b = t.as_bytes();
    if b.len() > 6 && matches!(b[b.len() - 6], b'+' | b'-') && b[b.len() - 3] == b':' {
        let (base, offset) = t.split_at(t.len() - 6);
        let sign = if offset.starts_with('-') { -1 } else { 1 };
        let hh: i64 = offset[1..3]
            .parse()
            .map_err(|_| format!("bad UTC offset in `{t}`"))?;
        let mm: i64 = offset[4..6]
            .parse()
            .map_err(|_| format!("bad UTC offset in `{t}`"))?;
        return Ok(parse_timestamp(base)? - sign * (hh * 3600 + mm * 60));
    }
    parse_timestamp(t)
}

impl GrafanaCsv {
    /// Nothing read yet.
    pub(crate) fn new() -> GrafanaCsv {
        GrafanaCsv {
            sep: b',',
            layout: None,
            set: SeriesSet::new(),
            gaps: 0,
        }
    }

    /// A value cell: `Ok(None)` for a gap.
    fn value(&mut self, line: &str, f: &Field<'_>) -> Result<Option<f64>, FieldError> {
        let t = f.text.trim();
        let t = t.strip_suffix('%').unwrap_or(t).trim();
        if t.is_empty() || t.eq_ignore_ascii_case("null") || t.eq_ignore_ascii_case("nan") {
            self.gaps += 1;
            return Ok(None);
        }
        match t.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
            Ok(v) if v.is_finite() => Err(FieldError::at(
                column_of(line, f.offset),
                format!("value {v} is negative"),
            )),
            _ => Err(FieldError::at(
                column_of(line, f.offset),
                format!("value `{}` is not a number", shorten(t)),
            )),
        }
    }

    /// One line: the header first.
    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        let mut fields = Vec::new();
        let Some(layout) = &self.layout else {
            self.sep = separator(line);
            split(line, self.sep, &mut fields)?;
            let names: Vec<String> = fields.iter().map(|f| f.text.trim().to_string()).collect();
            let find = |n: &str| names.iter().position(|c| c.eq_ignore_ascii_case(n));
            let layout = match (find("series"), find("time"), find("value")) {
                (Some(series), Some(time), Some(value)) if names.len() == 3 => Layout::Long {
                    series,
                    time,
                    value,
                },
                (_, Some(0), _) if names.len() >= 2 => Layout::Wide(
                    names[1..]
                        .iter()
                        .map(|n| self.set.series(n, &resource_of(n)))
                        .collect(),
                ),
                _ => {
                    return Err(FieldError::fatal(
                        1,
                        "expected Grafana's header `Time,<series>…` or `Series;Time;Value`",
                    ))
                }
            };
            self.layout = Some(layout);
            return Ok(());
        };
        split(line, self.sep, &mut fields)?;
        match layout {
            Layout::Wide(ids) => {
                let ids = ids.clone();
                if fields.len() != ids.len() + 1 {
                    return Err(FieldError::at(
                        column_of(line, line.len()),
                        format!(
                            "expected {} fields as in the header, found {}",
                            ids.len() + 1,
                            fields.len()
                        ),
                    ));
                }
                let t = time(&fields[0].text).map_err(|e| FieldError::at(1, e))?;
                for (i, f) in ids.iter().zip(&fields[1..]) {
                    if let Some(v) = self.value(line, f)? {
                        self.set.add(*i, t, v);
                    }
                }
            }
            &Layout::Long {
                series,
                time: at,
                value,
            } => {
                let get = |k: usize| {
                    fields.get(k).ok_or_else(|| {
                        FieldError::at(
                            column_of(line, line.len()),
                            format!("expected 3 fields, found {}", fields.len()),
                        )
                    })
                };
                let name = get(series)?.text.trim().to_string();
                let tf = get(at)?;
                let t =
                    time(&tf.text).map_err(|e| FieldError::at(column_of(line, tf.offset), e))?;
                let vf = get(value)?;
                if let Some(v) = self.value(line, vf)? {
                    let i = self.set.series(&name, &resource_of(&name));
                    self.set.add(i, t, v);
                }
            }
        }
        Ok(())
    }

    /// The series, with notes.
    pub(crate) fn finish(self) -> Dataset {
        let (series, aggregated) = self.set.finish();
        let mut notes: Vec<String> = aggregated.into_iter().collect();
        if self.gaps > 0 {
            notes.push(format!("{} empty or null cell(s) read as gaps", self.gaps));
        }
        Dataset {
            series,
            notes,
            ..Dataset::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grafana_times() {
        assert_eq!(time("1556694000000"), Ok(1_556_694_000));
        assert_eq!(time("2019-05-01 09:00:00+02:00"), Ok(1_556_694_000));
        assert_eq!(time("2019-05-01 07:00:00"), Ok(1_556_694_000));
        assert!(is_header("\"Time\",\"cpu busy\""));
        assert!(is_header("Series;Time;Value"));
        assert!(!is_header("timestamp,value"));
        assert!(!is_header("time,type,collection_id"));
    }
}
