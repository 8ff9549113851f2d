//! The page's end of the worker boundary: spawns the engine worker and
//! carries [`Request`]s to it and [`Response`]s back.
//!
//! The worker is Trunk's `worker` bin (wasm-bindgen `no-modules` output); it
//! is started from a small Blob script that loads `worker.js` and
//! `worker_bg.wasm` next to the page. A wasm worker only listens once its
//! module has loaded, so requests are held back until it posts
//! [`Response::Ready`].
//!
//! The engine runs synchronously in the worker, so no message can stop a
//! run: [`WorkerLink::restart`] ends the worker and starts a fresh one,
//! which restores the saved workspace as at start-up. Every request is kept
//! until the worker says it has handled it ([`Response::Handled`]), so the
//! new worker gets again what the old one had not finished (but the runs
//! the page cancelled).

use crate::protocol::{decode, encode, js_error_text, set_seq, Request, Response};
use js_sys::Array;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, ErrorEvent, Event, MessageEvent, Url, Worker};

/// A running engine worker.
#[derive(Clone)]
pub struct WorkerLink {
    inner: Rc<Link>,
}

/// A request as the link keeps it until the worker has handled it.
struct Sent {
    /// The page's sequence number of it.
    seq: u32,
    /// The request (to tell, on a restart, whether it is still wanted).
    request: Request,
    /// The posted object (the message and its file).
    message: JsValue,
}

/// What a response or a failure of the link is handed to.
type OnResponse = Rc<dyn Fn(Response)>;
/// What a failure of the link is described to.
type OnFailure = Rc<dyn Fn(String)>;

struct Link {
    worker: RefCell<Worker>,
    /// Counts the workers started: a message from an ended one is ignored.
    generation: Cell<u32>,
    ready: Cell<bool>,
    /// Requests not posted yet (the worker is not ready), in order.
    backlog: RefCell<Vec<Sent>>,
    /// Requests posted and not handled yet, in order.
    unfinished: RefCell<VecDeque<Sent>>,
    next_seq: Cell<u32>,
    on_response: OnResponse,
    on_failure: OnFailure,
}

impl Link {
    /// Posts `sent` to the worker and keeps it until it is handled.
    fn post(&self, sent: Sent) -> Result<(), String> {
        let posted = self
            .worker
            .borrow()
            .post_message(&sent.message)
            .map_err(|e| js_error_text(&e));
        self.unfinished.borrow_mut().push_back(sent);
        posted
    }

    /// The worker is ready: posts the backlog in order.
    fn flush(&self) {
        let backlog = std::mem::take(&mut *self.backlog.borrow_mut());
        for sent in backlog {
            if let Err(e) = self.post(sent) {
                (self.on_failure)(format!("Could not reach the engine worker: {e}"));
            }
        }
    }

    /// Takes in one message of the worker of `generation`.
    fn receive(&self, generation: u32, data: &JsValue) {
        if generation != self.generation.get() {
            return;
        }
        match decode::<Response>(data) {
            // Handled in order: everything up to `seq` is done (or dropped
            // for a later request still kept).
            Ok((Response::Handled { seq }, _)) => {
                self.unfinished.borrow_mut().retain(|s| s.seq > seq);
            }
            Ok((response, _)) => {
                if response == Response::Ready && !self.ready.replace(true) {
                    self.flush();
                }
                (self.on_response)(response);
            }
            Err(e) => (self.on_failure)(format!("Unreadable message from the engine worker: {e}")),
        }
    }
}

impl WorkerLink {
    /// Starts the worker. `on_response` gets every response in order;
    /// `on_failure` gets a description of anything that breaks the link
    /// (the worker script failing to load, a message that cannot be read).
    ///
    /// # Errors
    /// When the page cannot create the worker at all.
    pub fn spawn(
        on_response: impl Fn(Response) + 'static,
        on_failure: impl Fn(String) + 'static,
    ) -> Result<WorkerLink, String> {
        let worker = start_worker().map_err(|e| js_error_text(&e))?;
        let inner = Rc::new(Link {
            worker: RefCell::new(worker),
            generation: Cell::new(0),
            ready: Cell::new(false),
            backlog: RefCell::new(Vec::new()),
            unfinished: RefCell::new(VecDeque::new()),
            next_seq: Cell::new(0),
            on_response: Rc::new(on_response),
            on_failure: Rc::new(on_failure),
        });
        listen(&inner);
        Ok(WorkerLink { inner })
    }

