//! K-Means as scikit-learn's `KMeans` runs it, seeded, and the choice of k
//! by the explained-variance elbow.
//!
//! Why scikit-learn's algorithm and not only its objective: the clustering
//! service is compared with numpy + scikit-learn on the same tenants, and
//! K-Means only finds a local optimum, so two implementations agree on the
//! partition only as far as they run the same algorithm (up to the random
//! draws). Step by step:
//!
//! - **Seeding**: greedy k-means++ — the first centre uniformly, each next
//!   one the best (lowest potential: summed squared distance of the points
//!   to their nearest centre) of 2 + ⌊ln k⌋ candidates drawn with
//!   probability ∝ squared distance to the nearest chosen centre.
//! - **Lloyd's iterations**: assign each point to its nearest centre (ties
//!   to the lower index), move each centre to its points' mean; a centre
//!   left without points takes the point farthest from its own centre
//!   (scikit-learn's relocation). Stop when no label changes ("strict
//!   convergence"), when the centres moved (sum of squared shifts) by at
//!   most `tol` × the mean variance of the features, or after `max_iter`;
//!   unless strict, the points are assigned once more to the final centres.
//!   The inertia is the sum of squared distances to the returned centres.
//! - **Restarts**: `n_init` seeded runs; a later one replaces the best when
//!   its inertia is lower *and* its partition differs (equal partitions
//!   differ in inertia only by rounding).
//!
//! Lloyd's iterations are checked against scikit-learn's
//! `KMeans(init=centres, n_init=1, algorithm="lloyd")` (with `tol = 0`,
//! with its default 1e-4, and with a centre no point is nearest) by
//! `engine/tests/data/kmeans_reference.py`.
//!
//! The draws are scikit-learn's: `KMeans(random_state=seed)` draws every
//! restart from one numpy `RandomState(seed)` ([`Mt19937`]), the first
//! centre by `choice` over the points' cumulative weights, then 2 + ⌊ln k⌋
//! uniforms per further centre — a fixed count per restart, so restart r
//! at k starts r·(1 + (k − 1)(2 + ⌊ln k⌋)) doubles into the stream. Each
//! run skips to its place in a generator of its own, so the restarts and
//! the k of a search run on several threads ([`crate::parallel::map_jobs`])
//! with the same result as on one, and with scikit-learn's seed the same
//! initial centres as scikit-learn (up to rounding in its distances).

use crate::harvest::error::{check, HarvestError};
use crate::numerics::mt19937::Mt19937;
use crate::numerics::Rng;
use crate::parallel::map_jobs;
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
    /// Lloyd iterations run (centre updates).
    pub iterations: usize,
}

/// How each K-Means fit runs: scikit-learn's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct KMeansParams {
    /// Seeded runs, the best kept (scikit-learn's `n_init`).
    pub n_init: usize,
    /// Lloyd iterations at most (scikit-learn's default 300).
    pub max_iter: usize,
    /// Convergence on the centres' shift, relative to the features' mean
    /// variance (scikit-learn's default 1e-4; 0 waits for no label to
    /// change).
    pub tol: f64,
    /// Threads for the runs, 0 for every core (one in the browser).
    pub threads: usize,
}

impl Default for KMeansParams {
    fn default() -> Self {
        KMeansParams {
            n_init: 3,
            max_iter: 300,
            tol: 1e-4,
            threads: 1,
        }
    }
}

impl KMeansParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), HarvestError> {
        check(self.n_init >= 1, "n_init", "must be at least 1")?;
        check(self.max_iter >= 1, "max_iter", "must be at least 1")?;
        check(
            self.tol.is_finite() && self.tol >= 0.0,
            "tol",
            "must be a non-negative number",
        )
    }
}

/// Points of one dimension, row-major, checked once (finite, same length).
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    d: usize,
    x: Vec<f64>,
    /// Mean variance of the features: the scale of `tol`.
    mean_variance: f64,
}

