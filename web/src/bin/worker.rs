//! The engine worker: owns the workspace and answers the page's requests in
//! order, one at a time, after restoring the saved workspace. Before each
//! answer it takes in every message that has arrived meanwhile and drops
//! the fits a later request for the same job supersedes. After each
//! answer it tells the page which request it has handled (by the page's
//! sequence number), so the page knows what a restarted worker must get
//! again.

use futures::channel::mpsc;
use futures::StreamExt;
use js_sys::Promise;
use skyplan_web::host::{coalesce, Host};
use skyplan_web::protocol::{decode, encode, seq_of, Request, Response};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, DedicatedWorkerGlobalScope, MessageEvent};

/// What travelled with a request: its file, and the page's sequence
/// number of it.
struct Posted {
    file: Option<Blob>,
    seq: Option<u32>,
}

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // A sweep worker of the page's pool serves sweep cells only.
    if skyplan_web::toolkit::sweep_worker::is_sweep_worker(&scope) {
        skyplan_web::toolkit::sweep_worker::serve(scope);
        return;
    }

    let outbox = Rc::new({
        let scope = scope.clone();
        move |response: &Response| {
            let posted = encode(response, None)
                .and_then(|m| scope.post_message(&m).map_err(|e| format!("{e:?}")));
            if let Err(e) = posted {
                web_sys::console::error_1(&format!("skyplan worker: response lost: {e}").into());
            }
        }
    });

    // Requests queue up here while one is being answered (or the saved
    // workspace is being restored), so they are handled strictly in order.
    let (queue, mut requests) = mpsc::unbounded::<(Request, Posted)>();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new({
        let outbox = Rc::clone(&outbox);
        move |event: MessageEvent| match decode::<Request>(&event.data()) {
            Ok((request, file)) => {
                let seq = seq_of(&event.data());
                let _ = queue.unbounded_send((request, Posted { file, seq }));
            }
            Err(e) => outbox(&Response::Notice {
                message: format!("The engine worker could not read a request: {e}"),
            }),
        }
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();

    let factory = scope.indexed_db().ok().flatten();
    wasm_bindgen_futures::spawn_local(async move {
        let mut host = Host::new(outbox.clone());
        host.start(factory).await;
        let mut pending = VecDeque::new();
        loop {
            if pending.is_empty() {
                match requests.next().await {
                    Some(request) => pending.push_back(request),
                    None => break,
                }
            }
            // Messages posted while the last request was answered are still
            // events in the worker's task queue: let them in, then keep only
            // the latest fit of each job.
            next_task(&scope).await;
            while let Ok(request) = requests.try_recv() {
                pending.push_back(request);
            }
            coalesce(&mut pending);
            if let Some((request, posted)) = pending.pop_front() {
                host.handle(request, posted.file).await;
                if let Some(seq) = posted.seq {
                    outbox(&Response::Handled { seq });
                }
            }
        }
    });
}

/// Resolves from a new task (a zero timeout), after the events queued now.
async fn next_task(scope: &DedicatedWorkerGlobalScope) {
    let promise = Promise::new(&mut |resolve, _reject| {
        if scope.set_timeout_with_callback(&resolve).is_err() {
            let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
        }
    });
    let _ = JsFuture::from(promise).await;
}
