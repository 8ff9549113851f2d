//! The engine worker: owns the workspace and answers the page's requests in
//! order, one at a time, after restoring the saved workspace.

use futures::channel::mpsc;
use futures::StreamExt;
use skyplan_web::host::Host;
use skyplan_web::protocol::{decode, encode, Request, Response};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Blob, DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();

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
    let (queue, mut requests) = mpsc::unbounded::<(Request, Option<Blob>)>();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new({
        let outbox = Rc::clone(&outbox);
        move |event: MessageEvent| match decode::<Request>(&event.data()) {
            Ok(request) => {
                let _ = queue.unbounded_send(request);
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
        let mut host = Host::new(Box::new(move |r| outbox(r)));
        host.start(factory).await;
        while let Some((request, file)) = requests.next().await {
            host.handle(request, file).await;
        }
    });
}
