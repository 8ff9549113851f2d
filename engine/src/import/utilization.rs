//! Utilization CSVs: one series as `timestamp,value` (NAB style), or many as
//! `timestamp,series,resource,value` (long form; `resource` may be omitted and
//! defaults to `cpu`).
//!
//! Timestamps are epoch seconds or `YYYY-MM-DD HH:MM:SS` (UTC); values are
//! utilization in percent (any non-negative number is accepted, so demand
//! series such as NAB's NYC taxi counts load too). Samples written out of time
//! order are sorted when the file ends. Series stream into a
//! [`SeriesSet`]: every sample kept up to its budget, a larger file
//! aggregated (said in its notes).

use super::csv;
use super::located::{column_of, FieldError};
use super::series_set::SeriesSet;
use crate::model::{Dataset, Resource};
use crate::time::parse_timestamp;

const LONG_COLUMNS: [&str; 4] = ["timestamp", "series", "resource", "value"];
const LONG_REQUIRED: [&str; 3] = ["timestamp", "series", "value"];

enum Shape {
    /// One series; `header` tells whether the header line was seen.
    Single { header_done: bool },
    /// Many series; header positions once read.
    Long { pos: Option<[Option<usize>; 4]> },
}

pub(crate) struct UtilizationParser {
    shape: Shape,
    set: SeriesSet,
    last: Option<(String, String, usize)>,
    ranges: Vec<(usize, usize)>,
}

fn value(line: &str, off: usize, t: &str) -> Result<f64, FieldError> {
    let t = t.trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(v) if v.is_finite() => Err(FieldError::at(
            column_of(line, off),
            format!("value {v} is negative"),
        )),
        _ => Err(FieldError::at(
            column_of(line, off),
            format!("value `{}` is not a finite number", csv::shorten(t)),
        )),
    }
}

fn timestamp(line: &str, off: usize, t: &str) -> Result<i64, FieldError> {
    parse_timestamp(t).map_err(|e| FieldError::at(column_of(line, off), e))
}

impl UtilizationParser {
    pub(crate) fn single(name: String, resource: Resource) -> Self {
        let mut set = SeriesSet::new();
        set.series(&name, &resource);
        UtilizationParser {
            shape: Shape::Single { header_done: false },
            set,
            last: None,
            ranges: Vec::with_capacity(4),
        }
    }

    pub(crate) fn long(_lenient: bool) -> Self {
        UtilizationParser {
            shape: Shape::Long { pos: None },
            set: SeriesSet::new(),
            last: None,
            ranges: Vec::with_capacity(4),
        }
    }

