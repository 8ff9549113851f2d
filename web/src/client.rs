//! The page's end of the worker boundary: spawns the engine worker and
//! carries [`Request`]s to it and [`Response`]s back.
//!
//! The worker is Trunk's `worker` bin (wasm-bindgen `no-modules` output); it
//! is started from a small Blob script that loads `worker.js` and
//! `worker_bg.wasm` next to the page. A wasm worker only listens once its
//! module has loaded, so requests are held back until it posts
//! [`Response::Ready`].

use crate::protocol::{decode, encode, js_error_text, Request, Response};
use js_sys::Array;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, ErrorEvent, Event, MessageEvent, Url, Worker};

/// A running engine worker.
#[derive(Clone)]
pub struct WorkerLink {
    inner: Rc<Link>,
}

struct Link {
    worker: Worker,
    ready: Cell<bool>,
    /// Messages sent before the worker was ready, in order.
    backlog: RefCell<Vec<JsValue>>,
}

impl Link {
    fn post(&self, message: &JsValue) -> Result<(), String> {
        self.worker
            .post_message(message)
            .map_err(|e| js_error_text(&e))
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
            worker,
            ready: Cell::new(false),
            backlog: RefCell::new(Vec::new()),
        });
        let on_failure = Rc::new(on_failure);

        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new({
            let inner = Rc::clone(&inner);
            let on_failure = Rc::clone(&on_failure);
            move |event: MessageEvent| match decode::<Response>(&event.data()) {
                Ok((response, _)) => {
                    if response == Response::Ready && !inner.ready.replace(true) {
                        let backlog = std::mem::take(&mut *inner.backlog.borrow_mut());
                        for message in &backlog {
                            if let Err(e) = inner.post(message) {
                                on_failure(format!("Could not reach the engine worker: {e}"));
                            }
                        }
                    }
                    on_response(response);
                }
                Err(e) => on_failure(format!("Unreadable message from the engine worker: {e}")),
            }
        });
        inner
            .worker
            .set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        onmessage.forget();

        let onerror = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            let detail = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "its script or module could not be loaded".into());
            on_failure(format!("The engine worker failed: {detail}"));
        });
        inner
            .worker
            .set_onerror(Some(onerror.as_ref().unchecked_ref()));
        onerror.forget();

        Ok(WorkerLink { inner })
    }

    /// Sends a request, with the file it refers to, if any.
    ///
    /// # Errors
    /// When the message cannot be encoded or posted.
    pub fn send(&self, request: &Request, file: Option<&Blob>) -> Result<(), String> {
        let message = encode(request, file)?;
        if self.inner.ready.get() {
            self.inner.post(&message)
        } else {
            self.inner.backlog.borrow_mut().push(message);
            Ok(())
        }
    }
}

/// Creates the worker from a Blob script that loads Trunk's worker build
/// from the page's base URL.
fn start_worker() -> Result<Worker, JsValue> {
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
    Worker::new(&url)
}

/// A JS string literal of `s`.
fn js_string(s: &str) -> String {
    js_sys::JSON::stringify(&JsValue::from_str(s))
        .map(String::from)
        .unwrap_or_else(|_| format!("{s:?}"))
}
