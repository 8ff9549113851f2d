//! The skyline LP of Morpheus §5, in one family that covers both passes of
//! the paper's scheme and Hadoop's fixed-β variant:
//!
//! ```text
//! minimize   Σ_k Σ_i [ a·(s_k − c_ik)⁺ + b_i·(c_ik − s_k)⁺ ] + w · Σ_i D_iK
//! subject to D_ik ≥ D_i,k−1 + c_ik − s_k,  D_ik ≥ 0,  D_i0 = 0,  lo ≤ s_k ≤ hi
//! ```
//!
//! with `a = α/N` (average over-allocation), `w = (1−α)/N` (average final
//! debt: under-allocation that may be caught up later but never banked) and
//! `b_i = β/(N·Σ_k c_ik)` (the ε regularization rolled into the objective:
//! `β·ε` with `ε` the average normalized instantaneous under-allocation).
//! The paper's first pass has `β = 0`; its second `β = 0.1·V`; Hadoop's
//! ResourceEstimator uses a fixed `β`.
//!
//! [`SkylineLp::solve_simplex`] states this LP literally for minilp, with the
//! over-allocation, debt, instantaneous under-allocation and ε variables
//! and constraints as the paper writes them; `flow.rs` solves its dual as a
//! min-cost flow.

use super::params::ModelError;
use crate::numerics::lp::{ComparisonOp, OptimizationDirection, Problem};

/// One instance of the LP family.
#[derive(Clone, Debug, PartialEq)]
pub struct SkylineLp {
    /// `c_ik`: N rows of K container counts.
    pub rows: Vec<Vec<f64>>,
    /// `α` (over-allocation weight before averaging).
    pub alpha: f64,
    /// `β`, the weight of ε (0 for the paper's first pass).
    pub beta: f64,
    /// Lower bound on every `s_k` (minimum parallelism).
    pub lo: f64,
    /// Upper bound on every `s_k` (`f64::INFINITY` for none).
    pub hi: f64,
}

/// The parts of the objective at a given skyline.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Objective {
    /// `A_o`: average over-allocation, container-steps per run.
    pub over: f64,
    /// `A_u`: average final debt, container-steps per run.
    pub debt: f64,
    /// `ε`: average normalized instantaneous under-allocation.
    pub epsilon: f64,
    /// `α·A_o + (1−α)·A_u + β·ε`.
    pub total: f64,
}

impl SkylineLp {
    /// Number of runs `N`.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// Number of steps `K`.
    pub fn k(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    /// Evaluates the objective at `s`, computing each run's debt by its
    /// recursion — independent of how `s` was found.
    pub fn evaluate(&self, s: &[f64]) -> Objective {
        let n = self.n().max(1) as f64;
        let (mut over, mut debt, mut eps) = (0.0, 0.0, 0.0);
        for row in &self.rows {
            let total: f64 = row.iter().sum();
            let mut d = 0.0f64;
            let mut under = 0.0;
            for (k, &c) in row.iter().enumerate() {
                let x = s[k];
                over += (x - c).max(0.0);
                under += (c - x).max(0.0);
                d = (d + c - x).max(0.0);
            }
            debt += d;
            if total > 0.0 {
                eps += under / total;
            }
        }
        let (over, debt, epsilon) = (over / n, debt / n, eps / n);
        Objective {
            over,
            debt,
            epsilon,
            total: self.alpha * over + (1.0 - self.alpha) * debt + self.beta * epsilon,
        }
    }

    /// Solves the LP as written in the paper with minilp's simplex.
    /// Practical up to a few thousand runs × steps; the flow solver is the
    /// default for larger histories.
    pub fn solve_simplex(&self) -> Result<Vec<f64>, ModelError> {
        let (n, k) = (self.n(), self.k());
        let nf = n as f64;
        let mut p = Problem::new(OptimizationDirection::Minimize);
        let s: Vec<_> = (0..k).map(|_| p.add_var(0.0, (self.lo, self.hi))).collect();
        let eps = (self.beta > 0.0).then(|| p.add_var(self.beta, (0.0, f64::INFINITY)));
        let mut reg = Vec::new();
        for row in &self.rows {
            let total: f64 = row.iter().sum();
            let mut prev = None;
            for (kk, &c) in row.iter().enumerate() {
                // Over-allocation o ≥ s_k − c, o ≥ 0.
                let o = p.add_var(self.alpha / nf, (0.0, f64::INFINITY));
                p.add_constraint([(o, 1.0), (s[kk], -1.0)], ComparisonOp::Ge, -c);
                // Debt D_k ≥ D_{k−1} + c − s_k, D ≥ 0; only the last counts.
                let w = if kk + 1 == k {
                    (1.0 - self.alpha) / nf
                } else {
                    0.0
                };
                let d = p.add_var(w, (0.0, f64::INFINITY));
                match prev {
                    Some(dp) => {
                        p.add_constraint([(d, 1.0), (dp, -1.0), (s[kk], 1.0)], ComparisonOp::Ge, c)
                    }
                    None => p.add_constraint([(d, 1.0), (s[kk], 1.0)], ComparisonOp::Ge, c),
                }
                prev = Some(d);
                // Instantaneous under-allocation u ≥ c − s_k, u ≥ 0, for ε.
                if eps.is_some() && total > 0.0 {
                    let u = p.add_var(0.0, (0.0, f64::INFINITY));
                    p.add_constraint([(u, 1.0), (s[kk], 1.0)], ComparisonOp::Ge, c);
                    reg.push((u, 1.0 / (nf * total)));
                }
            }
        }
        if let Some(e) = eps {
            // (1/N) Σ_i Σ_k u_ik / Σ_k c_ik ≤ ε
            reg.push((e, -1.0));
            p.add_constraint(reg.as_slice(), ComparisonOp::Le, 0.0);
        }
        let sol = p
            .solve()
            .map_err(|e| ModelError::Solver(format!("minilp: {e}")))?;
        Ok(s.iter().map(|&v| *sol.var_value(v)).collect())
    }
}