    /// Sends a request, with the file it refers to, if any.
    ///
    /// # Errors
    /// When the message cannot be encoded or posted.
    pub fn send(&self, request: &Request, file: Option<&Blob>) -> Result<(), String> {
        let message = encode(request, file)?;
        let seq = self.inner.next_seq.get().wrapping_add(1);
        self.inner.next_seq.set(seq);
        set_seq(&message, seq)?;
        let sent = Sent {
            seq,
            request: request.clone(),
            message,
        };
        if self.inner.ready.get() {
            self.inner.post(sent)
        } else {
            self.inner.backlog.borrow_mut().push(sent);
            Ok(())
        }
    }

    /// Ends the worker, whatever it is doing, and starts a fresh one, which
    /// restores the saved workspace. The requests the old worker had not
    /// finished (the one it was answering too) go to the new one, before
    /// any sent meanwhile, but those `wanted` refuses (cancelled runs).
    ///
    /// # Errors
    /// When the page cannot create the new worker.
    pub fn restart(&self, wanted: impl Fn(&Request) -> bool) -> Result<(), String> {
        let link = &self.inner;
        {
            let old = link.worker.borrow();
            old.set_onmessage(None);
            old.set_onerror(None);
            old.terminate();
        }
        link.generation.set(link.generation.get().wrapping_add(1));
        link.ready.set(false);
        {
            let mut backlog = link.backlog.borrow_mut();
            let mut again: Vec<Sent> = link
                .unfinished
                .borrow_mut()
                .drain(..)
                .filter(|s| wanted(&s.request))
                .collect();
            again.append(&mut backlog);
            *backlog = again;
        }
        let worker = start_worker().map_err(|e| js_error_text(&e))?;
        *link.worker.borrow_mut() = worker;
        listen(link);
        Ok(())
    }
}

/// Hands the current worker's messages and errors to `link`.
fn listen(link: &Rc<Link>) {
    let generation = link.generation.get();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new({
        let link = Rc::clone(link);
        move |event: MessageEvent| link.receive(generation, &event.data())
    });
    let onerror = Closure::<dyn FnMut(Event)>::new({
        let link = Rc::clone(link);
        move |event: Event| {
            if generation != link.generation.get() {
                return;
            }
            let detail = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "its script or module could not be loaded".into());
            (link.on_failure)(format!("The engine worker failed: {detail}"));
        }
    });
    let worker = link.worker.borrow();
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    // The worker keeps them as long as it lives; a restart drops the old
    // worker's and leaks these few bytes each time.
    onmessage.forget();
    onerror.forget();
}

/// Creates the engine worker from a Blob script that loads Trunk's worker
/// build from the page's base URL.
fn start_worker() -> Result<Worker, JsValue> {
    start_worker_named(None)
}

/// Creates a worker of Trunk's worker build, named `name` if given (a
/// sweep worker, [`crate::toolkit::protocol::SWEEP_WORKER`], serves sweep
/// cells instead of the workspace).
///
/// # Errors
/// When the page has no base URL or cannot create the worker.
pub fn start_worker_named(name: Option<&str>) -> Result<Worker, JsValue> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or_else(|| JsValue::from_str("the page has no base URL"))?;
    let script_url = Url::new_with_base("worker.js", &base)?.href();
    let wasm_url = Url::new_with_base("worker_bg.wasm", &base)?.href();
    let script = format!(
        "importScripts({});wasm_bindgen({{ module_or_path: {} }});",
        js_string(&script_url),
        js_string(&wasm_url)
    );
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&Array::of1(&script.into()), &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    match name {
        Some(name) => {
            let options = web_sys::WorkerOptions::new();
            options.set_name(name);
            Worker::new_with_options(&url, &options)
        }
        None => Worker::new(&url),
    }
}

/// A JS string literal of `s`.
fn js_string(s: &str) -> String {
    js_sys::JSON::stringify(&JsValue::from_str(s))
        .map(String::from)
        .unwrap_or_else(|_| format!("{s:?}"))
}
