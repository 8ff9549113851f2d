//! Format detection by content: the first content line of a line format,
//! the first keys of a JSON one.

use super::alibaba_batch::is_batch_row;
use super::format::Format;
use super::grafana_csv::is_header as is_grafana_header;
use super::json::{Event, Fault, Pos, Sink};

/// The keys of a JSON file's start, for [`detect_json`].
#[derive(Debug, Default)]
pub(crate) struct KeyProbe {
    /// Objects open.
    objects: usize,
    /// Containers open.
    depth: usize,
    /// The file is an array (of answers).
    top_array: bool,
    /// `(objects open, key)` of the keys read, at most [`PROBE_KEYS`].
    pub keys: Vec<(usize, String)>,
    /// The first top-level value ended.
    pub first_done: bool,
}

/// Keys a probe keeps.
const PROBE_KEYS: usize = 64;

impl Sink for KeyProbe {
    fn event(&mut self, event: Event<'_>, _at: Pos) -> Result<(), Fault> {
        match event {
            Event::BeginObject | Event::BeginArray => {
                // Only the first value says what the file is: a JSON-lines
                // file's later lines (an array, a bomb) do not make it one.
                if self.depth == 0 && !self.first_done && event == Event::BeginArray {
                    self.top_array = true;
                }
                self.depth += 1;
                if event == Event::BeginObject {
                    self.objects += 1;
                }
            }
            Event::EndObject | Event::EndArray => {
                self.depth = self.depth.saturating_sub(1);
                if event == Event::EndObject {
                    self.objects = self.objects.saturating_sub(1);
                }
                if self.depth == 0 {
                    self.first_done = true;
                }
            }
            Event::Key(k) if self.keys.len() < PROBE_KEYS => {
                self.keys.push((self.objects, k.to_string()));
            }
            _ => {}
        }
        Ok(())
    }
}

impl KeyProbe {
    /// Whether enough was seen to decide.
    pub(crate) fn enough(&self) -> bool {
        self.first_done || self.keys.len() >= PROBE_KEYS || detect_json(self, false).is_some()
    }
}

/// The JSON format a probe's keys say; `done` when nothing more will come
/// (the whole prefix was seen), so the keys of an unfinished first record
/// are enough.
pub(crate) fn detect_json(probe: &KeyProbe, done: bool) -> Option<Format> {
    let answer = if probe.top_array { 2 } else { 1 };
    let first = probe
        .keys
        .iter()
        .find(|(d, _)| *d == answer)
        .map(|(_, k)| k.as_str());
    match first {
        Some("apps" | "app") => return Some(Format::YarnAppsJson),
        Some("jobs" | "job" | "tasks" | "task") => return Some(Format::MapreduceHistoryJson),
        Some("Event") if !probe.top_array => return Some(Format::SparkEventLog),
        _ => {}
    }
    let has = |k: &str| probe.keys.iter().any(|(d, key)| *d == answer && key == k);
    if probe.keys.iter().any(|(_, k)| k == "resultType") || (has("status") && has("data")) {
        return Some(Format::PrometheusJson);
    }
    if !(probe.first_done || done || probe.keys.len() >= PROBE_KEYS) {
        return None;
    }
    if has("collection_id") || has("machine_id") {
        if has("start_time") || has("average_usage") {
            return Some(Format::GoogleInstanceUsage);
        }
        if has("time") && has("type") {
            return Some(Format::GoogleEvents);
        }
    }
    None
}

/// Guesses the format from the first non-blank, non-comment line, or `None`
/// when nothing matches. Headers decide for CSVs; data lines decide for the
/// headerless formats (SWIM TSV, native log, header-less `timestamp,value`).
pub fn detect(first_line: &str) -> Option<Format> {
    let line = first_line.trim();
    if is_grafana_header(line) {
        return Some(Format::GrafanaCsv);
    }
    if is_batch_row(line) {
        return Some(Format::AlibabaBatchCsv);
    }
    if line.contains('\t') {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() == 6 && f[1..].iter().all(|x| x.trim().parse::<u64>().is_ok()) {
            return Some(Format::SwimTsv);
        }
    }
    if line.contains(',') {
        let cols: Vec<String> = line
            .split(',')
            .map(|c| c.trim().trim_matches('"').to_ascii_lowercase())
            .collect();
        let has = |n: &str| cols.iter().any(|c| c == n);
        if has("collection_id") && has("start_time") && has("end_time") {
            return Some(Format::GoogleInstanceUsage);
        }
        if has("collection_id") && has("time") && has("type") {
            return Some(Format::GoogleEvents);
        }
        if has("job") && has("skyline") {
            return Some(Format::RunsCsv);
        }
        if has("job") && has("map_secs") {
            return Some(Format::JobHistoryCsv);
        }
        if has("timestamp") && has("series") && has("value") {
            return Some(Format::UtilizationLongCsv);
        }
        if cols.len() == 2 && cols[0] == "timestamp" && cols[1] == "value" {
            return Some(Format::UtilizationCsv);
        }
        if cols.len() == 2
            && crate::time::parse_timestamp(&cols[0]).is_ok()
            && cols[1].parse::<f64>().is_ok()
        {
            return Some(Format::UtilizationCsv);
        }
        return None;
    }
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() == 8 && f[1..5].iter().all(|x| x.parse::<i64>().is_ok()) && f[7].contains(':') {
        return Some(Format::NativeLog);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_format() {
        assert_eq!(
            detect(
                "tpch_q12 50 1462148517000 1462148527345 1462148952345 tpch_q12_0 8192:0| 1:0|1:5|"
            ),
            Some(Format::NativeLog)
        );
        assert_eq!(
            detect("job0\t49\t49\t740773\t2339561\t627471"),
            Some(Format::SwimTsv)
        );
        assert_eq!(detect("timestamp,value"), Some(Format::UtilizationCsv));
        assert_eq!(
            detect("2014-02-14 14:30:00,0.132"),
            Some(Format::UtilizationCsv)
        );
        assert_eq!(
            detect("timestamp,series,resource,value"),
            Some(Format::UtilizationLongCsv)
        );
        assert_eq!(
            detect("job,instance,submit,start,end,skyline"),
            Some(Format::RunsCsv)
        );
        assert_eq!(
            detect("job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs"),
            Some(Format::JobHistoryCsv)
        );
        assert_eq!(detect("hello world"), None);
        assert_eq!(detect("a,b,c"), None);
    }
}
