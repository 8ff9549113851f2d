//! The worker's side every part shares: the one context a part host answers
//! in ([`Ctx`]) and the one shape of a part host ([`PartHost`]), which
//! [`crate::host::Host`] dispatches to; and timing of work.

use super::protocol::Progress;
use crate::protocol::{now_ms, Response};
use crate::store::{MetaRecord, Store};
use skyplan_engine::Workspace;
use web_sys::Blob;

/// What a request is answered in: the engine's workspace, storage, where
/// answers go, and the file posted with the request (imports only).
pub struct Ctx<'a> {
    /// The engine's workspace.
    pub workspace: &'a mut Workspace,
    /// Where the parts save what survives a reload (`None`: no persistence
    /// this session).
    pub store: Option<&'a Store>,
    /// Where answers go (the worker posts them to the page).
    pub post: &'a dyn Fn(&Response),
    /// The file that travelled with the request, if any.
    pub file: Option<Blob>,
}

impl<'a> Ctx<'a> {
    /// The workspace, read only.
    pub fn workspace(&self) -> &Workspace {
        self.workspace
    }

    /// Posts an answer (a part's response, or the envelope's).
    pub fn send(&self, response: impl Into<Response>) {
        (self.post)(&response.into());
    }

    /// Tells the page about something outside the part's own work
    /// (storage, a dropped record).
    pub fn notice(&self, message: impl Into<String>) {
        self.send(Response::Notice {
            message: message.into(),
        });
    }

    /// A progress callback for run `ticket`: `progress(done, total)` posts
    /// `wrap(Progress)`.
    pub fn progress<R: Into<Response>>(
        &self,
        ticket: u32,
        wrap: impl Fn(Progress) -> R + 'a,
    ) -> impl FnMut(usize, usize) + 'a {
        let post = self.post;
        move |done, total| {
            post(
                &wrap(Progress {
                    ticket,
                    done,
                    total,
                })
                .into(),
            )
        }
    }

    /// The part's saved record `R`, if there is one it can read; a record
    /// it cannot read is reported as a notice.
    pub async fn read_record<R: MetaRecord>(&self) -> Option<R> {
        match self.store?.read_record::<R>().await {
            Ok(record) => record,
            Err(message) => {
                self.notice(message);
                None
            }
        }
    }

    /// Saves the part's record; failure is reported as a notice.
    pub async fn write_record<R: MetaRecord>(&self, record: &R) {
        if let Some(store) = self.store {
            if let Err(message) = store.write_record(record).await {
                self.notice(message);
            }
        }
    }

    /// Deletes the part's record ("Clear"); failure is reported as a
    /// notice.
    pub async fn delete_record<R: MetaRecord>(&self) {
        if let Some(store) = self.store {
            if let Err(message) = store.delete_record::<R>().await {
                self.notice(message);
            }
        }
    }
}

/// A part's worker side: answers its panel's requests one at a time, and
/// follows the workspace's demo and "Clear". One signature for every part,
/// so [`crate::host::Host`] dispatches them all alike.
// One worker thread: the futures are never sent anywhere, so no `Send`
// bound is wanted on them.
#[allow(async_fn_in_trait)]
pub trait PartHost {
    /// The part's request (one variant of [`crate::protocol::Request`]).
    type Request;

    /// Answers one request of the part's panel.
    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: Self::Request);

    /// The demo's content beyond its files, after the demo is loaded
    /// (nothing by default).
    async fn seed(&mut self, _ctx: &mut Ctx<'_>) {}

    /// "Clear" emptied the workspace: forget what the part holds (nothing
    /// by default).
    async fn clear(&mut self, _ctx: &mut Ctx<'_>) {}
}

/// `work()` and the milliseconds it took.
pub fn timed<T>(work: impl FnOnce() -> T) -> (T, f64) {
    let t0 = now_ms();
    let out = work();
    (out, now_ms() - t0)
}
