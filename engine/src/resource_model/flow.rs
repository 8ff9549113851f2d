//! The skyline LP solved through its dual, a min-cost flow.
//!
//! Write `S_k = s_0 + … + s_k` (cumulative reservation). Unrolling the debt
//! recursion (Lindley), run `i`'s final debt is
//! `D_i = max(0, max_j Σ_{k ≥ j} (c_ik − s_k))`, so with one more potential
//! `G_i = D_i + S_{K−1}` per run every term of the LP becomes a function of
//! the difference of two potentials:
//!
//! - `s_k = S_k − S_{k−1}` carries the convex piecewise-linear cost
//!   `f_k(s) = Σ_i a·(s − c_ik)⁺ + b_i·(c_ik − s)⁺` on `[lo, hi]`;
//! - the debt is `G_i − S_{j−1} ≥ Σ_{k ≥ j} c_ik` for every `j`, and
//!   `G_i − S_{K−1} ≥ 0`;
//! - the final debt costs `w·(G_i − S_{K−1})`.
//!
//! This second formulation has `K + N + 1` nodes instead of the `N·K` debt
//! variables of the LP as written, which keeps the spanning trees shallow.
//!
//! Minimizing a sum of convex functions of potential differences (an optimal
//! tension problem) is the LP dual of a min-cost flow whose arc costs are the
//! conjugates of those functions (Rockafellar, *Network Flows and Monotropic
//! Optimization*, ch. 8). The conjugate of `f_k` is piecewise linear with
//! slopes at the breakpoints `c_ik`, so each `s_k` becomes a bundle of
//! parallel arcs; each constraint an uncapacitated arc. The network simplex
//! returns node potentials, whose differences are the optimal `s_k`.
//!
//! The optimal flow also gives a lower bound on the LP (weak duality): the
//! gap between it and the skyline's objective certifies optimality without
//! trusting either computation.

use super::lp::SkylineLp;
use super::params::ModelError;
use crate::netflow::FlowNetwork;

/// The flow solution of a [`SkylineLp`].
#[derive(Clone, Debug)]
pub struct FlowResult {
    /// The optimal skyline `s`.
    pub skyline: Vec<f64>,
    /// The dual objective of the flow: a lower bound on the LP optimum.
    pub lower_bound: f64,
    /// Network simplex pivots.
    pub pivots: usize,
}

/// Breakpoints `(c, jump)` of one step's cost function, sorted by `c`.
fn breakpoints(lp: &SkylineLp, k: usize, a: f64, b: &[f64]) -> Vec<(f64, f64, f64)> {
    let mut v: Vec<(f64, f64, f64)> = lp
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r[k], a, b[i]))
        .collect();
    v.sort_by(|x, y| x.0.total_cmp(&y.0));
    v
}

/// `f*(y) = sup_{lo ≤ t ≤ hi} (y·t − f(t))` for a step with sorted
/// breakpoints `(c, a, b)`: the maximum is at a breakpoint or a bound.
fn conjugate(bp: &[(f64, f64, f64)], lo: f64, hi: f64, y: f64) -> f64 {
    let mut cand: Vec<f64> = vec![lo];
    cand.extend(bp.iter().map(|p| p.0).filter(|&c| c > lo && c < hi));
    if hi.is_finite() {
        cand.push(hi);
    }
    // f(t) = Σ a·(t − c)⁺ + Σ b·(c − t)⁺ evaluated with running sums.
    let total_bc: f64 = bp.iter().map(|p| p.2 * p.0).sum();
    let total_b: f64 = bp.iter().map(|p| p.2).sum();
    let (mut j, mut sum_ac, mut sum_a, mut below_bc, mut below_b) = (0, 0.0, 0.0, 0.0, 0.0);
    let mut best = f64::NEG_INFINITY;
    for &t in &cand {
        while j < bp.len() && bp[j].0 < t {
            sum_a += bp[j].1;
            sum_ac += bp[j].1 * bp[j].0;
            below_bc += bp[j].2 * bp[j].0;
            below_b += bp[j].2;
            j += 1;
        }
        let over = sum_a * t - sum_ac;
        let under = (total_bc - below_bc) - t * (total_b - below_b);
        best = best.max(y * t - (over + under));
    }
    best
}

