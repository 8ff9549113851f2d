//! Templated job names: the same recurring job under per-run names.
//!
//! Morpheus groups runs whose *templated* names match exactly (§4). Run names
//! typically embed dates, timestamps, run counters and hashes; removing those
//! tokens leaves the template (`revenue_rollup_20261102` →
//! `revenue_rollup`, `etl-2026-11-02T06-run17` → `etl`).

/// The template of a job name: tokens (split on `_ - . : / space`) that are
/// numbers, dates or times (`20261102`, `20261102T06`, `T0630`), run counters
/// (`run17`, `r3`, `attempt2`, `v12`) or hashes (hex of 6+ characters with a
/// digit) are removed; the rest is joined with `_`. A name made only of such
/// tokens is kept as is.
pub fn template_name(name: &str) -> String {
    let kept: Vec<&str> = name
        .split(['_', '-', '.', ':', '/', ' '])
        .filter(|t| !t.is_empty() && !is_variable_token(t))
        .collect();
    if kept.is_empty() {
        name.trim().to_string()
    } else {
        kept.join("_")
    }
}

fn is_variable_token(t: &str) -> bool {
    let b = t.as_bytes();
    let all_digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    if all_digits(b) {
        return true;
    }
    // Date-times such as 20261102T06 or 2026T0630Z, and times such as T0630.
    let upper = t.to_ascii_uppercase();
    let core = upper.strip_suffix('Z').unwrap_or(&upper);
    if let Some((d, h)) = core.split_once('T') {
        if (d.is_empty() || all_digits(d.as_bytes())) && all_digits(h.as_bytes()) {
            return true;
        }
    }
    let lower = t.to_ascii_lowercase();
    for prefix in [
        "run", "attempt", "try", "r", "v", "part", "p", "instance", "i",
    ] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            if all_digits(rest.as_bytes()) {
                return true;
            }
        }
    }
    b.len() >= 6 && b.iter().all(u8::is_ascii_hexdigit) && b.iter().any(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_variable_parts() {
        for (raw, template) in [
            ("revenue_rollup_20261102", "revenue_rollup"),
            ("clickstream_agg_20261102T06", "clickstream_agg"),
            ("etl-2026-11-02T06-run17", "etl"),
            ("tpch_q12_7", "tpch_q12"),
            ("daily.report.3fa9c2e1", "daily_report"),
            ("ingest_v12_attempt2", "ingest"),
            ("adhoc_query_a3f9", "adhoc_query_a3f9"),
            ("20261102", "20261102"),
            ("revenue_rollup", "revenue_rollup"),
        ] {
            assert_eq!(template_name(raw), template, "{raw}");
        }
    }
}
