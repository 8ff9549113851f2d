//! What every part's desk shares on the page: the link to the worker,
//! notices about storage or the worker, the page's readiness, fresh ids,
//! and the restart of the worker that cancels the runs out. A small `Copy`
//! handle, so each desk keeps one and no desk needs the whole
//! [`crate::state::Studio`].

use crate::client::WorkerLink;
use crate::protocol::{Request, Response};
use leptos::prelude::*;
use std::collections::HashSet;
use web_sys::File;

/// What a job does when the worker restarts: marks a run that was out
/// cancelled and names its ticket.
type OnCancel = Box<dyn Fn() -> Option<u32>>;
/// What a desk does once a fresh worker is starting: forgets what only
/// the old worker knew, asks the new one again.
type OnRestart = Box<dyn Fn()>;

/// The page's shared handle: sending, notices, ids.
#[derive(Clone, Copy)]
pub struct Page {
    /// The worker has restored the workspace and sent its first summary.
    pub ready: RwSignal<bool>,
    /// Messages about storage or the worker, not yet dismissed.
    pub notices: RwSignal<Vec<String>>,
    /// A fresh worker is restoring the saved workspace (after a cancel).
    pub restarting: RwSignal<bool>,
    link: StoredValue<Option<WorkerLink>, LocalStorage>,
    next_id: StoredValue<u32>,
    on_cancel: StoredValue<Vec<OnCancel>, LocalStorage>,
    on_restart: StoredValue<Vec<OnRestart>, LocalStorage>,
}

impl Page {
    /// Not connected to a worker yet.
    pub fn new() -> Page {
        Page {
            ready: RwSignal::new(false),
            notices: RwSignal::new(Vec::new()),
            restarting: RwSignal::new(false),
            link: StoredValue::new_local(None),
            next_id: StoredValue::new(0),
            on_cancel: StoredValue::new_local(Vec::new()),
            on_restart: StoredValue::new_local(Vec::new()),
        }
    }

    /// `cancel` runs when the worker restarts, first: a job marks its run
    /// cancelled (if one is out) and names its ticket, whose requests the
    /// new worker does not get.
    pub fn on_cancel(self, cancel: impl Fn() -> Option<u32> + 'static) {
        self.on_cancel
            .update_value(|hooks| hooks.push(Box::new(cancel)));
    }

    /// `restarted` runs when the worker restarts, once the new one is
    /// starting: a desk forgets what only the old worker knew and asks the
    /// new one again (its requests wait until it is ready).
    pub fn on_restart(self, restarted: impl Fn() + 'static) {
        self.on_restart
            .update_value(|hooks| hooks.push(Box::new(restarted)));
    }

    /// Stops whatever the engine is doing: every run out is cancelled (its
    /// last result kept), the worker is ended and a fresh one restores the
    /// saved workspace. Requests the old worker had not finished go to the
    /// new one, but those of the cancelled runs.
    pub fn cancel_runs(self) {
        let cancelled: HashSet<u32> = self
            .on_cancel
            .with_value(|hooks| hooks.iter().filter_map(|cancel| cancel()).collect());
        let restarted = self.link.with_value(|link| match link {
            Some(link) => link.restart(|request| {
                request
                    .ticket()
                    .is_none_or(|ticket| !cancelled.contains(&ticket))
            }),
            None => Err("the engine worker is not running".into()),
        });
        match restarted {
            Ok(()) => {
                self.restarting.set(true);
                self.on_restart
                    .with_value(|hooks| hooks.iter().for_each(|restarted| restarted()));
            }
            Err(e) => self.notify(format!("The engine could not be restarted: {e}")),
        }
    }

    /// Starts the engine worker and hands each response to `apply`.
    pub fn connect(self, apply: impl Fn(Response) + 'static) {
        let linked = WorkerLink::spawn(apply, move |message| self.notify(message));
        match linked {
            Ok(link) => self.link.set_value(Some(link)),
            Err(e) => self.notify(format!("The engine worker could not be started: {e}")),
        }
    }

    /// A fresh id (tickets, problem keys), unique on this page.
    pub fn next_id(self) -> u32 {
        self.next_id.update_value(|n| *n += 1);
        self.next_id.get_value()
    }

    /// Shows a message about storage or the worker.
    pub fn notify(self, message: String) {
        self.notices.update(|n| n.push(message));
    }

    /// Sends a request (a part's, or the envelope) to the worker,
    /// reporting failure as a notice.
    pub fn send(self, request: impl Into<Request>) {
        self.send_with(request, None);
    }

    /// Sends a request with a file travelling next to it.
    pub fn send_with(self, request: impl Into<Request>, file: Option<&File>) {
        let request = request.into();
        let sent = self.link.with_value(|link| match link {
            Some(link) => link.send(&request, file.map(AsRef::as_ref)),
            None => Err("the engine worker is not running".into()),
        });
        if let Err(e) = sent {
            self.notify(format!("Request not sent: {e}"));
        }
    }
}

impl Default for Page {
    fn default() -> Self {
        Page::new()
    }
}
