//! The shaping model (§III, §IV-A): hosts with cores and memory, and batch
//! applications with an arrival, a runtime and components, each *core*
//! (the application cannot run without it) or *elastic* (it only speeds
//! the application up), each with a request and a utilization trace.
//!
//! Units: time in seconds, CPU in cores, memory in GB. A utilization trace
//! is one value per minute — the monitoring interval of §V — as a
//! *fraction of the request* in [0, 1], for CPU and for memory. All the
//! components of an application share its trace (each scaled by its own
//! request): applications are forecast, as the paper writes β per
//! application A_i, and a trace per component would multiply the
//! forecasting work by the component count without changing the method.
//!
//! **Work.** An application's runtime is how long it runs with all of its
//! components: its work is `runtime × components` component-seconds, and
//! each running component contributes one per second. A rigid application
//! (core components only) runs exactly `runtime`; an elastic one runs
//! slower while some of its elastic components wait or were preempted. A
//! preempted elastic component loses what it contributed; a preempted or
//! failed application loses everything (the paper's "work lost upon
//! failures and preemption").

use super::error::ShapingError;
use serde::{Deserialize, Serialize};

/// A host's capacity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// Cores.
    pub cpu: f64,
    /// Memory (GB).
    pub mem: f64,
}

/// Whether a component is needed for the application to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Needed: if one cannot be kept, the whole application is preempted.
    Core,
    /// Optional: it adds work throughput and can be preempted alone.
    Elastic,
}

/// `count` identical components of one kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComponentGroup {
    /// Core or elastic.
    pub kind: Kind,
    /// How many (≥ 1).
    pub count: u32,
    /// CPU request of each (cores, > 0).
    pub cpu: f64,
    /// Memory request of each (GB, > 0).
    pub mem: f64,
}

/// Per-minute utilization as a fraction of the request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageTrace {
    /// CPU used / CPU requested, one value per minute since the start.
    pub cpu: Vec<f32>,
    /// Memory used / memory requested, one value per minute.
    pub mem: Vec<f32>,
}

impl UsageTrace {
    /// Minutes covered.
    pub fn len(&self) -> usize {
        self.cpu.len()
    }

    /// Whether the trace is empty.
    pub fn is_empty(&self) -> bool {
        self.cpu.is_empty()
    }

    /// The fractions at minute `m` (the last minute's past the end: an
    /// application slowed down by missing elastic components keeps its last
    /// behaviour).
    pub fn at(&self, m: usize) -> (f64, f64) {
        let i = m.min(self.cpu.len().saturating_sub(1));
        (self.cpu[i] as f64, self.mem[i] as f64)
    }
}

/// A batch application.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Application {
    /// Its name (unique in a workload).
    pub name: String,
    /// Submission time (s).
    pub arrival: f64,
    /// Runtime with all components running (s, > 0).
    pub runtime: f64,
    /// Its components.
    pub components: Vec<ComponentGroup>,
    /// Its utilization.
    pub usage: UsageTrace,
}

impl Application {
    /// Rigid: core components only.
    pub fn is_rigid(&self) -> bool {
        self.components.iter().all(|g| g.kind == Kind::Core)
    }

    /// Components in all.
    pub fn component_count(&self) -> usize {
        self.components.iter().map(|g| g.count as usize).sum()
    }

    /// Total request (cores, GB) of its components of `kind`.
    pub fn request(&self, kind: Kind) -> (f64, f64) {
        self.components
            .iter()
            .filter(|g| g.kind == kind)
            .fold((0.0, 0.0), |(c, m), g| {
                (c + g.cpu * g.count as f64, m + g.mem * g.count as f64)
            })
    }
}

/// A workload: applications in any order (the simulation orders them by
/// arrival).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// The applications.
    pub applications: Vec<Application>,
}

