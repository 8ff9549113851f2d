//! A sweep's result: its spec, the grid's size and the cells finished, in
//! cell order — whole, cancelled part-way, or one piece of a fleet's run.

use super::spec::{CellRow, SweepSpec};
use crate::csv_cell;
use serde::{Deserialize, Serialize};

/// The result of running some or all of a sweep's cells. Its JSON holds no
/// time, thread count or host, so the same cells give the same JSON
/// wherever they ran: that is what lets [`super::merge`] of pieces equal
/// the whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    /// What was swept.
    pub sweep: SweepSpec,
    /// Cells in the grid.
    pub cells: usize,
    /// The cells run, in cell order.
    pub rows: Vec<CellRow>,
}

impl SweepResult {
    /// Whether every cell of the grid is here.
    pub fn is_complete(&self) -> bool {
        self.rows.len() == self.cells
    }

    /// The cells not here, in order.
    pub fn missing(&self) -> Vec<usize> {
        let mut have = self.rows.iter().map(|r| r.cell).peekable();
        (0..self.cells)
            .filter(|&k| {
                while have.peek().is_some_and(|&c| c < k) {
                    have.next();
                }
                have.peek() != Some(&k)
            })
            .collect()
    }

    /// The rows as CSV: `cell`, the part's columns, then `error` (empty
    /// unless the cell failed).
    pub fn to_csv(&self) -> String {
        let columns = self.sweep.columns();
        let mut out = String::from("cell");
        for c in columns {
            out.push(',');
            out.push_str(c);
        }
        out.push_str(",error\n");
        for row in &self.rows {
            out.push_str(&row.cell.to_string());
            let mut cells = row.outcome.cells();
            cells.resize(columns.len(), String::new());
            for c in cells {
                out.push(',');
                out.push_str(&c);
            }
            out.push(',');
            out.push_str(&csv_cell::text(row.outcome.error().unwrap_or("")));
            out.push('\n');
        }
        out
    }
}
