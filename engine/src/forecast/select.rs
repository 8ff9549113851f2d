//! ARIMA order selection by AIC (§III-A: "searching through combinations
//! of order parameters to pick the set that optimizes model fit criteria —
//! using the Akaike information criteria"), as pmdarima's `auto_arima`
//! does it — the paper's implementation is pmdarima ("Pyramid", §V):
//!
//! 1. d by repeated KPSS level-stationarity tests at 5 % (pmdarima's
//!    `ndiffs(test="kpss")`): difference while the test rejects
//!    stationarity, at most `max_d` times;
//! 2. (p, q) **exhaustively** over `0 ≤ p ≤ max_p`, `0 ≤ q ≤ max_q`,
//!    `p + q ≤ max_order` (pmdarima's `stepwise=False`; the stepwise
//!    Hyndman–Khandakar walk visits fewer models and can stop at a local
//!    minimum), each fitted by exact ML ([`super::arima`]) — started also
//!    from the optima of (p − 1, q) and (p, q − 1), so a larger model
//!    never ends at a lower likelihood than the nested one — and the
//!    smallest AIC wins. Models whose fit fails are skipped and listed.
//!    Or, with [`OrderSearch::Stepwise`], by pmdarima's default stepwise
//!    walk ([`super::stepwise`]).

use super::arima::{difference, Arima, ArimaOrder, ArimaParams};
use super::stepwise::stepwise;
use super::{check_series, ForecastError};
use serde::{Deserialize, Serialize};

/// How [`auto_arima`] searches the (p, q) orders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrderSearch {
    /// Every order of the grid (pmdarima's `stepwise=False`): the default,
    /// because the walk below can stop at a local minimum.
    #[default]
    Grid,
    /// pmdarima's default Hyndman–Khandakar walk (`stepwise=True`): the
    /// same models pmdarima fits, with its root test and constant toggle;
    /// `max_order` does not bound it (as in pmdarima).
    Stepwise,
}

/// Settings of [`auto_arima`]: pmdarima's defaults for an exhaustive search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SelectParams {
    /// The grid or pmdarima's stepwise walk (default the grid).
    pub search: OrderSearch,
    /// Largest p (default 5).
    pub max_p: usize,
    /// Largest q (default 5).
    pub max_q: usize,
    /// Largest p + q (default 5).
    pub max_order: usize,
    /// The differencing order; `None` (default): by KPSS tests.
    pub d: Option<usize>,
    /// Largest d the tests may choose (default 2).
    pub max_d: usize,
    /// Significance of the KPSS tests (default 0.05; 0.01, 0.025, 0.05 and
    /// 0.1 have tabulated critical values, others are interpolated as
    /// pmdarima does).
    pub kpss_alpha: f64,
    /// Each fit.
    pub fit: ArimaParams,
}

impl Default for SelectParams {
    fn default() -> Self {
        SelectParams {
            search: OrderSearch::Grid,
            max_p: 5,
            max_q: 5,
            max_order: 5,
            d: None,
            max_d: 2,
            kpss_alpha: 0.05,
            fit: ArimaParams::default(),
        }
    }
}

impl SelectParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), ForecastError> {
        if self.max_p > 10 || self.max_q > 10 {
            return Err(ForecastError::param(
                "max_p/max_q",
                "must be at most 10 (the grid grows quadratically)",
            ));
        }
        if self.d.unwrap_or(self.max_d) > 3 || self.max_d > 3 {
            return Err(ForecastError::param("d", "must be at most 3"));
        }
        if !(self.kpss_alpha > 0.0 && self.kpss_alpha < 1.0) {
            return Err(ForecastError::param(
                "kpss_alpha",
                "must be strictly between 0 and 1",
            ));
        }
        self.fit.validate()
    }
}

/// One model of the grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// Its order.
    pub order: ArimaOrder,
    /// Whether it has the constant δ.
    pub constant: bool,
    /// Its AIC, or why the fit failed.
    pub aic: Result<f64, String>,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Selection {
    /// The model with the smallest AIC.
    pub model: Arima,
    /// Every model tried, in the order they were fitted.
    pub candidates: Vec<Candidate>,
}

/// KPSS statistic for level stationarity with the short Newey–West lag
/// `⌊4 (n/100)^¼⌋` (pmdarima's `KPSSTest(null="level", lshort=True)`, R's
/// `tseries::kpss.test`).
pub fn kpss_statistic(x: &[f64]) -> f64 {
    let n = x.len();
    let nf = n as f64;
    let mean = x.iter().sum::<f64>() / nf;
    let e: Vec<f64> = x.iter().map(|v| v - mean).collect();
    let mut s = 0.0;
    let mut eta = 0.0;
    for v in &e {
        s += v;
        eta += s * s;
    }
    eta /= nf * nf;
    let lags = (4.0 * (nf / 100.0).powf(0.25)) as usize;
    let mut s2 = e.iter().map(|v| v * v).sum::<f64>();
    let mut acc = 0.0;
    for i in 1..=lags.min(n.saturating_sub(1)) {
        let w = 1.0 - i as f64 / (lags as f64 + 1.0);
        acc += w * (i..n).map(|j| e[j] * e[j - i]).sum::<f64>();
    }
    s2 = (s2 + 2.0 * acc) / nf;
    eta / s2
}