/// One elbow search of [`search_all`]: its points, the k it must use
/// (none: the elbow rule's), and its seed.
#[derive(Clone, Debug)]
pub struct Search<'a> {
    /// The points.
    pub points: &'a Points,
    /// k given (clamped to the points), or `None` for the elbow rule.
    pub k: Option<usize>,
    /// Seed of its runs' draws (scikit-learn's `random_state`).
    pub seed: u32,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Classes.
    pub k: usize,
    /// The clustering at k.
    pub result: KMeansResult,
    /// Inertia at k = 1, 2, … as tried by the elbow rule (empty when k was
    /// given).
    pub inertias: Vec<f64>,
}

impl Points {
    /// Checks and packs `data` (n points of d features).
    pub fn new(data: &[Vec<f64>]) -> Result<Self, HarvestError> {
        check(!data.is_empty(), "data", "has no point")?;
        let d = data[0].len();
        check(d > 0, "data", "points have no feature")?;
        let mut x = Vec::with_capacity(data.len() * d);
        for (i, p) in data.iter().enumerate() {
            check(
                p.len() == d,
                "data",
                &format!("point {i} has {} features, not {d}", p.len()),
            )?;
            if let Some(j) = p.iter().position(|v| !v.is_finite()) {
                return Err(HarvestError::NotFinite {
                    what: format!("k-means point {i}"),
                    index: j,
                });
            }
            x.extend_from_slice(p);
        }
        let n = data.len() as f64;
        let mut mean_variance = 0.0;
        for f in 0..d {
            let m = data.iter().map(|p| p[f]).sum::<f64>() / n;
            mean_variance += data.iter().map(|p| (p[f] - m) * (p[f] - m)).sum::<f64>() / n;
        }
        Ok(Points {
            d,
            x,
            mean_variance: mean_variance / d as f64,
        })
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.x.len() / self.d
    }

    /// True without points (never, once built).
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.x[i * self.d..(i + 1) * self.d]
    }

    fn rows(&self) -> std::slice::ChunksExact<'_, f64> {
        self.x.chunks_exact(self.d)
    }

    fn check_k(&self, k: usize) -> Result<(), HarvestError> {
        check(
            (1..=self.len()).contains(&k),
            "k",
            &format!("must be 1 to the number of points ({})", self.len()),
        )
    }
}

fn dist2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// Greedy k-means++ (scikit-learn's `_kmeans_plusplus`): k centres, flat.
fn greedy_seeds(p: &Points, k: usize, rng: &mut Mt19937) -> Vec<f64> {
    let n = p.len();
    let trials = trials(k);
    let first = first_index(n, rng.next_f64());
    let mut centres = p.row(first).to_vec();
    let mut closest: Vec<f64> = p.rows().map(|x| dist2(x, p.row(first))).collect();
    let mut pot: f64 = closest.iter().sum();
    let mut cumsum = vec![0.0; n];
    let mut cand_d = vec![0.0; n];
    let mut best_d = vec![0.0; n];
    for _ in 1..k {
        let mut acc = 0.0;
        for (c, d) in cumsum.iter_mut().zip(&closest) {
            acc += d;
            *c = acc;
        }
        let mut best: Option<(usize, f64)> = None;
        for _ in 0..trials {
            let r = rng.next_f64() * pot;
            let cand = cumsum.partition_point(|&c| c < r).min(n - 1);
            let mut cand_pot = 0.0;
            for ((d, x), c) in cand_d.iter_mut().zip(p.rows()).zip(&closest) {
                *d = dist2(x, p.row(cand)).min(*c);
                cand_pot += *d;
            }
            if best.is_none_or(|(_, bp)| cand_pot < bp) {
                best = Some((cand, cand_pot));
                std::mem::swap(&mut best_d, &mut cand_d);
            }
        }
        let (cand, cand_pot) = best.unwrap_or((0, pot));
        centres.extend_from_slice(p.row(cand));
        std::mem::swap(&mut closest, &mut best_d);
        pot = cand_pot;
    }
    centres
}

