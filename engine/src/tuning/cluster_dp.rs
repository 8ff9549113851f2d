//! Algorithm 3: the best cluster-level configuration (§3.4) — how many
//! containers each of m groups gets — by dynamic programming over the
//! latency reductions `L^R(o_i, r)` of eq. (4).
//!
//! Each group brings its bounds (`r^Lower`: one application-master
//! container per job; `r^Upper`: beyond it latency no longer drops) and
//! its best latency `L*(o_i, r)` for every `r` between them (the
//! group-level search at each size). `V[i, r]` is the largest reduction
//! the first `i` groups reach with `r` extra containers (eq. 5); `r_sum`
//! grows by each group's `r^Upper − r^Lower` but never past `r_Alloc`
//! (line 6), which keeps the table small.
//!
//! # Readings of the pseudo-code
//!
//! - Line 9 records `R[i, r] = r_i*` even when line 10 keeps
//!   `V[i−1, r]`. Eq. (5)'s text says that choice means "no resource is
//!   allocated to the i-th group", and backtracking (lines 15–17) an
//!   `r_i*` that lost would hand out containers for a smaller total, so
//!   `R[i, r] = 0` then.
//! - `L^R(o_i, r)` for `r` above `r^Upper − r^Lower` is `L^R` at the upper
//!   bound (more containers do not lower the latency); line 8 still scans
//!   `1 ≤ r_i ≤ r`, so a group may be handed containers it will not use
//!   when nothing else can.
//! - `V[i−1, r']` with `r' > r_sum` of `i−1` groups is the 0 of line 2, as
//!   written. Together with line 8's `r_i ≥ 1` this makes the algorithm
//!   exact only when every `L^R(o_i, ·)` is non-decreasing (a group
//!   otherwise may have to take containers that hurt it);
//!   [`GroupCurve::from_latencies`] ensures that, and the tests check it
//!   against brute force on such curves.
//!
//! [`DpVariant::Bounded`] computes the same optimum in `O(m·r_sum·u)`
//! (scanning `0 ≤ r_i ≤ r^Upper − r^Lower` against a `V` made monotone),
//! exact for any curve; the tests check both against brute force.

use super::TuneError;
use serde::{Deserialize, Serialize};

/// One group as the cluster-level optimizer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupCurve {
    /// Group name.
    pub name: String,
    /// `r^Lower`, containers.
    pub lower: u32,
    /// `L^R(o, r)` for `r = 0 ..= r^Upper − r^Lower` (so `r^Upper` is
    /// `lower + reduction.len() − 1`); `reduction[0]` is 0.
    pub reduction: Vec<f64>,
}

impl GroupCurve {
    /// Eq. (4) from the group's best latencies `L*(o, r^Lower + k)`,
    /// `k = 0 ..`: `L^R(o, k) = L*(o, r^Lower) − L*(o, r^Lower + k)`.
    ///
    /// An estimate may rise with more containers (Algorithm 1 is not
    /// monotone); a group can always leave containers idle (a lower
    /// maximum capacity), so `L*(o, r)` is taken as the best over
    /// `r' ≤ r`. That makes `L^R` non-decreasing, which Algorithm 3 as
    /// written needs to be exact (see the module documentation).
    pub fn from_latencies(name: impl Into<String>, lower: u32, latencies: &[f64]) -> Self {
        let base = latencies.first().copied().unwrap_or(0.0);
        let mut best = base;
        GroupCurve {
            name: name.into(),
            lower,
            reduction: if latencies.is_empty() {
                vec![0.0]
            } else {
                latencies
                    .iter()
                    .map(|&l| {
                        best = best.min(l);
                        base - best
                    })
                    .collect()
            },
        }
    }

    /// `r^Upper`.
    pub fn upper(&self) -> u32 {
        self.lower + self.span()
    }

    /// `r^Upper − r^Lower`.
    pub fn span(&self) -> u32 {
        self.reduction.len().saturating_sub(1) as u32
    }

