//! Prometheus range queries: the answer of the HTTP API's
//! `GET /api/v1/query_range?query=…&start=…&end=…&step=…`
//! (`{"status":"success","data":{"resultType":"matrix","result":[{"metric":
//! {labels…},"values":[[<unix seconds>,"<value>"],…]},…]}}`), or a saved
//! page of several such answers.
//!
//! One utilization series per result, named by its label set as
//! Prometheus prints it (`node_memory_MemAvailable_bytes{instance="a:9100"}`),
//! every value a point (streamed into [`SeriesSet`], so a gigabyte answer is
//! aggregated, not held). The resource comes from the metric name (`cpu`,
//! `mem`, `disk`/`filesystem`, `network`; otherwise the name itself); a
//! `_ratio` metric is scaled to percent. `NaN` and infinite values are gaps,
//! counted in the notes; the step is whatever the samples' spacing is. An
//! error answer (`"status":"error"`) or another result type (`vector`,
//! `scalar`) is refused with its position.

use super::json::{Event, Fault, Pos, Sink};
use super::series_set::SeriesSet;
use crate::model::{Dataset, Resource};

/// What a container of the answer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// An array of answers (a saved page).
    Answers,
    /// An answer: `status`, `data`, `error`.
    Answer,
    /// `data`: `resultType`, `result`.
    Data,
    /// `result`: the series.
    Results,
    /// One series: `metric`, `values`.
    Series,
    /// Its labels.
    Metric,
    /// Its samples.
    Values,
    /// One `[time, "value"]` sample.
    Pair,
    /// Anything else (skipped).
    Other,
}

#[derive(Debug)]
struct Frame {
    role: Role,
    /// The last key read in this object.
    key: String,
    /// Elements read in this array.
    items: usize,
}

/// The series of the answers read so far.
pub(crate) struct Prometheus {
    stack: Vec<Frame>,
    set: SeriesSet,
    labels: Vec<(String, String)>,
    /// The series index once its labels are known.
    series: Option<(usize, f64)>,
    /// Samples read before the labels (kept until they arrive).
    pending: Vec<(i64, f64)>,
    /// The sample being read: its time.
    time: Option<i64>,
    /// The series being read has its `values` (a result without them is
    /// not a range query's).
    has_values: bool,
    gaps: u64,
    scaled: bool,
}

/// The resource a metric measures, from its name.
pub(crate) fn resource_of(metric: &str) -> Resource {
    let m = metric.to_ascii_lowercase();
    if m.contains("cpu") {
        Resource::Cpu
    } else if m.contains("mem") {
        Resource::Memory
    } else if m.contains("disk") || m.contains("filesystem") {
        Resource::Disk
    } else if m.contains("network") || m.contains("net_") {
        Resource::Network
    } else if m.is_empty() {
        Resource::Other("value".into())
    } else {
        Resource::Other(m)
    }
}

impl Prometheus {
    /// Nothing read yet.
    pub(crate) fn new() -> Prometheus {
        Prometheus {
            stack: Vec::new(),
            set: SeriesSet::new(),
            labels: Vec::new(),
            series: None,
            pending: Vec::new(),
            time: None,
            has_values: false,
            gaps: 0,
            scaled: false,
        }
    }

    fn child_role(&self, array: bool) -> Role {
        let Some(top) = self.stack.last() else {
            return if array { Role::Answers } else { Role::Answer };
        };
        match (top.role, top.key.as_str(), array) {
            (Role::Answers, _, false) => Role::Answer,
            (Role::Answer, "data", false) => Role::Data,
            (Role::Data, "result", true) => Role::Results,
            (Role::Results, _, false) => Role::Series,
            (Role::Series, "metric", false) => Role::Metric,
            (Role::Series, "values", true) => Role::Values,
            (Role::Values, _, true) => Role::Pair,
            _ => Role::Other,
        }
    }

    /// The series named by the labels read.
    fn open_series(&mut self) -> usize {
        let name = self
            .labels
            .iter()
            .find(|(k, _)| k == "__name__")
            .map_or("", |(_, v)| v.as_str())
            .to_string();
        let mut labels: Vec<&(String, String)> = self
            .labels
            .iter()
            .filter(|(k, _)| k != "__name__")
            .collect();
        labels.sort();
        let inner: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
        let full = format!("{name}{{{}}}", inner.join(","));
        let scale = if name.ends_with("_ratio") {
            self.scaled = true;
            100.0
        } else {
            1.0
        };
        let i = self.set.series(&full, &resource_of(&name));
        self.series = Some((i, scale));
        for (t, v) in std::mem::take(&mut self.pending) {
            self.set.add(i, t, v * scale);
        }
        i
    }

