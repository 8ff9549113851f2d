//! `skyplan bundle`: a workspace bundle built from files and settings on
//! the command line — the demo's by default — that the studio opens ("Open
//! workspace") as it opens its own; `--list` says what a bundle holds.

use crate::common::Failure;
use crate::workspace_bundle::{
    demo_bundle, file_name, files_bundle, harvest, read_bytes, read_text, Demo,
};
use skyplan_engine::bundle::{
    decode, encode, Bundle, ShapingFiles, ShapingSettings, ShapingState, TuningSettings,
    TuningState, WorkloadFile, WorkloadSource,
};
use skyplan_engine::tuning::{
    read_capacity_xml_with_warnings, read_fair_xml_with_warnings, FairContext,
};
use std::fmt::Write as _;

/// `skyplan bundle --help`.
pub const HELP: &str = "\
skyplan bundle — write a workspace bundle the studio opens

USAGE:
    skyplan bundle [FILE...] -o OUT.skyplan [--decisions F] [--queue F]
                   [--tenants F] [--reimages F] [--yarn F] [--parent PATH]
                   [--containers N] [--per-machine N] [--workload F]...
                   [--capacity-cores N] [--no-agenda] [--lenient]
                   [--demo DIR]
    skyplan bundle --list BUNDLE

Builds one .skyplan file (gzip: a header line, a JSON manifest, the files'
bytes) holding trace FILEs and the panels' state, as the studio's \"Save
workspace\" does; \"Open workspace\" (or dropping it on the page) restores
it. With no FILE and no panel option it is the studio's demo workspace:
the demo's four trace files, its SLO decisions admitted to the agenda by
LowCost, its pricing queue admitted from the job history as the Pricing
panel does, its tenants and reimages files, and the Shaping, Tuning,
Forecast and Runway panels' default settings. The demo is built into the
binary, so this works from any directory (--demo DIR reads it from DIR).

Every file is read as its panel reads it first, so a bundle never holds
what the studio would refuse: a bad line is reported as FILE:LINE: reason
and nothing is written.

OPTIONS:
    -o, --out OUT        the bundle to write (required)
    --decisions F        SLO decisions (the studio's decisions CSV)
    --queue F            a pricing queue (the Pricing panel's queue CSV)
    --tenants F          the Harvest panel's tenants CSV
    --reimages F         its reimages CSV (needs --tenants)
    --yarn F             the Tuning panel's capacity-scheduler.xml or Fair
                         allocation file: its queues are the current
                         configuration
    --parent PATH        the queue whose children --yarn's queues are
                         (default root)
    --containers N       the Tuning panel's cluster, containers (default 8)
    --per-machine N      containers per machine (default 4)
    --workload F         a Shaping workload file (repeatable: applications
                         and usage CSVs, a workload JSON, Alibaba v2018
                         container tables or Google 2019 instance_events
                         and instance_usage); the panel's runs use them
    --capacity-cores N   the agenda's capacity (default: derived from the
                         decisions, 1.25 × the lower bound on their peak)
    --no-agenda          do not admit the decisions to the agenda
    --lenient            keep the good lines of trace FILEs with bad ones
    --demo DIR           read the demo's files from DIR (default: the demo
                         built into skyplan, the same files as fixtures/demo)
    --list BUNDLE        print what BUNDLE holds and write nothing
    -h, --help           print this help
";

/// The command line.
#[derive(Default)]
struct Args {
    files: Vec<String>,
    out: Option<String>,
    decisions: Option<String>,
    queue: Option<String>,
    tenants: Option<String>,
    reimages: Option<String>,
    yarn: Option<String>,
    parent: Option<String>,
    containers: Option<u32>,
    per_machine: Option<u32>,
    workloads: Vec<String>,
    capacity_cores: Option<f64>,
    no_agenda: bool,
    lenient: bool,
    demo: Option<String>,
    list: Option<String>,
}

impl Args {
    /// Whether nothing but the output was given: the demo workspace.
    fn is_demo(&self) -> bool {
        self.files.is_empty()
            && self.decisions.is_none()
            && self.queue.is_none()
            && self.tenants.is_none()
            && self.reimages.is_none()
            && self.yarn.is_none()
            && self.workloads.is_empty()
    }
}

