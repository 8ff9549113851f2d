//! K-Means (Lloyd's algorithm) with k-means++ seeding, seeded, and the
//! choice of k by the explained-variance elbow.
//!
//! Lloyd's iterations stop when no label changes (scikit-learn's "strict
//! convergence", which its `tol = 0` reduces to) or after `max_iter`; the
//! result's labels are those of the returned centres, and the inertia is
//! the sum of squared distances to them — what scikit-learn reports.
//! Ties go to the lower centre index. An emptied cluster keeps its centre.
//! Checked against scikit-learn's `KMeans(init=centres, n_init=1,
//! algorithm="lloyd", tol=0)` by `engine/tests/data/kmeans_reference.py`.

use crate::harvest::error::{check, HarvestError};
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

/// A clustering.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KMeansResult {
    /// The centres, k × d.
    pub centres: Vec<Vec<f64>>,
    /// Each point's centre.
    pub labels: Vec<usize>,
    /// Sum of squared distances of the points to their centres.
    pub inertia: f64,
    /// Lloyd iterations run.
    pub iterations: usize,
}

fn dist2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

fn validate(data: &[Vec<f64>], k: usize) -> Result<usize, HarvestError> {
    check(!data.is_empty(), "data", "has no point")?;
    let d = data[0].len();
    check(d > 0, "data", "points have no feature")?;
    for (i, x) in data.iter().enumerate() {
        check(
            x.len() == d,
            "data",
            &format!("point {i} has {} features, not {d}", x.len()),
        )?;
        if let Some(j) = x.iter().position(|v| !v.is_finite()) {
            return Err(HarvestError::NotFinite {
                what: format!("k-means point {i}"),
                index: j,
            });
        }
    }
    check(
        (1..=data.len()).contains(&k),
        "k",
        &format!("must be 1 to the number of points ({})", data.len()),
    )?;
    Ok(d)
}

/// k-means++ seeding (Arthur & Vassilvitskii): the first centre uniformly,
/// each next one with probability ∝ squared distance to the nearest chosen.
pub fn kmeans_plus_plus(
    data: &[Vec<f64>],
    k: usize,
    rng: &mut Rng,
) -> Result<Vec<Vec<f64>>, HarvestError> {
    validate(data, k)?;
    let n = data.len();
    let first = (rng.unit() * n as f64) as usize % n;
    let mut centres = vec![data[first].clone()];
    let mut d2: Vec<f64> = data.iter().map(|x| dist2(x, &centres[0])).collect();
    while centres.len() < k {
        let total: f64 = d2.iter().sum();
        let pick = if total > 0.0 {
            let mut r = rng.unit() * total;
            let mut pick = n - 1;
            for (i, &w) in d2.iter().enumerate() {
                if r < w {
                    pick = i;
                    break;
                }
                r -= w;
            }
            pick
        } else {
            (rng.unit() * n as f64) as usize % n
        };
        centres.push(data[pick].clone());
        let c = centres.last().expect("pushed");
        for (i, x) in data.iter().enumerate() {
            d2[i] = d2[i].min(dist2(x, c));
        }
    }
    Ok(centres)
}

fn assign(data: &[Vec<f64>], centres: &[Vec<f64>], labels: &mut [usize]) -> (bool, f64) {
    let mut changed = false;
    let mut inertia = 0.0;
    for (x, l) in data.iter().zip(labels.iter_mut()) {
        let (mut best, mut bd) = (0, f64::INFINITY);
        for (j, c) in centres.iter().enumerate() {
            let d = dist2(x, c);
            if d < bd {
                best = j;
                bd = d;
            }
        }
        inertia += bd;
        if *l != best {
            *l = best;
            changed = true;
        }
    }
    (changed, inertia)
}

/// Lloyd's algorithm from the given initial centres.
pub fn lloyd(
    data: &[Vec<f64>],
    init: &[Vec<f64>],
    max_iter: usize,
) -> Result<KMeansResult, HarvestError> {
    let d = validate(data, init.len())?;
    check(max_iter >= 1, "max_iter", "must be at least 1")?;
    check(
        init.iter()
            .all(|c| c.len() == d && c.iter().all(|v| v.is_finite())),
        "init",
        "centres must have the points' dimension and finite values",
    )?;
    let k = init.len();
    let mut centres = init.to_vec();
    let mut labels = vec![usize::MAX; data.len()];
    let mut iterations = 0;
    let mut inertia;
    loop {
        let (changed, i) = assign(data, &centres, &mut labels);
        inertia = i;
        if !changed || iterations >= max_iter {
            break;
        }
        iterations += 1;
        let mut sums = vec![vec![0.0; d]; k];
        let mut counts = vec![0usize; k];
        for (x, &l) in data.iter().zip(&labels) {
            counts[l] += 1;
            for (s, v) in sums[l].iter_mut().zip(x) {
                *s += v;
            }
        }
        for j in 0..k {
            if counts[j] > 0 {
                for (c, s) in centres[j].iter_mut().zip(&sums[j]) {
                    *c = s / counts[j] as f64;
                }
            }
        }
    }
    Ok(KMeansResult {
        centres,
        labels,
        inertia,
        iterations,
    })
}

/// The best of `n_init` k-means++ seeded runs (lowest inertia).
pub fn kmeans(
    data: &[Vec<f64>],
    k: usize,
    n_init: usize,
    max_iter: usize,
    rng: &mut Rng,
) -> Result<KMeansResult, HarvestError> {
    check(n_init >= 1, "n_init", "must be at least 1")?;
    let mut best: Option<KMeansResult> = None;
    for _ in 0..n_init {
        let init = kmeans_plus_plus(data, k, rng)?;
        let r = lloyd(data, &init, max_iter)?;
        if best.as_ref().is_none_or(|b| r.inertia < b.inertia) {
            best = Some(r);
        }
    }
    Ok(best.expect("n_init ≥ 1"))
}

/// The elbow rule: the smallest k in 1…`k_max` whose inertia is at most
/// (1 − `min_explained`) of the inertia at k = 1 (the total variance), so
/// the classes explain that share of the tenants' spread. Returns k, its
/// clustering and the inertia of every k tried.
pub fn choose_k(
    data: &[Vec<f64>],
    k_max: usize,
    min_explained: f64,
    n_init: usize,
    max_iter: usize,
    rng: &mut Rng,
) -> Result<(usize, KMeansResult, Vec<f64>), HarvestError> {
    check(
        (0.0..=1.0).contains(&min_explained),
        "min_explained",
        "must be in [0, 1]",
    )?;
    check(k_max >= 1, "k_max", "must be at least 1")?;
    let k_max = k_max.min(data.len());
    let mut inertias = Vec::new();
    let mut last = None;
    for k in 1..=k_max {
        let r = kmeans(data, k, if k == 1 { 1 } else { n_init }, max_iter, rng)?;
        inertias.push(r.inertia);
        let done = r.inertia <= (1.0 - min_explained) * inertias[0] || k == k_max;
        last = Some(r);
        if done {
            break;
        }
    }
    let r = last.expect("k_max ≥ 1");
    Ok((inertias.len(), r, inertias))
}