    fn sample(&mut self, text: &str, at: Pos) -> Result<(), Fault> {
        let Some(t) = self.time.take() else {
            return Err(Fault::at(at, "a sample's value before its time"));
        };
        let v: f64 = text
            .trim()
            .parse()
            .map_err(|_| Fault::at(at, format!("sample value `{text}` is not a number")))?;
        if !v.is_finite() {
            self.gaps += 1;
            return Ok(());
        }
        if v < 0.0 {
            return Err(Fault::at(at, format!("sample value {v} is negative")));
        }
        match self.series {
            Some((i, scale)) => self.set.add(i, t, v * scale),
            None if self.pending.len() < super::series_set::EXACT_POINTS => {
                self.pending.push((t, v))
            }
            None => return Err(Fault::at(at, "too many samples before the series' labels")),
        }
        Ok(())
    }

    /// The series, with notes.
    pub(crate) fn finish(self) -> Dataset {
        let (series, aggregated) = self.set.finish();
        let mut notes: Vec<String> = aggregated.into_iter().collect();
        if self.gaps > 0 {
            notes.push(format!(
                "{} NaN or infinite sample(s) read as gaps",
                self.gaps
            ));
        }
        if self.scaled {
            notes.push("`_ratio` metrics scaled to percent".into());
        }
        Dataset {
            series,
            notes,
            ..Dataset::default()
        }
    }
}

impl Sink for Prometheus {
    fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), Fault> {
        match event {
            Event::BeginObject | Event::BeginArray => {
                let array = event == Event::BeginArray;
                let role = self.child_role(array);
                if let Some(top) = self.stack.last_mut() {
                    top.items += 1;
                }
                match role {
                    Role::Series => {
                        self.labels.clear();
                        self.series = None;
                        self.pending.clear();
                        self.has_values = false;
                    }
                    Role::Values => self.has_values = true,
                    Role::Pair => self.time = None,
                    _ => {}
                }
                self.stack.push(Frame {
                    role,
                    key: String::new(),
                    items: 0,
                });
            }
            Event::EndObject | Event::EndArray => {
                let frame = self.stack.pop();
                match frame.map(|f| (f.role, f.items)) {
                    Some((Role::Metric, _)) => {
                        self.open_series();
                    }
                    // A sample read is two items with its time taken: a
                    // value of another type (true, null, an object) or a
                    // third item is not one.
                    Some((Role::Pair, items)) if items != 2 || self.time.is_some() => {
                        return Err(Fault::at(
                            at,
                            "a sample should be `[<unix seconds>, \"<value>\"]`",
                        ));
                    }
                    Some((Role::Series, _)) if !self.has_values => {
                        return Err(Fault::at(at, "a result without `values`"));
                    }
                    Some((Role::Series, _)) if self.series.is_none() => {
                        self.open_series();
                    }
                    _ => {}
                }
            }
            Event::Key(k) => {
                if let Some(top) = self.stack.last_mut() {
                    top.key.clear();
                    top.key.push_str(k);
                }
            }
            Event::Str(s, _) => {
                let Some(top) = self.stack.last_mut() else {
                    return Ok(());
                };
                top.items += 1;
                match (top.role, top.key.as_str()) {
                    (Role::Metric, key) => {
                        let key = key.to_string();
                        self.labels.push((key, s.to_string()));
                    }
                    (Role::Data, "resultType") if s != "matrix" => {
                        return Err(Fault::at(
                            at,
                            format!("resultType `{s}`: only range queries (matrix) give series"),
                        ))
                    }
                    (Role::Answer, "error") => {
                        return Err(Fault::at(at, format!("the answer is an error: {s}")))
                    }
                    (Role::Pair, _) if top.items == 2 => return self.sample(s, at),
                    _ => {}
                }
            }
            Event::Num(n) => {
                let Some(top) = self.stack.last_mut() else {
                    return Ok(());
                };
                top.items += 1;
                if top.role == Role::Pair && top.items == 1 {
                    let t: f64 = n
                        .parse()
                        .map_err(|_| Fault::at(at, format!("sample time `{n}` is not a number")))?;
                    if !(0.0..=1e13).contains(&t) {
                        return Err(Fault::at(
                            at,
                            format!("sample time {t} is not Unix seconds"),
                        ));
                    }
                    self.time = Some(t.floor() as i64);
                } else if top.role == Role::Pair {
                    return self.sample(n, at);
                }
            }
            Event::Bool(_) | Event::Null => {
                if let Some(top) = self.stack.last_mut() {
                    top.items += 1;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_from_metric_names() {
        assert_eq!(resource_of("node_cpu_seconds_total"), Resource::Cpu);
        assert_eq!(
            resource_of("node_memory_MemAvailable_bytes"),
            Resource::Memory
        );
        assert_eq!(resource_of("node_filesystem_avail_bytes"), Resource::Disk);
        assert_eq!(resource_of("up"), Resource::Other("up".into()));
    }
}
