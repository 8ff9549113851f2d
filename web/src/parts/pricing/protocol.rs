//! The Pricing panel's messages: what the page asks of the worker's pricing
//! desk ([`PricingRequest`], carried by `Request::Pricing`) and what the
//! worker answers ([`PricingResponse`], carried by `Response::Pricing`).
//!
//! Times are seconds from "now", the instant the queue is quoted at: the
//! queue is a snapshot in which every admitted job keeps the deadline it was
//! admitted with, and a new job is quoted against it (MRM §5). Work is in
//! slot-seconds (`engine::pricing::work`).

use crate::toolkit::protocol::{Failure, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::estimate::{JobEstimate, Method};
use skyplan_engine::model::JobFeatures;
use skyplan_engine::pricing::{JobWork, PriceFunction, PricePoint, Quote, SimParams, SimReport};

/// The new job: its features and, for the same-job method, its name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    /// Its name (the same-job method looks up past runs by it; the queue
    /// lists it under it).
    pub name: String,
    /// Its size.
    pub features: JobFeatures,
}

/// How the new job is estimated and priced, and the cluster: the engine's
/// panel type, which the saved queue and a workspace bundle carry.
pub use skyplan_engine::bundle::PricingSettings;

/// What the Pricing panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum PricingRequest {
    /// Send the history's jobs ([`PricingResponse::History`]) and the queue
    /// ([`PricingResponse::Queue`]); the first request of a session
    /// restores the saved queue first.
    State,
    /// Estimate and quote a new job (answered by [`PricingResponse::Quote`]
    /// or [`PricingResponse::Failed`] with the same ticket).
    Quote {
        /// Echoed back: the page keeps only the answer to its latest ask.
        ticket: u32,
        /// The job.
        job: JobSpec,
        /// Method, level, cluster, price function.
        settings: PricingSettings,
        /// A deadline to price as well (seconds from now), if one is chosen.
        deadline: Option<f64>,
    },
    /// Admit the job with `deadline`: it joins the queue at the price of
    /// that deadline (answered by [`PricingResponse::Admitted`] and the new
    /// queue, or [`PricingResponse::Refused`]).
    Admit {
        /// The job.
        job: JobSpec,
        /// Method, level, cluster, price function.
        settings: PricingSettings,
        /// Chosen deadline, seconds from now (≥ the earliest finish).
        deadline: f64,
    },
    /// Take one job out of the queue.
    Remove {
        /// Its name in the queue.
        name: String,
    },
    /// Empty the queue.
    Clear,
    /// Add the jobs of a queue CSV (`name,map_work,reduce_work,deadline`)
    /// to the queue, renamed where a name is taken; refused as a whole when
    /// a line is bad or the queue would not fit the cluster.
    ImportQueue {
        /// The cluster and price settings in force (the queue must fit its
        /// slots).
        settings: PricingSettings,
        /// The file's name (in error messages).
        name: String,
        /// Its content.
        text: String,
    },
    /// Write the queue out as `name,map_work,reduce_work,deadline` CSV
    /// (answered by [`PricingResponse::Exported`]).
    Export,
    /// Run the §6.3 simulation at each load (answered by
    /// [`PricingResponse::Simulated`] or [`PricingResponse::Failed`]
    /// with the same ticket).
    Simulate {
        /// Echoed back: the page keeps only the answer to its latest ask.
        ticket: u32,
        /// The settings.
        settings: SimSettings,
    },
}

impl PricingRequest {
    /// A later quote (or simulation) supersedes one still queued.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            PricingRequest::Quote { .. } => Supersedes::any("pricing quote"),
            PricingRequest::Simulate { .. } => Supersedes::any("pricing simulate"),
            _ => None,
        }
    }
}

