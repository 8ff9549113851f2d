//! What the cluster must carry, gathered once from the workspace: the
//! utilization's daily peaks per resource, the agenda's signed-off SLO
//! jobs (the recurring ones, which grow with the workload) and one-off
//! reservations on its capacity, the pricing queue on its slots, and the
//! cluster's size. Every limit is checked on this, grown and re-planned.

use super::peaks::{cluster_peaks, DailyPeaks, DAY};
use crate::agenda::{
    day_of, requests_from_decisions, AgendaParams, AgendaState, Capacity, Method, Recurrence,
    ReservationRequest,
};
use crate::model::{Timestamp, UtilizationSeries};
use crate::pricing::{QueuedJob, Slots};
use crate::slo::{DecisionKind, SloDecision};
use serde::{Deserialize, Serialize};

/// The agenda's demand: the requests it must place on its capacity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgendaDemand {
    /// The plan's settings.
    pub params: AgendaParams,
    /// Its capacity today.
    pub capacity: Capacity,
    /// The signed-off SLO jobs' periodic requests: they grow with the
    /// workload.
    pub recurring: Vec<ReservationRequest>,
    /// One-off requests (off-kilter SLO instances grow too: they are the
    /// same jobs).
    pub recurring_one_offs: Vec<ReservationRequest>,
    /// One-off reservations the planner made by hand: commitments of a
    /// fixed size, not grown.
    pub fixed: Vec<ReservationRequest>,
}

/// The pricing queue's demand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueDemand {
    /// The admitted jobs with their committed deadlines.
    pub jobs: Vec<QueuedJob>,
    /// The cluster's map and reduce slots today.
    pub slots: Slots,
    /// Seconds per quantum of the lazy schedule.
    pub quantum: f64,
}

/// Everything the runway is computed on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Demand {
    /// 00:00 UTC of "today": the last day of the utilization history, or
    /// the agenda's origin when there is none.
    pub today: Timestamp,
    /// The cluster's daily peaks, one entry per resource.
    pub utilization: Vec<DailyPeaks>,
    /// The agenda, when SLO jobs are signed off.
    pub agenda: Option<AgendaDemand>,
    /// The pricing queue, when one is loaded.
    pub queue: Option<QueueDemand>,
}

impl Demand {
    /// Gathers the demand from a workspace's `series`, its SLO `decisions`,
    /// the agenda's state (`None`: the decisions admitted by LowCost on a
    /// capacity derived as the Agenda panel derives it) and the pricing
    /// queue with its slots and quantum.
    pub fn gather<'a>(
        series: impl IntoIterator<Item = &'a UtilizationSeries>,
        decisions: &[SloDecision],
        agenda: Option<&AgendaState>,
        queue: Option<(&[QueuedJob], Slots, f64)>,
    ) -> Demand {
        let utilization = cluster_peaks(series);
        let agenda = agenda_demand(decisions, agenda);
        let today = utilization
            .iter()
            .map(|p| p.last_day())
            .max()
            .or_else(|| agenda.as_ref().map(|(origin, _)| *origin))
            .unwrap_or(0);
        Demand {
            today,
            utilization,
            agenda: agenda.map(|(_, a)| a),
            queue: queue
                .filter(|(jobs, _, _)| !jobs.is_empty())
                .map(|(jobs, slots, quantum)| QueueDemand {
                    jobs: jobs.to_vec(),
                    slots,
                    quantum,
                }),
        }
    }

    /// Whether there is anything to run out of.
    pub fn is_empty(&self) -> bool {
        self.utilization.is_empty() && self.agenda.is_none() && self.queue.is_none()
    }

    /// Servers counted in the utilization series (the most of any
    /// resource), if any.
    pub fn servers(&self) -> Option<usize> {
        self.utilization.iter().map(|p| p.servers).max()
    }
}

/// The agenda's requests with its origin: from the state's origin and
/// capacity when it has them, else from the decisions admitted as the
/// Agenda panel's "Admit" does (the capacity derived from them).
fn agenda_demand(
    decisions: &[SloDecision],
    state: Option<&AgendaState>,
) -> Option<(Timestamp, AgendaDemand)> {
    let signed: Vec<SloDecision> = decisions
        .iter()
        .filter(|d| d.kind != DecisionKind::Rejected)
        .cloned()
        .collect();
    let params = state
        .and_then(|s| s.plan.as_ref())
        .map_or_else(AgendaParams::default, |p| p.params().clone());
    let mut admitted: AgendaState;
    let state = match state {
        Some(s) if s.origin.is_some() && s.capacity.is_some() => s,
        _ if signed.is_empty() => return None,
        _ => {
            admitted = AgendaState::default();
            admitted
                .admit_decisions(&params, &signed, Method::LowCost, 1.0)
                .ok()?;
            &admitted
        }
    };
    let origin = state.origin?;
    let capacity = state.capacity?;
    let (requests, _) = requests_from_decisions(&signed, origin, &params, 1.0);
    let (recurring, recurring_one_offs): (Vec<_>, Vec<_>) = requests
        .into_iter()
        .partition(|r| matches!(r.recurrence, Recurrence::Periodic { .. }));
    let fixed: Vec<ReservationRequest> = state
        .plan
        .iter()
        .flat_map(|p| p.reservations())
        .filter(|r| !r.periodic())
        .filter(|r| {
            !signed
                .iter()
                .any(|d| crate::agenda::of_job(&r.request.name, &d.job))
        })
        .map(|r| r.request.clone())
        .collect();
    if recurring.is_empty() && recurring_one_offs.is_empty() && fixed.is_empty() {
        return None;
    }
    Some((
        origin,
        AgendaDemand {
            params,
            capacity,
            recurring,
            recurring_one_offs,
            fixed,
        },
    ))
}

/// Days from `today` to `t`'s day (0 for today or before).
pub fn day_index(today: Timestamp, t: Timestamp) -> usize {
    ((day_of(t) - today) / DAY).max(0) as usize
}
