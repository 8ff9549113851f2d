//! `skyplan runway [BUNDLE | FILE...]`: the runway, purchase schedules and
//! lever table of a workspace, as `skyplan_report::runway` computes them
//! for the report and the studio.

use super::{days, scale, season};
use crate::common::{emit_report, Failure};
use crate::workspace_bundle::{demo_bundle, files_bundle, read_bytes, Demo};
use serde::Serialize;
use skyplan_engine::bundle::decode;
use skyplan_engine::runway::{
    Evidence, Growth, Lever, PurchasePlan, ResourceTarget, RunwayParams, StepEvent,
};
use skyplan_engine::time::{civil_from_days, parse_timestamp};
use skyplan_engine::{Resource, Timestamp};
use std::fmt::Write as _;

/// A day as the JSON gives it.
fn day(t: Timestamp) -> String {
    let (y, m, d) = civil_from_days(t.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

#[derive(Serialize)]
struct LimitOut {
    name: String,
    p10: Option<String>,
    p50: Option<String>,
    p90: Option<String>,
    largest_growth: Option<f64>,
    extrapolated: bool,
    description: String,
}

#[derive(Serialize)]
struct PurchaseOut {
    date: String,
    machines: u32,
}

#[derive(Serialize)]
struct Out {
    today: String,
    binding: Option<String>,
    limits: Vec<LimitOut>,
    purchases: Vec<PurchaseOut>,
    purchases_p90: Vec<PurchaseOut>,
    unmet: Vec<String>,
    levers: Vec<Lever>,
    machines: u32,
    machine_cores: Option<f64>,
    evidence: Option<Evidence>,
    model: String,
    notes: Vec<String>,
}

fn purchases(p: &PurchasePlan) -> Vec<PurchaseOut> {
    p.purchases
        .iter()
        .map(|x| PurchaseOut {
            date: day(x.date),
            machines: x.machines,
        })
        .collect()
}

/// The command line beyond the settings.
#[derive(Default)]
struct Args {
    inputs: Vec<String>,
    decisions: Option<String>,
    queue: Option<String>,
    json: bool,
}

/// A change to the settings the command line asks for.
type Override = Box<dyn Fn(&mut RunwayParams)>;

/// Runs `skyplan runway`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut a = Args::default();
    let mut overrides: Vec<Override> = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("decisions") => a.decisions = Some(parser.value()?.string()?),
            Long("queue") => a.queue = Some(parser.value()?.string()?),
            Long("json") => a.json = true,
            Long("growth") => {
                let g = growth(&parser.value()?.string()?)?;
                overrides.push(Box::new(move |p| p.growth = g.clone()));
            }
            Long("tenant") => {
                let s = tenant(&parser.value()?.string()?)?;
                overrides.push(Box::new(move |p| p.steps.push(s.clone())));
            }
            Long("target") => {
                let t = parser.value()?.string()?;
                let (resource, value) = match t.split_once('=') {
                    Some((r, v)) => (Some(resource(r)), v.to_string()),
                    None => (None, t.clone()),
                };
                let v: f64 = value.parse().map_err(|_| {
                    Failure::usage(format!("--target: a fraction such as 0.8, got `{value}`"))
                })?;
                overrides.push(Box::new(move |p| match &resource {
                    Some(r) => {
                        p.targets.retain(|t| &t.resource != r);
                        p.targets.push(ResourceTarget {
                            resource: r.clone(),
                            target: v,
                        });
                    }
                    None => p.target = v,
                }));
            }
            Long("horizon") => {
                let d = days(&parser.value()?.string()?, "--horizon")?;
                overrides.push(Box::new(move |p| {
                    p.horizon_days = d;
                    p.purchase_days = p.purchase_days.min(d);
                }));
            }
            Long("purchase-horizon") => {
                let d = days(&parser.value()?.string()?, "--purchase-horizon")?;
                overrides.push(Box::new(move |p| p.purchase_days = d));
            }
            Long("machines") => {
                let m: u32 = parser.value()?.parse()?;
                overrides.push(Box::new(move |p| p.machines = Some(m)));
            }
            Long("machine-cores") => {
                let c: f64 = parser.value()?.parse()?;
                overrides.push(Box::new(move |p| p.machine_cores = Some(c)));
            }
            Long("queue-limit") => {
                let s: f64 = parser.value()?.parse()?;
                overrides.push(Box::new(move |p| p.queue_limit_secs = Some(s)));
            }
            Long("season") => {
                let s = season(&parser.value()?.string()?)?;
                overrides.push(Box::new(move |p| p.season = s));
            }
            Long("scale") => {
                let s = scale(&parser.value()?.string()?)?;
                overrides.push(Box::new(move |p| p.scale = s));
            }
            Value(v) => a.inputs.push(v.string()?),
            other => return Err(other.unexpected().into()),
        }
    }
    let bundle = match a.inputs.as_slice() {
        [] if a.decisions.is_none() && a.queue.is_none() => {
            demo_bundle(Demo::BuiltIn, None, false)?
        }
        [one] if one.ends_with(".skyplan") => {
            decode(one, &read_bytes(one)?).map_err(Failure::refused)?
        }
        files => files_bundle(
            files,
            a.decisions.as_deref(),
            a.queue.as_deref(),
            None,
            false,
            false,
        )?,
    };
    let params = (!overrides.is_empty()).then(|| {
        let mut p = bundle
            .runway
            .as_ref()
            .map(|r| r.params.clone())
            .unwrap_or_default();
        for o in &overrides {
            o(&mut p);
        }
        p
    });
    let o = skyplan_report::runway::outcome(&bundle, params.as_ref()).map_err(Failure::input)?;
    let r = &o.runway;
    let out = Out {
        today: day(r.today),
        binding: r.binding.clone(),
        limits: r
            .limits
            .iter()
            .map(|l| LimitOut {
                name: l.name.clone(),
                p10: l.p10.map(day),
                p50: l.p50.map(day),
                p90: l.p90.map(day),
                largest_growth: l.largest_growth,
                extrapolated: l.extrapolated,
                description: l.description.clone(),
            })
            .collect(),
        purchases: purchases(&r.purchases),
        purchases_p90: purchases(&r.purchases_p90),
        unmet: r
            .purchases
            .unmet
            .iter()
            .chain(r.purchases_p90.unmet.iter())
            .cloned()
            .collect(),
        levers: o.levers.clone(),
        machines: r.cluster.machines,
        machine_cores: r.cluster.cores_per_machine(),
        evidence: r.evidence.clone(),
        model: r
            .limits
            .first()
            .map(|l| l.model.clone())
            .unwrap_or_default(),
        notes: r.notes.clone(),
    };
    emit_report(a.json, &out, text);
    Ok(())
}

