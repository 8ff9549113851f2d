//! Where a recurring (or one-off) window lands on the plan: the shared rule
//! of the YARN reader and of SLO decisions (Morpheus §6.1). A period that
//! divides the plan's LCM period gives one periodic request, its first
//! window folded into the first period; any other period gives one one-off
//! request per instance whose window overlaps the plan, clipped to it.
//!
//! Arithmetic is in `i128` of any unit (the caller's: milliseconds for YARN,
//! seconds ×1000 for decisions), so no input overflows.

/// Most one-off instances one job may expand to inside a plan.
pub(crate) const MAX_INSTANCES: i128 = 10_000;

/// How a window (relative to the plan's origin) lands on the plan.
#[derive(Debug, PartialEq)]
pub(crate) enum Landing {
    /// A periodic request: the first window, folded so it starts within
    /// `[0, period)`.
    Periodic {
        /// The period, in the caller's unit.
        period: i128,
        /// The folded window.
        window: (i128, i128),
    },
    /// One-off requests: each instance's window overlapping the plan, clipped
    /// to `[0, plan]`, with the instance number (0 for the first instance of
    /// the job's own timeline).
    Instances(Vec<(i128, (i128, i128))>),
    /// Nothing to place, and why.
    Outside(String),
}

/// Lands `window` (relative to the plan origin) of a job repeating every
/// `period` (`None`: once) on a plan of length `plan` and step `step`.
/// `first_instance`: the job's instances start at `window` (YARN: the
/// arrival is the first instance); otherwise instances extend both ways
/// (a decision's periods are `reference + i·period` for every `i`).
pub(crate) fn land(
    window: (i128, i128),
    period: Option<i128>,
    plan: i128,
    step: i128,
    first_instance: bool,
) -> Landing {
    let (a, d) = window;
    let Some(p) = period.filter(|&p| p > 0) else {
        if d <= 0 || a >= plan {
            return Landing::Outside("its window lies outside the plan".into());
        }
        return Landing::Instances(vec![(0, (a.max(0), d.min(plan)))]);
    };
    if step > 0 && plan % p == 0 && p % step == 0 {
        let k = a.div_euclid(p);
        return Landing::Periodic {
            period: p,
            window: (a - k * p, d - k * p),
        };
    }
    // Instances i with a + i·p < plan and d + i·p > 0.
    let lo = (-d).div_euclid(p) + 1;
    let lo = if first_instance { lo.max(0) } else { lo };
    let hi = (plan - a - 1).div_euclid(p);
    if hi < lo {
        return Landing::Outside("no instance of its window falls inside the plan".into());
    }
    if hi - lo + 1 > MAX_INSTANCES {
        return Landing::Outside(format!(
            "its period gives {} instances inside the plan (at most {MAX_INSTANCES})",
            hi - lo + 1
        ));
    }
    Landing::Instances(
        (lo..=hi)
            .map(|i| (i, ((a + i * p).max(0), (d + i * p).min(plan))))
            .collect(),
    )
}

/// Rounds a window in `unit`s per second to whole seconds, inward (the
/// earliest start up, the deadline down), saturating into `i64`.
pub(crate) fn to_secs(window: (i128, i128), unit: i128) -> (i64, i64) {
    let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
    let up = -((-window.0).div_euclid(unit));
    (clamp(up), clamp(window.1.div_euclid(unit)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periodic_windows_fold_into_the_first_period() {
        assert_eq!(
            land((7_500, 8_000), Some(3_600), 86_400, 60, true),
            Landing::Periodic {
                period: 3_600,
                window: (300, 800)
            }
        );
        assert_eq!(
            land((-100, 200), Some(3_600), 86_400, 60, false),
            Landing::Periodic {
                period: 3_600,
                window: (3_500, 3_800)
            }
        );
    }

    #[test]
    fn other_periods_expand_to_instances() {
        // 7 h on a one-day plan: instances at 2 h, 9 h, 16 h, 23 h (the
        // last clipped to the plan's end).
        let l = land((7_200, 14_400), Some(25_200), 86_400, 60, true);
        let Landing::Instances(v) = l else {
            panic!("{l:?}")
        };
        assert_eq!(v.len(), 4);
        assert_eq!(v[3], (3, (82_800, 86_400)));
        // Both ways: an instance before the first one counts too.
        let Landing::Instances(v) = land((3_600, 7_200), Some(25_200), 86_400, 60, false) else {
            panic!()
        };
        assert_eq!(v[0].0, 0);
        let Landing::Instances(v) = land((30_000, 40_000), Some(25_200), 86_400, 60, false) else {
            panic!()
        };
        assert_eq!(v[0], (-1, (4_800, 14_800)));
        // Weekly on a daily plan, in a later week: nothing.
        assert!(matches!(
            land((864_000, 900_000), Some(604_800), 86_400, 60, true),
            Landing::Outside(_)
        ));
        assert!(matches!(
            land((0, 10), Some(7), 1_000_000_000, 60, true),
            Landing::Outside(_)
        ));
    }

    #[test]
    fn one_offs_are_clipped_or_outside() {
        assert_eq!(
            land((-50, 100), None, 86_400, 60, true),
            Landing::Instances(vec![(0, (0, 100))])
        );
        assert!(matches!(
            land((86_400, 90_000), None, 86_400, 60, true),
            Landing::Outside(_)
        ));
    }

    #[test]
    fn seconds_round_inward() {
        assert_eq!(to_secs((1_001, 2_999), 1000), (2, 2));
        assert_eq!(to_secs((-1_500, -500), 1000), (-1, -1));
        assert_eq!(
            to_secs((i128::MIN / 2, i128::MAX / 2), 1),
            (i64::MIN, i64::MAX)
        );
    }
}
