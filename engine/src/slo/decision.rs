//! The user's decision on an inferred SLO and skyline (Morpheus §3, step 3):
//! sign off as proposed, override the window or the skyline, or reject. The
//! decision is what the agenda receives.

use super::SloError;
use crate::model::{Skyline, Timestamp};
use crate::resource_model::ModelParams;
use serde::{Deserialize, Serialize};

/// What the user decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionKind {
    /// Accepted the inferred window and `R*` as proposed.
    SignedOff,
    /// Accepted with a changed window and/or skyline.
    Overridden,
    /// No SLO: the job keeps running with manual provisioning.
    Rejected,
}

/// A recurring job's contract as decided by its owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SloDecision {
    /// Templated job name.
    pub job: String,
    /// The decision.
    pub kind: DecisionKind,
    /// Period, seconds.
    pub period_secs: i64,
    /// Start of the first period.
    pub reference: Timestamp,
    /// Window `[a, d]`, seconds after each period start (not for rejected).
    pub window: Option<(i64, i64)>,
    /// The reservation skyline (not for rejected).
    pub skyline: Option<Skyline>,
    /// How the proposed skyline was fitted, for provenance.
    pub model: Option<ModelParams>,
    /// Free-text note (why it was overridden or rejected).
    pub note: Option<String>,
}

impl SloDecision {
    /// Checks the decision at the engine's edge: a window inside the period
    /// with `a < d`, long enough for the skyline; a non-empty skyline of
    /// finite, non-negative counts.
    pub fn validate(&self) -> Result<(), SloError> {
        let bad = |why: String| {
            Err(SloError::Decision {
                job: self.job.clone(),
                why,
            })
        };
        if self.job.trim().is_empty() {
            return bad("empty job name".into());
        }
        if self.period_secs <= 0 {
            return bad(format!("period {} s is not positive", self.period_secs));
        }
        if self.kind == DecisionKind::Rejected {
            return Ok(());
        }
        let Some((a, d)) = self.window else {
            return bad("a signed-off or overridden SLO needs a window".into());
        };
        if a < 0 || d <= a {
            return bad(format!("window [{a}, {d}] must have 0 ≤ a < d"));
        }
        let Some(sky) = &self.skyline else {
            return bad("a signed-off or overridden SLO needs a skyline".into());
        };
        if sky.is_empty() || sky.step_secs == 0 {
            return bad("the skyline is empty".into());
        }
        if let Some(v) = sky.containers.iter().find(|c| !c.is_finite() || **c < 0.0) {
            return bad(format!("skyline value {v} is not a non-negative number"));
        }
        if sky.duration_secs() > d - a {
            return bad(format!(
                "the skyline lasts {} s but the window is only {} s",
                sky.duration_secs(),
                d - a
            ));
        }
        Ok(())
    }
}
