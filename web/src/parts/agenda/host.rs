//! The worker's side of the Agenda panel: one reservation plan (Morpheus
//! §6) over one day at one-minute steps, the changes made to it with undo
//! and redo, and its copy in IndexedDB.
//!
//! - **Capacity** is the user's. Until they set one, it is derived once,
//!   when the first jobs are admitted: 1.25 × the lower bound on the peak
//!   load of those requests, in cores (memory 4096 MB a core), rounded up —
//!   and the panel says so next to the capacity inputs.
//! - **Requests** come from the SLO decisions in the workspace (signed off
//!   or overridden, by [`requests_from_decisions`]) or from the one-off form.
//!   The plan's origin is 00:00 UTC of the day of the earliest reference
//!   among the decisions first admitted (the `skyplan plan` rule), or of
//!   today for a plan started by a one-off.
//! - **Undo** keeps up to [`UNDO_DEPTH`] changes: a move as its inverse move,
//!   anything else as a copy of the whole agenda before it.
//! - **Persistence**: after every change the agenda (origin, capacity and its
//!   note, and the engine's `Plan` — requests, placements, load) is saved as
//!   the `meta` record `agenda`; it is read back on the first request of a
//!   session. The undo history is not saved.

use crate::parts::agenda::protocol::{
    method_label, AgendaRequest, AgendaResponse, AgendaView, Outcome, PlanFormat, ReservationView,
};
use crate::parts::agenda::views::{compare_view, reservation_view};
use crate::store::PanelRecord;
use crate::toolkit::host::{Ctx, PartHost};
use crate::toolkit::protocol::Failure;
use skyplan_engine::agenda::{
    day_of, optimize_plan_with_progress, plan_to_yarn, AgendaParams, Capacity, Method,
    OptimizeParams, Plan, Recurrence, ReservationRequest,
};
use skyplan_engine::export::plan_csv;
use skyplan_engine::slo::SloDecision;
use skyplan_engine::time::format_timestamp;
use skyplan_engine::{ContainerSize, Timestamp, Workspace};

/// Changes kept for undo (and redo).
pub const UNDO_DEPTH: usize = 50;

/// Smallest parallelism a skyline step may be stretched to (the CLI's
/// `--min-parallelism` default), or none: the skyline as it is.
fn min_parallelism(stretch: bool) -> f64 {
    if stretch {
        1.0
    } else {
        f64::INFINITY
    }
}

/// The `meta` record the agenda is saved under.
const META_KEY: &str = "agenda";

/// Version of the saved record; another version is not read back.
const SAVED_VERSION: u32 = 1;

/// Everything the panel works on, as saved: the engine's panel type, which
/// a workspace bundle carries too.
use skyplan_engine::bundle::AgendaState as Agenda;

crate::store::panel_record!(
    /// The `meta` record `agenda`: the plan with its record version.
    SavedAgenda { agenda: Agenda },
    META_KEY,
    "agenda",
    SAVED_VERSION
);

/// A change, as undo (or redo) takes it back.
enum Change {
    /// A move: taken back by the inverse move.
    Moved {
        label: String,
        id: u32,
        from: usize,
        to: usize,
    },
    /// Anything else: the agenda before (or after, for redo) the change.
    Replaced { label: String, agenda: Box<Agenda> },
}

impl Change {
    fn label(&self) -> &str {
        match self {
            Change::Moved { label, .. } | Change::Replaced { label, .. } => label,
        }
    }
}

/// The Agenda panel's worker state.
pub struct AgendaHost {
    restored: bool,
    agenda: Agenda,
    undo: Vec<Change>,
    redo: Vec<Change>,
    revision: u64,
    outcome: Option<Outcome>,
}

impl Default for AgendaHost {
    fn default() -> Self {
        AgendaHost::new()
    }
}

/// Tells the panel why a change was refused.
fn refuse(ctx: &Ctx<'_>, message: impl Into<String>) {
    ctx.send(AgendaResponse::Refused {
        message: message.into(),
    });
}

impl PartHost for AgendaHost {
    type Request = AgendaRequest;

