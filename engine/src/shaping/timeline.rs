//! Timelines for the studio: one application's request, use, forecast with
//! its band, and allocation minute by minute, with what happened to it; and
//! one host's allocation against its use.

use serde::{Deserialize, Serialize};

/// What happened to an application.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// Submitted (first arrival).
    Submit,
    /// Started (its core components placed).
    Start,
    /// Allocation changed by more than 1 % of the request.
    Resize,
    /// Elastic components preempted (how many in `components`).
    PreemptComponents,
    /// Preempted whole by Algorithm 1; back in the queue.
    Preempt,
    /// Failed: its use exceeded its allocation, or the OS killed it.
    Fail,
    /// Completed.
    Finish,
    /// Back in the queue at its original place after a failure or a
    /// preemption (§III-B): nothing is abandoned.
    Resubmit,
    /// Shaping turned off after `max_crashes` crashes: from its next start
    /// on it runs with its full request.
    ShapingOff,
}

/// One event of a timeline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimelineEvent {
    /// When (s).
    pub t: f64,
    /// What.
    pub kind: EventKind,
    /// Components concerned (running after a start, preempted, …).
    pub components: u32,
}

/// One minute of an application's timeline (totals over its running
/// components).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AppPoint {
    /// Time (s).
    pub t: f64,
    /// Components running.
    pub components: u32,
    /// CPU requested (cores).
    pub request_cpu: f64,
    /// Memory requested (GB).
    pub request_mem: f64,
    /// CPU used.
    pub used_cpu: f64,
    /// Memory used.
    pub used_mem: f64,
    /// CPU allocated.
    pub alloc_cpu: f64,
    /// Memory allocated.
    pub alloc_mem: f64,
    /// Forecast CPU (None in the grace period and for the baseline).
    pub forecast_cpu: Option<f64>,
    /// Lower and upper ends of the CPU forecast's band.
    pub band_cpu: Option<[f64; 2]>,
    /// Forecast memory.
    pub forecast_mem: Option<f64>,
    /// The memory forecast's band.
    pub band_mem: Option<[f64; 2]>,
}

/// An application's timeline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AppTimeline {
    /// The application.
    pub app: String,
    /// Minute by minute while it runs.
    pub points: Vec<AppPoint>,
    /// What happened, in time order.
    pub events: Vec<TimelineEvent>,
}

/// One minute of a host's timeline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostPoint {
    /// Time (s).
    pub t: f64,
    /// Components on it.
    pub components: u32,
    /// CPU allocated.
    pub alloc_cpu: f64,
    /// Memory allocated.
    pub alloc_mem: f64,
    /// CPU used.
    pub used_cpu: f64,
    /// Memory used.
    pub used_mem: f64,
}

/// A host's timeline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostTimeline {
    /// The host's index.
    pub host: usize,
    /// Its cores.
    pub cpu: f64,
    /// Its memory (GB).
    pub mem: f64,
    /// One point per minute tick while anything runs on the cluster (at
    /// most [`HOST_POINTS`], evenly thinned beyond).
    pub points: Vec<HostPoint>,
}

/// Most points a host timeline keeps.
pub const HOST_POINTS: usize = 20_000;
