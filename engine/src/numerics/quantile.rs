//! Quantiles of the normal and Student-t distributions, for prediction
//! intervals (GP: `mean ± z·σ`; OLS and same-job: `mean ± t·s·…`).
//!
//! Written here rather than taken from a statistics crate because the engine
//! needs only these two functions, and `statrs` brings `rand` and a second
//! `nalgebra` along. Both are computed from upper-tail probabilities through
//! the regularized incomplete gamma and beta functions (Numerical Recipes'
//! series and Lentz continued fractions, Lanczos `ln Γ`) and polished by
//! safeguarded Newton steps, so they agree with scipy's `norm.ppf` and
//! `t.ppf` to about 1e-12 relative (see the tests and
//! `engine/tests/data/estimate_reference.json`).

use std::f64::consts::PI;

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms; ~1e-15 relative).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1−x) = π / sin(πx).
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Iterations of the series and continued fractions (enough for
/// parameters up to ~10⁷, far beyond any degrees of freedom used here).
const MAX_ITER: usize = 100_000;
/// Relative accuracy the series and continued fractions stop at.
const EPS: f64 = 1e-16;
/// Smallest magnitude the Lentz recursions divide by.
const TINY: f64 = 1e-300;

/// Regularized upper incomplete gamma `Q(a, x) = Γ(a, x) / Γ(a)`.
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        // Series for P(a, x).
        let (mut ap, mut sum, mut del) = (a, 1.0 / a, 1.0 / a);
        for _ in 0..MAX_ITER {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * EPS {
                break;
            }
        }
        1.0 - sum * ln_front.exp()
    } else {
        // Continued fraction for Q(a, x) (modified Lentz).
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / TINY;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..MAX_ITER {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = 1.0 / nonzero(an * d + b);
            c = nonzero(b + an / c);
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < EPS {
                break;
            }
        }
        ln_front.exp() * h
    }
}

/// Keeps a Lentz recursion term away from zero.
fn nonzero(v: f64) -> f64 {
    if v.abs() < TINY {
        TINY
    } else {
        v
    }
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / nonzero(1.0 - qab * x / qap);
    let mut h = d;
    // One step of the recursion with coefficient `aa`: the factor h takes.
    let mut step = |aa: f64| {
        d = 1.0 / nonzero(1.0 + aa * d);
        c = nonzero(1.0 + aa / c);
        d * c
    };
    for m in 1..MAX_ITER {
        let m = m as f64;
        let m2 = 2.0 * m;
        h *= step(m * (b - m) * x / ((qam + m2) * (a + m2)));
        let del = step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)));
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// Regularized incomplete beta `I_x(a, b)`.
fn beta_i(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_cf(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_cf(b, a, 1.0 - x) / b
    }
}

/// Upper tail of the standard normal, `P(Z > z)` for `z ≥ 0`.
fn normal_upper(z: f64) -> f64 {
    0.5 * gamma_q(0.5, 0.5 * z * z)
}

/// Upper tail of Student's t with `df` degrees of freedom, `P(T > t)` for
/// `t ≥ 0`: `½ I_{df/(df+t²)}(df/2, ½)`, or near the centre (`t² < df`,
/// where `df/(df+t²)` rounds to almost 1) `½ − ½ I_{t²/(df+t²)}(½, df/2)`.
fn student_upper(t: f64, df: f64) -> f64 {
    let t2 = t * t;
    if t2 < df {
        0.5 - 0.5 * beta_i(0.5, 0.5 * df, t2 / (df + t2))
    } else {
        0.5 * beta_i(0.5 * df, 0.5, df / (df + t2))
    }
}

/// Density of Student's t.
fn student_pdf(t: f64, df: f64) -> f64 {
    let ln_c = ln_gamma(0.5 * (df + 1.0)) - ln_gamma(0.5 * df) - 0.5 * (df * PI).ln();
    (ln_c - 0.5 * (df + 1.0) * (t * t / df).ln_1p()).exp()
}

/// Solves `upper(x) = q` for `x ≥ 0` (`upper` decreasing from ½ at 0) by
/// Newton steps on `upper' = −pdf`, kept inside a bisection bracket.
fn invert_upper(q: f64, x0: f64, upper: impl Fn(f64) -> f64, pdf: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, x0.max(1.0));
    while upper(hi) > q {
        lo = hi;
        hi *= 2.0;
        if !hi.is_finite() {
            return f64::INFINITY;
        }
    }
    let mut x = x0.clamp(lo, hi);
    for _ in 0..200 {
        let f = upper(x) - q;
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let step = f / pdf(x);
        let mut next = x + step;
        if !(next > lo && next < hi && step.is_finite()) {
            next = 0.5 * (lo + hi);
        }
        if (next - x).abs() <= 1e-15 * x.abs().max(1e-300) || hi - lo <= 1e-15 * hi {
            return next;
        }
        x = next;
    }
    x
}

/// Quantile of the standard normal distribution (`scipy.stats.norm.ppf`):
/// the `z` with `P(Z ≤ z) = p`, for `0 < p < 1`; NaN otherwise.
pub fn normal_quantile(p: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    if p == 0.5 {
        return 0.0;
    }
    let q = p.min(1.0 - p);
    // Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4) as the start.
    let t = (-2.0 * q.ln()).sqrt();
    let z0 = t
        - (2.515_517 + 0.802_853 * t + 0.010_328 * t * t)
            / (1.0 + 1.432_788 * t + 0.189_269 * t * t + 0.001_308 * t * t * t);
    let pdf = |z: f64| (-0.5 * z * z).exp() / (2.0 * PI).sqrt();
    let z = invert_upper(q, z0.max(0.0), normal_upper, pdf);
    if p < 0.5 {
        -z
    } else {
        z
    }
}

