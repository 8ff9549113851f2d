//! Pieces of one sweep into the whole: what `skyplan sweep merge` does
//! after a batch engine ran the cells as separate tasks.

use super::error::SweepError;
use super::result::SweepResult;
use std::collections::BTreeMap;

/// Merges pieces of the same sweep (the same spec and grid) into one
/// result, rows in cell order. The same cell in two pieces must have the
/// same outcome (a cell is a pure function of the spec and its number, so
/// a re-run task gives the same row); a mismatch is an error, never a
/// silent pick. The result may still miss cells: see
/// [`SweepResult::missing`], and [`merge_complete`] to require all.
pub fn merge(pieces: Vec<SweepResult>) -> Result<SweepResult, SweepError> {
    let mut pieces = pieces.into_iter();
    let first = pieces.next().ok_or(SweepError::NothingToMerge)?;
    let mut rows: BTreeMap<usize, _> = BTreeMap::new();
    let SweepResult {
        sweep,
        cells,
        rows: first_rows,
    } = first;
    let mut add = |row: super::CellRow| match rows.get(&row.cell) {
        Some(same) if *same == row => Ok(()),
        Some(_) => Err(SweepError::Conflict { cell: row.cell }),
        None => {
            rows.insert(row.cell, row);
            Ok(())
        }
    };
    for row in first_rows {
        add(row)?;
    }
    for (i, piece) in pieces.enumerate() {
        if piece.sweep != sweep {
            return Err(SweepError::OtherSweep {
                index: i + 1,
                why: format!(
                    "its {} sweep's settings differ from the first's {} sweep",
                    piece.sweep.part(),
                    sweep.part()
                ),
            });
        }
        if piece.cells != cells {
            return Err(SweepError::OtherSweep {
                index: i + 1,
                why: format!("{} cells against {cells}", piece.cells),
            });
        }
        for row in piece.rows {
            add(row)?;
        }
    }
    if let Some((&k, _)) = rows.range(cells..).next() {
        return Err(SweepError::NoSuchCell { cell: k, cells });
    }
    Ok(SweepResult {
        sweep,
        cells,
        rows: rows.into_values().collect(),
    })
}

/// [`merge`] that also requires every cell.
pub fn merge_complete(pieces: Vec<SweepResult>) -> Result<SweepResult, SweepError> {
    let whole = merge(pieces)?;
    let missing = whole.missing();
    if missing.is_empty() {
        Ok(whole)
    } else {
        Err(SweepError::Incomplete {
            cells: whole.cells,
            missing,
        })
    }
}
