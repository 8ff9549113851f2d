//! What a sweep runs: one variant per part, each with its base settings and
//! swept values, and what one cell gives.

use super::error::SweepError;
use crate::harvest::{HarvestRegime, RegimeRow};
use crate::shaping::{LoadRow, LoadSweep};
use crate::tuning::{ContentionRow, ContentionSweep};
use serde::{Deserialize, Serialize};

/// A sweep of one part. Serialized with its part's name in `part`, so a
/// sweep's JSON says what it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "part", rename_all = "kebab-case")]
// One spec is built per sweep and cloned per worker: the variants' sizes
// (a few hundred bytes each) do not matter, and boxing one only moves the
// lint to the other.
#[allow(clippy::large_enum_variant)]
pub enum SweepSpec {
    /// Shaping against offered load ([`LoadSweep`]).
    Shaping(LoadSweep),
    /// Harvesting against size and primary level ([`HarvestRegime`]).
    Harvest(HarvestRegime),
    /// Tuning against contention ([`ContentionSweep`]).
    Tuning(ContentionSweep),
}

/// One cell's result: its number and what it gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellRow {
    /// The cell's number in its sweep.
    pub cell: usize,
    /// Its settings and measures, or why it failed.
    #[serde(flatten)]
    pub outcome: CellOutcome,
}

/// What a cell gave. Written flat into its row: a part's row is its
/// settings and measures as columns; a failed cell has `error` instead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CellOutcome {
    /// The cell's run failed (its settings made no valid run); the others
    /// go on.
    Failed {
        /// Why.
        error: String,
    },
    /// A shaping cell.
    Shaping(LoadRow),
    /// A harvesting cell.
    Harvest(RegimeRow),
    /// A tuning cell.
    Tuning(ContentionRow),
}

impl SweepSpec {
    /// The part's name (`shaping`, `harvest`).
    pub fn part(&self) -> &'static str {
        match self {
            SweepSpec::Shaping(_) => "shaping",
            SweepSpec::Harvest(_) => "harvest",
            SweepSpec::Tuning(_) => "tuning",
        }
    }

    /// Checks every setting once, before any cell runs.
    pub fn validate(&self) -> Result<(), SweepError> {
        match self {
            SweepSpec::Shaping(s) => s.validate().map_err(|e| e.to_string()),
            SweepSpec::Harvest(h) => h.validate().map_err(|e| e.to_string()),
            SweepSpec::Tuning(s) => s.validate().map_err(|e| e.to_string()),
        }
        .map_err(SweepError::Invalid)
    }

    /// Cells in the grid.
    pub fn cells(&self) -> usize {
        match self {
            SweepSpec::Shaping(s) => s.cells(),
            SweepSpec::Harvest(h) => h.cells(),
            SweepSpec::Tuning(s) => s.cells(),
        }
    }

    /// Checks that `cell` is one of the grid's.
    pub fn check_cell(&self, cell: usize) -> Result<(), SweepError> {
        let cells = self.cells();
        if cell < cells {
            Ok(())
        } else {
            Err(SweepError::NoSuchCell { cell, cells })
        }
    }

    /// Runs cell `cell` (a pure function of the spec and the number); a
    /// failure is kept in the row.
    pub fn run_cell(&self, cell: usize) -> CellRow {
        let outcome = match self {
            SweepSpec::Shaping(s) => s
                .run_cell(cell)
                .map(CellOutcome::Shaping)
                .map_err(|e| e.to_string()),
            SweepSpec::Harvest(h) => h
                .run_cell(cell, &crate::fixtures::regime_datacenter)
                .map(CellOutcome::Harvest)
                .map_err(|e| e.to_string()),
            SweepSpec::Tuning(s) => s
                .run_cell(cell)
                .map(CellOutcome::Tuning)
                .map_err(|e| e.to_string()),
        }
        .unwrap_or_else(|error| CellOutcome::Failed { error });
        CellRow { cell, outcome }
    }

    /// The columns of this part's rows (after `cell`).
    pub fn columns(&self) -> &'static [&'static str] {
        match self {
            SweepSpec::Shaping(_) => &LoadRow::COLUMNS,
            SweepSpec::Harvest(_) => &RegimeRow::COLUMNS,
            SweepSpec::Tuning(_) => &ContentionRow::COLUMNS,
        }
    }
}

impl CellOutcome {
    /// The row's cells in its part's column order (empty for a failed
    /// cell).
    pub fn cells(&self) -> Vec<String> {
        match self {
            CellOutcome::Failed { .. } => Vec::new(),
            CellOutcome::Shaping(r) => r.cells(),
            CellOutcome::Harvest(r) => r.cells(),
            CellOutcome::Tuning(r) => r.cells(),
        }
    }

    /// The error of a failed cell.
    pub fn error(&self) -> Option<&str> {
        match self {
            CellOutcome::Failed { error } => Some(error),
            _ => None,
        }
    }
}
