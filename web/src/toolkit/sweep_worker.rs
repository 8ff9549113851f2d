//! The worker side of a sweep pool: a worker started with the name
//! [`SWEEP_WORKER`] answers each [`CellAsk`] — the plan (the sweep checked,
//! its cells counted: engine code, so not the page's) or one cell's row —
//! one at a time, and keeps nothing between asks. The engine's cell is a pure
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

/// The answer to `ask`: the sweep's plan (its number of cells) or a
/// cell's row, or why the sweep is refused or the ask unreadable.
pub fn answer(ask: &CellAsk) -> CellAnswer {
    let (ticket, sweep, cell) = match ask {
        CellAsk::Plan { ticket, sweep } => (*ticket, sweep, None),
        CellAsk::Cell {
            ticket,
            sweep,
            cell,
        } => (*ticket, sweep, Some(*cell)),
    };
    let refused = |message: String| CellAnswer::Refused { ticket, message };
    let spec: SweepSpec = match serde_json::from_str(sweep) {
        Ok(s) => s,
        Err(e) => return refused(format!("the sweep could not be read: {e}")),
    };
    let checked = spec
        .validate()
        .and_then(|()| cell.map_or(Ok(()), |k| spec.check_cell(k)));
    if let Err(e) = checked {
        return refused(e.to_string());
    }
    let Some(cell) = cell else {
        return CellAnswer::Planned {
            ticket,
            cells: spec.cells(),
        };
    };
    match serde_json::to_string(&spec.run_cell(cell)) {
        Ok(row) => CellAnswer::Cell { ticket, row },
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

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::shaping::{LoadSweep, Params, Predictor};

    /// A sweep of a small workload (20 applications on 4 hosts, the
    /// oracle's forecasts) over `loads`, as the page sends it.
    fn ask_json(loads: Vec<f64>) -> String {
        let mut base = Params {
            hosts: 4,
            predictor: Predictor::Oracle,
            ..Params::default()
        };
        base.workload.apps = 20;
        let spec = SweepSpec::Shaping(LoadSweep::over_loads(base, loads));
        serde_json::to_string(&spec).unwrap()
    }

    #[test]
    fn a_plan_counts_the_cells_the_engine_does() {
        let sweep = ask_json(vec![0.5, 1.3, 2.0]);
        let answer = answer(&CellAsk::Plan { ticket: 7, sweep });
        assert_eq!(answer, CellAnswer::Planned { ticket: 7, cells: 3 });
    }

    #[test]
    fn a_plan_of_an_invalid_sweep_is_refused_with_the_engines_reason() {
        let sweep = ask_json(Vec::new());
        let CellAnswer::Refused { ticket, message } = answer(&CellAsk::Plan { ticket: 3, sweep })
        else {
            panic!("an empty sweep was planned");
        };
        assert_eq!(ticket, 3);
        assert!(message.contains("loads"), "{message}");
    }

    #[test]
    fn a_cell_past_the_grid_or_an_unreadable_sweep_is_refused() {
        let past = CellAsk::Cell {
            ticket: 1,
            sweep: ask_json(vec![1.0]),
            cell: 1,
        };
        assert!(matches!(answer(&past), CellAnswer::Refused { ticket: 1, .. }));
        let broken = CellAsk::Plan {
            ticket: 2,
            sweep: "{".to_owned(),
        };
        assert!(matches!(answer(&broken), CellAnswer::Refused { ticket: 2, .. }));
    }

    #[test]
    fn a_cell_answers_the_engines_row() {
        let sweep = ask_json(vec![1.0]);
        let spec: SweepSpec = serde_json::from_str(&sweep).unwrap();
        let CellAnswer::Cell { ticket, row } = answer(&CellAsk::Cell {
            ticket: 4,
            sweep,
            cell: 0,
        }) else {
            panic!("cell 0 was refused");
        };
        assert_eq!(ticket, 4);
        let row: skyplan_engine::sweep::CellRow = serde_json::from_str(&row).unwrap();
        assert_eq!(row, spec.run_cell(0));
    }
}
