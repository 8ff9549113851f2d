//! Ordinary least squares with its prediction interval — the paper's other
//! estimator with a principled error bar (§3.2, Tables 2 and 3).
//!
//! `y = β₀ + Σ β_k z_k + ε` on standardized features `z` (standardizing
//! changes neither the fit nor the intervals, only the conditioning), solved
//! by SVD so that collinear features (map tasks are nearly input bytes / 64
//! MiB) give the minimum-norm solution instead of a failure, as numpy's
//! `lstsq`. With rank `r` and `n` jobs, `s² = RSS / (n − r)` and the PI of a
//! new observation at `a = (1, z)` is
//! `ŷ ± t_{n−r, (1+c)/2} · s · √(1 + aᵀ(AᵀA)⁺a)` (statsmodels'
//! `get_prediction(...).conf_int(obs=True)`).

use super::features::{check_matrix, check_row, Standardizer};
use super::{check_level, EstimateError, Method, Prediction};
use crate::numerics::quantile::student_t_quantile;
use nalgebra::{DMatrix, DVector, SVD};
use serde::{Deserialize, Serialize};

/// What the fit found, as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OlsFit {
    /// Intercept and one coefficient per feature, in the features' own
    /// units.
    pub coefficients: Vec<f64>,
    /// Residual variance `s²`.
    pub residual_variance: f64,
    /// Rank of the design matrix (intercept included).
    pub rank: usize,
    /// Residual degrees of freedom `n − rank`.
    pub dof: usize,
    /// Training jobs.
    pub points: usize,
}

/// A fitted OLS model.
#[derive(Clone, Debug)]
pub struct Ols {
    features: Standardizer,
    /// Coefficients on the standardized design `(1, z)`.
    beta: DVector<f64>,
    /// `V_r Σ_r⁻¹`: `‖Wᵀa‖² = aᵀ(AᵀA)⁺a`.
    w: DMatrix<f64>,
    d: usize,
    fit: OlsFit,
}

impl Ols {
    /// Fits to feature rows `x` and targets `y`. Needs more jobs than the
    /// design's rank (at least one residual degree of freedom).
    pub fn fit(x: &[Vec<f64>], y: &[f64]) -> Result<Self, EstimateError> {
        let d = check_matrix(x, y)?;
        let n = x.len();
        let p = d + 1;
        let features = Standardizer::fit(x, d);
        let mut row = Vec::with_capacity(d);
        let mut a = DMatrix::<f64>::zeros(n, p);
        for (i, r) in x.iter().enumerate() {
            row.clear();
            features.apply_into(r, &mut row);
            a[(i, 0)] = 1.0;
            for (k, v) in row.iter().enumerate() {
                a[(i, k + 1)] = *v;
            }
        }
        let yv = DVector::from_column_slice(y);
        let svd = SVD::new(a.clone(), true, true);
        let (Some(u), Some(v_t)) = (&svd.u, &svd.v_t) else {
            return Err(EstimateError::BadInput("SVD did not converge".into()));
        };
        let sv = &svd.singular_values;
        let smax = sv.iter().fold(0.0f64, |m, s| m.max(*s));
        // numpy's lstsq cut-off: rcond = ε · max(n, p), relative to σ_max.
        let cut = f64::EPSILON * n.max(p) as f64 * smax;
        let keep: Vec<usize> = (0..sv.len()).filter(|&i| sv[i] > cut).collect();
        let rank = keep.len();
        if n <= rank {
            return Err(EstimateError::TooFewJobs {
                method: Method::Ols,
                needed: rank + 1,
                got: n,
            });
        }
        let mut beta = DVector::<f64>::zeros(p);
        let mut w = DMatrix::<f64>::zeros(p, rank);
        for (c, &i) in keep.iter().enumerate() {
            let coef = u.column(i).dot(&yv) / sv[i];
            for k in 0..p {
                beta[k] += v_t[(i, k)] * coef;
                w[(k, c)] = v_t[(i, k)] / sv[i];
            }
        }
        let resid = &yv - &a * &beta;
        let dof = n - rank;
        let s2 = resid.dot(&resid) / dof as f64;
        let mut coefficients = vec![beta[0]];
        for k in 0..d {
            let c = beta[k + 1] / features.scale[k];
            coefficients[0] -= c * features.mean[k];
            coefficients.push(c);
        }
        Ok(Ols {
            features,
            beta,
            w,
            d,
            fit: OlsFit {
                coefficients,
                residual_variance: s2,
                rank,
                dof,
                points: n,
            },
        })
    }

