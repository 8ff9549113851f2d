//! The stepwise order search of pmdarima's `auto_arima` (its default,
//! `stepwise=True`), Hyndman and Khandakar's walk as pmdarima 2.1 writes it
//! (`_StepwiseFitWrapper.solve`, non-seasonal):
//!
//! 1. fit (p₀, d, q₀) with p₀ = min(2, max_p), q₀ = min(2, max_q), then
//!    (0, d, 0), (1, d, 0), (0, d, 1) and — when the walk has a constant —
//!    (0, d, 0) without it; a fit that lowers the best AIC moves the walk
//!    there;
//! 2. from the current (p, q), try in turn p − 1, q − 1, p + 1, q + 1,
//!    (p − 1, q − 1), (p − 1, q + 1), (p + 1, q − 1), (p + 1, q + 1) within
//!    `0..=max_p` × `0..=max_q`, and the same (p, q) with the constant
//!    toggled; the first that lowers the AIC moves the walk and the pass
//!    starts again; a pass that fits nothing new ends it (at most 100 fits);
//! 3. the smallest AIC of every model fitted wins.
//!
//! As in pmdarima, a model whose inverse roots come within 1 % of the unit
//! circle counts as AIC = ∞ (`_root_test`) — and, as there, when the model
//! has MA terms only the MA roots are looked at (pmdarima's test overwrites
//! the AR maximum with the MA one; kept, so that the walk is the same). The
//! constant starts as pmdarima's `with_intercept="auto"` reads for a
//! non-seasonal series: with d = 1 or 2, not with d = 0 (see `stepwise`;
//! never when [`super::ArimaParams::include_constant`] is off).
//!
//! A model is fitted once per (p, q, constant); its starting points are the
//! Hannan–Rissanen estimate and the optima of the already fitted models
//! nested in it with the same constant (see `Arima::fit_from`), so a walk
//! fits about as many models as pmdarima's and each from fewer starts than
//! the exhaustive grid's.

use super::arima::{Arima, ArimaFit, ArimaOrder, ArimaParams};
use super::ForecastError;
use nalgebra::DMatrix;
use std::collections::HashMap;

/// Fits pmdarima allows a walk (its `max_steps` default).
const MAX_FITS: usize = 100;

/// Inverse roots at least this close to the unit circle make a model
/// unusable (pmdarima's `1 - 1e-2`).
const ROOT_LIMIT: f64 = 1.0 - 1e-2;

/// A model of the walk: (p, q, constant).
pub type Key = (usize, usize, bool);

/// The walk over models whose AIC (after the root test; ∞ when unusable or
/// failed) `aic` gives, each asked once: the models in the order fitted.
/// Starts at (`start`, `start`) within `max_p` × `max_q` with or without
/// the constant; `toggle` lets it try the other (pmdarima always does).
/// Separate from the fitting so that it can be replayed on pmdarima's own
/// AICs (the tests do).
pub fn walk(
    max_p: usize,
    max_q: usize,
    start: usize,
    constant: bool,
    toggle: bool,
    mut aic: impl FnMut(Key) -> f64,
) -> Vec<(Key, f64)> {
    let mut fitted: Vec<(Key, f64)> = Vec::new();
    let mut best: Option<f64> = None;
    // pmdarima's `_do_fit`: fit unless seen; true when it lowers the best.
    let mut try_fit = |key: Key, fitted: &mut Vec<(Key, f64)>| -> bool {
        if fitted.len() >= MAX_FITS || fitted.iter().any(|(k, _)| *k == key) {
            return false;
        }
        let a = aic(key);
        fitted.push((key, a));
        let better = a.is_finite() && best.is_none_or(|b| a < b);
        if better {
            best = Some(a);
        }
        better
    };
    let mut constant = constant;
    let (mut p, mut q) = (max_p.min(start), max_q.min(start));
    try_fit((p, q, constant), &mut fitted);
    if try_fit((0, 0, constant), &mut fitted) {
        (p, q) = (0, 0);
    }
    if max_p > 0 && try_fit((1, 0, constant), &mut fitted) {
        (p, q) = (1, 0);
    }
    if max_q > 0 && try_fit((0, 1, constant), &mut fitted) {
        (p, q) = (0, 1);
    }
    if constant && toggle && try_fit((0, 0, false), &mut fitted) {
        (p, q) = (0, 0);
    }
    const MOVES: [(isize, isize); 8] = [
        (-1, 0),
        (0, -1),
        (1, 0),
        (0, 1),
        (-1, -1),
        (-1, 1),
        (1, -1),
        (1, 1),
    ];
    let mut pass_start = 0;
    while pass_start < fitted.len() && fitted.len() < MAX_FITS {
        pass_start = fitted.len();
        let step = MOVES.iter().find_map(|&(dp, dq)| {
            let np = p.checked_add_signed(dp).filter(|v| *v <= max_p)?;
            let nq = q.checked_add_signed(dq).filter(|v| *v <= max_q)?;
            try_fit((np, nq, constant), &mut fitted).then_some((np, nq))
        });
        match step {
            Some(to) => (p, q) = to,
            None => {
                if toggle && try_fit((p, q, !constant), &mut fitted) {
                    constant = !constant;
                }
            }
        }
    }
    fitted
}