    /// Answers one Agenda request: the workspace holds the SLO decisions,
    /// the store the saved plan.
    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: AgendaRequest) {
        self.restore_once(ctx).await;
        match request {
            AgendaRequest::State => self.post_view(ctx),
            AgendaRequest::SetCapacity { capacity } => self.set_capacity(ctx, capacity).await,
            AgendaRequest::AdmitDecisions { method, stretch } => {
                self.admit_decisions(ctx, method, stretch).await;
            }
            AgendaRequest::AddOneOff {
                name,
                start_secs,
                deadline_secs,
                containers,
                steps,
                method,
                stretch,
            } => {
                let one_off = OneOff {
                    name,
                    window: (start_secs, deadline_secs),
                    containers,
                    steps,
                    stretch,
                };
                self.add_one_off(ctx, one_off, method).await;
            }
            AgendaRequest::Remove { id } => self.remove(ctx, id).await,
            AgendaRequest::Preview { id, start } => match &self.agenda.plan {
                Some(plan) => match plan.preview_move(id, start) {
                    Ok(preview) => ctx.send(AgendaResponse::Preview { id, start, preview }),
                    Err(e) => refuse(ctx, e.to_string()),
                },
                None => refuse(ctx, "There is no plan yet."),
            },
            AgendaRequest::Move { id, start } => self.move_to(ctx, id, start).await,
            AgendaRequest::Optimize { locked, .. } => self.optimize(ctx, &locked).await,
            AgendaRequest::Lock { id, lock } => {
                self.agenda.locked.retain(|&l| l != id);
                if lock {
                    self.agenda.locked.push(id);
                    self.agenda.locked.sort_unstable();
                }
                self.save(ctx).await;
                self.post_view(ctx);
            }
            AgendaRequest::Undo => self.step_back(ctx, true).await,
            AgendaRequest::Redo => self.step_back(ctx, false).await,
            AgendaRequest::Compare { ticket } => self.compare(ctx, ticket),
            AgendaRequest::Export { format, queue } => self.export(ctx, format, &queue),
        }
    }

    /// The demo's plan: when nothing is planned yet, the signed-off SLOs
    /// admitted by LowCost with stretched skylines (the panel's defaults),
    /// as if the planner had pressed "Admit".
    async fn seed(&mut self, ctx: &mut Ctx<'_>) {
        self.restore_once(ctx).await;
        let planned = self
            .agenda
            .plan
            .as_ref()
            .is_some_and(|p| !p.reservations().is_empty());
        if !planned && !self.admissible(ctx.workspace()).is_empty() {
            self.admit_decisions(ctx, Method::LowCost, true).await;
        }
    }

    /// Forgets the plan, its capacity and its history ("Clear" on the
    /// Traces panel empties everything).
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        self.restored = true;
        self.agenda = Agenda::default();
        self.undo.clear();
        self.redo.clear();
        self.outcome = None;
        self.revision += 1;
        self.save(ctx).await;
        self.post_view(ctx);
    }
}

impl AgendaHost {
    /// No plan yet; the saved one is read on the first request.
    pub fn new() -> AgendaHost {
        AgendaHost {
            restored: false,
            agenda: Agenda::default(),
            undo: Vec::new(),
            redo: Vec::new(),
            revision: 0,
            outcome: None,
        }
    }

    /// Reads the saved agenda on the first request of a session.
    async fn restore_once(&mut self, ctx: &Ctx<'_>) {
        if !self.restored {
            self.restored = true;
            if let Some(saved) = ctx.read_record::<SavedAgenda>().await {
                self.agenda = saved.agenda;
            }
        }
    }

    fn params() -> AgendaParams {
        AgendaParams::default()
    }

    /// The plan as the panel shows it.
    fn view(&self, workspace: &Workspace) -> AgendaView {
        let params = Self::params();
        let plan = self.agenda.plan.as_ref();
        let mut reservations: Vec<ReservationView> = plan
            .map(|p| p.reservations().iter().map(reservation_view).collect())
            .unwrap_or_default();
        reservations.sort_by_key(|r| r.id);
        let cost = plan.map(Plan::cost_curve).unwrap_or_default();
        AgendaView {
            revision: self.revision,
            origin: self.agenda.origin,
            step_secs: params.step_secs,
            steps: (params.period_secs / params.step_secs) as usize,
            capacity: self.agenda.capacity,
            capacity_note: self.agenda.capacity_note.clone(),
            peak: cost.iter().copied().fold(0.0, f64::max),
            cost,
            reservations,
            undo: self.undo.len(),
            redo: self.redo.len(),
            admissible: self.admissible(workspace).len(),
            outcome: self.outcome.clone(),
            locked: self.locked(),
        }
    }

    /// The locks of reservations still planned.
    fn locked(&self) -> Vec<u32> {
        let plan = self.agenda.plan.as_ref();
        self.agenda
            .locked
            .iter()
            .copied()
            .filter(|&id| plan.is_some_and(|p| p.reservation(id).is_some()))
            .collect()
    }

    fn post_view(&self, ctx: &Ctx<'_>) {
        ctx.send(AgendaResponse::Plan(Box::new(self.view(ctx.workspace()))));
    }

