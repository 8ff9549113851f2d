//! `skyplan import`: read trace files through the streaming importer.

use crate::common::Failure;
use crate::input::import_file;
use skyplan_engine::import::{Format, ImportError, ImportOptions};
use skyplan_engine::time::format_timestamp;
use skyplan_engine::Workspace;
use std::fmt::Write as _;

/// `skyplan import --help`.
pub const HELP: &str = "\
skyplan import — read trace files and print what was loaded, or every bad line

USAGE:
    skyplan import FILE... [--format F] [--lenient] [--json]

Streams each FILE through the engine's importer and prints, per file, its
format, lines, jobs, runs, series (points), workload jobs and time span,
what the reader aggregated or left out (notes), and a total for several
files. Cluster exports are read as they are: a ResourceManager's
/ws/v1/cluster/apps answer, JobHistory jobs and tasks, Spark event logs
(plain, or compressed as Spark writes them: zstd, lz4, lzf, snappy),
Prometheus query_range answers, Grafana CSV, Google cluster-data 2019 and
Alibaba v2018 batch tables (docs/formats.md). A file with bad lines is refused and every bad
line listed as FILE:LINE:COLUMN: reason (exit 1); a corrupt or cut
compressed file as FILE: byte OFFSET: CODEC stream: reason.

OPTIONS:
    --format F    read every FILE as F: native-log, runs-csv, utilization-csv,
                  utilization-long-csv, swim-tsv, job-history-csv,
                  yarn-apps-json, mapreduce-history-json, spark-event-log,
                  prometheus-json, grafana-csv, google-instance-usage,
                  google-events or alibaba-batch-csv
                  (default: detected from each file's content)
    --lenient     keep the good lines of a file with bad ones; the bad ones
                  are listed as warnings (default: refuse the file)
    --json        print the workspace summary, warnings and failures as JSON
    -h, --help    print this help
";

/// Runs `skyplan import`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut files = Vec::new();
    let mut options = ImportOptions::default();
    let mut json = false;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("format") => {
                let f: String = parser.value()?.string()?;
                options.format = Some(f.parse::<Format>().map_err(Failure::usage)?);
            }
            Long("lenient") => options.lenient = true,
            Long("json") => json = true,
            Value(v) => files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if files.is_empty() {
        return Err(Failure::usage("import needs at least one FILE"));
    }
    let mut ws = Workspace::new();
    let mut failures: Vec<ImportError> = Vec::new();
    for path in &files {
        match import_file(path, &options)? {
            Ok(f) => {
                ws.add(f);
            }
            Err(e) => failures.push(e),
        }
    }
    if json {
        let warnings: Vec<_> = ws.files().iter().flat_map(|f| f.warnings.iter()).collect();
        let doc = serde_json::json!({
            "summary": ws.summary(),
            "warnings": warnings,
            "failures": failures.iter().map(|e| serde_json::json!({
                "message": e.to_string(),
                "errors": e.errors(),
                "detail": e,
            })).collect::<Vec<_>>(),
        });
        crate::common::emit_json(&doc);
    } else {
        print_text(&ws, &failures);
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Failure::input(format!(
            "{} of {} file(s) not loaded",
            failures.len(),
            files.len()
        )))
    }
}

fn print_text(ws: &Workspace, failures: &[ImportError]) {
    let mut out = String::new();
    for f in ws.files() {
        let s = f.summary();
        let span = s
            .span
            .map(|(a, b)| {
                if s.relative_time {
                    // Seconds from the trace start, not calendar time.
                    let d = skyplan_engine::time::format_duration;
                    format!("+{} → +{} from the trace start", d(a), d(b))
                } else {
                    format!("{} → {}", format_timestamp(a), format_timestamp(b))
                }
            })
            .unwrap_or_else(|| "—".into());
        let _ = writeln!(
            out,
            "{}: {} — {} lines, {} jobs, {} runs, {} series ({} points), {} workload jobs; {}",
            s.name, s.format, s.lines, s.jobs, s.runs, s.series, s.points, s.workload_jobs, span
        );
        for note in &s.notes {
            let _ = writeln!(out, "  note: {note}");
        }
        if s.skipped_lines > 0 {
            let _ = writeln!(out, "  {} bad line(s) skipped (lenient):", s.skipped_lines);
            for w in &f.warnings {
                let _ = writeln!(out, "  {w}");
            }
            let more = s.skipped_lines - f.warnings.len() as u64;
            if more > 0 {
                let _ = writeln!(out, "  … and {more} more");
            }
        }
    }
    if ws.files().len() > 1 {
        let t = ws.summary();
        let _ = writeln!(
            out,
            "total: {} files, {} jobs, {} runs, {} series ({} points), {} workload jobs",
            t.files.len(),
            t.jobs,
            t.runs,
            t.series,
            t.points,
            t.workload_jobs
        );
    }
    crate::common::emit(&out);
    for e in failures {
        eprintln!("error: {e}");
        if let ImportError::Malformed { errors, total, .. } = e {
            for line in errors {
                eprintln!("  {line}");
            }
            let more = total - errors.len() as u64;
            if more > 0 {
                eprintln!("  … and {more} more");
            }
        }
    }
}