/// What the simulation view lets the user set; the rest is
/// `engine::pricing::SimParams::default()` (the paper's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimSettings {
    /// Jobs per load.
    pub jobs: usize,
    /// Mean times between arrivals, seconds, one simulation each.
    pub interarrivals: Vec<f64>,
    /// Delay-sensitive users pay at most α·p̂.
    pub alpha: f64,
    /// κ of eq. (13).
    pub kappa: f64,
    /// σ of the estimation error over the mean processing time.
    pub error_share: f64,
}

impl Default for SimSettings {
    /// 100,000 jobs (the paper runs 500,000; this keeps a five-load sweep to
    /// a few seconds in the browser) at Figure 9's loads, α = 2, κ = 2 and
    /// the paper's σ = 4.8 s of 36 s.
    fn default() -> Self {
        let p = SimParams::default();
        SimSettings {
            jobs: 100_000,
            interarrivals: vec![40.0, 44.0, 50.0, 100.0, 200.0],
            alpha: p.alpha,
            kappa: p.kappa,
            error_share: p.error_share,
        }
    }
}

impl SimSettings {
    /// The engine's settings: these over the paper's defaults.
    pub fn params(&self) -> SimParams {
        SimParams {
            jobs: self.jobs,
            alpha: self.alpha,
            kappa: self.kappa,
            error_share: self.error_share,
            ..SimParams::default()
        }
    }
}

/// A simulation sweep's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimView {
    /// The request's ticket.
    pub ticket: u32,
    /// The settings it ran with.
    pub settings: SimSettings,
    /// One report per mean inter-arrival time, in the order asked.
    pub runs: Vec<(f64, SimReport)>,
    /// Milliseconds the sweep took in the worker.
    pub millis: f64,
}

/// What the worker answers the Pricing panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum PricingResponse {
    /// The jobs of the loaded job history, to pick one from.
    History(HistoryView),
    /// A new job's estimate and quote.
    Quote(Box<QuoteView>),
    /// A quote or a simulation could not be made; the reason in words.
    Failed(Failure),
    /// The queue and its lazy schedule.
    Queue(Box<QueueView>),
    /// A job was admitted.
    Admitted {
        /// Its name in the queue.
        name: String,
        /// Its deadline, seconds from now.
        deadline: f64,
        /// The price charged.
        price: f64,
    },
    /// A change was refused (a deadline before the earliest finish, bad
    /// settings); nothing changed.
    Refused {
        /// Why, in words.
        message: String,
    },
    /// The queue as CSV.
    Exported {
        /// File content.
        text: String,
    },
    /// A simulation sweep ran.
    Simulated(Box<SimView>),
}

/// One finished job of the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryJob {
    /// Its name.
    pub name: String,
    /// Its size.
    pub features: JobFeatures,
    /// Measured map phase, seconds.
    pub map_secs: f64,
    /// Measured reduce phase (shuffle + reduce), seconds.
    pub reduce_secs: f64,
}

/// The jobs the estimators learn from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HistoryView {
    /// The job-history files they come from.
    pub files: Vec<String>,
    /// Jobs with durations, in file order.
    pub jobs: Vec<HistoryJob>,
}

/// A new job's estimate by every method, the work planned with the chosen
/// one, and its price–deadline curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuoteView {
    /// The request's ticket.
    pub ticket: u32,
    /// Every method's estimate of both phases.
    pub estimate: JobEstimate,
    /// The work planned with (the chosen method's PI upper bounds × slots).
    pub work: JobWork,
    /// Earliest finish, processing time and the curve.
    pub quote: Quote,
    /// The slack unit γ: the history's mean processing time, seconds.
    pub mean_job_secs: f64,
    /// The chosen deadline priced, if one was asked for and is feasible.
    pub chosen: Option<PricePoint>,
    /// Why the chosen deadline cannot be priced (before the earliest
    /// finish).
    pub chosen_error: Option<String>,
    /// Jobs in the queue it was quoted against.
    pub queued: usize,
    /// Milliseconds the estimator's fit took, when this quote needed one
    /// (it is kept for later quotes on the same history).
    pub fit_millis: Option<f64>,
    /// Milliseconds of the estimate and quote in the worker.
    pub quote_millis: f64,
}

