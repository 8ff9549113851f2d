//! The Agenda panel's state: the plan as the worker last sent it, the drag
//! in progress with its live preview, the comparison of methods, and what
//! the last change said. Like every desk, no algorithm: every
//! figure comes from the worker.
//!
//! A drag keeps at most one [`AgendaRequest::Preview`] in flight: while one
//! is out, only the latest wanted position is remembered, and sent when the
//! answer arrives. The drop sends [`AgendaRequest::Move`]; the worker checks
//! it again, so a drop that beats its preview is still judged right.

use crate::page::Page;
use crate::parts::agenda::protocol::{
    AgendaRequest, AgendaResponse, AgendaView, CompareView, PlanFormat,
};
use crate::protocol::now_ms;
use crate::toolkit::form;
use crate::toolkit::job::{Job, CANCELLED};
use crate::widgets::download::save_text;
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::agenda::{Capacity, Method, MovePreview, OptimizeProgress};

/// The capacity as typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CapacityForm {
    /// Cores.
    pub cores: String,
    /// Memory, MB.
    pub memory: String,
}

impl CapacityForm {
    /// The form showing `capacity`.
    pub fn of(capacity: &Capacity) -> CapacityForm {
        CapacityForm {
            cores: trimmed(capacity.cores, 3),
            memory: trimmed(capacity.memory_mb, 0),
        }
    }

    /// The capacity, or why not.
    pub fn capacity(&self) -> Result<Capacity, String> {
        Ok(Capacity {
            cores: form::positive(&self.cores, "Cores")?,
            memory_mb: form::positive(&self.memory, "Memory (MB)")?,
        })
    }
}

/// The one-off reservation form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct OneOffForm {
    /// Its name.
    pub name: String,
    /// Earliest start, `HH:MM` UTC.
    pub start: String,
    /// Deadline, `HH:MM` UTC (up to 24:00).
    pub deadline: String,
    /// Containers.
    pub containers: String,
    /// Duration, minutes.
    pub minutes: String,
}

impl Default for OneOffForm {
    fn default() -> Self {
        OneOffForm {
            name: "adhoc_backfill".into(),
            start: "13:00".into(),
            deadline: "17:00".into(),
            containers: "20".into(),
            minutes: "60".into(),
        }
    }
}

impl OneOffForm {
    /// The one-off's request on a plan of `step_secs`-second steps, placed
    /// by `method` (skylines stretched or not), or why not.
    pub fn request(
        &self,
        step_secs: i64,
        method: Method,
        stretch: bool,
    ) -> Result<AgendaRequest, String> {
        let start_secs = form::clock(&self.start, "Start")?;
        let deadline_secs = form::clock(&self.deadline, "Deadline")?;
        let containers = form::positive(&self.containers, "Containers")?;
        let minutes = form::positive(&self.minutes, "Duration (minutes)")?;
        Ok(AgendaRequest::AddOneOff {
            name: self.name.clone(),
            start_secs,
            deadline_secs,
            containers,
            steps: ((minutes * 60.0) / step_secs.max(1) as f64).ceil() as usize,
            method,
            stretch,
        })
    }
}

/// A reservation being dragged.
#[derive(Clone, Debug, PartialEq)]
pub struct Drag {
    /// The reservation.
    pub id: u32,
    /// Its start in the plan (where it snaps back to).
    pub from: usize,
    /// The step position (fractional) where it was grabbed.
    pub grab: f64,
    /// The candidate start under the pointer.
    pub start: usize,
    /// The latest preview answered.
    pub preview: Option<LivePreview>,
    /// Dropped: the move is with the worker.
    pub dropped: bool,
}

/// A preview as the timeline draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct LivePreview {
    /// The start it was asked for.
    pub start: usize,
    /// The worker's answer.
    pub preview: MovePreview,
    /// `performance.now()` when it was asked, to time the round trip.
    pub asked_at: f64,
}

