//! Primary utilization scaled to a target average (§6's simulator):
//! **linear** — every value times a constant, saturating at 100 % (which
//! makes high levels inaccurate), or **root** — a constant times the n-th
//! root of the value, saturating likewise, which moves high utilizations
//! less than low ones. The constant is found by bisection so the
//! core-weighted average over all servers and slots hits the target.

use super::tenant::TenantSet;
use crate::harvest::error::{check, HarvestError};
use serde::{Deserialize, Serialize};

/// How utilization is scaled.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Scaling {
    /// `min(100, a·u)`.
    Linear,
    /// `min(100, a·u^(1/n))`.
    Root {
        /// The root (2 = square root).
        n: f64,
    },
}

impl Scaling {
    fn shape(self, u: f64) -> f64 {
        match self {
            Scaling::Linear => u,
            Scaling::Root { n } => u.max(0.0).powf(1.0 / n),
        }
    }

    /// Short name.
    pub fn name(self) -> String {
        match self {
            Scaling::Linear => "linear".into(),
            Scaling::Root { n } => format!("root{n}"),
        }
    }
}

/// The core-weighted mean of `min(100, a·shape(u))` over the set.
fn mean_at(set: &TenantSet, shaped: &[Vec<f64>], a: f64) -> f64 {
    let (mut sum, mut w) = (0.0, 0.0);
    for (t, s) in set.tenants.iter().zip(shaped) {
        let wt = t.info.servers as f64 * t.info.cores_per_server;
        let m: f64 = s.iter().map(|v| (a * v).min(100.0)).sum::<f64>() / s.len().max(1) as f64;
        sum += wt * m;
        w += wt;
    }
    if w > 0.0 {
        sum / w
    } else {
        0.0
    }
}

/// A copy of `set` scaled to a core-weighted average of `target` percent.
/// Returns the set and the constant.
pub fn scale_to(
    set: &TenantSet,
    target: f64,
    scaling: Scaling,
) -> Result<(TenantSet, f64), HarvestError> {
    check(
        (0.0..100.0).contains(&target),
        "level",
        "must be in [0, 100)",
    )?;
    if let Scaling::Root { n } = scaling {
        check(n.is_finite() && n >= 1.0, "root", "must be at least 1")?;
    }
    let shaped: Vec<Vec<f64>> = set
        .tenants
        .iter()
        .map(|t| {
            t.utilization
                .iter()
                .map(|&u| scaling.shape(u.max(0.0)))
                .collect()
        })
        .collect();
    let a = if target == 0.0 {
        0.0
    } else {
        let mut hi = 1.0;
        while mean_at(set, &shaped, hi) < target {
            hi *= 2.0;
            check(
                hi < 1e12,
                "level",
                "cannot be reached: the primary tenants have no load",
            )?;
        }
        let mut lo = 0.0;
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if mean_at(set, &shaped, mid) < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    let mut out = set.clone();
    for (t, s) in out.tenants.iter_mut().zip(shaped) {
        t.utilization = s.into_iter().map(|v| (a * v).min(100.0)).collect();
    }
    Ok((out, a))
}
