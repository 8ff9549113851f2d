//! The mean use of an application's request, drawn as the reference
//! simulator draws it: from the per-task usage distributions of batch jobs
//! in Google's public cluster trace (clusterdata-2011-2).
//!
//! The reference (`TraceAllZoeWLGenerator`) draws each application's CPU and
//! memory mean from `cpu_slack.log` and `memory_slack.log`: the ratio of a
//! task's measured use to its request (`CPU_rate / CPU_request`,
//! `canonical_memory_usage / memory_request`), values in [0, 1], batch jobs
//! only for both its Batch and Batch-MPI workloads (`buildDist` keeps
//! scheduler id 0). Those files are produced by the reference's notebook
//! (`script/Google Traces Parser - clusterdata-2011-2.ipynb`) and are not in
//! its repository, but the notebook's own figure ("Resources Slack", cell
//! 22) plots their cumulative distributions. The knots below were read off
//! that figure (curves `CPU-batch-no-errors` and `Memory-batch`, the latter
//! scaled to end at 1 as its no-errors twin does), by pixel, to about ±0.02
//! in the cumulative share. They replace our earlier uniform stand-ins (CPU
//! 0.15–0.7, memory 0.3–0.85), which used about twice as much of each
//! request as Google's batch tasks do: the median batch task uses ≈ 5 % of
//! the CPU and ≈ 20 % of the memory it requested.
//!
//! Draws invert the piecewise-linear distribution (the reference
//! interpolates between 1,001 quantiles) and, as the reference, draw again
//! when the value is not in (0, 1].

use crate::numerics::Rng;

/// `(ratio, cumulative share)` knots of batch tasks' CPU use / request.
pub const CPU_KNOTS: [(f64, f64); 13] = [
    (0.0, 0.0),
    (0.01, 0.28),
    (0.02, 0.40),
    (0.10, 0.60),
    (0.20, 0.69),
    (0.25, 0.72),
    (0.40, 0.83),
    (0.50, 0.87),
    (0.60, 0.90),
    (0.70, 0.93),
    (0.80, 0.96),
    (0.90, 0.99),
    (1.0, 1.0),
];

/// `(ratio, cumulative share)` knots of batch tasks' memory use / request.
pub const MEM_KNOTS: [(f64, f64); 14] = [
    (0.0, 0.0),
    (0.05, 0.28),
    (0.10, 0.35),
    (0.15, 0.40),
    (0.20, 0.49),
    (0.25, 0.61),
    (0.30, 0.70),
    (0.40, 0.82),
    (0.50, 0.86),
    (0.60, 0.91),
    (0.70, 0.93),
    (0.80, 0.95),
    (0.90, 0.97),
    (1.0, 1.0),
];

/// The ratio at cumulative share `u` in [0, 1] (linear between knots).
pub fn quantile(knots: &[(f64, f64)], u: f64) -> f64 {
    let u = u.clamp(0.0, 1.0);
    for w in knots.windows(2) {
        let ((x0, c0), (x1, c1)) = (w[0], w[1]);
        if u <= c1 {
            return if c1 > c0 {
                x0 + (x1 - x0) * (u - c0) / (c1 - c0)
            } else {
                x1
            };
        }
    }
    knots.last().map_or(1.0, |k| k.0)
}

/// One draw in (0, 1] from `knots` (drawn again at 0, as the reference).
pub fn draw(rng: &mut Rng, knots: &[(f64, f64)]) -> f64 {
    loop {
        let v = quantile(knots, rng.unit());
        if v > 0.0 && v <= 1.0 {
            return v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_invert_the_knots_and_draws_follow_them() {
        for knots in [&CPU_KNOTS[..], &MEM_KNOTS[..]] {
            for w in knots.windows(2) {
                assert!(w[1].0 > w[0].0 && w[1].1 >= w[0].1, "knots increase");
            }
            for &(x, c) in knots.iter().skip(1) {
                assert!((quantile(knots, c) - x).abs() < 1e-12);
            }
        }
        // Medians as the figure shows them: CPU ≈ 0.05, memory ≈ 0.2.
        assert!((quantile(&CPU_KNOTS, 0.5) - 0.06).abs() < 0.01);
        assert!((quantile(&MEM_KNOTS, 0.5) - 0.204).abs() < 0.01);
        // 20,000 draws: the empirical share under 0.2 matches the knots.
        let mut rng = Rng::new(3);
        let n = 20_000;
        let under = |knots: &[(f64, f64)], rng: &mut Rng| {
            (0..n).filter(|_| draw(rng, knots) <= 0.2).count() as f64 / n as f64
        };
        assert!((under(&CPU_KNOTS, &mut rng) - 0.69).abs() < 0.015);
        assert!((under(&MEM_KNOTS, &mut rng) - 0.49).abs() < 0.015);
    }
}
