//! A shaping workload from the files a planner chose, told apart by their
//! first lines: a workload JSON, an applications CSV with its usage CSV,
//! Alibaba v2018 `container_meta` with `container_usage`, or Google
//! cluster-data 2019 `instance_events` with `instance_usage` (CSV or JSON
//! lines, either encoding for either table). The Shaping
//! panel, `skyplan bundle` and the plan report read files through here, so
//! a bundle never holds workload files the studio would refuse.

use super::error::ShapingError;
use super::google::workload_from_google;
use super::input::{read_applications_csv, read_applications_json, workload_from_alibaba};
use super::model::Workload;
use super::params::Params;
use crate::import::{google_table, GoogleTable, CONTAINER_META_COLUMNS, CONTAINER_USAGE_COLUMNS};
use serde::{Deserialize, Serialize};

/// A workload file read in the Shaping panel: its name and text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadFile {
    /// File name, for messages.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// At most this many located reasons are said.
const MAX_REASONS: usize = 8;

/// An engine error in words: every located reason of an input error (the
/// first `MAX_REASONS`), the message otherwise.
pub fn error_text(e: &ShapingError) -> String {
    match e {
        ShapingError::Input(reasons) if reasons.len() > MAX_REASONS => format!(
            "{}\n… and {} more",
            reasons[..MAX_REASONS].join("\n"),
            reasons.len() - MAX_REASONS
        ),
        other => other.to_string(),
    }
}

/// The workload in `files` ([`read_workload_files`]) checked against
/// `params`' cluster, with its name; what is wrong in words
/// ([`error_text`]).
pub fn read_checked(files: &[WorkloadFile], params: &Params) -> Result<(String, Workload), String> {
    let named: Vec<(&str, &str)> = files
        .iter()
        .map(|f| (f.name.as_str(), f.text.as_str()))
        .collect();
    let (names, workload) = read_workload_files(&named, params.host_cpu, params.host_mem)
        .map_err(|e| error_text(&e))?;
    workload
        .validate(&params.cluster())
        .map_err(|e| format!("{names}: {}", error_text(&e)))?;
    Ok((names, workload))
}

/// What kind of workload file a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    Json,
    Applications,
    Usage,
    AlibabaMeta,
    AlibabaUsage,
    GoogleEvents,
    GoogleUsage,
}

/// The kind of the file `name` with `text`, from its name and first line.
/// A Google table is told by its CSV header or its first JSON line's
/// fields before anything else, so a JSON-lines export (which starts with
/// `{`, as a workload JSON does) is not taken for a workload.
fn kind_of(name: &str, text: &str) -> Option<FileKind> {
    match google_table(text) {
        Some(GoogleTable::Events) => return Some(FileKind::GoogleEvents),
        Some(GoogleTable::Usage) => return Some(FileKind::GoogleUsage),
        None => {}
    }
    let first = text.lines().next().unwrap_or("").trim();
    if name.to_ascii_lowercase().ends_with(".json") || first.starts_with('{') {
        return Some(FileKind::Json);
    }
    let lower = first.to_ascii_lowercase();
    let fields: Vec<&str> = lower.split(',').map(str::trim).collect();
    if fields.contains(&"runtime") {
        Some(FileKind::Applications)
    } else if fields.contains(&"minute") {
        Some(FileKind::Usage)
    } else if fields.len() == CONTAINER_META_COLUMNS.len() {
        Some(FileKind::AlibabaMeta)
    } else if fields.len() == CONTAINER_USAGE_COLUMNS.len() {
        Some(FileKind::AlibabaUsage)
    } else {
        None
    }
}