/// The Agenda panel's signals.
#[derive(Clone, Copy)]
pub struct AgendaDesk {
    page: Page,
    /// The plan as last sent (`None` until the worker answered).
    pub view: RwSignal<Option<AgendaView>>,
    /// The method admissions and one-offs are placed with.
    pub method: RwSignal<Method>,
    /// Whether skylines may stretch down to one container a step.
    pub stretch: RwSignal<bool>,
    /// The drag in progress.
    pub drag: RwSignal<Option<Drag>>,
    /// Why the last drop snapped back, until the next drag.
    pub reason: RwSignal<Option<String>>,
    /// The engine's last refusal of a change, until dismissed or replaced.
    pub error: RwSignal<Option<String>>,
    /// The comparison of methods.
    pub compare: Job<CompareView>,
    /// A change was sent and not answered yet.
    pub busy: RwSignal<bool>,
    /// Milliseconds of the last preview round trip (asked → answered →
    /// drawn), as the timeline measured it.
    pub latency: RwSignal<Option<f64>>,
    /// The YARN queue of the YARN export.
    pub queue: RwSignal<String>,
    /// The running optimization's last progress report, if one runs.
    pub optimizing: RwSignal<Option<OptimizeProgress>>,
    /// The ticket of the optimization asked and not answered yet.
    pub optimize_out: RwSignal<Option<u32>>,
    /// Reservations the planner locked: "Optimize" leaves them where they
    /// are (ids; the engine keeps ids across optimization and undo).
    pub locked: RwSignal<std::collections::BTreeSet<u32>>,
    /// The preview in flight: `(id, start, asked at)`.
    in_flight: StoredValue<Option<(u32, usize, f64)>>,
    /// The position wanted while one is in flight.
    wanted: StoredValue<Option<(u32, usize)>>,
}

impl AgendaDesk {
    /// Locks or unlocks reservation `id` for "Optimize" (shown at once,
    /// saved by the worker with the plan).
    pub fn toggle_lock(self, id: u32, lock: bool) {
        self.locked.update(|l| {
            if lock {
                l.insert(id);
            } else {
                l.remove(&id);
            }
        });
        self.page.send(AgendaRequest::Lock { id, lock });
    }

    /// The locked reservations still in the plan.
    pub fn locked_ids(self) -> Vec<u32> {
        let present: std::collections::BTreeSet<u32> = self.view.with_untracked(|v| {
            v.as_ref()
                .map(|v| v.reservations.iter().map(|r| r.id).collect())
                .unwrap_or_default()
        });
        self.locked
            .with_untracked(|l| l.intersection(&present).copied().collect())
    }

    /// Nothing known yet; LowCost selected. The desk follows the worker's
    /// restarts: an optimization out is cancelled, and the plan asked of
    /// the new worker (its undo history is gone with the old one).
    pub fn new(page: Page) -> AgendaDesk {
        let desk = AgendaDesk {
            page,
            view: RwSignal::new(None),
            method: RwSignal::new(Method::LowCost),
            stretch: RwSignal::new(true),
            drag: RwSignal::new(None),
            reason: RwSignal::new(None),
            error: RwSignal::new(None),
            compare: Job::new(page),
            busy: RwSignal::new(false),
            latency: RwSignal::new(None),
            queue: RwSignal::new("default".into()),
            optimizing: RwSignal::new(None),
            optimize_out: RwSignal::new(None),
            locked: RwSignal::new(std::collections::BTreeSet::new()),
            in_flight: StoredValue::new(None),
            wanted: StoredValue::new(None),
        };
        page.on_cancel(move || desk.cancel_optimize());
        page.on_restart(move || desk.restarted());
        desk
    }

    /// Re-places every unlocked reservation together (the batch
    /// optimizer).
    pub fn optimize(self) {
        let ticket = self.page.next_id();
        self.optimize_out.set(Some(ticket));
        let locked = self.locked_ids();
        self.agenda_change(AgendaRequest::Optimize { ticket, locked });
    }

