//! The settings of a shaping run, with the paper's values as defaults where
//! it gives them, validated at the engine's edge.

use super::buffer::Spread;
use super::error::{non_negative, positive, ShapingError};
use super::generator::{generate, GeneratorParams};
use super::model::{Host, Workload};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How allocations of running applications are managed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// The reservation-centric baseline (§IV-B, as Mesos and YARN): the full
    /// request, never changed.
    Reservation,
    /// Allocations follow the forecast + β; the OS handles shortage: a host
    /// over its capacity kills the largest memory user (its application
    /// fails), as an OOM killer would.
    Optimistic,
    /// Algorithm 1: allocations follow the forecast + β, and the shaper
    /// itself preempts (whole applications when a core component does not
    /// fit, young elastic components first otherwise).
    Pessimistic,
}

impl Policy {
    /// Every policy, baseline first (Figure 2's order).
    pub const ALL: [Policy; 3] = [Policy::Reservation, Policy::Optimistic, Policy::Pessimistic];

    /// The name the CLI uses.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Reservation => "reservation",
            Policy::Optimistic => "optimistic",
            Policy::Pessimistic => "pessimistic",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What Algorithm 1 checks before keeping a component.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PreemptOn {
    /// CPU and memory, as the printed Algorithm 1 (default).
    #[default]
    CpuAndMemory,
    /// Memory only, as the reference simulator: CPU beyond a host is
    /// shared out (a slowdown), never a preemption.
    Memory,
}

/// Where the forecasts come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Predictor {
    /// Perfect knowledge of the next minute (variance 0): the upper bound.
    Oracle,
    /// ARIMA with the order by AIC (`forecast::auto_arima`).
    Arima,
    /// The history-kernel GP (`forecast::HistoryGp`).
    Gp,
}

impl Predictor {
    /// The name the CLI uses.
    pub fn name(self) -> &'static str {
        match self {
            Predictor::Oracle => "oracle",
            Predictor::Arima => "arima",
            Predictor::Gp => "gp",
        }
    }
}

impl fmt::Display for Predictor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Settings of [`super::simulate`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// Hosts of the homogeneous cluster (default 250, §IV-A).
    pub hosts: usize,
    /// Cores per host (default 32, §IV-A).
    pub host_cpu: f64,
    /// Memory per host in GB (default 128, §IV-A).
    pub host_mem: f64,
    /// The shaped run's policy (default pessimistic, the paper's).
    pub policy: Policy,
    /// The shaped run's forecasts (default GP, the paper's choice).
    pub predictor: Predictor,
    /// K1 of β = K1·R + K2·V: the guaranteed fraction of the request
    /// (default 0.05, §V's setting from the simulations).
    pub k1: f64,
    /// K2 of β: the multiple of the forecast variance (default 3, §V).
    pub k2: f64,
    /// What K2 multiplies: the forecast's standard deviation (default) or,
    /// as printed, its variance (see [`super::buffer`]).
    pub spread: Spread,
    /// Minutes after a start before the first resize: the grace period
    /// (default 10, §V).
    pub grace_minutes: usize,
    /// Observations the forecasters are trained on (default 10: "both
    /// models consider a small history of the ten past observations", §V).
    pub history: usize,
    /// The GP's pattern length h (eq. 5; default 3, so that the ten
    /// observations give seven patterns).
    pub gp_window: usize,
    /// Minutes between hyperparameter refits of the GP and order/coefficient
    /// searches of ARIMA; in between the GP is updated online and ARIMA's
    /// last coefficients are applied to the latest observations (default
    /// 30; the paper retrains "as new data is available" and gives no
    /// interval — refitting every minute would cost hundreds of times more).
    pub refit_every: usize,
    /// ARIMA's order search: largest p, q and p + q (default 2; pmdarima's
    /// default is 5, which on ten observations mostly adds models the AIC
    /// rejects, at ten times the cost).
    pub arima_max_order: usize,
    /// Random restarts of the GP's first hyperparameter fit (default 0:
    /// the estimation module's starting point only — its default of 2
    /// doubles the forecasting time of a run for little change on ten
    /// observations; later refits are warm-started without).
    pub gp_restarts: usize,
    /// Coverage of the forecast band the timelines show (default 0.95).
    pub level: f64,
    /// Crashes (its use beyond its allocation, or the OS's kill) after
    /// which shaping is turned off for an application: it is resubmitted
    /// at its place like every failed application, and from then on runs
    /// with its full request, so it completes (default 5, the reference
    /// simulator's `crashedAllowed`). Preemptions are not crashes. Nothing
    /// is ever abandoned: §III-B resubmits every failed application.
    pub max_crashes: u32,
    /// Algorithm 1's line 29 as printed: an elastic component is preempted
    /// when it leaves a host with exactly 0 free (`≤ 0`), while core
    /// components (lines 13, 17) only when below 0. Default false: `< 0`
    /// for both, so an allocation that exactly fills a host — which the
    /// scheduler makes all the time with whole cores — stays (with true, K1
    /// = 100 % no longer reproduces the baseline).
    pub elastic_zero_left_preempts: bool,
    /// What Algorithm 1 preempts on (default CPU and memory, as printed;
    /// memory only as the reference simulator).
    pub preempt_on: PreemptOn,
    /// The application whose timeline is recorded (its name; default: the
    /// first elastic application running at least an hour after the first
    /// tenth of the arrivals).
    pub timeline_app: Option<String>,
    /// The host whose timeline is recorded (default 0).
    pub timeline_host: usize,
    /// The generated workload (when the caller generates one).
    pub workload: GeneratorParams,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            hosts: 250,
            host_cpu: 32.0,
            host_mem: 128.0,
            policy: Policy::Pessimistic,
            predictor: Predictor::Gp,
            k1: 0.05,
            k2: 3.0,
            spread: Spread::StdDev,
            grace_minutes: 10,
            history: 10,
            gp_window: 3,
            refit_every: 30,
            arima_max_order: 2,
            gp_restarts: 0,
            level: 0.95,
            max_crashes: 5,
            elastic_zero_left_preempts: false,
            preempt_on: PreemptOn::CpuAndMemory,
            timeline_app: None,
            timeline_host: 0,
            workload: GeneratorParams::default(),
        }
    }
}

