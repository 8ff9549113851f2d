//! The agenda's settings.

use serde::{Deserialize, Serialize};

/// Settings of the agenda.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgendaParams {
    /// The plan's length: the LCM of the periods of periodic jobs (Morpheus
    /// §6.1 sets it to one day; jobs whose period does not divide it get
    /// one-off reservations).
    pub period_secs: i64,
    /// Time resolution, seconds (one minute, like the skylines).
    pub step_secs: i64,
    /// End points LowCost tries per request, spread over the feasible range.
    pub end_points: usize,
    /// Weight of the alignment penalty for problematic jobs (§7), in cost
    /// units at the window's edge.
    pub alignment_weight: f64,
}

impl Default for AgendaParams {
    fn default() -> Self {
        AgendaParams {
            period_secs: 86_400,
            step_secs: 60,
            end_points: 8,
            alignment_weight: 0.2,
        }
    }
}
