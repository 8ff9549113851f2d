//! Which recurring job a run belongs to, for the readers of cluster
//! exports whose runs carry their own per-run names.
//!
//! A tag that names the job outright wins (`job:nightly-etl`,
//! `recurring=revenue`, `workflow:ingest`; YARN lowercases tags); otherwise
//! the name's template, the SLO part's rule ([`template_name`]: dates,
//! times, run counters and hashes stripped), so the Traces panel groups the
//! runs the way the SLOs panel will.

use crate::slo::template_name;

/// Tag keys that name a recurring job.
pub(crate) const JOB_TAGS: [&str; 4] = ["job", "recurring", "recurring-job", "workflow"];

/// The recurring job of a run named `name` with the comma-separated `tags`.
pub(crate) fn recurring_job(name: &str, tags: &str) -> String {
    for tag in tags.split(',') {
        let Some((key, value)) = tag.split_once([':', '=']) else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        if JOB_TAGS.contains(&key.as_str()) && !value.trim().is_empty() {
            return template_name(value.trim());
        }
    }
    template_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_then_templates() {
        assert_eq!(
            recurring_job("revenue_rollup_20261102", ""),
            "revenue_rollup"
        );
        assert_eq!(
            recurring_job(
                "insert overwrite table x (Stage-1)",
                "team:ads,job=nightly_etl"
            ),
            "nightly_etl"
        );
        assert_eq!(recurring_job("etl-2026-11-02T06-run17", "tag1"), "etl");
    }
}
