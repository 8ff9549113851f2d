//! The numerics floor: the generic mathematics every part of the engine
//! shares, at the bottom of the engine's layers.
//!
//! Why a floor: these pieces used to live inside the parts that first needed
//! them (the random-number generator in the demo generator, the Cholesky
//! factor in processing-time estimation, the spectrum in harvesting), so
//! unrelated parts imported each other — and the demo generator, which
//! builds on the parts, was imported back by them. Here they import only
//! `std`, external crates and each other, and every part imports them; no
//! part is imported.
//!
//! - [`rng`]: the seeded, portable xoshiro256** generator behind every
//!   seeded algorithm and the demo workspace;
//! - [`mt19937`]: numpy's legacy `RandomState` stream, for K-Means draws
//!   that match scikit-learn's;
//! - [`stats`]: means, medians, numpy's percentiles (by sort or by
//!   selection), MAD and robust CV, min/mean/max over runs;
//! - [`quantile`]: normal and Student-t quantiles for prediction intervals;
//! - [`linalg`]: the jittered Cholesky factor and the inverse from it, for
//!   both Gaussian processes (estimation and forecasting);
//! - [`spectrum`]: power spectra by FFT (harvesting's patterns, forecasting's
//!   periods);
//! - [`lp`]: the linear and integer programming solvers, chosen once;
//! - [`fenwick`]: prefix sums with O(log n) weighted draws.

pub mod fenwick;
pub mod linalg;
pub mod lp;
pub mod mt19937;
pub mod quantile;
pub mod rng;
pub mod spectrum;
pub mod stats;

pub use fenwick::Fenwick;
pub use rng::Rng;
pub use stats::MinAvgMax;