/// Assigns every point to its nearest centre (the lower index on ties);
/// returns whether a label changed.
fn assign(p: &Points, centres: &[f64], labels: &mut [usize]) -> bool {
    let mut changed = false;
    for (x, l) in p.rows().zip(labels.iter_mut()) {
        let (mut best, mut bd) = (0, f64::INFINITY);
        for (j, c) in centres.chunks_exact(p.d).enumerate() {
            let d = dist2(x, c);
            if d < bd {
                best = j;
                bd = d;
            }
        }
        if *l != best {
            *l = best;
            changed = true;
        }
    }
    changed
}

/// The centres' means of their points into `new` (flat), relocating empty
/// clusters as scikit-learn does; returns the summed squared shift from
/// `old`.
fn update(p: &Points, old: &[f64], labels: &[usize], new: &mut [f64], counts: &mut [f64]) -> f64 {
    let d = p.d;
    new.fill(0.0);
    counts.fill(0.0);
    for (x, &l) in p.rows().zip(labels) {
        counts[l] += 1.0;
        for (s, v) in new[l * d..(l + 1) * d].iter_mut().zip(x) {
            *s += v;
        }
    }
    let empty: Vec<usize> = (0..counts.len()).filter(|&j| counts[j] == 0.0).collect();
    if !empty.is_empty() {
        // The points farthest from their own centres, farthest first.
        let far: Vec<f64> = p
            .rows()
            .zip(labels)
            .map(|(x, &l)| dist2(x, &old[l * d..(l + 1) * d]))
            .collect();
        let mut order: Vec<usize> = (0..far.len()).collect();
        order.sort_by(|&a, &b| far[b].total_cmp(&far[a]).then(a.cmp(&b)));
        for (&e, &i) in empty.iter().zip(&order) {
            let l = labels[i];
            for f in 0..d {
                new[l * d + f] -= p.x[i * d + f];
                new[e * d + f] = p.x[i * d + f];
            }
            counts[e] = 1.0;
            counts[l] -= 1.0;
        }
    }
    for (c, &w) in new.chunks_exact_mut(d).zip(counts.iter()) {
        if w > 0.0 {
            for v in c {
                *v /= w;
            }
        }
    }
    new.iter().zip(old).map(|(a, b)| (a - b) * (a - b)).sum()
}

/// Lloyd's iterations from flat `centres` (see the module notes).
fn lloyd_flat(p: &Points, mut centres: Vec<f64>, max_iter: usize, tol: f64) -> KMeansResult {
    let d = p.d;
    let k = centres.len() / d;
    let tol_abs = tol * p.mean_variance;
    let mut labels = vec![usize::MAX; p.len()];
    let mut new = vec![0.0; centres.len()];
    let mut counts = vec![0.0; k];
    let mut iterations = 0;
    loop {
        let changed = assign(p, &centres, &mut labels);
        if !changed || iterations >= max_iter {
            break;
        }
        iterations += 1;
        let shift = update(p, &centres, &labels, &mut new, &mut counts);
        std::mem::swap(&mut centres, &mut new);
        if tol > 0.0 && shift <= tol_abs {
            assign(p, &centres, &mut labels);
            break;
        }
    }
    let inertia = p
        .rows()
        .zip(&labels)
        .map(|(x, &l)| dist2(x, &centres[l * d..(l + 1) * d]))
        .sum();
    KMeansResult {
        centres: centres.chunks_exact(d).map(<[f64]>::to_vec).collect(),
        labels,
        inertia,
        iterations,
    }
}

/// Candidates drawn per centre after the first (scikit-learn's
/// `n_local_trials`).
fn trials(k: usize) -> usize {
    2 + (k as f64).ln() as usize
}

