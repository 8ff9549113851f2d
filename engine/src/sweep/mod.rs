//! Sweeps: independent runs over a grid of settings and seeds, the one way
//! the engine measures where a lever pays (issue 35).
//!
//! A sweep is a [`SweepSpec`] — which part, its base settings and the values
//! of each swept setting — whose cells are numbered `0..cells()`. Each cell
//! is a pure function of the spec and its number, so a sweep is the same
//! whichever cells run where: on every core of one machine ([`run`], on
//! [`crate::parallel`]), one cell per browser worker in the studio, or one
//! cell per task of a batch engine (`skyplan sweep … --cell K`), and
//! [`merge`] of the pieces equals the whole. A cancelled run keeps the cells
//! it finished.
//!
//! - [`spec`] — `SweepSpec` (one variant per part), `CellRow` and its
//!   outcome;
//! - [`result`] — `SweepResult`, what is finished and what is missing, CSV;
//! - [`run`] — the cells on threads, with progress and a stop;
//! - [`merge`] — pieces of one sweep into the whole;
//! - [`error`] — [`SweepError`].

pub mod error;
pub mod merge;
pub mod result;
pub mod run;
pub mod spec;
#[cfg(test)]
mod tests;

pub use error::SweepError;
pub use merge::{merge, merge_complete};
pub use result::SweepResult;
pub use run::{run, run_cells};
pub use spec::{CellOutcome, CellRow, SweepSpec};