/// Solves `lp` by min-cost flow.
pub fn solve(lp: &SkylineLp) -> Result<FlowResult, ModelError> {
    let (n, k) = (lp.n(), lp.k());
    let nf = n as f64;
    let a = lp.alpha / nf;
    let w = (1.0 - lp.alpha) / nf;
    let b: Vec<f64> = lp
        .rows
        .iter()
        .map(|r| {
            let t: f64 = r.iter().sum();
            if t > 0.0 {
                lp.beta / (nf * t)
            } else {
                0.0
            }
        })
        .collect();
    let (lo, hi) = (lp.lo, lp.hi);
    // Node 0 is the common origin (S_{−1} = 0); then S_0..S_{K−1}; then G_i.
    let s_node = |kk: usize| 1 + kk;
    let g_node = |i: usize| 1 + k + i;
    let mut net = FlowNetwork::new(1 + k + n);
    // Step bundles: (reverse arc, forward arcs, fixed base flow).
    let mut bundles = Vec::with_capacity(k);
    for kk in 0..k {
        let (u, v) = (if kk == 0 { 0 } else { s_node(kk - 1) }, s_node(kk));
        let bp = breakpoints(lp, kk, a, &b);
        // f'(lo+): the slope just right of the lower bound.
        let base: f64 = bp.iter().map(|p| if p.0 <= lo { p.1 } else { -p.2 }).sum();
        net.add_supply(u, -base);
        net.add_supply(v, base);
        let rev = net.add_arc(v, u, f64::INFINITY, -lo);
        let mut fwd: Vec<usize> = Vec::new();
        let mut last_cost = f64::NAN;
        for p in bp.iter().filter(|p| p.0 > lo && p.0 < hi) {
            // Runs with the same count at this step share one arc.
            if p.0 == last_cost {
                let e = *fwd.last().expect("an arc for the previous breakpoint");
                net.add_capacity(e, p.1 + p.2);
            } else {
                fwd.push(net.add_arc(u, v, p.1 + p.2, p.0));
                last_cost = p.0;
            }
        }
        if hi.is_finite() {
            fwd.push(net.add_arc(u, v, f64::INFINITY, hi));
        }
        bundles.push((rev, fwd, base, bp));
    }
    let mut debt_arcs = Vec::with_capacity(n * k);
    for (i, row) in lp.rows.iter().enumerate() {
        let mut suffix = 0.0;
        for j in (0..k).rev() {
            suffix += row[j];
            let prev = if j == 0 { 0 } else { s_node(j - 1) };
            // When c_ij ≤ lo the suffix from j+1 dominates the one from j for
            // every feasible s (c_ij − s_j ≤ 0), so that constraint is implied.
            if suffix > 0.0 && (row[j] > lo || j + 1 == k) {
                debt_arcs.push((net.add_arc(g_node(i), prev, f64::INFINITY, -suffix), suffix));
            }
        }
        net.add_arc(s_node(k - 1), g_node(i), w, 0.0);
        net.add_arc(g_node(i), s_node(k - 1), f64::INFINITY, 0.0);
    }
    let sol = net.solve().map_err(|e| ModelError::Solver(e.to_string()))?;
    let p = &sol.potential;
    let mut skyline = Vec::with_capacity(k);
    for kk in 0..k {
        let prev = if kk == 0 { p[0] } else { p[s_node(kk - 1)] };
        skyline.push((p[s_node(kk)] - prev).clamp(lo, hi));
    }
    // Dual objective: Σ c·z over debt arcs − Σ_k f_k*(y_k).
    let mut lower_bound: f64 = debt_arcs.iter().map(|&(e, c)| c * sol.flow[e]).sum();
    for (rev, fwd, base, bp) in &bundles {
        let y = base + fwd.iter().map(|&e| sol.flow[e]).sum::<f64>() - sol.flow[*rev];
        lower_bound -= conjugate(bp, lo, hi, y);
    }
    Ok(FlowResult {
        skyline,
        lower_bound,
        pivots: sol.pivots,
    })
}