/// A model the walk fitted: its order, whether it has the constant, its
/// AIC or why it was not usable.
pub(crate) type Visited = (ArimaOrder, bool, Result<f64, String>);

/// The walk of pmdarima's stepwise search at differencing order `d`, within
/// `max_p` × `max_q`, each model fitted with `fit`: the best model and every
/// model fitted, in order.
pub(crate) fn stepwise(
    y: &[f64],
    d: usize,
    max_p: usize,
    max_q: usize,
    fit: &ArimaParams,
) -> Result<(Arima, Vec<Visited>), ForecastError> {
    // pmdarima's `with_intercept="auto"` is `(d + D) in (0, 1)` with D set
    // to −1 for a non-seasonal search: a constant for d = 1 and 2, none for
    // d = 0 (the walk toggles it anyway).
    let constant = fit.include_constant && (d == 1 || d == 2);
    // pmdarima starts at 2 (1 for fewer than 10 values) and bounds p and q
    // by a third of the values.
    let start = if y.len() < 10 { 1 } else { 2 };
    let third = y.len() / 3;
    let (max_p, max_q) = (max_p.min(third), max_q.min(third));
    let mut models: HashMap<Key, Arima> = HashMap::new();
    let mut errors: HashMap<Key, String> = HashMap::new();
    let toggle = fit.include_constant;
    let visited = walk(max_p, max_q, start, constant, toggle, |key| {
        let (p, q, c) = key;
        let nested = nearest_nested(&models, key);
        let params = ArimaParams {
            include_constant: c,
            ..fit.clone()
        };
        match Arima::fit_from(y, ArimaOrder::new(p, d, q), &params, &nested) {
            Ok(m) => {
                let aic = root_tested_aic(m.fit_summary());
                models.insert(key, m);
                aic
            }
            Err(e) => {
                errors.insert(key, e.to_string());
                f64::INFINITY
            }
        }
    });
    let best = visited
        .iter()
        .filter(|(_, a)| a.is_finite())
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(k, _)| *k);
    let candidates = visited
        .iter()
        .map(|&((p, q, constant), aic)| {
            let aic = match errors.get(&(p, q, constant)) {
                Some(e) => Err(e.clone()),
                None if !aic.is_finite() => Err("near non-invertible roots".into()),
                None => Ok(aic),
            };
            (ArimaOrder::new(p, d, q), constant, aic)
        })
        .collect();
    match best.and_then(|k| models.remove(&k)) {
        Some(model) => Ok((model, candidates)),
        None => Err(ForecastError::Fit(format!(
            "no model of the stepwise search could be used{}",
            errors
                .values()
                .next()
                .map(|e| format!(" (first failure: {e})"))
                .unwrap_or_default()
        ))),
    }
}

/// Up to two fitted models nested in `key` (no larger p or q, the same
/// constant), the largest first: the starting points a walk has at hand.
fn nearest_nested(models: &HashMap<Key, Arima>, key: Key) -> Vec<&ArimaFit> {
    let (p, q, constant) = key;
    let mut nested: Vec<(usize, (usize, usize), &ArimaFit)> = models
        .iter()
        .filter(|((a, b, c), _)| *c == constant && *a <= p && *b <= q && (*a, *b) != (p, q))
        .map(|((a, b, _), m)| (a + b, (*a, *b), m.fit_summary()))
        .collect();
    // Largest first; ties by (p, q) so the starts do not depend on the
    // map's order.
    nested.sort_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)));
    nested.into_iter().take(2).map(|(_, _, f)| f).collect()
}

/// The AIC the walk compares: ∞ when the inverse roots come within 1 % of
/// the unit circle, as pmdarima's `_root_test` reads them.
fn root_tested_aic(fit: &ArimaFit) -> f64 {
    let mut largest = 0.0_f64;
    if !fit.ar.is_empty() {
        largest = largest.max(largest_inverse_root(&fit.ar, 1.0));
    }
    if !fit.ma.is_empty() && fit.aic.is_finite() {
        // pmdarima assigns (not maximizes) here.
        largest = largest_inverse_root(&fit.ma, -1.0);
    }
    if largest > ROOT_LIMIT {
        f64::INFINITY
    } else {
        fit.aic
    }
}

/// The largest modulus of the inverse roots of `1 − sign·(c₁z + … + cₖzᵏ)`:
/// the eigenvalues of its companion matrix (AR: sign 1, `1 − φ₁z − …`; MA:
/// sign −1, `1 + θ₁z + …`).
pub fn largest_inverse_root(c: &[f64], sign: f64) -> f64 {
    let k = c.len();
    let mut m = DMatrix::<f64>::zeros(k, k);
    for (j, v) in c.iter().enumerate() {
        m[(0, j)] = sign * v;
    }
    for i in 1..k {
        m[(i, i - 1)] = 1.0;
    }
    m.complex_eigenvalues()
        .iter()
        .map(|z| z.norm())
        .fold(0.0, f64::max)
}