/// The first centre as numpy's `choice(n, p=w / w.sum())` picks it with
/// equal weights from the uniform `u`: the first index whose normalized
/// cumulative weight (summed one by one, as `cumsum`) exceeds `u`.
fn first_index(n: usize, u: f64) -> usize {
    let w = 1.0 / n as f64;
    let mut cdf = Vec::with_capacity(n);
    let mut acc = 0.0;
    for _ in 0..n {
        acc += w;
        cdf.push(acc);
    }
    let last = acc;
    cdf.partition_point(|&c| c / last <= u).min(n - 1)
}

/// One seeded run, restart `init` at k of a search seeded `seed`: greedy
/// k-means++ from its place in the stream (see the module notes), then
/// Lloyd.
fn run(p: &Points, k: usize, max_iter: usize, tol: f64, seed: u32, init: usize) -> KMeansResult {
    let mut rng = Mt19937::new(seed);
    rng.skip_f64(init * (1 + (k - 1) * trials(k)));
    let centres = greedy_seeds(p, k, &mut rng);
    lloyd_flat(p, centres, max_iter, tol)
}

/// Whether two labellings are the same partition up to renaming
/// (scikit-learn's `_is_same_clustering`).
fn same_partition(a: &[usize], b: &[usize], k: usize) -> bool {
    let mut map = vec![usize::MAX; k];
    a.iter().zip(b).all(|(&x, &y)| {
        if map[x] == usize::MAX {
            map[x] = y;
        }
        map[x] == y
    })
}

/// The kept run of several, in run order (see the module notes).
fn best_of(runs: impl IntoIterator<Item = KMeansResult>, k: usize) -> Option<KMeansResult> {
    let mut best: Option<KMeansResult> = None;
    for r in runs {
        let better = match &best {
            None => true,
            Some(b) => r.inertia < b.inertia && !same_partition(&r.labels, &b.labels, k),
        };
        if better {
            best = Some(r);
        }
    }
    best
}

/// Greedy k-means++ seeding (see the module notes): k centres.
pub fn kmeans_plus_plus(
    data: &[Vec<f64>],
    k: usize,
    rng: &mut Mt19937,
) -> Result<Vec<Vec<f64>>, HarvestError> {
    let p = Points::new(data)?;
    p.check_k(k)?;
    Ok(greedy_seeds(&p, k, rng)
        .chunks_exact(p.d)
        .map(<[f64]>::to_vec)
        .collect())
}

/// Lloyd's algorithm from the given initial centres, stopping at `tol`
/// (relative to the features' mean variance; 0 for strict convergence).
pub fn lloyd(
    data: &[Vec<f64>],
    init: &[Vec<f64>],
    max_iter: usize,
    tol: f64,
) -> Result<KMeansResult, HarvestError> {
    let p = Points::new(data)?;
    p.check_k(init.len())?;
    KMeansParams {
        n_init: 1,
        max_iter,
        tol,
        threads: 1,
    }
    .validate()?;
    check(
        init.iter()
            .all(|c| c.len() == p.d && c.iter().all(|v| v.is_finite())),
        "init",
        "centres must have the points' dimension and finite values",
    )?;
    Ok(lloyd_flat(&p, init.concat(), max_iter, tol))
}

/// The best of `n_init` seeded runs at k with scikit-learn's default `tol`
/// (their seeds drawn from `rng`), on one thread.
pub fn kmeans(
    data: &[Vec<f64>],
    k: usize,
    n_init: usize,
    max_iter: usize,
    rng: &mut Rng,
) -> Result<KMeansResult, HarvestError> {
    search_one(data, Some(k), 1, 0.0, n_init, max_iter, rng).map(|f| f.result)
}

/// The elbow rule: the smallest k in 1…`k_max` whose inertia is at most
/// (1 − `min_explained`) of the inertia at k = 1 (the total variance), so
/// the classes explain that share of the points' spread. Returns k, its
/// clustering and the inertia of every k tried (runs as [`kmeans`]).
pub fn choose_k(
    data: &[Vec<f64>],
    k_max: usize,
    min_explained: f64,
    n_init: usize,
    max_iter: usize,
    rng: &mut Rng,
) -> Result<(usize, KMeansResult, Vec<f64>), HarvestError> {
    search_one(data, None, k_max, min_explained, n_init, max_iter, rng)
        .map(|f| (f.k, f.result, f.inertias))
}

