//! `skyplan bundle`: a workspace bundle built from files and settings on
//! the command line — the demo's by default — that the studio opens ("Open
//! workspace") as it opens its own; `--list` says what a bundle holds.

use crate::common::{located, Failure};
use crate::input::import_file;
use skyplan_engine::agenda::{AgendaParams, AgendaState, Capacity, Method as AgendaMethod};
use skyplan_engine::bundle::{
    decode, encode, keeps_records, AdmittedJob, Bundle, BundleFile, HarvestState, PricingSettings,
    PricingState, ShapingFiles, ShapingSettings, ShapingState, TuningSettings, TuningState,
    WorkloadFile, WorkloadSource,
};
use skyplan_engine::fixtures::{demo_queue, QueueParams};
use skyplan_engine::harvest::{read_reimages_csv, read_tenants_csv};
use skyplan_engine::import::{read_decisions_csv, read_queue_csv, ImportOptions};
use skyplan_engine::model::WorkloadJob;
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
panel does, its tenants and reimages files (read from --demo DIR), and the
Shaping, Tuning and Forecast panels' default settings.

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
                         and usage CSVs, a workload JSON or Alibaba v2018
                         container tables); the panel's runs use them
    --capacity-cores N   the agenda's capacity (default: derived from the
                         decisions, 1.25 × the lower bound on their peak)
    --no-agenda          do not admit the decisions to the agenda
    --lenient            keep the good lines of trace FILEs with bad ones
    --demo DIR           where the demo's files are (default fixtures/demo)
    --list BUNDLE        print what BUNDLE holds and write nothing
    -h, --help           print this help
";

/// The demo's trace files, as the studio names them.
const DEMO_TRACES: [&str; 4] = [
    "runs.csv",
    "utilization.csv",
    "history.csv",
    "tenant_utilization.csv",
];

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
        demo(&a)?
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

fn read_bytes(path: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::input(format!("{path}: {e}")))
}