    /// The worker restarts: an optimization out is cancelled (the plan
    /// stays as saved before it).
    fn cancel_optimize(self) -> Option<u32> {
        let ticket = self.optimize_out.try_get_untracked().flatten()?;
        self.optimize_out.set(None);
        self.optimizing.set(None);
        self.error.set(Some(CANCELLED.to_owned()));
        Some(ticket)
    }

    /// A fresh worker is starting: what was in flight with the old one is
    /// forgotten and the plan asked again.
    fn restarted(self) {
        self.busy.set(false);
        self.drag.set(None);
        self.in_flight.set_value(None);
        self.wanted.set_value(None);
        self.open_agenda();
    }
}

impl AgendaDesk {
    fn agenda_send(self, request: AgendaRequest) {
        self.page.send(request);
    }

    /// Sends a change to the plan; the panel shows it busy until answered.
    pub fn agenda_change(self, request: AgendaRequest) {
        self.error.set(None);
        self.busy.set(true);
        self.agenda_send(request);
    }

    /// The Agenda panel was opened: ask for the plan (and the count of
    /// decisions waiting to be admitted).
    pub fn open_agenda(self) {
        self.agenda_send(AgendaRequest::State);
    }

    /// Sets the capacity.
    pub fn set_agenda_capacity(self, capacity: Capacity) {
        self.agenda_change(AgendaRequest::SetCapacity { capacity });
    }

    /// Asks for the comparison of methods.
    pub fn compare_agenda(self) {
        let ticket = self.compare.start();
        self.agenda_send(AgendaRequest::Compare { ticket });
    }

    /// Asks for the plan as a file; downloaded when it arrives.
    pub fn export_agenda(self, format: PlanFormat) {
        let queue = self.queue.get_untracked();
        self.agenda_send(AgendaRequest::Export { format, queue });
    }

    /// Starts dragging reservation `id`, grabbed at step position `grab`.
    pub fn grab(self, id: u32, grab: f64) {
        let from = self.view.with_untracked(|v| {
            v.as_ref()
                .and_then(|v| v.reservations.iter().find(|r| r.id == id))
                .map(|r| r.start)
        });
        let Some(from) = from else { return };
        self.reason.set(None);
        self.drag.set(Some(Drag {
            id,
            from,
            grab,
            start: from,
            preview: None,
            dropped: false,
        }));
    }

    /// The pointer is at step position `at` during a drag: move the
    /// candidate and ask for its preview.
    pub fn drag_to(self, at: f64, steps: usize) {
        let Some(mut drag) = self.drag.get_untracked() else {
            return;
        };
        if drag.dropped {
            return;
        }
        let start = (drag.from as f64 + (at - drag.grab).round())
            .clamp(0.0, steps.saturating_sub(1) as f64) as usize;
        if start == drag.start {
            return;
        }
        drag.start = start;
        let id = drag.id;
        self.drag.set(Some(drag));
        self.preview(id, start);
    }

    /// Asks for a preview, or remembers it while another is in flight.
    fn preview(self, id: u32, start: usize) {
        if self.in_flight.get_value().is_some() {
            self.wanted.set_value(Some((id, start)));
            return;
        }
        self.in_flight.set_value(Some((id, start, now_ms())));
        self.agenda_send(AgendaRequest::Preview { id, start });
    }

    /// The reservation was dropped: move it there (the worker decides), or
    /// let go if it did not move.
    pub fn drop_drag(self) {
        let Some(mut drag) = self.drag.get_untracked() else {
            return;
        };
        if drag.dropped {
            return;
        }
        if drag.start == drag.from {
            self.drag.set(None);
            return;
        }
        drag.dropped = true;
        let (id, start) = (drag.id, drag.start);
        self.drag.set(Some(drag));
        self.agenda_change(AgendaRequest::Move { id, start });
    }