    /// Signed-off and overridden decisions whose jobs are not in the plan.
    fn admissible(&self, workspace: &Workspace) -> Vec<SloDecision> {
        self.agenda.admissible(workspace.decisions())
    }

    /// Records a change made to the agenda (whose state before it is
    /// `before`), saves, and posts the plan.
    async fn changed(&mut self, ctx: &Ctx<'_>, change: Change, outcome: Outcome) {
        push_bounded(&mut self.undo, change);
        self.redo.clear();
        self.outcome = Some(outcome);
        self.revision += 1;
        self.save(ctx).await;
        self.post_view(ctx);
    }

    async fn set_capacity(&mut self, ctx: &Ctx<'_>, capacity: Capacity) {
        let ok = |v: f64| v.is_finite() && v > 0.0;
        if !ok(capacity.cores) || !ok(capacity.memory_mb) {
            refuse(ctx, "Capacity: cores and memory must be positive numbers.");
            return;
        }
        let before = self.agenda.clone();
        if let Some(plan) = &mut self.agenda.plan {
            if let Err(e) = plan.set_capacity(vec![capacity]) {
                refuse(
                    ctx,
                    format!(
                        "Capacity {} cores, {} MB refused: {}",
                        capacity.cores,
                        capacity.memory_mb,
                        e.to_string()
                            .trim_start_matches("agenda parameter `capacity` ")
                    ),
                );
                return;
            }
        }
        self.agenda.capacity = Some(capacity);
        self.agenda.capacity_note = Some("Set by you.".into());
        let label = format!(
            "capacity {} cores, {} MB",
            capacity.cores, capacity.memory_mb
        );
        let outcome = Outcome {
            summary: format!(
                "Capacity set to {} cores, {} MB.",
                capacity.cores, capacity.memory_mb
            ),
            problems: Vec::new(),
        };
        let change = Change::Replaced {
            label,
            agenda: Box::new(before),
        };
        self.changed(ctx, change, outcome).await;
    }

    /// Makes sure there is a plan, deriving the capacity from `requests`
    /// when none is set. Returns why not, when not.
    fn ensure_plan(&mut self, requests: &[ReservationRequest]) -> Result<(), String> {
        self.agenda.ensure_plan(&Self::params(), requests)
    }

    async fn admit_decisions(&mut self, ctx: &Ctx<'_>, method: Method, stretch: bool) {
        let decisions = self.admissible(ctx.workspace());
        if decisions.is_empty() {
            refuse(ctx,
                "No signed-off or overridden SLO is waiting: sign jobs off in the SLOs panel first.",
            );
            return;
        }
        let before = self.agenda.clone();
        // The engine's admission (the one `skyplan bundle` uses): periodic
        // requests first, then one-offs; what is refused is kept with why.
        let admitted = self.agenda.admit_decisions(
            &Self::params(),
            &decisions,
            method,
            min_parallelism(stretch),
        );
        let admission = match admitted {
            Ok(a) => a,
            Err(why) => {
                self.agenda = before;
                refuse(ctx, capitalized(&why));
                return;
            }
        };
        let jobs = decisions.len();
        let outcome = Outcome {
            summary: format!(
                "Admitted {} of {} request{} from {jobs} decision{} by {}.",
                admission.placed,
                admission.requested,
                plural(admission.requested),
                plural(jobs),
                method_label(method)
            ),
            problems: admission.problems,
        };
        let label = format!("admission of {jobs} job{}", plural(jobs));
        let change = Change::Replaced {
            label,
            agenda: Box::new(before),
        };
        self.changed(ctx, change, outcome).await;
    }

    async fn add_one_off(&mut self, ctx: &Ctx<'_>, one_off: OneOff, method: Method) {
        let params = Self::params();
        let request = match one_off.request(&params) {
            Ok(r) => r,
            Err(why) => {
                refuse(ctx, why);
                return;
            }
        };
        let before = self.agenda.clone();
        if let Err(why) = self.ensure_plan(std::slice::from_ref(&request)) {
            self.agenda = before;
            refuse(ctx, why);
            return;
        }
        if self.agenda.origin.is_none() {
            self.agenda.origin = Some(day_of((js_sys::Date::now() / 1000.0) as i64));
        }
        let name = request.name.clone();
        let plan = self.agenda.plan.as_mut().expect("ensured");
        match plan.admit(request, method) {
            Ok(_) => {
                let outcome = Outcome {
                    summary: format!("One-off {name} placed by {}.", method_label(method)),
                    problems: Vec::new(),
                };
                let change = Change::Replaced {
                    label: format!("one-off {name}"),
                    agenda: Box::new(before),
                };
                self.changed(ctx, change, outcome).await;
            }
            Err(r) => {
                self.agenda = before;
                refuse(ctx, format!("One-off {name} not placed: {}", r.reason));
            }
        }
    }

