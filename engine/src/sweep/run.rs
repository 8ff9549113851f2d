//! Running a sweep's cells on the machine's cores.

use super::error::SweepError;
use super::result::SweepResult;
use super::spec::{CellRow, SweepSpec};
use crate::parallel;

/// Runs every cell of `spec` on up to `threads` threads (0: every core; one
/// in wasm32). `finished(row, done, total)` is called on the calling thread
/// as each cell ends; once `stop()` is true no cell starts, the ones under
/// way finish, and the result keeps every finished cell.
pub fn run(
    spec: &SweepSpec,
    threads: usize,
    finished: &mut dyn FnMut(&CellRow, usize, usize),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<SweepResult, SweepError> {
    let all: Vec<usize> = (0..spec.cells()).collect();
    run_cells(spec, &all, threads, finished, stop)
}

/// [`run`] on the cells `cells` only (a piece of the sweep: `skyplan sweep
/// … --cell K`, a browser worker's share). The spec is validated once
/// first; each cell number must be in the grid.
pub fn run_cells(
    spec: &SweepSpec,
    cells: &[usize],
    threads: usize,
    finished: &mut dyn FnMut(&CellRow, usize, usize),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<SweepResult, SweepError> {
    spec.validate()?;
    for &k in cells {
        spec.check_cell(k)?;
    }
    let mut order: Vec<usize> = cells.to_vec();
    order.sort_unstable();
    order.dedup();
    let total = order.len();
    let rows = parallel::map_jobs_until(
        &order,
        threads,
        || (),
        |_, &k| spec.run_cell(k),
        &mut |done, _, row| finished(row, done, total),
        stop,
    );
    Ok(SweepResult {
        sweep: spec.clone(),
        cells: spec.cells(),
        rows: rows.into_iter().flatten().collect(),
    })
}