/// `z` of a two-sided normal interval at `level` (the quantile of
/// `(1 + level) / 2`), for `mean ± z·σ`.
///
/// Remembers the last level asked (per thread): forecasters ask for the same
/// level at every step of every series (the shaping run's one-step GP
/// forecasts ask it once per application-minute), and [`normal_quantile`]'s
/// Newton polish on the incomplete gamma function was 43 % of a
/// 3,000-application shaping run before this memo.
pub fn two_sided_z(level: f64) -> f64 {
    use std::cell::Cell;
    thread_local! {
        static LAST: Cell<(u64, f64)> = const { Cell::new((u64::MAX, f64::NAN)) };
    }
    let key = level.to_bits();
    LAST.with(|last| {
        let (k, z) = last.get();
        if k == key {
            return z;
        }
        let z = normal_quantile(0.5 + 0.5 * level);
        last.set((key, z));
        z
    })
}

/// Quantile of Student's t with `df > 0` degrees of freedom
/// (`scipy.stats.t.ppf`), for `0 < p < 1`; NaN otherwise.
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if p == 0.5 {
        return 0.0;
    }
    let q = p.min(1.0 - p);
    let t = if df == 1.0 {
        // Cauchy, exactly.
        (PI * (0.5 - q)).tan()
    } else if df == 2.0 {
        let a = 1.0 - 2.0 * q;
        a * (2.0 / (1.0 - a * a)).sqrt()
    } else if df.is_infinite() {
        normal_quantile(1.0 - q)
    } else {
        // Cornish–Fisher expansion around the normal quantile as the start.
        let z = normal_quantile(1.0 - q);
        let g1 = (z.powi(3) + z) / 4.0;
        let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
        let t0 = z + g1 / df + g2 / (df * df);
        invert_upper(q, t0, |t| student_upper(t, df), |t| student_pdf(t, df))
    };
    if p < 0.5 {
        -t
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!(ln_gamma(1.0).abs() < 1e-14);
        assert!(ln_gamma(2.0).abs() < 1e-14);
        assert!(close(ln_gamma(0.5), PI.sqrt().ln(), 1e-14));
        // ln(10!) = ln 3628800
        assert!(close(ln_gamma(11.0), 3_628_800f64.ln(), 1e-14));
    }

    #[test]
    fn quantiles_match_closed_forms_and_scipy() {
        // scipy.stats.norm.ppf
        assert!(close(normal_quantile(0.975), 1.959_963_984_540_054, 1e-13));
        assert!(close(normal_quantile(0.95), 1.644_853_626_951_472_2, 1e-13));
        assert!(close(normal_quantile(0.025), -1.959_963_984_540_054, 1e-13));
        assert!(close(normal_quantile(1e-10), -6.361_340_902_404_056, 1e-12));
        // (p, ν, t): exact for 1 and 2 degrees of freedom, scipy.stats.t.ppf
        // for the others.
        for (p, df, want, tol) in [
            (0.975, 1.0, 12.706_204_736_174_694, 1e-13),
            (0.975, 2.0, 4.302_652_729_749_462, 1e-13),
            (0.975, 5.0, 2.570_581_835_636_314_6, 1e-12),
            (0.975, 30.0, 2.042_272_456_301_237_8, 1e-12),
            (0.025, 10.0, -2.228_138_851_986_275_3, 1e-12),
            (0.975, 1e6, 1.959_966_356_814_107, 1e-10),
        ] {
            assert!(close(student_t_quantile(p, df), want, tol), "t({p}, {df})");
        }
        assert_eq!(student_t_quantile(0.5, 3.0), 0.0);
        // Near the centre t ≈ (p − ½)/f(0), f(0) = Γ((ν+1)/2)/(√(νπ) Γ(ν/2)):
        // 0.375 for ν = 4, 1/(√3 · Γ(3/2) · √π) for ν = 3 (scipy's t.ppf is
        // off by 4e-4 relative at ν = 4 here, so this is checked by hand).
        let dp = 0.500_000_1 - 0.5;
        assert!(close(
            student_t_quantile(0.500_000_1, 4.0),
            dp / 0.375,
            1e-9
        ));
        let f3 = 1.0 / (3f64.sqrt() * 0.5 * PI);
        assert!(close(student_t_quantile(0.500_000_1, 3.0), dp / f3, 1e-9));
        assert!(close(
            normal_quantile(0.500_000_1),
            dp * (2.0 * PI).sqrt(),
            1e-9
        ));
        assert!(student_t_quantile(1.0, 3.0).is_nan());
        assert!(student_t_quantile(0.9, 0.0).is_nan());
        assert!(normal_quantile(f64::NAN).is_nan());
        // The memo answers each level with its own quantile, in any order.
        for level in [0.95, 0.9, 0.95, 0.5, 0.9] {
            assert_eq!(
                two_sided_z(level).to_bits(),
                normal_quantile(0.5 + 0.5 * level).to_bits()
            );
        }
        assert!(two_sided_z(f64::NAN).is_nan());
    }
}
