//! A piece of work the page asks of the worker, as the page keeps it: its
//! last result, whether a run is out, how far it has come and why the last
//! ask was refused. Every run gets a fresh ticket from the page, so a new
//! run (or a refused ask) supersedes the one before: answers, progress and
//! failures of any other ticket are dropped. Cancelling a run restarts the
//! worker ([`Page::cancel_runs`]): every job with a run out is cancelled
//! then, its last result kept.

use super::protocol::{Failure, Progress};
use crate::page::Page;
use leptos::prelude::*;

/// What a cancelled run's error line says.
pub const CANCELLED: &str = "Cancelled — the engine restarted from the saved workspace.";

/// One job's state on the page: a slot for its last result `T`.
pub struct Job<T: Send + Sync + 'static> {
    page: Page,
    /// The last result (kept when a later run is refused or fails).
    pub view: RwSignal<Option<T>>,
    /// A run is out.
    pub running: RwSignal<bool>,
    /// Steps done and in all of the run that is out.
    pub progress: RwSignal<(usize, usize)>,
    /// Why the last ask was refused (the form, the worker or the engine).
    pub error: RwSignal<Option<String>>,
    ticket: StoredValue<u32>,
    /// The ticket of the run whose result `view` holds.
    shown: StoredValue<Option<u32>>,
}

impl<T: Send + Sync + 'static> Clone for Job<T> {
    fn clone(&self) -> Self {
        *self
    }
}

// Signals are handles: a job is Copy whatever it holds.
impl<T: Send + Sync + 'static> Copy for Job<T> {}

impl<T: Send + Sync + 'static> Job<T> {
    /// Nothing asked yet. The job follows the worker's restarts: a run
    /// out then is cancelled.
    pub fn new(page: Page) -> Job<T> {
        let job = Job {
            page,
            view: RwSignal::new(None),
            running: RwSignal::new(false),
            progress: RwSignal::new((0, 0)),
            error: RwSignal::new(None),
            ticket: StoredValue::new(0),
            shown: StoredValue::new(None),
        };
        page.on_cancel(move || job.cancel());
        job
    }

    /// The page the job asks through.
    pub fn page(self) -> Page {
        self.page
    }

    /// The worker is restarting: a run out is cancelled — superseded, so
    /// nothing of it is taken in any more, its last result kept and the
    /// error line saying so. Returns the cancelled run's ticket.
    pub fn cancel(self) -> Option<u32> {
        // A job whose owner is gone has nothing out.
        if !self.running.try_get_untracked()? {
            return None;
        }
        let ticket = self.ticket.get_value();
        self.supersede();
        self.running.set(false);
        self.progress.set((0, 0));
        self.error.set(Some(CANCELLED.to_owned()));
        Some(ticket)
    }

    /// Starts a run: its ticket, fresh (every earlier run is superseded);
    /// the last refusal goes.
    pub fn start(self) -> u32 {
        let ticket = self.supersede();
        self.error.set(None);
        self.running.set(true);
        self.progress.set((0, 0));
        ticket
    }

    /// Starts a run with what the form asks, or shows why the form cannot
    /// be sent.
    pub fn start_with<S>(self, asked: Result<S, String>) -> Option<(u32, S)> {
        match asked {
            Ok(settings) => Some((self.start(), settings)),
            Err(message) => {
                self.refuse(message);
                None
            }
        }
    }

    /// The ask was refused before it was sent: `message` is shown, and a
    /// run still out is superseded (its answer would be stale).
    pub fn refuse(self, message: String) {
        self.supersede();
        self.running.set(false);
        self.error.set(Some(message));
    }

    /// Forgets the last result and the last refusal; a run still out is
    /// superseded.
    pub fn forget(self) {
        self.supersede();
        self.running.set(false);
        self.view.set(None);
        self.shown.set_value(None);
        self.error.set(None);
    }

    fn supersede(self) -> u32 {
        let ticket = self.page.next_id();
        self.ticket.set_value(ticket);
        ticket
    }

    /// The ticket of the latest run.
    pub fn ticket(self) -> u32 {
        self.ticket.get_value()
    }

    /// `ticket` is the latest run's.
    pub fn is_current(self, ticket: u32) -> bool {
        ticket == self.ticket.get_value()
    }

    /// Takes in progress of the run that is out; `false` when it is not
    /// this job's.
    pub fn progressed(self, progress: &Progress) -> bool {
        let mine = self.is_current(progress.ticket) && self.running.get_untracked();
        if mine {
            self.progress.set((progress.done, progress.total));
        }
        mine
    }

    /// Takes in the result of run `ticket`; `false` (and nothing changes)
    /// when a later run superseded it.
    pub fn done(self, ticket: u32, view: T) -> bool {
        let mine = self.is_current(ticket);
        if mine {
            self.running.set(false);
            self.shown.set_value(Some(ticket));
            self.view.set(Some(view));
        }
        mine
    }

    /// The ticket of the run whose result is shown (later requests about
    /// that result name it), if one is.
    pub fn shown(self) -> Option<u32> {
        self.shown.get_value()
    }

    /// Takes in a refusal of run `ticket`; `false` when it is not the
    /// latest run's. The last result stays.
    pub fn failed(self, failure: &Failure) -> bool {
        let mine = self.is_current(failure.ticket);
        if mine {
            self.running.set(false);
            self.error.set(Some(failure.message.clone()));
        }
        mine
    }

    /// Share of the run done, `0..=1` (tracked).
    pub fn fraction(self) -> f64 {
        let (done, total) = self.progress.get();
        if total == 0 {
            0.0
        } else {
            (done as f64 / total as f64).clamp(0.0, 1.0)
        }
    }

    /// A status line (tracked): `{busy}… done / total{unit}` while a run is
    /// out (`{busy}…` before its first progress), what `done` says of the
    /// last result, or `idle` before any.
    pub fn status(
        self,
        busy: &'static str,
        unit: &'static str,
        idle: &'static str,
        done: impl Fn(&T) -> String + Send + Sync + 'static,
    ) -> Signal<String> {
        self.status_by(move |progress| busy_text(busy, progress, unit), idle, done)
    }

    /// A status line as [`Job::status`], with `busy` wording the run's
    /// progress (steps done and in all).
    pub fn status_by(
        self,
        busy: impl Fn((usize, usize)) -> String + Send + Sync + 'static,
        idle: &'static str,
        done: impl Fn(&T) -> String + Send + Sync + 'static,
    ) -> Signal<String> {
        Signal::derive(move || {
            if self.running.get() {
                return busy(self.progress.get());
            }
            self.view
                .with(|v| v.as_ref().map(&done))
                .unwrap_or_else(|| idle.to_owned())
        })
    }
}

/// `{what}… done / total{unit}` (counts with thin-space thousands), or
/// `{what}…` before anything is counted.
pub fn busy_text(what: &str, (done, total): (usize, usize), unit: &str) -> String {
    use crate::widgets::format::count;
    if total == 0 {
        format!("{what}…")
    } else {
        format!("{what}… {} / {}{unit}", count(done), count(total))
    }
}
