//! Sizing a plan's capacity from its first requests, when the user has not
//! set one: the studio's rule on first admission.
//!
//! The capacity is [`HEADROOM`] × the best lower bound on the requests'
//! peak load ([`lower_bounds`]: area, tightest request, LP relaxation),
//! rounded up to whole cores, with [`MB_PER_CORE`] of memory a core. A
//! lower bound, not a packing: no placement can need less than the bound,
//! and the headroom leaves LowCost room to place the requests without
//! packing them perfectly. The bounds are costs (load over capacity), so
//! they are computed on a reference capacity of [`REFERENCE_CORES`] and
//! scaled back to a load.
//!
//! It lives in the engine (not in the studio that calls it) because it is a
//! sizing algorithm: what a capacity is derived from must not depend on
//! which front end asks.

use super::bounds::lower_bounds;
use super::error::AgendaError;
use super::params::AgendaParams;
use super::plan::Plan;
use super::request::{Capacity, ReservationRequest};

/// How far above the lower bound on the peak load a derived capacity is.
pub const HEADROOM: f64 = 1.25;

/// Memory per core of a derived capacity (the CLI's default), MB.
pub const MB_PER_CORE: f64 = 4096.0;

/// Largest LP relaxation (variables) solved for the lower bound, as in
/// `skyplan plan` and the studio's bounds.
pub const LP_MAX_VARS: usize = 5_000;

/// The capacity, in cores, the lower bounds are computed on before they are
/// scaled to a load (any positive value gives the same load).
pub const REFERENCE_CORES: f64 = 1_000.0;

/// Why no capacity could be derived.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SizingError {
    /// The plan's settings are invalid.
    #[error(transparent)]
    Plan(#[from] AgendaError),
    /// The requests give no positive, finite bound (none fits the plan's
    /// period, or there are none).
    #[error("These requests do not fit the plan's day; nothing to size the capacity on.")]
    NoLoad,
}

/// The capacity derived for the first `requests` of a plan with `params`:
/// [`HEADROOM`] × the lower bound on their peak load, in whole cores (at
/// least one), [`MB_PER_CORE`] a core; and the note that says so, for the
/// user.
pub fn derived_capacity(
    params: &AgendaParams,
    requests: &[ReservationRequest],
) -> Result<(Capacity, String), SizingError> {
    let reference = Plan::new(
        params.clone(),
        vec![Capacity {
            cores: REFERENCE_CORES,
            memory_mb: REFERENCE_CORES * MB_PER_CORE,
        }],
    )?;
    let bound = lower_bounds(&reference, requests, LP_MAX_VARS).best * REFERENCE_CORES;
    if !(bound.is_finite() && bound > 0.0) {
        return Err(SizingError::NoLoad);
    }
    let cores = (bound * HEADROOM - 1e-9).ceil().max(1.0);
    let capacity = Capacity {
        cores,
        memory_mb: cores * MB_PER_CORE,
    };
    let note = format!(
        "Derived when the first jobs were admitted: {HEADROOM} × the lower bound on their peak load ({bound:.1} cores), rounded up, {MB_PER_CORE} MB a core."
    );
    Ok((capacity, note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agenda::Recurrence;
    use crate::model::ContainerSize;

    #[test]
    fn derived_capacity_is_a_quarter_above_the_bound() {
        // 40 containers for 10 minutes in a window of exactly 10 minutes:
        // the bound on the peak is 40 cores, the capacity 50.
        let request = ReservationRequest::from_skyline(
            "a",
            Recurrence::OneOff,
            (600, 1_200),
            ContainerSize::default(),
            &[40.0; 10],
            60,
            1.0,
        );
        let (c, note) = derived_capacity(&AgendaParams::default(), &[request]).unwrap();
        assert_eq!(c.cores, 50.0);
        assert_eq!(c.memory_mb, 50.0 * MB_PER_CORE);
        assert!(note.contains("40.0 cores"), "{note}");
    }
}
