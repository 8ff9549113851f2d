//! The runway's settings, their defaults and why, validated once at the
//! edge ([`RunwayParams::validate`]) so that everything below works on
//! numbers that make sense.

use super::error::RunwayError;
use super::scale::ScaleChoice;
use super::season::SeasonChoice;
use crate::model::{Resource, Timestamp};
use serde::{Deserialize, Serialize};

/// Utilization above which a resource counts as run out (80 %): the
/// headroom target capacity planners keep for failover and bursts (Nutanix
/// Prism's and VMware Aria's default "usable capacity" buffers sit at
/// 10–20 %).
pub const DEFAULT_TARGET: f64 = 0.8;

/// How far ahead the runway looks, days (about six months: a hardware
/// purchase cycle).
pub const DEFAULT_HORIZON_DAYS: u32 = 180;

/// Longest horizon accepted, days (ten years): a growth model extrapolated
/// further says nothing.
pub const MAX_HORIZON_DAYS: u32 = 3_650;

/// Largest monthly growth accepted by hand, percent (doubling every month
/// is 4,096× a year: anything above is a typo, not a plan).
pub const MAX_MONTHLY_PERCENT: f64 = 100.0;

/// Days in a month, for "% a month": the Gregorian year's mean month.
pub const DAYS_PER_MONTH: f64 = 30.436_875;

/// How demand grows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Growth {
    /// Fitted from the history's daily peaks (a trend with its interval).
    Fitted,
    /// Set by hand: compound growth of `percent` a month, no interval.
    Monthly {
        /// Percent a month; −100 < percent ≤ [`MAX_MONTHLY_PERCENT`].
        percent: f64,
    },
}

/// A step in demand: a new tenant of `cores` from `from` on (negative: a
/// tenant leaving).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepEvent {
    /// Cores of demand the step adds (at its peak).
    pub cores: f64,
    /// From when (seconds since the epoch; the step counts from that day).
    pub from: Timestamp,
}

/// A resource's own headroom target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResourceTarget {
    /// The resource.
    pub resource: Resource,
    /// Its target, a fraction of capacity in (0, 1].
    pub target: f64,
}

/// The runway's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunwayParams {
    /// How demand grows (default: fitted from the history).
    pub growth: Growth,
    /// Steps in demand on top of the growth (default none).
    pub steps: Vec<StepEvent>,
    /// The headroom target of every resource not listed in `targets`
    /// (default [`DEFAULT_TARGET`]).
    pub target: f64,
    /// Per-resource targets (default none).
    pub targets: Vec<ResourceTarget>,
    /// How far the runway looks, days (default [`DEFAULT_HORIZON_DAYS`]).
    pub horizon_days: u32,
    /// The purchase schedule keeps every limit for this many days (default
    /// 180: the six months; at most the horizon).
    pub purchase_days: u32,
    /// Cores of a machine to add (default: the cluster's own, its cores
    /// over its machines).
    pub machine_cores: Option<f64>,
    /// The cluster's machines, when no utilization series counts them
    /// (default: one per server series).
    pub machines: Option<u32>,
    /// The pricing queue's limit: a new job of the queue's mean size must
    /// be able to finish within this many seconds, and every admitted job
    /// meet its deadline (default: twice today's earliest feasible finish
    /// of such a job, [`super::limit::QUEUE_SLOWDOWN`]).
    pub queue_limit_secs: Option<f64>,
    /// The fitted growth's seasonal term (default: found in the daily
    /// peaks, [`super::season`]); a period is in days.
    pub season: SeasonChoice,
    /// The scale the fitted growth's trend is modelled on (default `Auto`:
    /// chosen from how the history's spread moves with its level,
    /// [`super::scale`]).
    pub scale: ScaleChoice,
}

impl Default for RunwayParams {
    fn default() -> Self {
        RunwayParams {
            growth: Growth::Fitted,
            steps: Vec::new(),
            target: DEFAULT_TARGET,
            targets: Vec::new(),
            horizon_days: DEFAULT_HORIZON_DAYS,
            purchase_days: DEFAULT_HORIZON_DAYS,
            machine_cores: None,
            machines: None,
            queue_limit_secs: None,
            season: SeasonChoice::Auto,
            scale: ScaleChoice::Auto,
        }
    }
}

/// Checks a headroom target.
fn check_target(name: &str, t: f64) -> Result<(), RunwayError> {
    if !(t.is_finite() && t > 0.0 && t <= 1.0) {
        return Err(RunwayError::param(
            name,
            format!("a fraction of capacity in (0, 1] (0.8 = 80 %), got {t}"),
        ));
    }
    Ok(())
}

