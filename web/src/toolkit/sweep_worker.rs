//! The worker side of a sweep pool: a worker started with the name
//! [`SWEEP_WORKER`] answers each [`CellAsk`] with the cell's row, one at a
//! time, and keeps nothing between cells. The engine's cell is a pure
//! function of the sweep and its number, so which worker ran it does not
//! matter.

use super::protocol::{CellAnswer, CellAsk, SWEEP_WORKER};
use crate::protocol::{decode, encode};
use skyplan_engine::sweep::SweepSpec;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Whether this worker was started as a sweep worker.
pub fn is_sweep_worker(scope: &DedicatedWorkerGlobalScope) -> bool {
    scope.name() == SWEEP_WORKER
}

/// The answer to `ask`: the cell's row, or why the ask was unreadable.
pub fn answer(ask: &CellAsk) -> CellAnswer {
    let refused = |message: String| CellAnswer::Refused {
        ticket: ask.ticket,
        message,
    };
    let spec: SweepSpec = match serde_json::from_str(&ask.sweep) {
        Ok(s) => s,
        Err(e) => return refused(format!("the sweep could not be read: {e}")),
    };
    if let Err(e) = spec.validate().and_then(|()| spec.check_cell(ask.cell)) {
        return refused(e.to_string());
    }
    match serde_json::to_string(&spec.run_cell(ask.cell)) {
        Ok(row) => CellAnswer::Cell {
            ticket: ask.ticket,
            row,
        },
        Err(e) => refused(format!("the row could not be written: {e}")),
    }
}

/// Serves cells until the page terminates the worker.
pub fn serve(scope: DedicatedWorkerGlobalScope) {
    let post = {
        let scope = scope.clone();
        move |answer: &CellAnswer| {
            if let Ok(m) = encode(answer, None) {
                let _ = scope.post_message(&m);
            }
        }
    };
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new({
        let post = post.clone();
        move |event: MessageEvent| match decode::<CellAsk>(&event.data()) {
            Ok((ask, _)) => post(&answer(&ask)),
            Err(e) => post(&CellAnswer::Refused {
                ticket: 0,
                message: format!("an unreadable ask: {e}"),
            }),
        }
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&CellAnswer::Ready);
}