fn text(o: &Out) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "runway from {} ({} machines)", o.today, o.machines);
    let _ = writeln!(
        s,
        "binding limit: {}",
        o.binding.as_deref().unwrap_or("none within the horizon")
    );
    let _ = writeln!(s, "growth: {}", o.model);
    let _ = writeln!(
        s,
        "\n{:<22} {:>12} {:>12} {:>12}",
        "limit", "P10", "P50", "P90"
    );
    let show = |d: &Option<String>| d.clone().unwrap_or_else(|| "beyond".into());
    for l in &o.limits {
        let _ = writeln!(
            s,
            "{:<22} {:>12} {:>12} {:>12}{}",
            l.name,
            show(&l.p10),
            show(&l.p50),
            show(&l.p90),
            if l.extrapolated {
                "  (extrapolated)"
            } else {
                ""
            }
        );
    }
    for (which, list) in [("P50", &o.purchases), ("P90", &o.purchases_p90)] {
        let total: u32 = list.iter().map(|p| p.machines).sum();
        let _ = writeln!(s, "\npurchases ({which}): {total} machine(s)");
        for p in list {
            let _ = writeln!(s, "  add {} by {}", p.machines, p.date);
        }
    }
    for u in &o.unmet {
        let _ = writeln!(s, "  unmet: {u}");
    }
    let _ = writeln!(s, "\nlevers at the grown load:");
    for l in &o.levers {
        let _ = writeln!(
            s,
            "  {:<13} machines {:>6}  days {:>5}  {}  {}{}",
            l.name,
            l.machines.map_or("—".into(), |m| format!("{m:.1}")),
            l.days.map_or("—".into(), |d| d.to_string()),
            if l.pays { "pays    " } else { "no gain " },
            l.detail,
            l.cost
                .as_ref()
                .map(|c| format!("; cost: {c}"))
                .unwrap_or_default()
        );
    }
    for n in &o.notes {
        let _ = writeln!(s, "\nnote: {n}");
    }
    s
}

fn growth(text: &str) -> Result<Growth, Failure> {
    if text == "fitted" {
        return Ok(Growth::Fitted);
    }
    let n = text.trim_end_matches("/month").trim_end_matches('%');
    let percent: f64 = n.parse().map_err(|_| {
        Failure::usage(format!(
            "--growth: `fitted` or a percentage a month such as 3%, got `{text}`"
        ))
    })?;
    Ok(Growth::Monthly { percent })
}

fn tenant(text: &str) -> Result<StepEvent, Failure> {
    let bad = || {
        Failure::usage(format!(
            "--tenant: N@YYYY-MM-DD (cores from a date), got `{text}`"
        ))
    };
    let (n, date) = text.split_once('@').ok_or_else(bad)?;
    let cores: f64 = n.parse().map_err(|_| bad())?;
    let from = parse_timestamp(date).map_err(|_| bad())?;
    Ok(StepEvent { cores, from })
}

fn resource(name: &str) -> Resource {
    match name.to_ascii_lowercase().as_str() {
        "cpu" => Resource::Cpu,
        "memory" | "mem" => Resource::Memory,
        "disk" => Resource::Disk,
        "network" => Resource::Network,
        other => Resource::Other(other.to_string()),
    }
}