impl Params {
    /// The paper's scale: the default cluster and 150,000 applications.
    pub fn paper() -> Self {
        Params {
            workload: GeneratorParams::paper(),
            ..Params::default()
        }
    }

    /// The cluster's hosts.
    pub fn cluster(&self) -> Vec<Host> {
        vec![
            Host {
                cpu: self.host_cpu,
                mem: self.host_mem,
            };
            self.hosts
        ]
    }

    /// Checks every setting.
    pub fn validate(&self) -> Result<(), ShapingError> {
        if self.hosts == 0 {
            return Err(ShapingError::EmptyCluster("--hosts is 0".into()));
        }
        positive("host_cpu", self.host_cpu)?;
        positive("host_mem", self.host_mem)?;
        non_negative("k1", self.k1)?;
        non_negative("k2", self.k2)?;
        if self.history < self.gp_window + 2 {
            return Err(ShapingError::param(
                "history",
                format!(
                    "must be at least gp_window + 2 = {} (the GP needs two patterns)",
                    self.gp_window + 2
                ),
            ));
        }
        if self.gp_window == 0 {
            return Err(ShapingError::param("gp_window", "must be at least 1"));
        }
        if self.grace_minutes < self.history {
            return Err(ShapingError::param(
                "grace_minutes",
                format!(
                    "must be at least history = {}: forecasts need that many observations",
                    self.history
                ),
            ));
        }
        if self.refit_every == 0 {
            return Err(ShapingError::param("refit_every", "must be at least 1"));
        }
        if self.arima_max_order > 5 {
            return Err(ShapingError::param(
                "arima_max_order",
                format!("must be at most 5, got {}", self.arima_max_order),
            ));
        }
        if !(self.level.is_finite() && self.level > 0.0 && self.level < 1.0) {
            return Err(ShapingError::param(
                "level",
                format!("must be strictly between 0 and 1, got {}", self.level),
            ));
        }
        if self.max_crashes == 0 {
            return Err(ShapingError::param(
                "max_crashes",
                "must be at least 1 (0 would never shape anything)",
            ));
        }
        if self.timeline_host >= self.hosts {
            return Err(ShapingError::param(
                "timeline_host",
                format!(
                    "is {}, the cluster has {} hosts",
                    self.timeline_host, self.hosts
                ),
            ));
        }
        self.workload.validate()
    }
}

/// Generates the workload `params.workload` describes, for `params`'
/// cluster.
pub fn generate_for(params: &Params) -> Result<Workload, ShapingError> {
    params.validate()?;
    generate(
        &params.workload,
        params.hosts,
        Host {
            cpu: params.host_cpu,
            mem: params.host_mem,
        },
    )
}