/// One search of [`search_all`] on one thread, its seed drawn from `rng`:
/// what [`kmeans`] (k given, checked) and [`choose_k`] (k by the elbow)
/// share.
fn search_one(
    data: &[Vec<f64>],
    k: Option<usize>,
    k_max: usize,
    min_explained: f64,
    n_init: usize,
    max_iter: usize,
    rng: &mut Rng,
) -> Result<Found, HarvestError> {
    let p = Points::new(data)?;
    if let Some(k) = k {
        p.check_k(k)?;
    }
    let params = KMeansParams {
        n_init,
        max_iter,
        ..KMeansParams::default()
    };
    let search = Search {
        points: &p,
        k,
        seed: (rng.next_u64() >> 32) as u32,
    };
    search_all(&[search], k_max, min_explained, &params)?
        .pop()
        .ok_or_else(|| HarvestError::Invalid {
            name: "data",
            why: "has no point".into(),
        })
}

/// Runs every search, one per entry, the runs of all of them as parallel
/// jobs: in rounds, each round trying the next k of every search still
/// looking (all its `n_init` runs; one at k = 1, where every run ends at
/// the mean), until each reaches its elbow, its `k_max` or its given k.
/// The result is the same on any number of threads.
///
/// # Errors
/// [`HarvestError::Invalid`] for bad settings.
pub fn search_all(
    searches: &[Search<'_>],
    k_max: usize,
    min_explained: f64,
    params: &KMeansParams,
) -> Result<Vec<Found>, HarvestError> {
    params.validate()?;
    check(k_max >= 1, "k_max", "must be at least 1")?;
    check(
        (0.0..=1.0).contains(&min_explained),
        "min_explained",
        "must be in [0, 1]",
    )?;
    struct State {
        next: usize,
        last: usize,
        inertias: Vec<f64>,
        done: Option<(usize, KMeansResult)>,
    }
    let mut states: Vec<State> = searches
        .iter()
        .map(|s| {
            let n = s.points.len();
            let (next, last) = match s.k {
                Some(k) => (k.clamp(1, n), k.clamp(1, n)),
                None => (1, k_max.min(n)),
            };
            State {
                next,
                last,
                inertias: Vec::new(),
                done: None,
            }
        })
        .collect();
    loop {
        let mut jobs: Vec<(usize, usize, usize)> = Vec::new();
        for (i, st) in states.iter().enumerate() {
            if st.done.is_none() {
                let inits = if st.next == 1 { 1 } else { params.n_init };
                jobs.extend((0..inits).map(|r| (i, st.next, r)));
            }
        }
        if jobs.is_empty() {
            break;
        }
        let runs = map_jobs(
            &jobs,
            params.threads,
            || (),
            |_, &(i, k, r)| {
                let s = &searches[i];
                run(s.points, k, params.max_iter, params.tol, s.seed, r)
            },
            &mut |_, _| {},
        );
        let mut runs = jobs.iter().zip(runs).peekable();
        for (i, st) in states.iter_mut().enumerate() {
            if st.done.is_some() {
                continue;
            }
            let k = st.next;
            let mine =
                std::iter::from_fn(|| runs.next_if(|((j, _, _), _)| *j == i).map(|(_, r)| r));
            let Some(best) = best_of(mine, k) else {
                continue;
            };
            if searches[i].k.is_some() {
                st.done = Some((k, best));
                continue;
            }
            st.inertias.push(best.inertia);
            if best.inertia <= (1.0 - min_explained) * st.inertias[0] || k >= st.last {
                st.done = Some((k, best));
            } else {
                st.next = k + 1;
            }
        }
    }
    Ok(states
        .into_iter()
        .filter_map(|st| {
            st.done.map(|(k, result)| Found {
                k,
                result,
                inertias: st.inertias,
            })
        })
        .collect())
}
