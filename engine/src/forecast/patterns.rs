//! The training patterns of the history-dependent kernel (eq. 5):
//! `x̃_t = [t, y_{t−h}, …, y_{t−1}]` with target `y_t`. Keeping the time t
//! beside the history keeps some locality in time (§III-A: "we do not
//! completely ignore locality in the original input space").
//!
//! A pattern is made only where all h + 1 values are observed: a gap is
//! never filled, its patterns are left out.

/// Patterns with their targets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Patterns {
    /// Rows `[t, y_{t−h}, …, y_{t−1}]`.
    pub rows: Vec<Vec<f64>>,
    /// `y_t` per row.
    pub targets: Vec<f64>,
}

/// The pattern predicting `values[t]` (`t ≥ h`) with time `t + offset`, or
/// `None` when one of its values is missing.
pub fn pattern_at(values: &[f64], t: usize, h: usize, offset: f64) -> Option<Vec<f64>> {
    if t < h || t > values.len() {
        return None;
    }
    let lags = &values[t - h..t];
    if lags.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let mut row = Vec::with_capacity(h + 1);
    row.push(t as f64 + offset);
    row.extend_from_slice(lags);
    Some(row)
}

/// The latest (at most) `latest` complete patterns of `values`, oldest
/// first, times counted from `offset` (the time of `values[0]`).
pub fn latest_patterns(values: &[f64], h: usize, latest: usize, offset: f64) -> Patterns {
    let mut out = Patterns::default();
    let mut t = values.len();
    while t > h && out.rows.len() < latest {
        t -= 1;
        if values[t].is_finite() {
            if let Some(row) = pattern_at(values, t, h, offset) {
                out.rows.push(row);
                out.targets.push(values[t]);
            }
        }
    }
    out.rows.reverse();
    out.targets.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_skip_gaps() {
        let v = [1.0, 2.0, f64::NAN, 4.0, 5.0, 6.0, 7.0];
        let p = latest_patterns(&v, 2, 10, 100.0);
        // Targets at t = 5 (lags 4, 5) and t = 6; t = 3 and 4 touch the gap.
        assert_eq!(p.targets, vec![6.0, 7.0]);
        assert_eq!(p.rows[0], vec![105.0, 4.0, 5.0]);
        assert_eq!(pattern_at(&v, 7, 2, 0.0), Some(vec![7.0, 6.0, 7.0]));
        assert_eq!(latest_patterns(&v, 2, 1, 0.0).targets, vec![7.0]);
    }
}
