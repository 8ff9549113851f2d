//! A workspace as a bundle, built from files on the command line or from
//! the built-in demo: what `skyplan bundle` writes and what `skyplan
//! runway` plans on, read once here. Below every command, like `input`.

use crate::common::{located, Failure};
use skyplan_engine::agenda::{AgendaParams, AgendaState, Capacity, Method as AgendaMethod};
use skyplan_engine::bundle::{
    keeps_records, AdmittedJob, Bundle, BundleFile, ForecastState, HarvestState, PricingSettings,
    PricingState, ShapingSettings, ShapingState, TuningState,
};
use skyplan_engine::fixtures::{demo_queue, QueueParams};
use skyplan_engine::harvest::{read_reimages_csv, read_tenants_csv};
use skyplan_engine::import::{import, read_decisions_csv, read_queue_csv, ImportOptions};
use skyplan_engine::model::WorkloadJob;

/// The demo's trace files, as the studio names them.
const DEMO_TRACES: [&str; 4] = [
    "runs.csv",
    "utilization.csv",
    "history.csv",
    "tenant_utilization.csv",
];

/// Where the demo's files come from.
#[derive(Clone, Copy, Debug)]
pub enum Demo<'a> {
    /// Built into the binary (`skyplan-demo`): works from any directory.
    BuiltIn,
    /// A directory holding them (`--demo DIR`).
    Dir(&'a str),
}

impl Demo<'_> {
    /// The path messages name `file` by, and its text.
    fn read(&self, file: &str) -> Result<(String, String), Failure> {
        match self {
            Demo::BuiltIn => {
                let text = skyplan_demo::demo_file(file)
                    .ok_or_else(|| Failure::input(format!("the built-in demo has no {file}")))?;
                Ok((format!("demo/{file}"), text.to_string()))
            }
            Demo::Dir(dir) => {
                let path = format!("{dir}/{file}");
                let text = read_text(&path)?;
                Ok((path, text))
            }
        }
    }
}

/// A file's bytes.
pub fn read_bytes(path: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::input(format!("{path}: {e}")))
}

/// A file's text (UTF-8).
pub fn read_text(path: &str) -> Result<String, Failure> {
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        Failure::input(format!(
            "{path}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// `path`'s last component.
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// A trace file's `bytes`, read by the importer first (so the studio will
/// read it; errors name `path`), kept as `name`; its history jobs are
/// returned too.
pub fn trace(
    path: &str,
    name: &str,
    bytes: Vec<u8>,
    lenient: bool,
) -> Result<(BundleFile, Vec<WorkloadJob>), Failure> {
    let options = ImportOptions {
        lenient,
        ..ImportOptions::default()
    };
    let loaded = import(path, &bytes, options).map_err(|e| {
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
        BundleFile::of_bytes(name, None, lenient, bytes)
    };
    Ok((file, jobs))
}

/// The studio's demo workspace: its four trace files, its SLO decisions
/// admitted to the agenda by LowCost (unless `no_agenda`; on
/// `capacity_cores` when given), its pricing queue admitted from the job
/// history as the Pricing panel does, its tenants and reimages files, and
/// the Shaping, Tuning, Forecast and Runway panels' default settings.
pub fn demo_bundle(
    demo: Demo<'_>,
    capacity_cores: Option<f64>,
    no_agenda: bool,
) -> Result<Bundle, Failure> {
    let mut bundle = Bundle::default();
    let mut history = Vec::new();
    for f in DEMO_TRACES {
        let (path, text) = demo.read(f)?;
        let (file, jobs) = trace(&path, &format!("demo/{f}"), text.into_bytes(), false)?;
        bundle.files.push(file);
        history.extend(jobs);
    }
    let (path, text) = demo.read("decisions.csv")?;
    bundle.decisions = read_decisions_csv(&path, &text).map_err(located)?;
    if !no_agenda {
        bundle.agenda = Some(agenda(capacity_cores, &bundle)?);
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
    let tenants = demo.read("tenants.csv")?;
    let reimages = demo.read("reimages.csv")?;
    bundle.harvest = Some(harvest(tenants, Some(reimages), "demo/")?);
    // The panels that open at work on the demo with their defaults: the
    // Shaping panel's generated run, the Tuning panel's window of the job
    // history on its equal split, the Forecast card's and the Runway
    // panel's settings.
    bundle.shaping = Some(ShapingState {
        files: None,
        settings: Some(ShapingSettings::default()),
    });
    bundle.tuning = Some(TuningState::default());
    bundle.forecast = Some(ForecastState::default());
    bundle.runway = Some(skyplan_engine::bundle::RunwayState::default());
    Ok(bundle)
}

/// The Harvest panel's files (path, text), read against each other as the
/// panel does, kept under `prefix` + their file names.
pub fn harvest(
    tenants: (String, String),
    reimages: Option<(String, String)>,
    prefix: &str,
) -> Result<HarvestState, Failure> {
    let (path, text) = tenants;
    let list = read_tenants_csv(&path, &text).map_err(Failure::refused)?;
    let name = |p: &str| format!("{prefix}{}", file_name(p));
    let reimages = match reimages {
        Some((rpath, r)) => {
            read_reimages_csv(&rpath, &r, &list).map_err(Failure::refused)?;
            Some((name(&rpath), r))
        }
        None => None,
    };
    Ok(HarvestState {
        tenants: Some((name(&path), text)),
        reimages,
        machines: None,
    })
}

/// The decisions admitted to a new agenda by LowCost, stages stretched
/// down to one container: the Agenda panel's "Admit" with its defaults.
pub fn agenda(capacity_cores: Option<f64>, bundle: &Bundle) -> Result<AgendaState, Failure> {
    let mut state = AgendaState::default();
    if let Some(cores) = capacity_cores {
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

/// Trace `files` (kept by their file names), SLO `decisions` admitted to a
/// new agenda (on `capacity_cores` when given, unless `no_agenda`) and a
/// pricing `queue`, as a bundle.
pub fn files_bundle(
    files: &[String],
    decisions: Option<&str>,
    queue: Option<&str>,
    capacity_cores: Option<f64>,
    no_agenda: bool,
    lenient: bool,
) -> Result<Bundle, Failure> {
    let mut bundle = Bundle::default();
    for path in files {
        let (file, _) = trace(path, file_name(path), read_bytes(path)?, lenient)?;
        bundle.files.push(file);
    }
    if let Some(path) = decisions {
        bundle.decisions = read_decisions_csv(path, &read_text(path)?).map_err(located)?;
        if !no_agenda {
            bundle.agenda = Some(agenda(capacity_cores, &bundle)?);
        }
    }
    if let Some(path) = queue {
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
    Ok(bundle)
}
