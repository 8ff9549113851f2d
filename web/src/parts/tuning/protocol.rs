//! The Tuning part's messages. Carried by
//! [`crate::protocol::Request::Tuning`] and
//! [`crate::protocol::Response::Tuning`].

use crate::toolkit::protocol::{Failure, Progress, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::TuningState;
use skyplan_engine::tuning::{Advice, GroupConfig, SchedulerKind};

/// The panel's settings (the CLI's defaults; the saved record and a
/// workspace bundle carry them) and the seeded runs of the simulated
/// confirmation: the engine's, shared with the plan report.
pub use skyplan_engine::tuning::{TuningSettings, SIM_RUNS};

/// What the Tuning panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum TuningRequest {
    /// Read the cluster's current configuration from a
    /// `capacity-scheduler.xml` or a Fair allocation file (answered by
    /// [`TuningResponse::Config`] or [`TuningResponse::ConfigFailed`]); the
    /// worker keeps the text so the export can update it in place.
    ReadXml {
        /// File name, for messages.
        name: String,
        /// Its text.
        text: String,
        /// The queue whose children are the group's queues.
        parent: String,
        /// Containers of the group (Fair resources → shares).
        containers: u32,
    },
    /// Forget the imported file: the export writes a fresh one.
    ForgetXml,
    /// Send the panel's saved state (answered by
    /// [`TuningResponse::Restored`]); the page asks once, at start.
    Open,
    /// Save the panel's settings, queue tree and parent queue (with the
    /// YARN file the worker holds) for the next page; no answer.
    Keep {
        /// Settings as last parsed from the form.
        settings: TuningSettings,
        /// The queue tree in force.
        current: GroupConfig,
        /// The parent queue in the YARN file.
        parent: String,
    },
    /// Tune the current configuration's queues on the window's jobs
    /// (answered by [`TuningResponse::Progress`], then
    /// [`TuningResponse::Ready`] or [`TuningResponse::Failed`]).
    Run {
        /// The panel's ticket, echoed; stale answers are dropped.
        ticket: u32,
        /// Settings.
        settings: TuningSettings,
        /// The current configuration (its queues seed the grid; its
        /// latency is shown next to the best).
        current: GroupConfig,
    },
    /// The schedule Algorithm 1 gives a candidate of the last run
    /// (answered by [`TuningResponse::Schedule`]).
    Schedule {
        /// The run's ticket.
        ticket: u32,
        /// Group index.
        group: usize,
        /// Candidate index in the group's list.
        candidate: usize,
    },
    /// The configuration as YARN XML (the imported file updated in place,
    /// else a fresh file); answered by [`TuningResponse::Xml`].
    Export {
        /// The configuration.
        config: GroupConfig,
        /// Containers of the group.
        containers: u32,
        /// The queue whose children the configuration's queues are.
        parent: String,
    },
}

impl TuningRequest {
    /// A later run supersedes a run still queued.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            TuningRequest::Run { .. } => Supersedes::any("tuning run"),
            TuningRequest::Keep { .. } => Supersedes::any("tuning keep"),
            _ => None,
        }
    }
}

/// What the worker tells the Tuning panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum TuningResponse {
    /// The panel's saved state (the defaults when nothing was saved), for
    /// the form, the queue tree and the YARN file's name.
    Restored(TuningState),
    /// An imported file's configuration.
    Config {
        /// File name.
        name: String,
        /// Its queues.
        config: GroupConfig,
    },
    /// An imported file refused, with the place and reason.
    ConfigFailed {
        /// File name.
        name: String,
        /// Located reason.
        message: String,
    },
    /// Searches done so far on a run.
    Progress(Progress),
    /// A run's results.
    Ready(Box<TuningView>),
    /// A candidate's schedule.
    Schedule(Box<ScheduleView>),
    /// The engine refused a run (or a schedule of its candidates).
    Failed(Failure),
    /// The export refused (the imported file no longer matches).
    ExportFailed {
        /// Why, located.
        message: String,
    },
    /// The exported XML, to save.
    Xml {
        /// Suggested file name.
        name: String,
        /// The file.
        text: String,
    },
}

/// One queue's part of a group's job mix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueMix {
    /// Queue name.
    pub queue: String,
    /// Jobs.
    pub jobs: usize,
    /// Tasks.
    pub tasks: usize,
    /// Task-seconds of work.
    pub work_secs: f64,
}

