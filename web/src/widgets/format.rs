//! Text formatting of sizes, times and spans for tables and labels.

use skyplan_engine::time::{format_duration, format_timestamp};
use skyplan_engine::Timestamp;

/// A byte count in B, KiB, MiB or GiB, one decimal above bytes.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A time span as `start → end (duration)`, or `—` when there is none.
pub fn span(span: Option<(Timestamp, Timestamp)>) -> String {
    match span {
        Some((a, b)) => format!(
            "{} → {} ({})",
            format_timestamp(a),
            format_timestamp(b),
            format_duration(b - a)
        ),
        None => "—".into(),
    }
}

/// A timestamp to the minute, `YYYY-MM-DD HH:MM`.
pub fn minute(t: Timestamp) -> String {
    let full = format_timestamp(t);
    full.get(..16).unwrap_or(&full).to_owned()
}

/// A count with thin-space thousands separators, for prose and captions.
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// A number with at most `decimals` decimals, without trailing zeros
/// (`2.50` → `2.5`, `3.000` → `3`); `—` when it is not finite.
pub fn trimmed(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    match text {
        "-0" => "0".into(),
        t => t.to_owned(),
    }
}

/// Seconds as hours, at most two decimals.
pub fn hours(secs: f64) -> String {
    trimmed(secs / 3600.0, 2)
}

/// Percentage `done / total` in `0..=100` (100 for an empty file).
pub fn percent(done: u64, total: u64) -> f64 {
    if total == 0 {
        100.0
    } else {
        (done as f64 / total as f64 * 100.0).clamp(0.0, 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(240_735), "235.1 KiB");
        assert_eq!(bytes(100 << 20), "100.0 MiB");
        assert_eq!(count(0), "0");
        assert_eq!(count(48_384), "48\u{2009}384");
        assert_eq!(count(1_234_567), "1\u{2009}234\u{2009}567");
        assert_eq!(span(None), "—");
        assert_eq!(
            span(Some((0, 3_600))),
            "1970-01-01 00:00:00 → 1970-01-01 01:00:00 (1h)"
        );
        assert_eq!(minute(1_392_388_200), "2014-02-14 14:30");
        assert_eq!(percent(1, 4), 25.0);
        assert_eq!(percent(0, 0), 100.0);
        assert_eq!(trimmed(2.5, 2), "2.5");
        assert_eq!(trimmed(3.0004, 3), "3");
        assert_eq!(trimmed(15.333_333, 3), "15.333");
        assert_eq!(trimmed(120.0, 2), "120");
        assert_eq!(trimmed(-0.0001, 2), "0");
        assert_eq!(trimmed(f64::INFINITY, 2), "—");
    }
}