/// Runs `skyplan bundle`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let a = parse(parser)?;
    if let Some(path) = &a.list {
        let bytes = read_bytes(path)?;
        let bundle = decode(path, &bytes).map_err(Failure::refused)?;
        crate::common::emit(&list(&bundle, bytes.len()));
        return Ok(());
    }
    let Some(out) = a.out.clone() else {
        return Err(Failure::usage("-o OUT.skyplan is needed"));
    };
    let bundle = if a.is_demo() {
        let demo = match &a.demo {
            Some(dir) => Demo::Dir(dir),
            None => Demo::BuiltIn,
        };
        demo_bundle(demo, a.capacity_cores, a.no_agenda)?
    } else {
        from_args(&a)?
    };
    let bytes = encode(&bundle).map_err(Failure::refused)?;
    std::fs::write(&out, &bytes).map_err(|e| Failure::input(format!("{out}: {e}")))?;
    let mut text = list(&bundle, bytes.len());
    let _ = writeln!(text, "written to {out}");
    crate::common::emit(&text);
    Ok(())
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut a = Args::default();
    let positive = |v: u32, what: &str| {
        if v == 0 {
            Err(Failure::usage(format!("{what} must be at least 1")))
        } else {
            Ok(v)
        }
    };
    while let Some(arg) = parser.next()? {
        match arg {
            Short('o') | Long("out") => a.out = Some(parser.value()?.string()?),
            Long("decisions") => a.decisions = Some(parser.value()?.string()?),
            Long("queue") => a.queue = Some(parser.value()?.string()?),
            Long("tenants") => a.tenants = Some(parser.value()?.string()?),
            Long("reimages") => a.reimages = Some(parser.value()?.string()?),
            Long("yarn") => a.yarn = Some(parser.value()?.string()?),
            Long("parent") => a.parent = Some(parser.value()?.string()?),
            Long("containers") => {
                a.containers = Some(positive(parser.value()?.parse()?, "--containers")?)
            }
            Long("per-machine") => {
                a.per_machine = Some(positive(parser.value()?.parse()?, "--per-machine")?)
            }
            Long("workload") => a.workloads.push(parser.value()?.string()?),
            Long("capacity-cores") => {
                let c: f64 = parser.value()?.parse()?;
                if !(c.is_finite() && c > 0.0) {
                    return Err(Failure::usage("--capacity-cores must be a positive number"));
                }
                a.capacity_cores = Some(c);
            }
            Long("no-agenda") => a.no_agenda = true,
            Long("lenient") => a.lenient = true,
            Long("demo") => a.demo = Some(parser.value()?.string()?),
            Long("list") => a.list = Some(parser.value()?.string()?),
            Value(v) => a.files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if a.reimages.is_some() && a.tenants.is_none() && !a.is_demo() {
        return Err(Failure::usage(
            "--reimages needs --tenants (reimages are read against them)",
        ));
    }
    Ok(a)
}

/// A bundle of what the command line names.
fn from_args(a: &Args) -> Result<Bundle, Failure> {
    let mut bundle = files_bundle(
        &a.files,
        a.decisions.as_deref(),
        a.queue.as_deref(),
        a.capacity_cores,
        a.no_agenda,
        a.lenient,
    )?;
    if let Some(tenants) = &a.tenants {
        let reimages = match &a.reimages {
            Some(p) => Some((p.clone(), read_text(p)?)),
            None => None,
        };
        bundle.harvest = Some(harvest(
            (tenants.clone(), read_text(tenants)?),
            reimages,
            "",
        )?);
    }
    if a.yarn.is_some() || a.containers.is_some() || a.per_machine.is_some() {
        let mut settings = TuningSettings::default();
        if let Some(c) = a.containers {
            settings.containers = c;
        }
        if let Some(p) = a.per_machine {
            settings.per_machine = p;
        }
        let (current, xml) = match &a.yarn {
            Some(path) => {
                let text = read_text(path)?;
                let parent = a.parent.as_deref().unwrap_or("root");
                let read = if text.contains("<allocations") {
                    read_fair_xml_with_warnings(
                        &text,
                        parent,
                        &FairContext::paper(settings.containers),
                    )
                } else {
                    read_capacity_xml_with_warnings(&text, parent)
                };
                let (config, _warnings) =
                    read.map_err(|e| Failure::input(format!("{path}: {e}")))?;
                (Some(config), Some((file_name(path).to_string(), text)))
            }
            None => (None, None),
        };
        bundle.tuning = Some(TuningState {
            settings,
            current,
            xml,
            parent: a.parent.clone().unwrap_or_else(|| "root".into()),
        });
    }
    if !a.workloads.is_empty() {
        let files = a
            .workloads
            .iter()
            .map(|p| {
                Ok(WorkloadFile {
                    name: file_name(p).to_string(),
                    text: read_text(p)?,
                })
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        let settings = ShapingSettings {
            source: WorkloadSource::Files,
            ..ShapingSettings::default()
        };
        skyplan_engine::shaping::read_checked(&files, &settings.params).map_err(Failure::input)?;
        bundle.shaping = Some(ShapingState {
            files: Some(ShapingFiles {
                files,
                params: settings.params.clone(),
            }),
            settings: Some(settings),
        });
    }
    Ok(bundle)
}

/// What a bundle holds, a line a part.
fn list(b: &Bundle, size: usize) -> String {
    let mut out = String::new();
    let total: usize = b.files.iter().map(|f| f.bytes.len()).sum();
    let _ = writeln!(
        out,
        "bundle: {} bytes ({} files, {} bytes of traces)",
        size,
        b.files.len(),
        total
    );
    for f in &b.files {
        match f.kept.as_ref().and_then(|k| k.source.as_ref()) {
            Some(source) => {
                let _ = writeln!(
                    out,
                    "  file {} (kept as records: {} bytes read, xxh3-128 {})",
                    f.name, source.bytes, source.hash
                );
            }
            None => {
                let _ = writeln!(out, "  file {} ({} bytes)", f.name, f.bytes.len());
            }
        }
    }
    let _ = writeln!(out, "SLO decisions: {}", b.decisions.len());
    match &b.agenda {
        Some(a) => {
            let placed = a.plan.as_ref().map_or(0, |p| p.reservations().len());
            let _ = writeln!(
                out,
                "agenda: {placed} reservations, {} refused{}",
                a.refused.len(),
                a.capacity
                    .map(|c| format!(", capacity {} cores", c.cores))
                    .unwrap_or_default()
            );
        }
        None => out.push_str("agenda: none\n"),
    }
    match &b.pricing {
        Some(p) => {
            let _ = writeln!(out, "pricing queue: {} jobs", p.queue.len());
        }
        None => out.push_str("pricing queue: none\n"),
    }
    match &b.harvest {
        Some(h) => {
            let names: Vec<&str> = h
                .tenants
                .iter()
                .chain(h.reimages.iter())
                .map(|(n, _)| n.as_str())
                .collect();
            let _ = writeln!(out, "harvest: {}", names.join(", "));
        }
        None => out.push_str("harvest: none\n"),
    }
    match &b.shaping {
        Some(s) => {
            let files = s.files.as_ref().map_or(0, |f| f.files.len());
            let _ = writeln!(out, "shaping: {files} workload files");
        }
        None => out.push_str("shaping: defaults\n"),
    }
    match &b.tuning {
        Some(t) => {
            let _ = writeln!(
                out,
                "tuning: {} containers{}",
                t.settings.containers,
                t.xml
                    .as_ref()
                    .map(|(n, _)| format!(", {n}"))
                    .unwrap_or_default()
            );
        }
        None => out.push_str("tuning: defaults\n"),
    }
    match &b.forecast {
        Some(f) => {
            let _ = writeln!(out, "forecast: horizon {}", f.settings.horizon);
        }
        None => out.push_str("forecast: defaults\n"),
    }
    out
}
