//! Workload files as the Shaping panel and `skyplan bundle` take them: told
//! apart by their first line (a workload JSON, an applications CSV with its
//! usage CSV, or Alibaba v2018 `container_meta` with `container_usage`),
//! paired, read and checked against the cluster. One reader, so a bundle
//! never holds workload files the studio would refuse.

use super::error::ShapingError;
use super::input::{read_applications_csv, read_applications_json, workload_from_alibaba};
use super::model::Workload;
use super::params::Params;
use crate::import::{CONTAINER_META_COLUMNS, CONTAINER_USAGE_COLUMNS};
use serde::{Deserialize, Serialize};

/// A workload file read in the Shaping panel: its name and text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadFile {
    /// File name, for messages.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// What kind of file `text` is, from its first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    Json,
    Applications,
    Usage,
    AlibabaMeta,
    AlibabaUsage,
}

fn kind_of(file: &WorkloadFile) -> Option<FileKind> {
    let first = file.text.lines().next().unwrap_or("").trim();
    if file.name.to_ascii_lowercase().ends_with(".json") || first.starts_with('{') {
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

/// At most this many located reasons are shown.
const MAX_REASONS: usize = 8;

/// An engine error in words: every located reason of an input error (the
/// first [`MAX_REASONS`]), the message otherwise.
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

/// The workload in `files`, checked against `params`' cluster; its name.
pub fn read_workload_files(
    files: &[WorkloadFile],
    params: &Params,
) -> Result<(String, Workload), String> {
    const WHAT: &str = "Choose a workload JSON, an applications CSV with its usage CSV, or Alibaba v2018 container_meta.csv with container_usage.csv";
    let mut by_kind: Vec<(FileKind, &WorkloadFile)> = Vec::new();
    for f in files {
        match kind_of(f) {
            Some(k) if by_kind.iter().any(|(seen, _)| *seen == k) => {
                return Err(format!("{}: a second file of the same kind. {WHAT}.", f.name))
            }
            Some(k) => by_kind.push((k, f)),
            None => {
                return Err(format!(
                    "{}:1:1: not a shaping workload file (no `runtime` or `minute` column, not {} or {} Alibaba columns). {WHAT}.",
                    f.name,
                    CONTAINER_META_COLUMNS.len(),
                    CONTAINER_USAGE_COLUMNS.len()
                ))
            }
        }
    }
    let get = |k: FileKind| by_kind.iter().find(|(seen, _)| *seen == k).map(|(_, f)| *f);
    let names = || {
        by_kind
            .iter()
            .map(|(_, f)| f.name.as_str())
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let read = match by_kind.len() {
        1 if get(FileKind::Json).is_some() => {
            let f = get(FileKind::Json).expect("present");
            read_applications_json(&f.name, &f.text)
        }
        2 => match (
            get(FileKind::Applications),
            get(FileKind::Usage),
            get(FileKind::AlibabaMeta),
            get(FileKind::AlibabaUsage),
        ) {
            (Some(a), Some(u), None, None) => {
                read_applications_csv(&a.name, &a.text, &u.name, &u.text)
            }
            (None, None, Some(m), Some(u)) => {
                workload_from_alibaba(&m.name, &m.text, &u.name, &u.text, params.host_mem)
            }
            _ => {
                return Err(format!(
                    "{}: files that do not go together. {WHAT}.",
                    names()
                ))
            }
        },
        _ => return Err(format!("{}: {WHAT}.", names())),
    };
    let workload = read.map_err(|e| error_text(&e))?;
    workload
        .validate(&params.cluster())
        .map_err(|e| format!("{}: {}", names(), error_text(&e)))?;
    Ok((names(), workload))
}