/// Checks the hosts: at least one, every capacity finite and > 0.
pub fn validate_hosts(hosts: &[Host]) -> Result<(), ShapingError> {
    if hosts.is_empty() {
        return Err(ShapingError::EmptyCluster("no hosts".into()));
    }
    for (i, h) in hosts.iter().enumerate() {
        if !(h.cpu.is_finite() && h.cpu > 0.0 && h.mem.is_finite() && h.mem > 0.0) {
            return Err(ShapingError::EmptyCluster(format!(
                "host {i} has {} cores and {} GB; both must be > 0",
                h.cpu, h.mem
            )));
        }
    }
    Ok(())
}

impl Workload {
    /// Checks every application against the hosts: names unique, numbers
    /// finite, at least one core component, usage fractions in [0, 1] and
    /// as long for CPU as for memory, every component no larger than the
    /// largest host, and the core components placeable on the empty cluster
    /// by the scheduler's first fit (otherwise the application would block
    /// the FIFO queue forever).
    pub fn validate(&self, hosts: &[Host]) -> Result<(), ShapingError> {
        validate_hosts(hosts)?;
        if self.applications.is_empty() {
            return Err(ShapingError::EmptyWorkload);
        }
        let mut names = std::collections::HashSet::new();
        for a in &self.applications {
            if !names.insert(a.name.as_str()) {
                return Err(ShapingError::app(&a.name, "appears twice"));
            }
            validate_application(a, hosts)?;
        }
        Ok(())
    }
}

fn validate_application(a: &Application, hosts: &[Host]) -> Result<(), ShapingError> {
    if !(a.arrival.is_finite() && a.arrival >= 0.0) {
        return Err(ShapingError::app(
            &a.name,
            format!("arrival must be finite and ≥ 0, got {}", a.arrival),
        ));
    }
    if !(a.runtime.is_finite() && a.runtime > 0.0) {
        return Err(ShapingError::app(
            &a.name,
            format!("runtime must be finite and > 0, got {}", a.runtime),
        ));
    }
    if !a.components.iter().any(|g| g.kind == Kind::Core) {
        return Err(ShapingError::app(&a.name, "has no core component"));
    }
    for g in &a.components {
        if g.count == 0 {
            return Err(ShapingError::app(&a.name, "a component group has count 0"));
        }
        if !(g.cpu.is_finite() && g.cpu > 0.0 && g.mem.is_finite() && g.mem > 0.0) {
            return Err(ShapingError::app(
                &a.name,
                format!(
                    "requests must be finite and > 0, got {} cores, {} GB",
                    g.cpu, g.mem
                ),
            ));
        }
        if !hosts.iter().any(|h| g.cpu <= h.cpu && g.mem <= h.mem) {
            return Err(ShapingError::Infeasible {
                app: a.name.clone(),
                why: format!(
                    "a component requests {} cores and {} GB, larger than any host",
                    g.cpu, g.mem
                ),
            });
        }
    }
    let u = &a.usage;
    if u.cpu.is_empty() || u.cpu.len() != u.mem.len() {
        return Err(ShapingError::app(
            &a.name,
            format!(
                "usage needs as many CPU as memory values, at least one: got {} and {}",
                u.cpu.len(),
                u.mem.len()
            ),
        ));
    }
    for (m, (c, r)) in u.cpu.iter().zip(&u.mem).enumerate() {
        if !((0.0..=1.0).contains(c) && (0.0..=1.0).contains(r)) {
            return Err(ShapingError::app(
                &a.name,
                format!("usage at minute {m} is {c} CPU, {r} memory: fractions of the request must be in [0, 1]"),
            ));
        }
    }
    // First fit of the core components on the empty cluster.
    let mut free: Vec<Host> = hosts.to_vec();
    for g in a.components.iter().filter(|g| g.kind == Kind::Core) {
        for _ in 0..g.count {
            match free.iter_mut().find(|h| h.cpu >= g.cpu && h.mem >= g.mem) {
                Some(h) => {
                    h.cpu -= g.cpu;
                    h.mem -= g.mem;
                }
                None => {
                    let (c, m) = a.request(Kind::Core);
                    return Err(ShapingError::Infeasible {
                        app: a.name.clone(),
                        why: format!(
                            "its core components ({c} cores, {m} GB in all) do not fit the empty cluster"
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}
