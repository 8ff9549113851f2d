//! What every part's desk shares on the page: the link to the worker,
//! notices about storage or the worker, the page's readiness and fresh ids.
//! A small `Copy` handle, so each desk keeps one and no desk needs the
//! whole [`crate::state::Studio`].

use crate::client::WorkerLink;
use crate::protocol::{Request, Response};
use leptos::prelude::*;
use web_sys::File;

/// The page's shared handle: sending, notices, ids.
#[derive(Clone, Copy)]
pub struct Page {
    /// The worker has restored the workspace and sent its first summary.
    pub ready: RwSignal<bool>,
    /// Messages about storage or the worker, not yet dismissed.
    pub notices: RwSignal<Vec<String>>,
    link: StoredValue<Option<WorkerLink>, LocalStorage>,
    next_id: StoredValue<u32>,
}

impl Page {
    /// Not connected to a worker yet.
    pub fn new() -> Page {
        Page {
            ready: RwSignal::new(false),
            notices: RwSignal::new(Vec::new()),
            link: StoredValue::new_local(None),
            next_id: StoredValue::new(0),
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