/// The workload in `files` (name, text), and the files' names joined with
/// ` + `. `host_cpu` (cores) and `host_mem` (GB) convert the normalized
/// requests of the Alibaba (memory) and Google (both) tables. The workload is not
/// checked against a cluster here ([`Workload::validate`]).
///
/// # Errors
/// [`ShapingError::Input`] with the reason when the files are not one
/// workload's, or the reader's located errors.
pub fn read_workload_files(
    files: &[(&str, &str)],
    host_cpu: f64,
    host_mem: f64,
) -> Result<(String, Workload), ShapingError> {
    const WHAT: &str = "Choose a workload JSON, an applications CSV with its usage CSV, Alibaba v2018 container_meta.csv with container_usage.csv, or Google 2019 instance_events with instance_usage (CSV or JSON lines)";
    let refuse = |why: String| Err(ShapingError::Input(vec![why]));
    let mut by_kind: Vec<(FileKind, &str, &str)> = Vec::new();
    for &(name, text) in files {
        match kind_of(name, text) {
            Some(k) if by_kind.iter().any(|(seen, _, _)| *seen == k) => {
                return refuse(format!("{name}: a second file of the same kind. {WHAT}."))
            }
            Some(k) => by_kind.push((k, name, text)),
            None => {
                return refuse(format!(
                    "{name}:1:1: not a shaping workload file (no `runtime` or `minute` column, not {} or {} Alibaba columns, not a Google instance_events or instance_usage header). {WHAT}.",
                    CONTAINER_META_COLUMNS.len(),
                    CONTAINER_USAGE_COLUMNS.len()
                ))
            }
        }
    }
    let get = |k: FileKind| {
        by_kind
            .iter()
            .find(|(seen, _, _)| *seen == k)
            .map(|&(_, n, t)| (n, t))
    };
    let names = by_kind
        .iter()
        .map(|(_, n, _)| *n)
        .collect::<Vec<_>>()
        .join(" + ");
    // One workload JSON by itself, or a pair of CSVs or Alibaba tables.
    let json = get(FileKind::Json).filter(|_| by_kind.len() == 1);
    let read = match (by_kind.len(), json) {
        (1, Some((n, t))) => read_applications_json(n, t),
        (2, _) => match (
            get(FileKind::Applications),
            get(FileKind::Usage),
            get(FileKind::AlibabaMeta),
            get(FileKind::AlibabaUsage),
            get(FileKind::GoogleEvents),
            get(FileKind::GoogleUsage),
        ) {
            (Some(a), Some(u), None, None, None, None) => read_applications_csv(a.0, a.1, u.0, u.1),
            (None, None, Some(m), Some(u), None, None) => {
                workload_from_alibaba(m.0, m.1, u.0, u.1, host_mem)
            }
            (None, None, None, None, Some(e), Some(u)) => {
                workload_from_google(e.0, e.1, u.0, u.1, host_cpu, host_mem)
            }
            _ => return refuse(format!("{names}: files that do not go together. {WHAT}.")),
        },
        _ => return refuse(format!("{names}: {WHAT}.")),
    };
    Ok((names, read?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const APPS: &str = "app,arrival,runtime,kind,count,cpu,mem\n\
                        a,0,120,core,1,1,2\n\
                        b,30,60,core,2,2,4\n";
    const USAGE: &str = "app,minute,cpu,mem\na,0,0.5,0.5\na,1,0.6,0.4\nb,0,1,1\n";

    fn reason(r: Result<(String, Workload), ShapingError>) -> String {
        match r {
            Err(ShapingError::Input(v)) => v.join("\n"),
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn files_are_told_apart_by_their_first_lines_in_any_order() {
        let (names, w) =
            read_workload_files(&[("u.csv", USAGE), ("a.csv", APPS)], 32.0, 128.0).expect("read");
        assert_eq!(names, "u.csv + a.csv");
        assert_eq!(w.applications.len(), 2);
        let json = serde_json::to_string(&w).expect("json");
        let (names, again) = read_workload_files(&[("w.txt", &json)], 32.0, 128.0).expect("json");
        assert_eq!((names.as_str(), again), ("w.txt", w));
    }

    #[test]
    fn files_that_are_not_one_workload_are_refused_with_a_reason() {
        let why = reason(read_workload_files(&[("x.csv", "a,b\n1,2\n")], 32.0, 128.0));
        assert!(
            why.starts_with("x.csv:1:1: not a shaping workload file"),
            "{why}"
        );
        let why = reason(read_workload_files(
            &[("a.csv", APPS), ("b.csv", APPS)],
            32.0,
            128.0,
        ));
        assert!(
            why.starts_with("b.csv: a second file of the same kind"),
            "{why}"
        );
        let why = reason(read_workload_files(&[("a.csv", APPS)], 32.0, 128.0));
        assert!(why.starts_with("a.csv: Choose a workload JSON"), "{why}");
        let meta = "c_1,m_1,0,app_1,started,400,400,10\n";
        let why = reason(read_workload_files(
            &[("a.csv", APPS), ("m.csv", meta)],
            32.0,
            128.0,
        ));
        assert!(why.contains("files that do not go together"), "{why}");
        // The reader's own located errors come through.
        let bad = APPS.replace("core,2", "flexible,2");
        let why = reason(read_workload_files(
            &[("a.csv", &bad), ("u.csv", USAGE)],
            32.0,
            128.0,
        ));
        assert!(why.starts_with("a.csv:3:"), "{why}");
        assert!(read_workload_files(&[], 32.0, 128.0).is_err());
    }
}