fn read_text(path: &str) -> Result<String, Failure> {
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        Failure::input(format!(
            "{path}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// A trace file, read by the importer first (so the studio will read it),
/// with the format it was read as; its history jobs are returned too.
fn trace(path: &str, name: &str, lenient: bool) -> Result<(BundleFile, Vec<WorkloadJob>), Failure> {
    let options = ImportOptions {
        lenient,
        ..ImportOptions::default()
    };
    let loaded = import_file(path, &options)?.map_err(|e| {
        let lines: Vec<String> = e.errors().iter().map(|l| l.to_string()).collect();
        if lines.is_empty() {
            Failure::input(e.to_string())
        } else {
            located(lines)
        }
    })?;
    let jobs = if loaded.format.job_history() {
        loaded.data.workload.clone()
    } else {
        Vec::new()
    };
    // A large import travels as its records, with the source's name,
    // size and hash, not its bytes (the studio keeps it so too).
    let file = if keeps_records(&loaded) {
        let mut kept = loaded;
        kept.name = name.to_string();
        BundleFile::of_records(&kept, lenient)
    } else {
        BundleFile::of_bytes(name, None, lenient, read_bytes(path)?)
    };
    Ok((file, jobs))
}

/// The studio's demo workspace, from the files under `--demo`.
fn demo(a: &Args) -> Result<Bundle, Failure> {
    let dir = a.demo.clone().unwrap_or_else(|| "fixtures/demo".into());
    let mut bundle = Bundle::default();
    let mut history = Vec::new();
    for f in DEMO_TRACES {
        let (file, jobs) = trace(&format!("{dir}/{f}"), &format!("demo/{f}"), false)?;
        bundle.files.push(file);
        history.extend(jobs);
    }
    let decisions_path = format!("{dir}/decisions.csv");
    bundle.decisions =
        read_decisions_csv(&decisions_path, &read_text(&decisions_path)?).map_err(located)?;
    if !a.no_agenda {
        bundle.agenda = Some(agenda(a, &bundle)?);
    }
    // The Pricing panel's demo queue: admitted from the history by the
    // engine's demo generator, each at the price it was quoted.
    let history: Vec<WorkloadJob> = history
        .into_iter()
        .filter(|j| j.map_secs.is_some())
        .collect();
    let admitted = demo_queue(&history, &QueueParams::default()).map_err(Failure::refused)?;
    bundle.pricing = Some(PricingState {
        settings: None,
        queue: admitted
            .into_iter()
            .map(|q| AdmittedJob {
                job: q.job,
                price: Some(q.price),
                method: Some(q.method),
            })
            .collect(),
    });
    bundle.harvest = Some(harvest(
        &format!("{dir}/tenants.csv"),
        Some(&format!("{dir}/reimages.csv")),
        "demo/",
    )?);
    // The panels that open at work on the demo with their defaults: the
    // Shaping panel's generated run, the Tuning panel's window of the job
    // history on its equal split, the Forecast card's settings.
    bundle.shaping = Some(ShapingState {
        files: None,
        settings: Some(ShapingSettings::default()),
    });
    bundle.tuning = Some(TuningState::default());
    bundle.forecast = Some(skyplan_engine::bundle::ForecastState::default());
    Ok(bundle)
}

/// The Harvest panel's files, read against each other as the panel does.
fn harvest(tenants: &str, reimages: Option<&str>, prefix: &str) -> Result<HarvestState, Failure> {
    let text = read_text(tenants)?;
    let list = read_tenants_csv(tenants, &text).map_err(Failure::refused)?;
    let name = |p: &str| format!("{prefix}{}", file_name(p));
    let reimages = match reimages {
        Some(path) => {
            let r = read_text(path)?;
            read_reimages_csv(path, &r, &list).map_err(Failure::refused)?;
            Some((name(path), r))
        }
        None => None,
    };
    Ok(HarvestState {
        tenants: Some((name(tenants), text)),
        reimages,
        machines: None,
    })
}

/// `path`'s last component.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The decisions admitted to a new agenda by LowCost, stages stretched
/// down to one container: the Agenda panel's "Admit" with its defaults.
fn agenda(a: &Args, bundle: &Bundle) -> Result<AgendaState, Failure> {
    let mut state = AgendaState::default();
    if let Some(cores) = a.capacity_cores {
        state.capacity = Some(Capacity {
            cores,
            memory_mb: cores * skyplan_engine::agenda::MB_PER_CORE,
        });
        state.capacity_note = Some("Set by you.".into());
    }
    let admissible = state.admissible(&bundle.decisions);
    if admissible.is_empty() {
        return Ok(state);
    }
    state
        .admit_decisions(
            &AgendaParams::default(),
            &admissible,
            AgendaMethod::LowCost,
            1.0,
        )
        .map_err(|why| Failure::input(format!("the agenda: {why}")))?;
    Ok(state)
}

/// A bundle of what the command line names.
fn from_args(a: &Args) -> Result<Bundle, Failure> {
    let mut bundle = Bundle::default();
    for path in &a.files {
        let (file, _) = trace(path, file_name(path), a.lenient)?;
        bundle.files.push(file);
    }
    if let Some(path) = &a.decisions {
        bundle.decisions = read_decisions_csv(path, &read_text(path)?).map_err(located)?;
        if !a.no_agenda {
            bundle.agenda = Some(agenda(a, &bundle)?);
        }
    }
    if let Some(path) = &a.queue {
        let queue = read_queue_csv(path, &read_text(path)?).map_err(located)?;
        bundle.pricing = Some(PricingState {
            settings: Some(PricingSettings::default()),
            queue: queue
                .into_iter()
                .map(|job| AdmittedJob {
                    job,
                    price: None,
                    method: None,
                })
                .collect(),
        });
    }
    if let Some(tenants) = &a.tenants {
        bundle.harvest = Some(harvest(tenants, a.reimages.as_deref(), "")?);
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