    /// `L^R(o, r)`, flat above the upper bound.
    pub fn at(&self, r: u32) -> f64 {
        self.reduction[(r as usize).min(self.reduction.len() - 1)]
    }
}

/// Which recurrence to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DpVariant {
    /// Algorithm 3 as written, `O(m·r_sum²)`.
    #[default]
    AsWritten,
    /// The same optimum, scanning only up to each group's upper bound.
    Bounded,
}

/// The split Algorithm 3 (or the brute force) returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterSplit {
    /// R.
    pub total: u32,
    /// `r_Alloc = R − Σ r^Lower` (line 1).
    pub r_alloc: u32,
    /// `r_sum` after the last group (line 6).
    pub r_sum: u32,
    /// Extra containers per group (`R[i, r]` backtracked, lines 15–17).
    pub extra: Vec<u32>,
    /// Containers per group, `r^Lower + extra`.
    pub containers: Vec<u32>,
    /// `c_i^Ratio* = containers / R` (line 16).
    pub ratios: Vec<f64>,
    /// `V[m, r_sum]`: the total latency reduction.
    pub reduction: f64,
    /// The whole table `V[i, r]`, `0 ≤ i ≤ m`, `0 ≤ r ≤ r_Alloc`, when
    /// asked for (small inputs: it is `(m+1)·(r_Alloc+1)` numbers).
    pub table: Option<Vec<Vec<f64>>>,
}

fn validate(groups: &[GroupCurve], total: u32) -> Result<u32, TuneError> {
    for g in groups {
        if g.reduction.is_empty() || g.reduction[0] != 0.0 {
            return Err(TuneError::BadParam {
                name: format!("group {}", g.name),
                why: "L^R(o, 0) must be 0 (eq. 4)".into(),
            });
        }
        if let Some(v) = g.reduction.iter().find(|v| !v.is_finite()) {
            return Err(TuneError::BadParam {
                name: format!("group {}", g.name),
                why: format!("latency reduction {v} is not finite"),
            });
        }
    }
    let needed: u64 = groups.iter().map(|g| u64::from(g.lower)).sum();
    if needed > u64::from(total) {
        return Err(TuneError::TooFewContainers {
            needed,
            available: u64::from(total),
        });
    }
    Ok(total - needed as u32)
}

/// Algorithm 3 over `groups` sharing `total` containers.
pub fn cluster_dp(
    groups: &[GroupCurve],
    total: u32,
    variant: DpVariant,
    keep_table: bool,
) -> Result<ClusterSplit, TuneError> {
    cluster_dp_with_progress(groups, total, variant, keep_table, &mut |_, _| {})
}

