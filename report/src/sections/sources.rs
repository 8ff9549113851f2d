//! The workspace's span and sources: every file of the bundle with its
//! format and what it holds, the calendar span, the SLO decisions, and the
//! files the panels read (tenants, reimages, workloads, YARN).

use crate::context::Context;
use crate::fmt::{count, duration, instant, whole};
use crate::html::{Html, Table};
use crate::progress::Progress;

/// Writes the section; present when the bundle holds any file or decision.
pub fn write(ctx: &Context<'_>, h: &mut Html, _progress: &mut dyn FnMut(Progress)) -> bool {
    let b = ctx.bundle;
    let summary = ctx.workspace.summary();
    let panel_files = panel_files(ctx);
    if b.files.is_empty() && b.decisions.is_empty() && panel_files.is_empty() {
        h.absent("No files and no SLO decisions in this workspace.");
        return false;
    }
    let span = match summary.span {
        Some((first, last)) => format!(
            "{} to {} ({})",
            instant(first),
            instant(last),
            duration((last - first) as f64)
        ),
        None => "no calendar times (trace-relative files only)".to_string(),
    };
    h.figures(&[
        ("files loaded", count(summary.files.len())),
        ("recurring jobs", count(summary.jobs)),
        ("job runs", count(summary.runs)),
        ("utilization series", count(summary.series)),
        ("history jobs", count(summary.workload_jobs)),
        ("SLO decisions", count(b.decisions.len())),
    ]);
    h.para(&format!("Span: {span}."));
    let mut t = Table::new(
        "Trace files, in load order",
        &[
            "file", "format", "#bytes", "#lines", "holds", "#skipped", "span",
        ],
    );
    for f in &summary.files {
        let span = match f.span {
            Some((a, z)) if f.relative_time => {
                format!("{} (trace-relative)", duration((z - a) as f64))
            }
            Some((a, z)) => format!("{} – {}", instant(a), instant(z)),
            None => "—".to_string(),
        };
        let mut holds = Vec::new();
        if f.runs > 0 {
            holds.push(format!("{} runs of {} jobs", count(f.runs), count(f.jobs)));
        }
        if f.series > 0 {
            holds.push(format!(
                "{} series, {} points",
                count(f.series),
                count(f.points)
            ));
        }
        if f.workload_jobs > 0 {
            holds.push(format!("{} history jobs", count(f.workload_jobs)));
        }
        t.row(vec![
            f.name.clone(),
            f.format.label().to_string(),
            whole(f.bytes as f64),
            whole(f.lines as f64),
            holds.join("; "),
            whole(f.skipped_lines as f64),
            span,
        ]);
    }
    if !t.is_empty() {
        h.table(&t);
    }
    for (name, why) in &ctx.unread {
        h.para_in("problem", &format!("{name} was not read: {why}"));
    }
    if !panel_files.is_empty() {
        let mut t = Table::new("Files the panels read", &["panel", "file", "#bytes"]);
        for (panel, name, bytes) in panel_files {
            t.row(vec![panel.to_string(), name, whole(bytes as f64)]);
        }
        h.table(&t);
    }
    let lenient = b.files.iter().filter(|f| f.lenient).count();
    h.settings(&[
        (
            "import",
            format!(
                "each file with the format it was loaded as (detected when none); {} of {} lenient (bad lines skipped)",
                lenient,
                b.files.len()
            ),
        ),
        (
            "span",
            "calendar times of every file, trace-relative files left out".to_string(),
        ),
    ]);
    true
}

/// (panel, file name, bytes) of the files the panel states carry.
fn panel_files(ctx: &Context<'_>) -> Vec<(&'static str, String, usize)> {
    let b = ctx.bundle;
    let mut out = Vec::new();
    if let Some(hv) = &b.harvest {
        for (name, text) in hv.tenants.iter().chain(&hv.reimages) {
            out.push(("Harvest", name.clone(), text.len()));
        }
        for (name, text) in hv.machines.iter().flatten() {
            out.push(("Harvest", name.clone(), text.len()));
        }
    }
    if let Some(files) = b.shaping.as_ref().and_then(|s| s.files.as_ref()) {
        for f in &files.files {
            out.push(("Shaping", f.name.clone(), f.text.len()));
        }
    }
    if let Some((name, text)) = b.tuning.as_ref().and_then(|t| t.xml.as_ref()) {
        out.push(("Tuning", name.clone(), text.len()));
    }
    out
}
