//! The Agenda panel's messages: what the page asks of the worker's plan
//! ([`AgendaRequest`], carried by `Request::Agenda`) and what the worker
//! answers ([`AgendaResponse`], carried by `Response::Agenda`).
//!
//! Times inside the plan are plan steps (`step_secs` each) from the plan's
//! origin, 00:00 UTC of the day the plan starts; the one-off form speaks
//! seconds from the origin.

use crate::toolkit::protocol::{Failure, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::agenda::{Capacity, LowerBounds, Method, MovePreview, OptimizeProgress};
use skyplan_engine::Timestamp;

/// What the Agenda panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum AgendaRequest {
    /// Send the plan as it is ([`AgendaResponse::Plan`]); the first request
    /// of a session restores the saved plan first.
    State,
    /// Set the cluster's capacity (every step). Refused when the placed
    /// reservations need more somewhere.
    SetCapacity {
        /// The new capacity.
        capacity: Capacity,
    },
    /// Turn every signed-off or overridden SLO decision whose job is not in
    /// the plan yet into a request and place it with `method` (periodic
    /// requests first, then one-offs).
    AdmitDecisions {
        /// How to place them.
        method: Method,
        /// Let each skyline step stretch down to one container (Morpheus'
        /// parallelism estimate); otherwise the skyline is placed as it is.
        stretch: bool,
    },
    /// Place one one-off reservation of `steps` plan steps of `containers`
    /// default containers (`<1 core, 1024 MB>`) inside `[start, deadline]`.
    AddOneOff {
        /// Its name.
        name: String,
        /// Earliest start, seconds from the plan's origin.
        start_secs: i64,
        /// Deadline, seconds from the plan's origin.
        deadline_secs: i64,
        /// Containers per step.
        containers: f64,
        /// Steps of work.
        steps: usize,
        /// How to place it.
        method: Method,
        /// Let it stretch down to one container a step.
        stretch: bool,
    },
    /// Remove one reservation.
    Remove {
        /// Its id.
        id: u32,
    },
    /// What moving reservation `id` to start at `start` would give (answered
    /// by [`AgendaResponse::Preview`]); nothing changes.
    Preview {
        /// The reservation.
        id: u32,
        /// Candidate first step of its first instance.
        start: usize,
    },
    /// Move reservation `id` to start at `start` if that keeps its window
    /// and the capacity (answered by [`AgendaResponse::Plan`] or
    /// [`AgendaResponse::MoveRefused`]).
    Move {
        /// The reservation.
        id: u32,
        /// New first step of its first instance.
        start: usize,
    },
    /// Re-place every reservation not in `locked` together to minimize the
    /// peak (the engine's batch optimizer); locked ones stay. Undoable; the
    /// outcome says "peak P, at most G % above the optimum".
    Optimize {
        /// The page's id of this run (cancelling it names it).
        ticket: u32,
        /// Reservations that must not move.
        locked: Vec<u32>,
    },
    /// Lock (or unlock) one reservation for "Optimize"; saved with the
    /// plan, not an undoable change.
    Lock {
        /// The reservation.
        id: u32,
        /// Lock it (else unlock).
        lock: bool,
    },
    /// Take back the last change (capacity, admission, one-off, removal, move).
    Undo,
    /// Apply again the last change taken back.
    Redo,
    /// Place the plan's requests afresh with LowCost, greedy and earliest
    /// first, and compute lower bounds (answered by [`AgendaResponse::Compare`]
    /// or [`AgendaResponse::Failed`]).
    Compare {
        /// The comparison's ticket.
        ticket: u32,
    },
    /// Write the plan out (answered by [`AgendaResponse::Exported`]).
    Export {
        /// The format.
        format: PlanFormat,
        /// The YARN queue the reservations are submitted to (YARN only;
        /// empty: `default`).
        queue: String,
    },
}

impl AgendaRequest {
    /// Nothing supersedes an Agenda request: every change is made in
    /// order (a drag keeps one preview in flight on the page).
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        None
    }
}

/// A text format the plan is exported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanFormat {
    /// One row per run of equal steps of each instance: `name, instance,
    /// method, start, end, containers` (UTC times).
    Csv,
    /// YARN ReservationSystem submissions (`engine::agenda::plan_to_yarn`).
    Yarn,
}

impl PlanFormat {
    /// File name of the download.
    pub fn file_name(self) -> &'static str {
        match self {
            PlanFormat::Csv => "skyplan-agenda.csv",
            PlanFormat::Yarn => "skyplan-agenda-yarn.json",
        }
    }

    /// MIME type of the download.
    pub fn mime(self) -> &'static str {
        match self {
            PlanFormat::Csv => "text/csv",
            PlanFormat::Yarn => "application/json",
        }
    }
}

