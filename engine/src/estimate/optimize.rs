//! Box-constrained quasi-Newton minimization (a projected L-BFGS), for the
//! GP's hyperparameters.
//!
//! Hand-written (≈150 lines) instead of an optimizer crate: the problem is
//! small (7–9 log-hyperparameters with box bounds), the engine must build for
//! wasm32 without extra dependencies, and the well-kept Rust optimizer
//! crates (`argmin` and friends) bring a framework, `rand` and
//! unconstrained-only L-BFGS. This one follows what scipy's L-BFGS-B does
//! where it matters for the result: the same stopping rules (projected
//! gradient ∞-norm ≤ 1e-5, relative decrease ≤ 1e7·ε), 10 correction pairs,
//! and variables at a bound whose gradient pushes outwards held fixed. The
//! step is found by backtracking along the projected path with an Armijo
//! test; pairs without positive curvature are not stored.

/// Stopping rules and memory.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    /// Largest number of iterations.
    pub max_iterations: usize,
    /// Correction pairs kept (scipy: 10).
    pub memory: usize,
    /// Stop when the projected gradient's largest component is below this
    /// (scipy's `pgtol`, 1e-5).
    pub pg_tol: f64,
    /// Stop when an iteration lowers `f` by less than this, relative
    /// (scipy's `factr · ε` = 1e7 · 2.2e-16).
    pub f_tol: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_iterations: 100,
            memory: 10,
            pg_tol: 1e-5,
            f_tol: 1e7 * f64::EPSILON,
        }
    }
}

/// A function's value and gradient at a point, `None` where it cannot be
/// evaluated.
pub(crate) type ValueAndGradient<'a> = dyn FnMut(&[f64]) -> Option<(f64, Vec<f64>)> + 'a;

/// The function minimized, in the shape its caller can give it; `None`
/// where it cannot be evaluated.
pub(crate) enum Objective<'a> {
    /// Value and gradient computed together (the GP's analytic gradient,
    /// which costs little more than the value).
    Joint(&'a mut ValueAndGradient<'a>),
    /// The value only; the gradient by forward differences (step
    /// `1e-7 · max(|x_i|, 1)`, statsmodels' default too: half the
    /// evaluations of central ones, error ~1e-7), taken only at the points
    /// the line search accepts. A rejected trial then costs one evaluation
    /// instead of k + 1, and every accepted point the same numbers as
    /// before, bit for bit (the gradient's evaluations are the same calls
    /// in the same order, right after the point's own).
    ForwardDifferences(&'a mut dyn FnMut(&[f64]) -> Option<f64>),
}

/// What the line search learned at a trial point.
enum Trial {
    /// The sufficient-decrease test holds: the value and gradient there.
    Accepted(f64, Vec<f64>),
    /// A finite value that does not decrease enough.
    Rejected(f64),
    /// No value (or not a finite one), or no gradient.
    Failed,
}

impl Objective<'_> {
    /// The value and gradient at `x`.
    fn both(&mut self, x: &[f64]) -> Option<(f64, Vec<f64>)> {
        match self {
            Objective::Joint(f) => f(x),
            Objective::ForwardDifferences(f) => {
                let fx = f(x)?;
                Some((fx, forward_differences(f, x, fx)?))
            }
        }
    }

    /// Evaluates a line-search trial: the gradient only when `accept`
    /// holds for its (finite) value.
    fn trial(&mut self, x: &[f64], accept: impl Fn(f64) -> bool) -> Trial {
        let (ft, gt) = match self {
            Objective::Joint(f) => match f(x) {
                Some((ft, gt)) => (ft, Some(gt)),
                None => return Trial::Failed,
            },
            Objective::ForwardDifferences(f) => match f(x) {
                Some(ft) => (ft, None),
                None => return Trial::Failed,
            },
        };
        if !ft.is_finite() {
            return Trial::Failed;
        }
        if !accept(ft) {
            return Trial::Rejected(ft);
        }
        let gt = match (gt, self) {
            (Some(gt), _) => Some(gt),
            (None, Objective::ForwardDifferences(f)) => forward_differences(f, x, ft),
            (None, Objective::Joint(_)) => None,
        };
        gt.map_or(Trial::Failed, |gt| Trial::Accepted(ft, gt))
    }
}

/// The forward-difference gradient of `f` at `x`, where `f(x) = fx`.
fn forward_differences(
    f: &mut dyn FnMut(&[f64]) -> Option<f64>,
    x: &[f64],
    fx: f64,
) -> Option<Vec<f64>> {
    let mut g = vec![0.0; x.len()];
    let mut xx = x.to_vec();
    for i in 0..x.len() {
        let h = 1e-7 * x[i].abs().max(1.0);
        xx[i] = x[i] + h;
        let fp = f(&xx)?;
        xx[i] = x[i];
        g[i] = (fp - fx) / h;
    }
    Some(g)
}