    /// Gives up the drag (Escape): the reservation stays where it was.
    pub fn cancel_drag(self) {
        if self
            .drag
            .with_untracked(|d| d.as_ref().is_some_and(|d| !d.dropped))
        {
            self.drag.set(None);
        }
    }

    /// Takes in one Agenda response.
    pub fn apply(self, response: AgendaResponse) {
        let agenda = self;
        match response {
            AgendaResponse::Plan(view) => {
                agenda.busy.set(false);
                agenda.optimizing.set(None);
                agenda.optimize_out.set(None);
                // A new plan ends any drag (a dropped one has landed).
                agenda.drag.set(None);
                // The worker's locks: those of reservations still planned.
                let locked: std::collections::BTreeSet<u32> = view.locked.iter().copied().collect();
                if agenda.locked.with_untracked(|l| *l != locked) {
                    agenda.locked.set(locked);
                }
                agenda.view.set(Some(*view));
            }
            AgendaResponse::Preview { id, start, preview } => {
                let asked_at = match agenda.in_flight.get_value() {
                    Some((i, s, t)) if i == id && s == start => t,
                    _ => now_ms(),
                };
                agenda.in_flight.set_value(None);
                let live = agenda
                    .drag
                    .with_untracked(|d| d.as_ref().is_some_and(|d| d.id == id && !d.dropped));
                if live {
                    agenda.drag.update(|d| {
                        if let Some(d) = d {
                            d.preview = Some(LivePreview {
                                start,
                                preview,
                                asked_at,
                            });
                        }
                    });
                    if let Some((i, s)) = agenda.wanted.get_value() {
                        agenda.wanted.set_value(None);
                        if (i, s) != (id, start) {
                            self.preview(i, s);
                        }
                    }
                } else {
                    agenda.wanted.set_value(None);
                }
            }
            AgendaResponse::MoveRefused { id, reason, .. } => {
                agenda.busy.set(false);
                agenda.drag.set(None);
                let name = agenda.view.with_untracked(|v| {
                    v.as_ref()
                        .and_then(|v| v.reservations.iter().find(|r| r.id == id))
                        .map(|r| r.name.clone())
                });
                agenda.reason.set(Some(match name {
                    Some(name) => format!("{name} snapped back: {reason}"),
                    None => format!("Snapped back: {reason}"),
                }));
            }
            AgendaResponse::Progress(p) => agenda.optimizing.set(Some(p)),
            AgendaResponse::Refused { message } => {
                agenda.busy.set(false);
                agenda.optimizing.set(None);
                agenda.optimize_out.set(None);
                agenda.error.set(Some(message));
            }
            AgendaResponse::Compare(table) => {
                agenda.compare.done(table.ticket, table);
            }
            AgendaResponse::Failed(failure) => {
                if agenda.compare.failed(&failure) {
                    agenda.error.set(Some(failure.message));
                }
            }
            AgendaResponse::Exported { format, text } => {
                if let Err(e) = save_text(format.file_name(), format.mime(), &text) {
                    self.page
                        .notify(format!("The plan could not be downloaded: {e}"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_read_with_the_toolkit_wording() {
        let form = CapacityForm {
            cores: " 2.5 ".into(),
            memory: "0".into(),
        };
        assert_eq!(
            form.capacity(),
            Err("Memory (MB): a number > 0, got 0".into())
        );
        let oneoff = OneOffForm {
            deadline: "24:01".into(),
            ..OneOffForm::default()
        };
        assert_eq!(
            oneoff.request(300, Method::LowCost, true),
            Err("Deadline: a time HH:MM up to 24:00, got `24:01`".into())
        );
        let Ok(AgendaRequest::AddOneOff {
            start_secs, steps, ..
        }) = OneOffForm::default().request(300, Method::LowCost, true)
        else {
            panic!("the default one-off is a request");
        };
        assert_eq!((start_secs, steps), (13 * 3600, 12));
    }
}