    /// Field texts of a line, through the unquoted fast path when possible.
    fn fields<'a>(
        &mut self,
        line: &'a str,
    ) -> Result<Vec<(usize, std::borrow::Cow<'a, str>)>, FieldError> {
        if csv::split_ranges(line, b',', &mut self.ranges) {
            return Ok(self
                .ranges
                .iter()
                .map(|&(a, b)| (a, std::borrow::Cow::Borrowed(&line[a..b])))
                .collect());
        }
        let mut v = Vec::new();
        csv::split(line, b',', &mut v)?;
        Ok(v.into_iter().map(|f| (f.offset, f.text)).collect())
    }

    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        match self.shape {
            Shape::Single { header_done } => self.single_line(line, header_done),
            Shape::Long { pos } => self.long_line(line, pos),
        }
    }

    fn single_line(&mut self, line: &str, header_done: bool) -> Result<(), FieldError> {
        // Hot path: an unquoted `timestamp,value` line.
        let (ts, ts_off, val, val_off) = if csv::split_ranges(line, b',', &mut self.ranges) {
            if self.ranges.len() != 2 {
                return self.single_shape_error(line, header_done, self.ranges.len());
            }
            let (a, b) = self.ranges[0];
            let (c, d) = self.ranges[1];
            (&line[a..b], a, &line[c..d], c)
        } else {
            let f = self.fields(line)?;
            if f.len() != 2 {
                return self.single_shape_error(line, header_done, f.len());
            }
            let ts = timestamp(line, f[0].0, &f[0].1);
            let v = value(line, f[1].0, &f[1].1);
            return self.single_push(line, header_done, ts, v, &f[0].1, &f[1].1);
        };
        let t = timestamp(line, ts_off, ts);
        let v = value(line, val_off, val);
        self.single_push(line, header_done, t, v, ts, val)
    }

    fn single_shape_error(
        &mut self,
        line: &str,
        header_done: bool,
        n: usize,
    ) -> Result<(), FieldError> {
        let err = format!("expected 2 fields `timestamp,value`, found {n}");
        if !header_done {
            self.shape = Shape::Single { header_done: true };
            let _ = line;
            return Err(FieldError::fatal(1, err));
        }
        Err(FieldError::at(1, err))
    }

    fn single_push(
        &mut self,
        line: &str,
        header_done: bool,
        t: Result<i64, FieldError>,
        v: Result<f64, FieldError>,
        ts_text: &str,
        val_text: &str,
    ) -> Result<(), FieldError> {
        if !header_done {
            self.shape = Shape::Single { header_done: true };
            let (a, b) = (ts_text.trim(), val_text.trim());
            if a.eq_ignore_ascii_case("timestamp") && b.eq_ignore_ascii_case("value") {
                return Ok(());
            }
            if t.is_err() && v.is_err() {
                let _ = line;
                return Err(FieldError::fatal(
                    1,
                    format!(
                        "expected the header `timestamp,value`, found `{}`",
                        csv::shorten(line)
                    ),
                ));
            }
        }
        let (t, v) = (t?, v?);
        self.set.add(0, t, v);
        Ok(())
    }

    fn long_line(&mut self, line: &str, pos: Option<[Option<usize>; 4]>) -> Result<(), FieldError> {
        // Hot path: an unquoted line, read through byte ranges without
        // allocating.
        if let Some(pos) = pos {
            if csv::split_ranges(line, b',', &mut self.ranges) {
                let mut f = [None; 4];
                for (k, slot) in f.iter_mut().enumerate() {
                    *slot = pos[k]
                        .and_then(|i| self.ranges.get(i))
                        .map(|&(a, b)| (a, &line[a..b]));
                }
                let width = self.ranges.len();
                return self.long_record(line, pos, f, width);
            }
        }
        let fields = self.fields(line)?;
        let Some(pos) = pos else {
            let hdr: Vec<csv::Field<'_>> = fields
                .into_iter()
                .map(|(offset, text)| csv::Field { text, offset })
                .collect();
            let (header, unknown) = csv::Header::read(line, &hdr, &LONG_COLUMNS, &LONG_REQUIRED);
            let header = header?;
            let mut p = [None; 4];
            p.copy_from_slice(&header.pos);
            self.shape = Shape::Long { pos: Some(p) };
            return match unknown {
                Some(e) => Err(e),
                None => Ok(()),
            };
        };
        let mut f = [None; 4];
        for (k, slot) in f.iter_mut().enumerate() {
            *slot = pos[k]
                .and_then(|i| fields.get(i))
                .map(|(o, t)| (*o, t.as_ref()));
        }
        self.long_record(line, pos, f, fields.len())
    }

    /// One data line of the long form: `f[k]` is the `(offset, text)` of
    /// column `LONG_COLUMNS[k]`, if the line has it; `width` its field count.
    fn long_record(
        &mut self,
        line: &str,
        pos: [Option<usize>; 4],
        f: [Option<(usize, &str)>; 4],
        width: usize,
    ) -> Result<(), FieldError> {
        let get = |k: usize| -> Result<(usize, &str), FieldError> {
            f[k].ok_or_else(|| {
                FieldError::at(
                    column_of(line, line.len()),
                    format!(
                        "missing the `{}` field (line has {width} fields)",
                        LONG_COLUMNS[k]
                    ),
                )
            })
        };
        let (o, t) = get(0)?;
        let ts = timestamp(line, o, t)?;
        let (o, name) = get(1)?;
        let name = name.trim();
        if name.is_empty() {
            return Err(FieldError::at(column_of(line, o), "empty series name"));
        }
        let resource = if pos[2].is_some() {
            let (o, r) = get(2)?;
            let r = r.trim();
            if r.is_empty() {
                return Err(FieldError::at(column_of(line, o), "empty resource name"));
            }
            r
        } else {
            "cpu"
        };
        let (o, t) = get(3)?;
        let v = value(line, o, t)?;
        let idx = match &self.last {
            Some((n, r, i)) if n == name && r == resource => *i,
            _ => {
                let i = self.set.series(name, &Resource::parse(resource));
                self.last = Some((name.to_string(), resource.to_string(), i));
                i
            }
        };
        self.set.add(idx, ts, v);
        Ok(())
    }

    pub(crate) fn finish(self) -> Dataset {
        let (series, aggregated) = self.set.finish();
        Dataset {
            series,
            notes: aggregated.into_iter().collect(),
            ..Dataset::default()
        }
    }
}