/// [`cluster_dp`], calling `progress(i, m)` after each group (for a Web
/// Worker's progress bar).
pub fn cluster_dp_with_progress(
    groups: &[GroupCurve],
    total: u32,
    variant: DpVariant,
    keep_table: bool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ClusterSplit, TuneError> {
    // Line 1.
    let r_alloc = validate(groups, total)?;
    let m = groups.len();
    let width = r_alloc as usize + 1;
    // Lines 2–3: V by rows (two live ones), R by rows cut at r_sum.
    let mut prev = vec![0.0f64; width];
    let mut cur = vec![0.0f64; width];
    let mut choice: Vec<Vec<u32>> = Vec::with_capacity(m);
    let mut table = keep_table.then(|| vec![vec![0.0; width]]);
    // Line 4.
    let mut r_sum: u32 = 0;
    let mut prev_sum: u32 = 0;
    // Line 5.
    for (i, g) in groups.iter().enumerate() {
        // Line 6.
        r_sum = (r_sum.saturating_add(g.span())).min(r_alloc);
        let mut row = vec![0u32; r_sum as usize + 1];
        cur.iter_mut().for_each(|v| *v = 0.0);
        // Line 7.
        for r in 1..=r_sum {
            let (best_x, best_v) = match variant {
                DpVariant::AsWritten => {
                    // Line 8.
                    let mut best = (1u32, f64::NEG_INFINITY);
                    for x in 1..=r {
                        let v = g.at(x) + prev[(r - x) as usize];
                        if v > best.1 {
                            best = (x, v);
                        }
                    }
                    best
                }
                DpVariant::Bounded => {
                    let mut best = (1u32, f64::NEG_INFINITY);
                    for x in 1..=r.min(g.span().max(1)) {
                        let rest = (r - x).min(prev_sum);
                        let v = g.at(x) + prev[rest as usize];
                        if v > best.1 {
                            best = (x, v);
                        }
                    }
                    best
                }
            };
            let keep = match variant {
                DpVariant::AsWritten => prev[r as usize],
                DpVariant::Bounded => prev[r.min(prev_sum) as usize],
            };
            // Lines 9–10 (R = 0 when V[i−1, r] wins; see the module docs).
            if best_v > keep {
                row[r as usize] = best_x;
                cur[r as usize] = best_v;
            } else {
                cur[r as usize] = keep;
            }
        }
        choice.push(row);
        std::mem::swap(&mut prev, &mut cur);
        prev_sum = r_sum;
        if let Some(t) = table.as_mut() {
            t.push(prev.clone());
        }
        progress(i + 1, m);
    }
    // Lines 13–18.
    let mut extra = vec![0u32; m];
    let mut r = r_sum;
    for i in (0..m).rev() {
        if variant == DpVariant::Bounded {
            // The bounded V is flat past r_sum: its entry is the last one.
            r = r.min(choice[i].len() as u32 - 1);
        }
        let x = choice[i].get(r as usize).copied().unwrap_or(0);
        extra[i] = x;
        r -= x.min(r);
    }
    Ok(finish(
        groups,
        total,
        r_alloc,
        r_sum,
        extra,
        prev[r_sum as usize],
        table,
    ))
}

fn finish(
    groups: &[GroupCurve],
    total: u32,
    r_alloc: u32,
    r_sum: u32,
    extra: Vec<u32>,
    reduction: f64,
    table: Option<Vec<Vec<f64>>>,
) -> ClusterSplit {
    let containers: Vec<u32> = groups
        .iter()
        .zip(&extra)
        .map(|(g, x)| g.lower + x)
        .collect();
    let ratios = containers
        .iter()
        .map(|&c| {
            if total == 0 {
                0.0
            } else {
                f64::from(c) / f64::from(total)
            }
        })
        .collect();
    ClusterSplit {
        total,
        r_alloc,
        r_sum,
        extra,
        containers,
        ratios,
        reduction,
        table,
    }
}

/// Every split of at most `r_Alloc` extra containers with each group
/// within its bounds, the best kept (first found on ties). Exponential:
/// for checking Algorithm 3 on small m.
pub fn cluster_dp_brute_force(
    groups: &[GroupCurve],
    total: u32,
) -> Result<ClusterSplit, TuneError> {
    let r_alloc = validate(groups, total)?;
    let m = groups.len();
    let mut best = (f64::NEG_INFINITY, vec![0u32; m]);
    let mut x = vec![0u32; m];
    fn walk(
        i: usize,
        left: u32,
        groups: &[GroupCurve],
        x: &mut Vec<u32>,
        acc: f64,
        best: &mut (f64, Vec<u32>),
    ) {
        if i == groups.len() {
            if acc > best.0 {
                *best = (acc, x.clone());
            }
            return;
        }
        for v in 0..=groups[i].span().min(left) {
            x[i] = v;
            walk(i + 1, left - v, groups, x, acc + groups[i].at(v), best);
        }
        x[i] = 0;
    }
    walk(0, r_alloc, groups, &mut x, 0.0, &mut best);
    let used: u32 = best.1.iter().sum();
    Ok(finish(groups, total, r_alloc, used, best.1, best.0, None))
}
