//! Numbers, times and durations as the report writes them (then escaped
//! like any text). A value that is not finite is written `—`.

use skyplan_engine::time::{format_duration, format_timestamp};
use skyplan_engine::Timestamp;

/// `v` with `decimals` decimals, or `—`.
pub fn fixed(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$}")
    } else {
        "—".to_string()
    }
}

/// `v` as a whole number with thousands separators (`12,345`), or `—`.
pub fn whole(v: f64) -> String {
    if !v.is_finite() {
        return "—".to_string();
    }
    let n = v.round() as i64;
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// A count with thousands separators.
pub fn count(n: usize) -> String {
    whole(n as f64)
}

/// `v` percent, one decimal.
pub fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1} %")
    } else {
        "—".to_string()
    }
}

/// Seconds as the engine writes durations (`1h 05m`, `42s`).
pub fn duration(secs: f64) -> String {
    if secs.is_finite() {
        format_duration(secs.round() as i64)
    } else {
        "—".to_string()
    }
}

/// Seconds with one decimal and the unit.
pub fn secs(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1} s")
    } else {
        "—".to_string()
    }
}

/// An instant, UTC.
pub fn instant(t: Timestamp) -> String {
    format_timestamp(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(whole(1234567.4), "1,234,567");
        assert_eq!(whole(-1000.0), "-1,000");
        assert_eq!(whole(12.0), "12");
        assert_eq!(fixed(f64::NAN, 2), "—");
        assert_eq!(fixed(1.005, 1), "1.0");
        assert_eq!(pct(12.34), "12.3 %");
    }
}