/// One admitted job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueRow {
    /// Name (unique in the queue).
    pub name: String,
    /// Map work, slot-seconds.
    pub map_work: f64,
    /// Reduce work, slot-seconds.
    pub reduce_work: f64,
    /// Committed deadline, seconds from now.
    pub deadline: f64,
    /// Price charged at admission (`None` for an imported job).
    pub price: Option<f64>,
    /// The estimation method it was planned with (`None` for an imported
    /// job).
    pub method: Option<Method>,
    /// Its lazy placement: map phase `[start, end)` and reduce phase
    /// `[start, end)`, seconds from now (`None` without work in the phase).
    pub map: Option<(f64, f64)>,
    /// See `map`.
    pub reduce: Option<(f64, f64)>,
}

/// The queue with its lazy schedule (every job as late as its deadline
/// allows, latest deadline first; MRM §5, Figure 7).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueueView {
    /// Changes since the session started.
    pub revision: u64,
    /// The settings last used (restored into the panel's form).
    pub settings: Option<PricingSettings>,
    /// Admitted jobs, in admission order.
    pub rows: Vec<QueueRow>,
    /// The schedule's horizon (the latest deadline), seconds.
    pub horizon: f64,
    /// Free share of the map slots per band of `band_secs`, 0..1.
    pub free_map: Vec<f64>,
    /// Free share of the reduce slots per band.
    pub free_reduce: Vec<f64>,
    /// Seconds per band of `free_map`/`free_reduce`.
    pub band_secs: f64,
    /// Why the queue has no schedule on the current cluster, if it has none.
    pub problem: Option<String>,
    /// Total price charged.
    pub revenue: f64,
}

/// The `<select>` value of an estimation method (its serde name).
pub fn method_value(method: Method) -> &'static str {
    match method {
        Method::Gp => "gp",
        Method::Ols => "ols",
        Method::SameJob => "same-job",
    }
}

/// The method of a `<select>` value.
pub fn method_of(value: &str) -> Option<Method> {
    Method::ALL.into_iter().find(|m| method_value(*m) == value)
}

/// The `<select>` value of a price function (its serde tag).
pub fn function_value(function: &PriceFunction) -> &'static str {
    match function {
        PriceFunction::Mrm { .. } => "mrm",
        PriceFunction::Exponential { .. } => "exponential",
        PriceFunction::Quadratic { .. } => "quadratic",
        PriceFunction::LoadAware => "load-aware",
    }
}

/// The price function of a `<select>` value with `kappa` (eq. 15 with
/// z = 2; eq. 16 has no κ).
pub fn function_of(value: &str, kappa: f64) -> Option<PriceFunction> {
    Some(match value {
        "mrm" => PriceFunction::Mrm { kappa },
        "exponential" => PriceFunction::Exponential { kappa },
        "quadratic" => PriceFunction::Quadratic { kappa, z: 2.0 },
        "load-aware" => PriceFunction::LoadAware,
        _ => return None,
    })
}

/// The κ of a price function (1 for eq. 16, which has none).
pub fn kappa_of(function: &PriceFunction) -> f64 {
    match function {
        PriceFunction::Mrm { kappa }
        | PriceFunction::Exponential { kappa }
        | PriceFunction::Quadratic { kappa, .. } => *kappa,
        PriceFunction::LoadAware => 1.0,
    }
}

/// Every price function's `<select>` value and label.
pub const FUNCTIONS: [(&str, &str); 4] = [
    ("mrm", "MRM, eq. (13)"),
    ("exponential", "Exponential, eq. (14)"),
    ("quadratic", "Quadratic, eq. (15)"),
    ("load-aware", "Load-aware, eq. (16)"),
];
