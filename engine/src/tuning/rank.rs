//! Spearman's rank correlation, for §4.3's question "does the estimate
//! order the configurations as the simulation does?" — more than whether
//! its single best is the actual best.

/// Ranks of `v` from 1, ties given their average rank.
pub fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = avg;
        }
        i = j + 1;
    }
    out
}

/// Spearman's ρ of `a` and `b` (Pearson's correlation of their ranks);
/// `None` when either is constant or they have fewer than two values.
pub fn spearman(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() || a.len() < 2 {
        return None;
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let mut sab = 0.0;
    let mut saa = 0.0;
    let mut sbb = 0.0;
    for (x, y) in ra.iter().zip(&rb) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa <= 0.0 || sbb <= 0.0 {
        return None;
    }
    Some(sab / (saa * sbb).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_average_ties() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
    }

    #[test]
    fn spearman_matches_the_distinct_rank_formula() {
        // Without ties ρ = 1 − 6 Σd² / (n(n² − 1)), a second formulation.
        let a = [1.0, 5.0, 2.0, 8.0, 3.0, 9.0];
        let b = [2.0, 4.0, 1.0, 9.0, 7.0, 8.0];
        let (ra, rb) = (ranks(&a), ranks(&b));
        let d2: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - y).powi(2)).sum();
        let n = a.len() as f64;
        let closed = 1.0 - 6.0 * d2 / (n * (n * n - 1.0));
        let rho = spearman(&a, &b).unwrap();
        assert!((rho - closed).abs() < 1e-12, "{rho} {closed}");
        assert_eq!(spearman(&a, &a), Some(1.0));
        let rev: Vec<f64> = a.iter().map(|x| -x).collect();
        assert!((spearman(&a, &rev).unwrap() + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&a, &[1.0; 6]), None);
        assert_eq!(spearman(&[1.0], &[2.0]), None);
    }
}
