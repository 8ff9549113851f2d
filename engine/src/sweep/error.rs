//! Why a sweep could not be run or merged.

use serde::{Deserialize, Serialize};

/// An error of a sweep as a whole (a cell's own failure is kept in its row,
/// [`super::CellOutcome::Failed`], and does not stop the others).
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum SweepError {
    /// The spec is invalid (a bad base setting or swept value), named by
    /// the part's own error.
    #[error("{0}")]
    Invalid(String),
    /// A cell number past the grid.
    #[error("cell {cell} is past the last cell of the sweep ({cells} cells, numbered from 0)")]
    NoSuchCell {
        /// The cell asked for.
        cell: usize,
        /// Cells in the sweep.
        cells: usize,
    },
    /// Nothing to merge.
    #[error("no sweep results to merge")]
    NothingToMerge,
    /// Pieces of different sweeps.
    #[error("result {index} is of another sweep than the first ({why})")]
    OtherSweep {
        /// Which piece (0-based, in the order given).
        index: usize,
        /// What differs.
        why: String,
    },
    /// The same cell with different outcomes in two pieces.
    #[error("cell {cell} has different results in two pieces")]
    Conflict {
        /// The cell.
        cell: usize,
    },
    /// Cells no piece holds.
    #[error("{} of {cells} cells are missing: {}", missing.len(), list(missing))]
    Incomplete {
        /// Cells in the sweep.
        cells: usize,
        /// The cells no piece holds.
        missing: Vec<usize>,
    },
}

/// `0, 1, 2, …` with at most 20 numbers named.
fn list(cells: &[usize]) -> String {
    let mut s: Vec<String> = cells.iter().take(20).map(usize::to_string).collect();
    if cells.len() > 20 {
        s.push(format!("… ({} more)", cells.len() - 20));
    }
    s.join(", ")
}
