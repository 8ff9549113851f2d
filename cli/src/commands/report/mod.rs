//! `skyplan report`: a workspace bundle as one self-contained HTML plan
//! report (the studio's "Download report"), so bundles can be reported in
//! batch.

use crate::common::{emit, Failure};
use skyplan_engine::bundle::decode;
use skyplan_report::{render, ReportOptions};

/// Usage, options and defaults of `skyplan report`.
pub const HELP: &str = "\
skyplan report — a workspace bundle as one self-contained HTML plan report

USAGE:
    skyplan report BUNDLE -o FILE [--title TEXT]

Writes the plan report of a workspace bundle (a .skyplan file saved by the
studio or written by `skyplan bundle`) as one self-contained HTML file:
the workspace's span and sources; the signed-off SLOs with their skylines;
the agenda's peak, cost and refused requests with reasons; the pricing
queue; harvesting advice (classes, harvestable capacity, replica placement
and its durability); the shaping recommendation with what the worst-off
applications pay; the tuning recommendation with its simulated
confirmation. Each section states the settings it was computed under (the
panel's, as saved in the bundle, or the panel's defaults); a section whose
input the bundle lacks says so in one line. Runs are seeded: the same
bundle gives the same numbers.

The page loads nothing: charts are inline SVG, the style sheet is inline,
there is no script, and every name from the traces is escaped. It prints
on A4 and US Letter.

OPTIONS:
    -o, --out FILE   the HTML file to write (required; `-` for stdout)
    --title TEXT     the report's title (default: Capacity plan)
    -h, --help       print this help
";

/// Runs `skyplan report`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut bundle: Option<String> = None;
    let mut out: Option<String> = None;
    let mut title: Option<String> = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('o') | Long("out") => out = Some(parser.value()?.string()?),
            Long("title") => title = Some(parser.value()?.string()?),
            Value(v) if bundle.is_none() => bundle = Some(v.string()?),
            Value(v) => {
                return Err(Failure::usage(format!(
                    "one BUNDLE only (also given `{}`)",
                    v.to_string_lossy()
                )))
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    let path = bundle.ok_or_else(|| Failure::usage("a BUNDLE is needed"))?;
    let out = out.ok_or_else(|| Failure::usage("-o FILE is needed (`-` for stdout)"))?;
    let bytes = std::fs::read(&path).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    let bundle = decode(&path, &bytes).map_err(Failure::refused)?;
    let generated_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .and_then(|d| i64::try_from(d.as_secs()).ok());
    let name = std::path::Path::new(&path)
        .file_name()
        .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
    let options = ReportOptions {
        title,
        source: Some(name),
        generated_at,
    };
    let report = render(&bundle, &options).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    if out == "-" {
        emit(&report.html);
        return Ok(());
    }
    std::fs::write(&out, &report.html).map_err(|e| Failure::input(format!("{out}: {e}")))?;
    let present = report.sections.iter().filter(|s| s.present).count();
    let absent: Vec<&str> = report
        .sections
        .iter()
        .filter(|s| !s.present)
        .map(|s| s.id)
        .collect();
    emit(&format!(
        "wrote {out}: {} KB, {present} of {} sections{}\n",
        report.html.len().div_ceil(1024),
        report.sections.len(),
        if absent.is_empty() {
            String::new()
        } else {
            format!(" (not in the bundle: {})", absent.join(", "))
        }
    ));
    Ok(())
}
