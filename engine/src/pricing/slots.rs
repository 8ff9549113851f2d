//! The slotted pricing model of MRM §4.1.
//!
//! Time is slotted; every job takes one slot. The queue's state is a bit
//! string: bit `i` is set when an admitted delay-tolerant job has deadline
//! `i` (slot 0 is the current slot). In every slot a delay-sensitive job
//! arrives with probability `p` and wants that very slot; it is rejected when
//! the slot must run a delay-tolerant job for deadlines to hold. The price of
//! giving a new delay-tolerant job deadline `k` is the probability that doing
//! so causes one more rejection.
//!
//! Capacity `C` (free slots a string offers to jobs with later deadlines)
//! and overflow `O` (jobs of a string that must run in earlier slots) combine
//! over a split into later part `L` and earlier part `R` as
//! `C = C_L + max(C_R − O_L, 0)` and `O = O_R + max(O_L − C_R, 0)`. Choosing
//! a free slot `k` adds a rejection when no delay-sensitive job comes at `k`
//! and `O_L > C_R`, or when one comes and `O_L ≥ C_R` (L: slots after `k`,
//! R: slots before it). `C_R` for every `k` is built left to right and `O_L`
//! right to left, each by adding one slot to a distribution, so the whole
//! curve costs O(n²) — O(n) per slot, as the paper says. A slot whose bit is
//! already set costs what the latest free slot before it costs (the new job
//! has to finish there); with no free slot before it there is no price.

use serde::{Deserialize, Serialize};

/// Why a price curve cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum PricingError {
    /// The arrival probability is not in [0, 1].
    #[error("arrival probability p = {0} is not in [0, 1]")]
    Probability(f64),
    /// The brute force is exponential; it refuses long strings.
    #[error("brute force limited to 20 slots, got {0}")]
    TooLong(usize),
}

fn check(p: f64) -> Result<(), PricingError> {
    if p.is_finite() && (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(PricingError::Probability(p))
    }
}

/// Distribution of a count: `v[m] = P[X = m]`.
type Dist = Vec<f64>;

/// One slot's joint (capacity, overflow) outcomes with probabilities.
fn slot_outcomes(busy: bool, p: f64) -> [(usize, usize, f64); 2] {
    if busy {
        // Its own job runs here; a delay-sensitive arrival pushes it earlier.
        [(0, 0, 1.0 - p), (0, 1, p)]
    } else {
        // Free unless a delay-sensitive job takes it.
        [(1, 0, 1.0 - p), (0, 0, p)]
    }
}

/// Capacity of `slot · R` (the slot later than R) from R's capacity.
fn extend_capacity(c_r: &Dist, busy: bool, p: f64) -> Dist {
    let mut out = vec![0.0; c_r.len() + 1];
    for (cs, os, ps) in slot_outcomes(busy, p) {
        for (c, &pc) in c_r.iter().enumerate() {
            out[cs + c.saturating_sub(os)] += ps * pc;
        }
    }
    out
}

/// Overflow of `L · slot` (the slot earlier than L) from L's overflow.
fn extend_overflow(o_l: &Dist, busy: bool, p: f64) -> Dist {
    let mut out = vec![0.0; o_l.len() + 1];
    for (cs, os, ps) in slot_outcomes(busy, p) {
        for (o, &po) in o_l.iter().enumerate() {
            out[os + o.saturating_sub(cs)] += ps * po;
        }
    }
    out
}

/// The price of every deadline slot `0..bits.len()` for a new delay-tolerant
/// job (`None` where no deadline that late can be met: every slot up to it is
/// taken).
pub fn price_curve(bits: &[bool], p: f64) -> Result<Vec<Option<f64>>, PricingError> {
    check(p)?;
    let n = bits.len();
    // c_before[k]: capacity distribution of slots 0..k (exclusive of k).
    let mut c_before: Vec<Dist> = Vec::with_capacity(n + 1);
    c_before.push(vec![1.0]);
    for k in 0..n {
        let next = extend_capacity(&c_before[k], bits[k], p);
        c_before.push(next);
    }
    // o_after[k]: overflow distribution of slots k+1..n.
    let mut o_after: Vec<Dist> = vec![Vec::new(); n + 1];
    o_after[n] = vec![1.0];
    for k in (0..n).rev() {
        o_after[k] = if k + 1 < n {
            extend_overflow(&o_after[k + 1], bits[k + 1], p)
        } else {
            vec![1.0]
        };
    }
    let mut free_price = vec![None; n];
    for k in 0..n {
        if bits[k] {
            continue;
        }
        let (o_l, c_r) = (&o_after[k], &c_before[k]);
        // P[C_R < m] and P[C_R ≤ m] by prefix sums.
        let mut below = vec![0.0; o_l.len() + 1];
        for m in 1..below.len() {
            below[m] = below[m - 1] + c_r.get(m - 1).copied().unwrap_or(0.0);
        }
        let mut price = 0.0;
        for (m, &po) in o_l.iter().enumerate() {
            let lt = below[m];
            let le = below[m + 1];
            price += po * ((1.0 - p) * lt + p * le);
        }
        free_price[k] = Some(price);
    }
    // A taken slot costs what the latest free slot before it costs.
    let mut out = vec![None; n];
    let mut last = None;
    for k in 0..n {
        if !bits[k] {
            last = free_price[k];
        }
        out[k] = last;
    }
    Ok(out)
}