/// What the worker answers the Agenda panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum AgendaResponse {
    /// The plan after a change, or on request.
    Plan(Box<AgendaView>),
    /// A move tried without changing anything.
    Preview {
        /// The reservation.
        id: u32,
        /// The candidate start.
        start: usize,
        /// Feasibility, reason, peak and cost curve after the move.
        preview: MovePreview,
    },
    /// A move was refused; the reservation stays where it was.
    MoveRefused {
        /// The reservation.
        id: u32,
        /// The start that was refused.
        start: usize,
        /// Why, in words.
        reason: String,
    },
    /// A change was refused (a capacity too small, a malformed one-off,
    /// nothing to admit); the plan is unchanged.
    Refused {
        /// Why, in words.
        message: String,
    },
    /// The plan's requests placed by each method, with lower bounds.
    Compare(CompareView),
    /// A comparison could not be made.
    Failed(Failure),
    /// Where a running optimization is (its stage and moves).
    Progress(OptimizeProgress),
    /// The plan written out.
    Exported {
        /// Format of `text`.
        format: PlanFormat,
        /// File content.
        text: String,
    },
}

/// The plan as the Agenda panel shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgendaView {
    /// Changes since the session started: a [`CompareView`] of an older
    /// revision is stale.
    pub revision: u64,
    /// 00:00 UTC of the plan's day (once the plan exists).
    pub origin: Option<Timestamp>,
    /// Seconds per step.
    pub step_secs: i64,
    /// Steps in the plan (the LCM period).
    pub steps: usize,
    /// The capacity, once set by the user or derived on first admission.
    pub capacity: Option<Capacity>,
    /// How the capacity was set, in words.
    pub capacity_note: Option<String>,
    /// The placed reservations, by id.
    pub reservations: Vec<ReservationView>,
    /// Cost `c(t)` per step.
    pub cost: Vec<f64>,
    /// Largest cost.
    pub peak: f64,
    /// Changes that can be taken back.
    pub undo: usize,
    /// Changes that can be applied again.
    pub redo: usize,
    /// Signed-off or overridden decisions whose jobs are not in the plan.
    pub admissible: usize,
    /// What the last change did, when it has something to say.
    pub outcome: Option<Outcome>,
    /// The reservations locked for "Optimize" (ids, ascending), saved
    /// with the plan.
    #[serde(default)]
    pub locked: Vec<u32>,
}

/// What an admission (or another change) did beyond the plan itself.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// One line summary.
    pub summary: String,
    /// Requests or decisions not placed, with why: `(name, reason)`.
    pub problems: Vec<(String, String)>,
}

/// One placed reservation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReservationView {
    /// Plan id.
    pub id: u32,
    /// Job or reservation name.
    pub name: String,
    /// The period in seconds for a periodic reservation, `None` for a one-off.
    pub period_secs: Option<i64>,
    /// How it was placed.
    pub method: Method,
    /// First step of the first instance.
    pub start: usize,
    /// Containers per step from `start`.
    pub alloc: Vec<f64>,
    /// The first instance's window `[a, d)`, steps.
    pub window: (usize, usize),
    /// Steps between instances.
    pub period_steps: usize,
    /// Instances in the plan.
    pub instances: usize,
    /// Cores per container.
    pub cores: f64,
    /// Memory per container, MiB.
    pub memory_mb: f64,
    /// Largest container count of an instance.
    pub peak_containers: f64,
    /// Work of one instance, container-steps.
    pub demand: f64,
}

impl ReservationView {
    /// `(plan step, containers)` of every instance's allocation, wrapped
    /// into the plan (the same rule as the engine's `Reservation::occupied`).
    pub fn occupied(&self, steps: usize, start: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let steps = steps.max(1);
        (0..self.instances).flat_map(move |i| {
            self.alloc
                .iter()
                .enumerate()
                .map(move |(j, &c)| ((start + i * self.period_steps + j) % steps, c))
        })
    }
}

/// The same requests placed by each method on fresh plans.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareView {
    /// The comparison's ticket.
    pub ticket: u32,
    /// The [`AgendaView::revision`] it was computed for.
    pub revision: u64,
    /// Requests placed.
    pub requests: usize,
    /// One row per method: LowCost, greedy, earliest first.
    pub rows: Vec<CompareRow>,
    /// Lower bounds on the peak for all the requests.
    pub bound: LowerBounds,
    /// The batch optimizer's certified gap on the same requests (its row is
    /// the `Optimized` one), when it placed them all.
    pub optimized_gap: Option<f64>,
}

/// One method's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    /// The method.
    pub method: Method,
    /// Requests it placed.
    pub placed: usize,
    /// Peak cost of its plan.
    pub peak: f64,
    /// Peak over the best lower bound (when the bound is positive).
    pub ratio: Option<f64>,
    /// Milliseconds it took in the worker.
    pub millis: f64,
}

/// The label of a placement method.
pub fn method_label(method: Method) -> &'static str {
    method.label()
}

/// The `<select>` value of a method (its serde name).
pub fn method_value(method: Method) -> &'static str {
    match method {
        Method::LowCost => "low-cost",
        Method::Greedy => "greedy",
        Method::EarliestFirst => "earliest-first",
        Method::Optimized => "optimized",
    }
}

/// Every method, in the order the panel lists them.
pub const METHODS: [Method; 3] = [Method::LowCost, Method::Greedy, Method::EarliestFirst];

/// The rows of the comparison table: the admission methods, then the
/// batch optimizer on the same requests.
pub const COMPARED: [Method; 4] = [
    Method::LowCost,
    Method::Greedy,
    Method::EarliestFirst,
    Method::Optimized,
];

/// The method of a `<select>` value.
pub fn method_of(value: &str) -> Option<Method> {
    METHODS.into_iter().find(|m| method_value(*m) == value)
}
