//! SLO decisions (Morpheus §3 step 3) as agenda requests: what the job owners
//! signed off or overrode becomes a recurring reservation request for the
//! decided skyline in the decided window (§4.1 → §6).

use super::landing::{land, to_secs, Landing};
use super::params::AgendaParams;
use super::request::{Recurrence, ReservationRequest};
use crate::model::{ContainerSize, Timestamp};
use crate::slo::{DecisionKind, SloDecision};

/// Whether the reservation (request) `name` is job `job`'s: its periodic
/// request bears the job's name, its one-off instances `job#i`.
pub fn of_job(name: &str, job: &str) -> bool {
    name.strip_prefix(job)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('#'))
}

/// Requests for the signed-off and overridden `decisions` on a plan whose
/// step 0 is `origin` (epoch seconds), with `params`' period (the LCM) and
/// step; each skyline step becomes a stage stretchable down to
/// `min_parallelism` containers ([`ReservationRequest::from_skyline`]).
///
/// A job's periods start at `reference + i·period`; its window `[a, d]` is
/// relative to each period start. When the period divides the plan's period
/// (and is a multiple of its step) the job gets one periodic request whose
/// first window starts at `(reference − origin) mod period + a`, wrapped into
/// the first period. Otherwise it gets one one-off request per instance
/// whose window overlaps the plan (`job#i`, `i` counting periods from
/// `reference`; windows clipped to the plan), as Morpheus §6.1 does for
/// off-kilter periods.
///
/// Decisions carry no container size: their skylines are counted in the
/// default container, `<1 core, 1024 MB>` (what the runs CSV and the demo
/// use). Rejected decisions, decisions that fail
/// [`SloDecision::validate`] and jobs with no instance inside the plan come
/// back as `(job, reason)`.
pub fn requests_from_decisions(
    decisions: &[SloDecision],
    origin: Timestamp,
    params: &AgendaParams,
    min_parallelism: f64,
) -> (Vec<ReservationRequest>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for d in decisions {
        if let Err(e) = d.validate() {
            skipped.push((d.job.clone(), e.to_string()));
            continue;
        }
        if d.kind == DecisionKind::Rejected {
            let why = match &d.note {
                Some(n) if !n.trim().is_empty() => format!("rejected: {n}"),
                _ => "rejected (no SLO: manual provisioning)".into(),
            };
            skipped.push((d.job.clone(), why));
            continue;
        }
        let (Some((a, dl)), Some(sky)) = (d.window, d.skyline.as_ref()) else {
            skipped.push((d.job.clone(), "no window or skyline".into()));
            continue;
        };
        // In milliseconds, like YARN windows, so both share one rule.
        let ms = |s: i64| i128::from(s) * 1000;
        let start = ms(d.reference) - ms(origin);
        let window = (start + ms(a), start + ms(dl));
        let request = |name: String, recurrence, w| {
            ReservationRequest::from_skyline(
                name,
                recurrence,
                to_secs(w, 1000),
                ContainerSize::default(),
                &sky.containers,
                i64::from(sky.step_secs),
                min_parallelism,
            )
        };
        match land(
            window,
            Some(ms(d.period_secs)),
            ms(params.period_secs),
            ms(params.step_secs),
            false,
        ) {
            Landing::Periodic { window, .. } => out.push(request(
                d.job.clone(),
                Recurrence::Periodic {
                    period_secs: d.period_secs,
                },
                window,
            )),
            Landing::Instances(v) => out.extend(
                v.into_iter()
                    .map(|(i, w)| request(format!("{}#{i}", d.job), Recurrence::OneOff, w)),
            ),
            Landing::Outside(why) => skipped.push((
                d.job.clone(),
                format!(
                    "period {} s does not divide the plan's {} s and {why}",
                    d.period_secs, params.period_secs
                ),
            )),
        }
    }
    (out, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Skyline;

    fn decision(job: &str, kind: DecisionKind, period: i64, reference: i64) -> SloDecision {
        SloDecision {
            job: job.into(),
            kind,
            period_secs: period,
            reference,
            window: Some((600, 3_000)),
            skyline: Some(Skyline::new(60, vec![4.0, 8.0, 2.0])),
            model: None,
            note: None,
        }
    }

    const ORIGIN: i64 = 1_793_577_600; // 2026-11-02 00:00 UTC

    #[test]
    fn signed_off_and_overridden_become_periodic_requests() {
        let ds = vec![
            // Daily, periods starting 06:00: window 06:10–06:50.
            decision(
                "daily",
                DecisionKind::SignedOff,
                86_400,
                ORIGIN - 86_400 * 3 + 21_600,
            ),
            // Hourly, periods starting at :45: the first window is 00:55–01:35.
            decision("hourly", DecisionKind::Overridden, 3_600, ORIGIN + 2_700),
        ];
        let (reqs, skipped) = requests_from_decisions(&ds, ORIGIN, &AgendaParams::default(), 1.0);
        assert!(skipped.is_empty(), "{skipped:?}");
        assert_eq!(reqs.len(), 2);
        assert_eq!(
            reqs[0].recurrence,
            Recurrence::Periodic {
                period_secs: 86_400
            }
        );
        assert_eq!(
            (reqs[0].arrival_secs, reqs[0].deadline_secs),
            (22_200, 24_600)
        );
        assert_eq!((reqs[0].total_demand()), 14.0 * 60.0);
        assert_eq!(reqs[0].stages[1].max_parallelism, 8.0);
        // 2700 + 600 = 3300 (within the first hour), deadline 5700.
        assert_eq!(
            (reqs[1].arrival_secs, reqs[1].deadline_secs),
            (3_300, 5_700)
        );
    }

    #[test]
    fn rejected_and_invalid_are_skipped_with_reasons() {
        let mut rejected = decision("r", DecisionKind::Rejected, 86_400, ORIGIN);
        rejected.window = None;
        rejected.skyline = None;
        rejected.note = Some("owner prefers fair share".into());
        let mut bad = decision("bad", DecisionKind::SignedOff, 86_400, ORIGIN);
        bad.window = Some((3_000, 600));
        let (reqs, skipped) =
            requests_from_decisions(&[rejected, bad], ORIGIN, &AgendaParams::default(), 1.0);
        assert!(reqs.is_empty());
        assert_eq!(skipped[0].0, "r");
        assert!(skipped[0].1.contains("fair share"), "{skipped:?}");
        assert!(skipped[1].1.contains("window"), "{skipped:?}");
    }

    #[test]
    fn off_kilter_and_long_periods_become_one_offs() {
        // Every 7 h from the origin: four instances in the day.
        let ds = vec![
            decision("seven", DecisionKind::SignedOff, 25_200, ORIGIN),
            // Weekly, next period starts in three days: nothing in the plan.
            decision(
                "weekly",
                DecisionKind::SignedOff,
                604_800,
                ORIGIN + 3 * 86_400,
            ),
            // Weekly, the period started yesterday 02:00: its window was
            // yesterday, the next one is in a week.
            decision(
                "weekly2",
                DecisionKind::SignedOff,
                604_800,
                ORIGIN - 86_400 + 7_200,
            ),
        ];
        let (reqs, skipped) = requests_from_decisions(&ds, ORIGIN, &AgendaParams::default(), 1.0);
        let names: Vec<&str> = reqs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["seven#0", "seven#1", "seven#2", "seven#3"]);
        assert!(reqs.iter().all(|r| r.recurrence == Recurrence::OneOff));
        assert_eq!(
            (reqs[3].arrival_secs, reqs[3].deadline_secs),
            (3 * 25_200 + 600, 3 * 25_200 + 3_000)
        );
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(skipped[0].1.contains("does not divide"), "{skipped:?}");
    }
}