/// Rejections of delay-sensitive jobs for one arrival pattern, by direct
/// simulation: a delay-sensitive job runs in its slot unless the admitted
/// jobs could then no longer all meet their deadlines; otherwise the server
/// runs the pending job with the earliest deadline (work-conserving).
fn simulate(bits: &[bool], extra: Option<usize>, arrivals: u32) -> u32 {
    let n = bits.len();
    let mut pending: Vec<usize> = (0..n).filter(|&i| bits[i]).collect();
    if let Some(k) = extra {
        pending.push(k);
    }
    pending.sort_unstable();
    let mut rejected = 0;
    for t in 0..n {
        let arrives = arrivals >> t & 1 == 1;
        let can_run_ds = pending
            .iter()
            .enumerate()
            .all(|(i, &d)| i < d.saturating_sub(t) || d < t);
        if arrives && can_run_ds {
            continue;
        }
        if arrives {
            rejected += 1;
        }
        if !pending.is_empty() {
            pending.remove(0);
        }
    }
    rejected
}

/// The same curve by brute force over all `2ⁿ` arrival patterns (n ≤ 20):
/// expected rejections with the new job's deadline at `k` minus without it.
pub fn price_curve_brute_force(bits: &[bool], p: f64) -> Result<Vec<Option<f64>>, PricingError> {
    check(p)?;
    let n = bits.len();
    if n > 20 {
        return Err(PricingError::TooLong(n));
    }
    let prob = |a: u32| -> f64 {
        let k = a.count_ones() as i32;
        p.powi(k) * (1.0 - p).powi(n as i32 - k)
    };
    let base: f64 = (0..1u32 << n)
        .map(|a| prob(a) * f64::from(simulate(bits, None, a)))
        .sum();
    let mut out = vec![None; n];
    for (k, slot) in out.iter_mut().enumerate() {
        // Feasible only if some slot up to k is free.
        if bits[..=k].iter().all(|&b| b) {
            continue;
        }
        let with: f64 = (0..1u32 << n)
            .map(|a| prob(a) * f64::from(simulate(bits, Some(k), a)))
            .sum();
        *slot = Some(with - base);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::Rng;

    fn bits(s: &str) -> Vec<bool> {
        // Written as the paper writes them: slot 0 is the rightmost bit.
        s.chars().rev().map(|c| c == '1').collect()
    }

    #[test]
    fn paper_examples() {
        // One job with deadline 4 (10000): slot 4's price is what slot 3
        // costs; a job at deadline 0 on an empty queue costs p.
        let p = 0.3;
        let empty = price_curve(&bits("00000"), p).unwrap();
        assert!((empty[0].unwrap() - p).abs() < 1e-12, "{empty:?}");
        // On an empty queue a job with deadline k is only in the way when
        // delay-sensitive jobs arrive in all k+1 slots: p^(k+1).
        for (k, price) in empty.iter().enumerate() {
            assert!(
                (price.unwrap() - p.powi(k as i32 + 1)).abs() < 1e-12,
                "slot {k}: {price:?}"
            );
        }
        let one = price_curve(&bits("10000"), p).unwrap();
        assert_eq!(one[4], one[3]);
        let full = price_curve(&bits("111"), p).unwrap();
        assert_eq!(full, vec![None, None, None]);
        assert!(price_curve(&bits("1"), 1.5).is_err());
    }

    #[test]
    fn matches_brute_force() {
        let mut rng = Rng::new(3);
        for case in 0..300 {
            let n = rng.int(1, 10) as usize;
            let b: Vec<bool> = (0..n).map(|_| rng.chance(0.4)).collect();
            let p = [0.0, 0.1, 0.3, 0.5, 0.9, 1.0][rng.int(0, 5) as usize];
            let fast = price_curve(&b, p).unwrap();
            let slow = price_curve_brute_force(&b, p).unwrap();
            for k in 0..n {
                match (fast[k], slow[k]) {
                    (Some(a), Some(s)) => assert!(
                        (a - s).abs() < 1e-12,
                        "case {case} {b:?} p={p} slot {k}: {a} vs {s}"
                    ),
                    (a, s) => assert_eq!(
                        a.is_some(),
                        s.is_some(),
                        "case {case} {b:?} slot {k}: {a:?} vs {s:?}"
                    ),
                }
            }
        }
    }

    #[test]
    fn prices_fall_with_slack_and_rise_with_load() {
        let p = 0.3;
        let light = price_curve(&bits("0000000000000000"), p).unwrap();
        let heavy = price_curve(&bits("0000000011101110"), p).unwrap();
        for k in 1..16 {
            assert!(light[k].unwrap() <= light[k - 1].unwrap() + 1e-15);
            if let (Some(h), Some(l)) = (heavy[k], light[k]) {
                assert!(h >= l - 1e-15, "slot {k}");
            }
        }
    }
}