    /// What the fit found.
    pub fn fit_summary(&self) -> &OlsFit {
        &self.fit
    }

    /// The fitted value and the standard error of a new observation,
    /// `s·√(1 + aᵀ(AᵀA)⁺a)`, at one raw feature row.
    pub fn moments(&self, row: &[f64]) -> Result<(f64, f64), EstimateError> {
        check_row(row, self.d)?;
        let mut a = vec![1.0];
        self.features.apply_into(row, &mut a);
        let a = DVector::from_vec(a);
        let mean = a.dot(&self.beta);
        let leverage = (self.w.tr_mul(&a)).norm_squared();
        Ok((mean, (self.fit.residual_variance * (1.0 + leverage)).sqrt()))
    }

    /// The Student-t quantile of a two-sided `level` PI with this fit's
    /// residual degrees of freedom.
    pub fn t_quantile(&self, level: f64) -> Result<f64, EstimateError> {
        check_level(level)?;
        Ok(student_t_quantile(0.5 + 0.5 * level, self.fit.dof as f64))
    }

    /// Prediction and its `level` PI for one raw feature row.
    pub fn predict(&self, row: &[f64], level: f64) -> Result<Prediction, EstimateError> {
        let t = self.t_quantile(level)?;
        let (mean, sd) = self.moments(row)?;
        Ok(Prediction::symmetric(mean, sd, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line_and_textbook_interval() {
        // y = 1 + 2x exactly: zero residuals, zero-width PI.
        let x: Vec<Vec<f64>> = (0..5).map(|i| vec![i as f64]).collect();
        let y: Vec<f64> = (0..5).map(|i| 1.0 + 2.0 * i as f64).collect();
        let m = Ols::fit(&x, &y).unwrap();
        let c = &m.fit_summary().coefficients;
        assert!((c[0] - 1.0).abs() < 1e-12 && (c[1] - 2.0).abs() < 1e-12);
        let p = m.predict(&[10.0], 0.95).unwrap();
        assert!((p.mean - 21.0).abs() < 1e-10 && p.length() < 1e-6);
        // Simple regression by hand: x = 0..3, y = 0, 1, 1, 3.
        let x: Vec<Vec<f64>> = (0..4).map(|i| vec![i as f64]).collect();
        let y = [0.0, 1.0, 1.0, 3.0];
        let m = Ols::fit(&x, &y).unwrap();
        // slope = Sxy/Sxx = 4.5/5 = 0.9, intercept = 1.25 − 0.9·1.5 = −0.1,
        // residuals 0.1, 0.2, −0.7, 0.4: RSS 0.7, s² = 0.35 (2 dof).
        let f = m.fit_summary();
        assert!((f.coefficients[1] - 0.9).abs() < 1e-12);
        assert!((f.coefficients[0] + 0.1).abs() < 1e-12);
        assert!((f.residual_variance - 0.35).abs() < 1e-12);
        assert_eq!((f.rank, f.dof), (2, 2));
        // At x0 = 4: se² = s²(1 + 1/n + (x0 − x̄)²/Sxx) = 0.35 · (1 + 0.25 + 1.25).
        let p = m.predict(&[4.0], 0.95).unwrap();
        let se = (0.35f64 * 2.5).sqrt();
        assert!((p.std_dev - se).abs() < 1e-12);
        assert!((p.upper - (3.5 + 4.302_652_729_749_462 * se)).abs() < 1e-9);
    }

    #[test]
    fn collinear_and_too_few() {
        // The second feature is twice the first: rank 2, still a fit.
        let x: Vec<Vec<f64>> = (0..6).map(|i| vec![i as f64, 2.0 * i as f64]).collect();
        let y: Vec<f64> = (0..6)
            .map(|i| 3.0 * i as f64 + 0.1 * (i % 2) as f64)
            .collect();
        let m = Ols::fit(&x, &y).unwrap();
        assert_eq!(m.fit_summary().rank, 2);
        assert!((m.predict(&[2.0, 4.0], 0.9).unwrap().mean - 6.05).abs() < 0.1);
        let e = Ols::fit(&[vec![1.0], vec![2.0]], &[1.0, 2.0]).unwrap_err();
        assert_eq!(
            e,
            EstimateError::TooFewJobs {
                method: Method::Ols,
                needed: 3,
                got: 2
            }
        );
        assert!(m.predict(&[1.0, f64::NAN], 0.9).is_err());
        assert!(m.predict(&[1.0, 2.0], 1.5).is_err());
    }
}
