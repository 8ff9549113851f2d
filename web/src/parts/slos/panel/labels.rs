//! The words and steps the SLOs panel's cards share: decision labels, window
//! offsets, the α values of the slider.

use crate::widgets::format::minute;
use skyplan_engine::slo::DecisionKind;
use skyplan_engine::time::format_duration;
use skyplan_engine::Timestamp;

/// The α values the slider steps through: log-ish, with the paper's 0.01
/// and Hadoop's 0.1 among them.
pub const ALPHAS: [f64; 13] = [
    0.0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0,
];

/// The quantization steps offered, seconds.
pub const STEPS: [u32; 4] = [5, 30, 60, 300];

/// Position in [`ALPHAS`] of the value nearest `alpha`.
pub fn alpha_index(alpha: f64) -> usize {
    ALPHAS
        .iter()
        .enumerate()
        .min_by(|a, b| (a.1 - alpha).abs().total_cmp(&(b.1 - alpha).abs()))
        .map_or(0, |(i, _)| i)
}

/// The word for a job's decision status, as the table shows it.
pub fn decision_label(kind: Option<DecisionKind>) -> &'static str {
    match kind {
        None => "pending",
        Some(DecisionKind::SignedOff) => "signed-off",
        Some(DecisionKind::Overridden) => "overridden",
        Some(DecisionKind::Rejected) => "rejected",
    }
}

/// Seconds after the period start as `+1h5m` (before it: `−2m`), or `—`.
pub fn offset(secs: Option<i64>) -> String {
    match secs {
        None => "—".into(),
        Some(s) if s < 0 => format!("−{}", format_duration(-s)),
        Some(s) => format!("+{}", format_duration(s)),
    }
}

/// A wall-clock window: `YYYY-MM-DD HH:MM → HH:MM` (the end's date only
/// when it differs).
pub fn window_text((a, d): (Timestamp, Timestamp)) -> String {
    let (from, to) = (minute(a), minute(d));
    match (from.get(..10), to.get(..10), to.get(11..)) {
        (Some(da), Some(dd), Some(time)) if da == dd => format!("{from} → {time}"),
        _ => format!("{from} → {to}"),
    }
}

/// A figure with two decimals, or `—`.
pub fn ratio(v: Option<f64>) -> String {
    v.map_or_else(|| "—".into(), |v| format!("{v:.2}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_steps_hold_the_published_defaults() {
        assert_eq!(ALPHAS[alpha_index(0.01)], 0.01);
        assert_eq!(ALPHAS[alpha_index(0.1)], 0.1);
        assert_eq!(alpha_index(0.0), 0);
        assert_eq!(alpha_index(1.0), ALPHAS.len() - 1);
        assert_eq!(ALPHAS[alpha_index(0.011)], 0.01);
        assert!(ALPHAS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn windows_and_labels() {
        assert_eq!(offset(Some(63)), "+1m3s");
        assert_eq!(offset(None), "—");
        assert_eq!(offset(Some(-120)), "−2m");
        assert_eq!(
            window_text((1_793_579_130, 1_793_611_696)),
            "2026-11-02 00:25 → 09:28"
        );
        assert_eq!(decision_label(None), "pending");
        assert_eq!(decision_label(Some(DecisionKind::SignedOff)), "signed-off");
    }
}
