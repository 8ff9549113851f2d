//! The scheduling policies §6.3's simulation compares. Its own file, below
//! both [`simulate`](mod@super::simulate) (which runs them) and
//! [`sim_report`](super::sim_report) (which labels its metrics with them),
//! so neither has to import the other's.

use serde::{Deserialize, Serialize};

/// A scheduling policy of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Priced deadlines (eq. 13) and preemptive EDF.
    Mrm,
    /// First come, first served.
    Fcfs,
    /// Non-preemptive priority of delay-sensitive jobs.
    Priority,
}

impl Policy {
    /// The three policies, in report order.
    pub const ALL: [Policy; 3] = [Policy::Mrm, Policy::Fcfs, Policy::Priority];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Mrm => "MRM",
            Policy::Fcfs => "FCFS",
            Policy::Priority => "Priority",
        }
    }
}