/// One candidate configuration and its estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateView {
    /// One-line description.
    pub label: String,
    /// Algorithm 1's mean latency, seconds.
    pub latency_secs: f64,
    /// The configuration.
    pub config: GroupConfig,
}

/// One job of a schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// Job name.
    pub job: String,
    /// Queue index.
    pub queue: usize,
    /// Submission, seconds from the window's start.
    pub submit: f64,
    /// First allocation.
    pub start: f64,
    /// Completion.
    pub finish: f64,
    /// Containers held at most.
    pub containers: u32,
}

/// Algorithm 1's schedule of a group's jobs under one configuration
/// (Figure 7's picture).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScheduleView {
    /// The run's ticket.
    pub ticket: u32,
    /// Group index.
    pub group: usize,
    /// Candidate index.
    pub candidate: usize,
    /// The configuration's description.
    pub label: String,
    /// Queue names.
    pub queues: Vec<String>,
    /// Jobs, by queue then submission.
    pub bars: Vec<Bar>,
    /// Mean latency, seconds.
    pub mean_latency_secs: f64,
    /// Containers of the group.
    pub containers: u32,
}

/// One group's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupView {
    /// Its name (the window it was cut from).
    pub name: String,
    /// Jobs.
    pub jobs: usize,
    /// Seconds from the first to the last submission.
    pub span_secs: f64,
    /// Its mix load as the contention sweep sets it: task work over the
    /// submission span at the jobs' recorded arrivals (whether or not the
    /// run keeps them), as a multiple of its containers (`None` when the
    /// history submits them all at once).
    pub mix_load: Option<f64>,
    /// Its mix per queue.
    pub mix: Vec<QueueMix>,
    /// Containers Algorithm 3 gave it.
    pub containers: u32,
    /// Every configuration evaluated, in evaluation order.
    pub candidates: Vec<CandidateView>,
    /// The best candidate.
    pub best: usize,
    /// Draws (RRS) or grid points (exhaustive).
    pub samples: usize,
    /// RRS rounds.
    pub rounds: usize,
    /// The current configuration's description.
    pub current_label: String,
    /// What the best sets differently from the current configuration that
    /// its label does not show (the queues' user-limit factor, AM share),
    /// `None` when nothing ([`skyplan_engine::tuning::hidden_differences`]).
    #[serde(default)]
    pub hidden: Option<String>,
    /// The engine's advice ([`skyplan_engine::tuning::advise_group`], as
    /// `skyplan tune` and the report give it): the best and the current
    /// configuration estimated on the same jobs and containers, both
    /// simulated (the ground truth the estimate stands for), and the
    /// verdict — a change only when the simulation confirms it.
    pub advice: Advice,
    /// Candidates whose estimate ties with the lowest (within 1 %).
    #[serde(default)]
    pub tied: usize,
    /// Every candidate ties: no contention in this window.
    #[serde(default)]
    pub no_contention: bool,
    /// The recommendation is the current configuration (it wins ties).
    #[serde(default)]
    pub kept_current: bool,
    /// Best latency at `curve_lower`, `curve_lower + 1`, … containers (the
    /// curve Algorithm 3 splits by; empty with one group).
    pub curve: Vec<f64>,
    /// Containers of the curve's first point.
    pub curve_lower: u32,
    /// The best configuration's schedule.
    pub schedule: ScheduleView,
}

/// Algorithm 3's split of the cluster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SplitView {
    /// Containers in all.
    pub total: u32,
    /// Containers left after every lower bound.
    pub r_alloc: u32,
    /// The DP's range of extra containers.
    pub r_sum: u32,
    /// Containers per group.
    pub containers: Vec<u32>,
    /// Share per group.
    pub ratios: Vec<f64>,
    /// Total latency reduction bought by the extras, seconds.
    pub reduction: f64,
}

/// A run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuningView {
    /// The run's ticket.
    pub ticket: u32,
    /// The scheduler tuned.
    pub scheduler: SchedulerKind,
    /// Queue names.
    pub queues: Vec<String>,
    /// Per group.
    pub groups: Vec<GroupView>,
    /// The split among groups (several groups only).
    pub split: Option<SplitView>,
    /// Jobs in the workspace's history.
    pub history_jobs: usize,
    /// Worker time, milliseconds.
    pub millis: f64,
}