impl RunwayParams {
    /// Checks every setting; the first bad one is named.
    pub fn validate(&self) -> Result<(), RunwayError> {
        if let Growth::Monthly { percent } = self.growth {
            if percent.is_nan() {
                return Err(RunwayError::param("growth", "not a number (NaN)"));
            }
            if percent <= -100.0 {
                return Err(RunwayError::param(
                    "growth",
                    format!("{percent} % a month would take demand to nothing or below; it must be above −100 %"),
                ));
            }
            if percent > MAX_MONTHLY_PERCENT {
                return Err(RunwayError::param(
                    "growth",
                    format!("{percent} % a month is absurd (at most {MAX_MONTHLY_PERCENT} %: doubling every month)"),
                ));
            }
        }
        for s in &self.steps {
            if !(s.cores.is_finite() && s.cores.abs() <= 1e7) {
                return Err(RunwayError::param(
                    "step",
                    format!("a step of {} cores is not a finite size", s.cores),
                ));
            }
        }
        check_target("target", self.target)?;
        for t in &self.targets {
            check_target(&format!("target of {}", t.resource), t.target)?;
        }
        if self.horizon_days == 0 || self.horizon_days > MAX_HORIZON_DAYS {
            return Err(RunwayError::param(
                "horizon",
                format!(
                    "{} days: it must be 1 to {MAX_HORIZON_DAYS} days",
                    self.horizon_days
                ),
            ));
        }
        if self.purchase_days == 0 || self.purchase_days > self.horizon_days {
            return Err(RunwayError::param(
                "purchase horizon",
                format!(
                    "{} days: it must be 1 day to the horizon ({} days)",
                    self.purchase_days, self.horizon_days
                ),
            ));
        }
        if let Some(c) = self.machine_cores {
            if !(c.is_finite() && c > 0.0 && c <= 1e4) {
                return Err(RunwayError::param(
                    "machine cores",
                    format!("{c}: a machine has between 0 and 10,000 cores"),
                ));
            }
        }
        if self.machines == Some(0) {
            return Err(RunwayError::param("machines", "a cluster has at least one"));
        }
        if let Some(l) = self.queue_limit_secs {
            if !(l.is_finite() && l > 0.0) {
                return Err(RunwayError::param(
                    "queue limit",
                    format!("{l}: a positive number of seconds"),
                ));
            }
        }
        self.season.validate()
    }

    /// The headroom target of `resource`.
    pub fn target_of(&self, resource: &Resource) -> f64 {
        self.targets
            .iter()
            .find(|t| &t.resource == resource)
            .map_or(self.target, |t| t.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn monthly(percent: f64) -> RunwayParams {
        RunwayParams {
            growth: Growth::Monthly { percent },
            ..RunwayParams::default()
        }
    }

    #[test]
    fn bad_growth_is_named_never_accepted() {
        assert!(RunwayParams::default().validate().is_ok());
        assert!(monthly(5.0).validate().is_ok());
        assert!(monthly(-50.0).validate().is_ok());
        for (p, word) in [
            (f64::NAN, "NaN"),
            (-100.0, "above −100"),
            (-250.0, "above −100"),
            (1e6, "absurd"),
            (f64::INFINITY, "absurd"),
        ] {
            let e = monthly(p).validate().unwrap_err().to_string();
            assert!(e.starts_with("growth:") && e.contains(word), "{p}: {e}");
        }
    }

    #[test]
    fn bad_targets_horizons_and_sizes_are_named() {
        let cases: Vec<(RunwayParams, &str)> = vec![
            (
                RunwayParams {
                    target: 0.0,
                    ..Default::default()
                },
                "target",
            ),
            (
                RunwayParams {
                    target: 1.5,
                    ..Default::default()
                },
                "target",
            ),
            (
                RunwayParams {
                    target: f64::NAN,
                    ..Default::default()
                },
                "target",
            ),
            (
                RunwayParams {
                    horizon_days: 0,
                    ..Default::default()
                },
                "horizon",
            ),
            (
                RunwayParams {
                    horizon_days: 10_000,
                    purchase_days: 10,
                    ..Default::default()
                },
                "horizon",
            ),
            (
                RunwayParams {
                    purchase_days: 400,
                    ..Default::default()
                },
                "purchase horizon",
            ),
            (
                RunwayParams {
                    machine_cores: Some(-4.0),
                    ..Default::default()
                },
                "machine cores",
            ),
            (
                RunwayParams {
                    machines: Some(0),
                    ..Default::default()
                },
                "machines",
            ),
            (
                RunwayParams {
                    season: SeasonChoice::Period(1),
                    ..Default::default()
                },
                "season",
            ),
            (
                RunwayParams {
                    queue_limit_secs: Some(f64::NAN),
                    ..Default::default()
                },
                "queue limit",
            ),
            (
                RunwayParams {
                    steps: vec![StepEvent {
                        cores: f64::INFINITY,
                        from: 0,
                    }],
                    ..Default::default()
                },
                "step",
            ),
        ];
        for (p, name) in cases {
            let e = p.validate().unwrap_err().to_string();
            assert!(e.starts_with(&format!("{name}:")), "{e}");
        }
    }

    #[test]
    fn per_resource_targets_override_the_default() {
        let p = RunwayParams {
            targets: vec![ResourceTarget {
                resource: Resource::Memory,
                target: 0.9,
            }],
            ..Default::default()
        };
        assert_eq!(p.target_of(&Resource::Memory), 0.9);
        assert_eq!(p.target_of(&Resource::Cpu), DEFAULT_TARGET);
    }
}