/// Where a minimization ended.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    /// The best point found.
    pub x: Vec<f64>,
    /// `f` there.
    pub f: f64,
    /// Iterations done.
    pub iterations: usize,
    /// Points evaluated: the start and every line-search trial (a
    /// [`Objective::ForwardDifferences`] gradient's evaluations not counted).
    pub evaluations: usize,
    /// A stopping rule was met (rather than the iteration limit or a failed
    /// line search).
    pub converged: bool,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The gradient with the components that push a variable out of its box
/// (at a bound) set to zero.
fn projected(x: &[f64], g: &[f64], lo: &[f64], hi: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            if (x[i] <= lo[i] && g[i] > 0.0) || (x[i] >= hi[i] && g[i] < 0.0) {
                0.0
            } else {
                g[i]
            }
        })
        .collect()
}

/// Minimizes `f` (`None` where it cannot be evaluated — treated as +∞) over the box `[lo, hi]` from `x0`.
/// Returns `None` when `f` fails at the (clamped) start.
pub(crate) fn minimize(
    mut f: Objective<'_>,
    x0: &[f64],
    lo: &[f64],
    hi: &[f64],
    opt: &Options,
) -> Option<Outcome> {
    let clamp = |x: &[f64]| -> Vec<f64> {
        x.iter()
            .enumerate()
            .map(|(i, v)| v.clamp(lo[i], hi[i]))
            .collect()
    };
    let mut x = clamp(x0);
    let (mut fx, mut g) = f.both(&x)?;
    let mut evaluations = 1;
    let mut pairs: Vec<(Vec<f64>, Vec<f64>, f64)> = Vec::new(); // (s, y, 1/(s·y))
    let mut converged = false;
    let mut iterations = 0;
    while iterations < opt.max_iterations {
        let pg = projected(&x, &g, lo, hi);
        if pg.iter().fold(0.0f64, |m, v| m.max(v.abs())) <= opt.pg_tol {
            converged = true;
            break;
        }
        iterations += 1;
        // Two-loop recursion on the free variables.
        let mut q = pg.clone();
        let mut a = vec![0.0; pairs.len()];
        for (k, (s, y, rho)) in pairs.iter().enumerate().rev() {
            a[k] = rho * dot(s, &q);
            q.iter_mut().zip(y).for_each(|(qi, yi)| *qi -= a[k] * yi);
        }
        if let Some((s, y, _)) = pairs.last() {
            let gamma = dot(s, y) / dot(y, y);
            q.iter_mut().for_each(|v| *v *= gamma);
        }
        for (k, (s, y, rho)) in pairs.iter().enumerate() {
            let b = rho * dot(y, &q);
            q.iter_mut()
                .zip(s)
                .for_each(|(qi, si)| *qi += (a[k] - b) * si);
        }
        let mut d: Vec<f64> = q
            .iter()
            .zip(&pg)
            .map(|(v, p)| if *p == 0.0 { 0.0 } else { -v })
            .collect();
        if dot(&d, &pg) >= 0.0 {
            // Not a descent direction: forget the curvature, go downhill.
            pairs.clear();
            d = pg.iter().map(|v| -v).collect();
        }
        let mut t = if pairs.is_empty() {
            (1.0 / d.iter().fold(0.0f64, |m, v| m.max(v.abs()))).min(1.0)
        } else {
            1.0
        };
        let mut accepted = None;
        for _ in 0..40 {
            let trial: Vec<f64> = clamp(
                &x.iter()
                    .zip(&d)
                    .map(|(xi, di)| xi + t * di)
                    .collect::<Vec<_>>(),
            );
            let dx: Vec<f64> = trial.iter().zip(&x).map(|(a, b)| a - b).collect();
            if dx.iter().all(|v| *v == 0.0) {
                break;
            }
            evaluations += 1;
            let armijo = fx + 1e-4 * dot(&g, &dx);
            match f.trial(&trial, |ft| ft <= armijo) {
                Trial::Accepted(ft, gt) => {
                    accepted = Some((trial, dx, ft, gt));
                    break;
                }
                Trial::Rejected(ft) => {
                    // Minimum of the quadratic through f(x), f'(x) and f(trial),
                    // kept within [0.1, 0.5] of the step.
                    let slope = dot(&g, &dx);
                    let curv = ft - fx - slope;
                    let shrink = if curv > 0.0 {
                        -slope / (2.0 * curv)
                    } else {
                        0.5
                    };
                    t *= shrink.clamp(0.1, 0.5);
                }
                Trial::Failed => t *= 0.1,
            }
        }
        let Some((xn, s, fnew, gn)) = accepted else {
            if pairs.is_empty() {
                break;
            }
            pairs.clear();
            continue;
        };
        let y: Vec<f64> = gn.iter().zip(&g).map(|(a, b)| a - b).collect();
        let sy = dot(&s, &y);
        if sy > 1e-10 * dot(&y, &y).sqrt() * dot(&s, &s).sqrt() {
            if pairs.len() == opt.memory {
                pairs.remove(0);
            }
            pairs.push((s, y, 1.0 / sy));
        }
        let decrease = fx - fnew;
        x = xn;
        g = gn;
        fx = fnew;
        if decrease <= opt.f_tol * fx.abs().max(1.0) {
            converged = true;
            break;
        }
    }
    Some(Outcome {
        x,
        f: fx,
        iterations,
        evaluations,
        converged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rosenbrock_unconstrained_and_boxed() {
        let mut rosen = |x: &[f64]| -> Option<(f64, Vec<f64>)> {
            let (a, b) = (x[0], x[1]);
            let f = (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2);
            let g = vec![
                -2.0 * (1.0 - a) - 400.0 * a * (b - a * a),
                200.0 * (b - a * a),
            ];
            Some((f, g))
        };
        let opt = Options {
            max_iterations: 500,
            ..Options::default()
        };
        let inf = f64::INFINITY;
        let r = minimize(
            Objective::Joint(&mut rosen),
            &[-1.2, 1.0],
            &[-inf, -inf],
            &[inf, inf],
            &opt,
        )
        .unwrap();
        assert!(r.converged);
        assert!(
            (r.x[0] - 1.0).abs() < 1e-4 && (r.x[1] - 1.0).abs() < 1e-4,
            "{:?}",
            r.x
        );
        // With x ≤ 0.5 the minimum is on the bound: x = 0.5, y = 0.25.
        let r = minimize(
            Objective::Joint(&mut rosen),
            &[-1.2, 1.0],
            &[-inf, -inf],
            &[0.5, inf],
            &opt,
        )
        .unwrap();
        assert!((r.x[0] - 0.5).abs() < 1e-9, "{:?}", r.x);
        assert!((r.x[1] - 0.25).abs() < 1e-4, "{:?}", r.x);
    }

    #[test]
    fn failing_regions_are_avoided() {
        // f is undefined for x > 2; the minimum of (x-3)² within is at 2.
        let mut f = |x: &[f64]| -> Option<(f64, Vec<f64>)> {
            if x[0] > 2.0 {
                None
            } else {
                Some(((x[0] - 3.0).powi(2), vec![2.0 * (x[0] - 3.0)]))
            }
        };
        let r = minimize(
            Objective::Joint(&mut f),
            &[0.0],
            &[-10.0],
            &[10.0],
            &Options::default(),
        )
        .unwrap();
        assert!(r.x[0] <= 2.0 && r.x[0] > 1.9, "{:?}", r.x);
        let mut bad = |_: &[f64]| -> Option<(f64, Vec<f64>)> { None };
        assert!(minimize(
            Objective::Joint(&mut bad),
            &[0.0],
            &[-1.0],
            &[1.0],
            &Options::default()
        )
        .is_none());
    }

    #[test]
    fn forward_differences_at_accepted_points_only_change_nothing_but_the_count() {
        // The same function handed over both ways: jointly, with the
        // forward-difference gradient computed at every trial (the old
        // way), and value-only. Same iterates bit for bit, fewer calls.
        let f = |x: &[f64]| -> Option<f64> {
            let (a, b) = (x[0], x[1]);
            (a < 3.0).then(|| (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2) + 0.1 * x[2].powi(4))
        };
        let opt = Options {
            max_iterations: 200,
            ..Options::default()
        };
        let inf = f64::INFINITY;
        let (lo, hi) = ([-inf, -inf, -1.0], [inf, inf, 1.0]);
        let mut joint_calls = 0;
        let mut joint = |x: &[f64]| -> Option<(f64, Vec<f64>)> {
            joint_calls += 1 + x.len();
            let fx = f(x)?;
            Some((fx, forward_differences(&mut |x: &[f64]| f(x), x, fx)?))
        };
        let run = |objective| minimize(objective, &[-1.2, 1.0, 0.7], &lo, &hi, &opt).unwrap();
        let a = run(Objective::Joint(&mut joint));
        let mut value_calls = 0;
        let mut value = |x: &[f64]| -> Option<f64> {
            value_calls += 1;
            f(x)
        };
        let b = run(Objective::ForwardDifferences(&mut value));
        assert_eq!(a.x, b.x);
        assert_eq!(a.f.to_bits(), b.f.to_bits());
        assert_eq!((a.iterations, a.evaluations), (b.iterations, b.evaluations));
        assert!((a.x[0] - 1.0).abs() < 1e-3, "{:?}", a.x);
        // Rosenbrock's valley rejects trials: each saved k = 3 calls.
        assert!(value_calls < joint_calls, "{value_calls} vs {joint_calls}");
        assert_eq!((joint_calls - value_calls) % 3, 0);
    }
}