    async fn remove(&mut self, ctx: &Ctx<'_>, id: u32) {
        let before = self.agenda.clone();
        let Some(removed) = self.agenda.plan.as_mut().and_then(|p| p.remove(id)) else {
            refuse(ctx, format!("There is no reservation {id} any more."));
            return;
        };
        let name = removed.request.name;
        let outcome = Outcome {
            summary: format!("Removed {name}."),
            problems: Vec::new(),
        };
        let change = Change::Replaced {
            label: format!("removal of {name}"),
            agenda: Box::new(before),
        };
        self.changed(ctx, change, outcome).await;
    }

    async fn move_to(&mut self, ctx: &Ctx<'_>, id: u32, start: usize) {
        let Some(plan) = self.agenda.plan.as_mut() else {
            refuse(ctx, "There is no plan yet.");
            return;
        };
        let Some(from) = plan.reservation(id).map(|r| r.start) else {
            refuse(ctx, format!("There is no reservation {id} any more."));
            return;
        };
        match plan.move_to(id, start) {
            Ok(p) if p.feasible => {
                let name = plan
                    .reservation(id)
                    .map(|r| r.request.name.clone())
                    .unwrap_or_default();
                let at = self.agenda.origin.map_or_else(String::new, |o| {
                    format!(" to {}", clock(o, start, Self::params().step_secs))
                });
                let outcome = Outcome {
                    summary: format!("Moved {name}{at}; peak cost {:.3}.", p.peak),
                    problems: Vec::new(),
                };
                let change = Change::Moved {
                    label: format!("move of {name}"),
                    id,
                    from,
                    to: start,
                };
                self.changed(ctx, change, outcome).await;
            }
            Ok(p) => ctx.send(AgendaResponse::MoveRefused {
                id,
                start,
                reason: p.reason.unwrap_or_else(|| "not feasible".into()),
            }),
            Err(e) => ctx.send(AgendaResponse::MoveRefused {
                id,
                start,
                reason: e.to_string(),
            }),
        }
    }

    /// Re-places the unlocked reservations together (the batch optimizer);
    /// undoable as one change.
    async fn optimize(&mut self, ctx: &Ctx<'_>, locked: &[u32]) {
        let before = self.agenda.clone();
        let Some(plan) = self.agenda.plan.as_ref() else {
            refuse(ctx, "There is no plan to optimize yet.");
            return;
        };
        let mut progress = |p| ctx.send(AgendaResponse::Progress(p));
        let out = match optimize_plan_with_progress(
            plan,
            locked,
            &OptimizeParams::default(),
            &mut progress,
        ) {
            Ok(out) => out,
            Err(e) => {
                refuse(ctx, format!("Optimize: {e}."));
                return;
            }
        };
        let r = &out.report;
        let outcome = Outcome {
            summary: format!(
                "Optimized: peak {:.3} (was {:.3}), at most {:.1} % above the optimum; {} of {} reservations moved, {} locked.",
                r.peak,
                r.start_peak,
                r.gap * 100.0,
                r.moved,
                r.unlocked,
                r.locked
            ),
            problems: Vec::new(),
        };
        self.agenda.plan = Some(out.plan);
        let change = Change::Replaced {
            label: "optimization".into(),
            agenda: Box::new(before),
        };
        self.changed(ctx, change, outcome).await;
    }

    /// Undo (`back`) or redo the last change.
    async fn step_back(&mut self, ctx: &Ctx<'_>, back: bool) {
        let (from, word) = if back {
            (&mut self.undo, "Undone")
        } else {
            (&mut self.redo, "Redone")
        };
        let Some(change) = from.pop() else {
            refuse(
                ctx,
                if back {
                    "Nothing to undo."
                } else {
                    "Nothing to redo."
                },
            );
            return;
        };
        let label = change.label().to_owned();
        let inverse = match change {
            Change::Moved {
                label,
                id,
                from,
                to,
            } => {
                let moved = self
                    .agenda
                    .plan
                    .as_mut()
                    .map(|p| p.move_to(id, from).map(|p| p.feasible));
                if moved != Some(Ok(true)) {
                    // The plan no longer matches the history: drop it.
                    self.undo.clear();
                    self.redo.clear();
                    refuse(ctx, format!("The {label} can no longer be taken back."));
                    self.post_view(ctx);
                    return;
                }
                Change::Moved {
                    label,
                    id,
                    from: to,
                    to: from,
                }
            }
            Change::Replaced { label, agenda } => {
                let now = std::mem::replace(&mut self.agenda, *agenda);
                // Locks are the planner's, not a change: undo keeps them.
                self.agenda.locked.clone_from(&now.locked);
                Change::Replaced {
                    label,
                    agenda: Box::new(now),
                }
            }
        };
        push_bounded(if back { &mut self.redo } else { &mut self.undo }, inverse);
        self.outcome = Some(Outcome {
            summary: format!("{word}: {label}."),
            problems: Vec::new(),
        });
        self.revision += 1;
        self.save(ctx).await;
        self.post_view(ctx);
    }

