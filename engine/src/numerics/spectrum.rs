//! Power spectra of real series, on rustfft (the project's FFT crate: pure
//! Rust, builds for wasm32). Every spectrum of the engine is computed here.
//!
//! [`RealSpectrum`] is a real-to-complex FFT: the n real samples are packed
//! into n/2 complex ones, transformed by one rustfft of half the length,
//! and unpacked with the split-radix post-processing step — half the work
//! of a complex FFT of length n, with the plan and buffers kept for many
//! series of one length (harvesting's patterns over every tenant). The
//! unpacking computes bins k and h − k (h = n/2) from the same pair of
//! packed values, since the second is the conjugate mirror of the first. An odd
//! length falls back to the complex FFT. [`power_by_complex_fft`] is the
//! plain complex transform of one series (forecasting's period detection,
//! whose results are pinned to it). The real FFT is checked against a
//! direct DFT in the tests.

use rustfft::num_complex::Complex;
use rustfft::{Fft, FftPlanner};
use std::sync::Arc;

/// A reusable real-to-complex power spectrum of one length (plan, twiddles
/// and buffers kept across calls, for classifying many tenants).
pub struct RealSpectrum {
    n: usize,
    fft: Arc<dyn Fft<f64>>,
    twiddles: Vec<Complex<f64>>,
    buf: Vec<Complex<f64>>,
    scratch: Vec<Complex<f64>>,
}

impl std::fmt::Debug for RealSpectrum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RealSpectrum({})", self.n)
    }
}

impl RealSpectrum {
    /// A plan for series of length `n` (≥ 2).
    pub fn new(n: usize) -> Self {
        let mut planner = FftPlanner::new();
        let even = n.is_multiple_of(2);
        let len = if even { n / 2 } else { n };
        let fft = planner.plan_fft_forward(len.max(1));
        let twiddles = if even {
            (0..=n / 4)
                .map(|k| {
                    let a = -2.0 * std::f64::consts::PI * k as f64 / n as f64;
                    Complex::new(a.cos(), a.sin())
                })
                .collect()
        } else {
            Vec::new()
        };
        let scratch = vec![Complex::new(0.0, 0.0); fft.get_inplace_scratch_len()];
        RealSpectrum {
            n,
            fft,
            twiddles,
            buf: vec![Complex::new(0.0, 0.0); len.max(1)],
            scratch,
        }
    }

    /// The length this plan transforms.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True for a zero-length plan.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// `|X_k|²` for k = 0…⌊n/2⌋ of `x − offset` (`x.len()` must be the
    /// plan's length), into `out`.
    pub fn power(&mut self, x: &[f64], offset: f64, out: &mut Vec<f64>) {
        assert_eq!(x.len(), self.n, "series length differs from the plan");
        let n = self.n;
        out.clear();
        if n == 0 {
            return;
        }
        if !n.is_multiple_of(2) {
            for (b, &v) in self.buf.iter_mut().zip(x) {
                *b = Complex::new(v - offset, 0.0);
            }
            self.fft
                .process_with_scratch(&mut self.buf, &mut self.scratch);
            out.extend(self.buf[..=n / 2].iter().map(|c| c.norm_sqr()));
            return;
        }
        let h = n / 2;
        for (b, pair) in self.buf.iter_mut().zip(x.chunks_exact(2)) {
            *b = Complex::new(pair[0] - offset, pair[1] - offset);
        }
        self.fft
            .process_with_scratch(&mut self.buf, &mut self.scratch);
        // Unpack: X_k = E_k + w^k·O_k with E_k = (Z_k + conj Z_{h−k})/2,
        // O_k = −i(Z_k − conj Z_{h−k})/2 and w = e^{−2πi/n} (indices mod
        // h). Bin h − k pairs the same two values: E_{h−k} = conj E_k,
        // O_{h−k} = conj O_k and w^{h−k} = −conj w^k, so X_{h−k} =
        // conj(E_k − w^k·O_k); bins 0 and h pair Z_0 with itself (w⁰ = 1).
        out.resize(h + 1, 0.0);
        let z = &self.buf;
        let (e, o) = halves(z[0], z[0]);
        out[0] = (e + o).norm_sqr();
        out[h] = (e - o).norm_sqr();
        for k in 1..=h / 2 {
            let (e, o) = halves(z[k], z[h - k]);
            let wo = self.twiddles[k] * o;
            out[h - k] = (e - wo).norm_sqr();
            out[k] = (e + wo).norm_sqr();
        }
    }
}

/// `(E, O)` of the unpacking from `a = Z_k` and `mirror = Z_{h−k}`.
#[inline]
fn halves(a: Complex<f64>, mirror: Complex<f64>) -> (Complex<f64>, Complex<f64>) {
    let e = Complex::new((a.re + mirror.re) * 0.5, (a.im - mirror.im) * 0.5);
    let o = Complex::new((a.im + mirror.im) * 0.5, (mirror.re - a.re) * 0.5);
    (e, o)
}

/// `|X_k|²` for k = 0…⌊n/2⌋ of the mean-removed series (one-off plan).
pub fn power_spectrum(x: &[f64]) -> Vec<f64> {
    let mean = super::stats::mean(x);
    let mut out = Vec::new();
    RealSpectrum::new(x.len()).power(x, mean, &mut out);
    out
}

/// `|X_k|²` for k = 0…⌊n/2⌋ of `x` by one complex FFT of length n (no
/// packing, no centring): the one-off transform of a series of any length.
pub fn power_by_complex_fft(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    if n == 0 {
        return Vec::new();
    }
    let mut buf: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
    FftPlanner::new().plan_fft_forward(n).process(&mut buf);
    buf[..=n / 2].iter().map(|c| c.norm_sqr()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dft_power(x: &[f64]) -> Vec<f64> {
        let n = x.len();
        (0..=n / 2)
            .map(|k| {
                let (mut re, mut im) = (0.0, 0.0);
                for (t, &v) in x.iter().enumerate() {
                    let a = -2.0 * std::f64::consts::PI * (k * t) as f64 / n as f64;
                    re += v * a.cos();
                    im += v * a.sin();
                }
                re * re + im * im
            })
            .collect()
    }

    #[test]
    fn real_fft_matches_the_direct_dft() {
        for n in [2usize, 3, 8, 10, 17, 64, 90, 101] {
            let x: Vec<f64> = (0..n)
                .map(|i| ((i * 7919) % 13) as f64 + (i as f64 * 0.37).sin() * 4.0)
                .collect();
            let mut got = Vec::new();
            RealSpectrum::new(n).power(&x, 0.0, &mut got);
            let want = dft_power(&x);
            assert_eq!(got.len(), want.len());

            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-8 * w.abs().max(1.0),
                    "n {n}: {g} vs {w}"
                );
            }
        }
    }

    #[test]
    fn a_pure_tone_has_one_peak() {
        let n = 720;
        let x: Vec<f64> = (0..n)
            .map(|i| 50.0 + 10.0 * (2.0 * std::f64::consts::PI * 30.0 * i as f64 / n as f64).cos())
            .collect();
        let p = power_spectrum(&x);
        let k = (1..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
        assert_eq!(k, 30);
        assert!(p[0] < 1e-12);
    }
}