/// p-value of a KPSS level statistic by linear interpolation in the
/// Kwiatkowski et al. table, clamped to [0.01, 0.1] (R's `tseries`, which
/// pmdarima follows).
fn kpss_p_value(stat: f64) -> f64 {
    interpolated_p_value(stat, &[0.347, 0.463, 0.574, 0.739])
}

/// The p-value of a KPSS statistic from its critical values at 10 %,
/// 5 %, 2.5 % and 1 % (`table`, increasing), by linear interpolation
/// between them and clamped to [0.01, 0.1] outside, as R's
/// `tseries::kpss.test` reads its tables.
pub fn interpolated_p_value(stat: f64, table: &[f64; 4]) -> f64 {
    const P: [f64; 4] = [0.10, 0.05, 0.025, 0.01];
    if stat <= table[0] {
        return P[0];
    }
    if stat >= table[3] {
        return P[3];
    }
    let i = table.iter().rposition(|t| *t <= stat).unwrap_or(0);
    let f = (stat - table[i]) / (table[i + 1] - table[i]);
    P[i] + f * (P[i + 1] - P[i])
}

/// The number of differences that make `x` (observed values only)
/// level-stationary by KPSS at `alpha`, at most `max_d` (pmdarima's
/// `ndiffs`).
pub fn kpss_ndiffs(x: &[f64], alpha: f64, max_d: usize) -> usize {
    let mut x: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
    let constant = |x: &[f64]| x.iter().all(|v| *v == x[0]);
    if x.len() < 3 || constant(&x) {
        return 0;
    }
    let mut d = 0;
    let mut reject = kpss_p_value(kpss_statistic(&x)) < alpha;
    while reject && d < max_d {
        d += 1;
        x = difference(&x, 1);
        if x.len() < 3 || constant(&x) {
            return d;
        }
        let p = kpss_statistic(&x);
        if !p.is_finite() {
            return d - 1;
        }
        reject = kpss_p_value(p) < alpha;
    }
    d
}

/// Chooses d (KPSS) and then (p, q) by AIC over the grid; returns the best
/// fitted model and the whole grid.
pub fn auto_arima(y: &[f64], params: &SelectParams) -> Result<Selection, ForecastError> {
    params.validate()?;
    check_series(y)?;
    let d = params
        .d
        .unwrap_or_else(|| kpss_ndiffs(y, params.kpss_alpha, params.max_d));
    if params.search == OrderSearch::Stepwise {
        let (model, visited) = stepwise(y, d, params.max_p, params.max_q, &params.fit)?;
        let candidates = visited
            .into_iter()
            .map(|(order, constant, aic)| Candidate {
                order,
                constant,
                aic,
            })
            .collect();
        return Ok(Selection { model, candidates });
    }
    let mut candidates = Vec::new();
    let mut fits: std::collections::HashMap<(usize, usize), super::arima::ArimaFit> =
        std::collections::HashMap::new();
    let mut best: Option<Arima> = None;
    let mut first_error = None;
    for p in 0..=params.max_p {
        for q in 0..=params.max_q {
            if p + q > params.max_order {
                continue;
            }
            let order = ArimaOrder::new(p, d, q);
            // The nested models' optima as extra starts: (p − 1, q) and
            // (p, q − 1) are fitted before (p, q) in this order.
            let nested: Vec<&super::arima::ArimaFit> = [
                p.checked_sub(1).map(|a| (a, q)),
                q.checked_sub(1).map(|b| (p, b)),
            ]
            .into_iter()
            .flatten()
            .filter_map(|key| fits.get(&key))
            .collect();
            match Arima::fit_from(y, order, &params.fit, &nested) {
                Ok(m) => {
                    let aic = m.fit_summary().aic;
                    fits.insert((p, q), m.fit_summary().clone());
                    candidates.push(Candidate {
                        order,
                        constant: params.fit.include_constant,
                        aic: Ok(aic),
                    });
                    if best.as_ref().is_none_or(|b| aic < b.fit_summary().aic) {
                        best = Some(m);
                    }
                }
                Err(e) => {
                    candidates.push(Candidate {
                        order,
                        constant: params.fit.include_constant,
                        aic: Err(e.to_string()),
                    });
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    match best {
        Some(model) => Ok(Selection { model, candidates }),
        None => {
            Err(first_error.unwrap_or_else(|| ForecastError::Fit("the order grid is empty".into())))
        }
    }
}