    /// The plan's requests placed afresh by each method, with lower bounds.
    fn compare(&self, ctx: &Ctx<'_>, ticket: u32) {
        ctx.send(match &self.agenda.plan {
            Some(plan) => AgendaResponse::Compare(compare_view(plan, ticket, self.revision)),
            None => {
                AgendaResponse::Failed(Failure::new(ticket, "There is no plan to compare yet."))
            }
        });
    }

    fn export(&self, ctx: &Ctx<'_>, format: PlanFormat, queue: &str) {
        let (Some(plan), Some(origin)) = (&self.agenda.plan, self.agenda.origin) else {
            refuse(ctx, "There is no plan to export yet.");
            return;
        };
        let text = match format {
            PlanFormat::Csv => plan_csv(plan, origin),
            PlanFormat::Yarn => {
                let queue = queue.trim();
                plan_to_yarn(
                    plan,
                    origin,
                    if queue.is_empty() { "default" } else { queue },
                )
            }
        };
        ctx.send(AgendaResponse::Exported { format, text });
    }

    async fn save(&self, ctx: &Ctx<'_>) {
        let agenda = Agenda {
            locked: self.locked(),
            ..self.agenda.clone()
        };
        ctx.write_record(&SavedAgenda::of_state(agenda)).await;
    }
}

/// The one-off form's request.
struct OneOff {
    name: String,
    window: (i64, i64),
    containers: f64,
    steps: usize,
    stretch: bool,
}

impl OneOff {
    /// The request, or why the form is wrong.
    fn request(&self, params: &AgendaParams) -> Result<ReservationRequest, String> {
        let name = self.name.trim();
        if name.is_empty() {
            return Err("A one-off needs a name.".into());
        }
        if !(self.containers.is_finite() && self.containers > 0.0) {
            return Err("A one-off needs a positive number of containers.".into());
        }
        if self.steps == 0 {
            return Err("A one-off needs at least one step of work.".into());
        }
        let (a, d) = self.window;
        if a < 0 || d > params.period_secs || d <= a {
            return Err(
                "A one-off's window must lie within the plan's day, start before its deadline."
                    .into(),
            );
        }
        if (self.steps as i64).saturating_mul(params.step_secs) > d - a {
            return Err(format!(
                "{} steps of work do not fit a {}-minute window.",
                self.steps,
                (d - a) / 60
            ));
        }
        Ok(ReservationRequest::from_skyline(
            name,
            Recurrence::OneOff,
            (a, d),
            ContainerSize::default(),
            &vec![self.containers; self.steps],
            params.step_secs,
            min_parallelism(self.stretch),
        ))
    }
}

/// `HH:MM` of plan step `step`.
fn clock(origin: Timestamp, step: usize, step_secs: i64) -> String {
    let t = format_timestamp(origin + step as i64 * step_secs);
    t.get(11..16).unwrap_or(&t).to_owned()
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn push_bounded(stack: &mut Vec<Change>, change: Change) {
    if stack.len() == UNDO_DEPTH {
        stack.remove(0);
    }
    stack.push(change);
}

/// `why` with its first letter capitalized, as the panel's notices are.
fn capitalized(why: &str) -> String {
    let mut c = why.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_off_form_is_checked() {
        let p = AgendaParams::default();
        let form = |name: &str, window, containers, steps| OneOff {
            name: name.into(),
            window,
            containers,
            steps,
            stretch: true,
        };
        assert!(form("", (0, 600), 2.0, 5).request(&p).is_err());
        assert!(form("x", (600, 0), 2.0, 5).request(&p).is_err());
        assert!(form("x", (0, 240), 2.0, 5).request(&p).is_err());
        assert!(form("x", (0, 600), 0.0, 5).request(&p).is_err());
        let r = form("x", (0, 600), 2.0, 5).request(&p).unwrap();
        assert_eq!(r.total_demand(), 2.0 * 5.0 * 60.0);
        assert_eq!(r.recurrence, Recurrence::OneOff);
    }
}
