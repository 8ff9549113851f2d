//! What is asked of the agenda: reservation requests and cluster capacity.

use crate::model::ContainerSize;
use serde::{Deserialize, Serialize};

/// Capacity of the cluster at one step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capacity {
    /// Virtual cores.
    pub cores: f64,
    /// Memory, MiB.
    pub memory_mb: f64,
}

/// How often a reservation repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Recurrence {
    /// Every `period_secs`, at the same offset (the period must divide the
    /// plan's LCM period).
    Periodic {
        /// The period, seconds.
        period_secs: i64,
    },
    /// Once, on the residual capacity left by periodic reservations.
    OneOff,
}

/// How the stages of a request relate, as YARN's
/// `ReservationRequestInterpreter` defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Interpreter {
    /// Any one of the stages satisfies the request (the cheapest is placed).
    RAny,
    /// All stages, in any order, possibly at the same time.
    RAll,
    /// All stages, each after the previous one ends; gaps allowed.
    ROrder,
    /// All stages in order with no gap between them: a contiguous skyline
    /// (what Morpheus places).
    ROrderNoGap,
}

/// One stage: an amount of work with a parallelism range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stage {
    /// Work, container-seconds (so a request does not depend on the plan's
    /// step).
    pub demand: f64,
    /// Most containers the stage can use at once.
    pub max_parallelism: f64,
    /// Fewest containers it must get whenever it runs (gang size, ≥ 1
    /// unless the demand is smaller).
    pub gang: f64,
}

/// A reservation request for the agenda.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReservationRequest {
    /// Job or reservation name.
    pub name: String,
    /// Periodic or one-off.
    pub recurrence: Recurrence,
    /// Earliest start, seconds from the start of the plan (periodic: of the
    /// first instance; later instances are `period` apart).
    pub arrival_secs: i64,
    /// Deadline, seconds from the start of the plan (same convention).
    pub deadline_secs: i64,
    /// The container the stages count in.
    pub container: ContainerSize,
    /// Stages in execution order.
    pub stages: Vec<Stage>,
    /// How the stages relate.
    pub interpreter: Interpreter,
    /// A job with unstable input or read times: LowCost adds the alignment
    /// penalty (§7) to keep its allocation near the middle of its window.
    pub problematic: bool,
}

impl ReservationRequest {
    /// A request for a skyline (containers per step of `step_secs`), the way
    /// Morpheus turns `R*` into stages: one stage per step, whose value is
    /// both its demand (for one step) and its maximum parallelism, stretchable down to
    /// `min_parallelism` containers (§5 "Estimating parallelism").
    pub fn from_skyline(
        name: impl Into<String>,
        recurrence: Recurrence,
        window: (i64, i64),
        container: ContainerSize,
        containers: &[f64],
        step_secs: i64,
        min_parallelism: f64,
    ) -> Self {
        let step = step_secs.max(1) as f64;
        ReservationRequest {
            name: name.into(),
            recurrence,
            arrival_secs: window.0,
            deadline_secs: window.1,
            container,
            stages: containers
                .iter()
                .filter(|&&c| c > 0.0)
                .map(|&c| Stage {
                    demand: c * step,
                    max_parallelism: c,
                    gang: min_parallelism.clamp(0.0, c),
                })
                .collect(),
            interpreter: Interpreter::ROrderNoGap,
            problematic: false,
        }
    }

    /// Total work, container-seconds.
    pub fn total_demand(&self) -> f64 {
        self.stages.iter().map(|s| s.demand).sum()
    }
}
