//! What the Agenda part computes in the worker and sends: a reservation as
//! the panel shows it and the methods compared on the plan's requests (the
//! capacity for the first requests is the engine's `agenda::derived_capacity`).

use crate::parts::agenda::protocol::{CompareRow, CompareView, ReservationView, COMPARED};
use crate::protocol::now_ms;
use skyplan_engine::agenda::{
    lower_bounds, optimize_batch, Method, OptimizeParams, Plan, Recurrence, Reservation,
    ReservationRequest, LP_MAX_VARS,
};

/// The plan's requests (periodic first) placed afresh on an empty plan by
/// each method, with lower bounds on the peak and the optimizer's gap.
pub fn compare_view(plan: &Plan, ticket: u32, revision: u64) -> CompareView {
    let mut reservations: Vec<_> = plan.reservations().iter().collect();
    reservations.sort_by_key(|r| (!r.periodic(), r.id));
    let requests: Vec<ReservationRequest> =
        reservations.iter().map(|r| r.request.clone()).collect();
    let capacity = plan.capacity().to_vec();
    let mut rows = Vec::new();
    let bound = lower_bounds(plan, &requests, LP_MAX_VARS);
    let mut optimized_gap = None;
    for method in COMPARED {
        let t = now_ms();
        if method == Method::Optimized {
            let Ok(empty) = Plan::new(plan.params().clone(), capacity.clone()) else {
                continue;
            };
            if let Ok(out) = optimize_batch(&empty, &requests, &OptimizeParams::default()) {
                let peak = out.report.peak;
                optimized_gap = Some(out.report.gap);
                rows.push(CompareRow {
                    method,
                    placed: requests.len(),
                    peak,
                    ratio: (bound.best > 0.0).then(|| peak / bound.best),
                    millis: now_ms() - t,
                });
            }
            continue;
        }
        let Ok(mut fresh) = Plan::new(plan.params().clone(), capacity.clone()) else {
            continue;
        };
        let placed = requests
            .iter()
            .filter(|r| fresh.admit((*r).clone(), method).is_ok())
            .count();
        let peak = fresh.peak();
        rows.push(CompareRow {
            method,
            placed,
            peak,
            ratio: (bound.best > 0.0).then(|| peak / bound.best),
            millis: now_ms() - t,
        });
    }
    CompareView {
        ticket,
        revision,
        requests: requests.len(),
        rows,
        bound,
        optimized_gap,
    }
}

/// A placed reservation as the panel shows it.
pub fn reservation_view(r: &Reservation) -> ReservationView {
    ReservationView {
        id: r.id,
        name: r.request.name.clone(),
        period_secs: match r.request.recurrence {
            Recurrence::Periodic { period_secs } => Some(period_secs),
            Recurrence::OneOff => None,
        },
        method: r.method,
        start: r.start,
        alloc: r.alloc.clone(),
        window: r.window,
        period_steps: r.period_steps,
        instances: r.instances,
        cores: r.request.container.cores,
        memory_mb: r.request.container.memory_mb,
        peak_containers: r.alloc.iter().copied().fold(0.0, f64::max),
        demand: r.alloc.iter().sum(),
    }
}

/// Whether a reservation named `name` was made for `job` (`job`, or one of
/// its one-off instances `job#i`).
pub use skyplan_engine::agenda::of_job;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_belong_to_their_job() {
        assert!(of_job("revenue_rollup", "revenue_rollup"));
        assert!(of_job("seven#2", "seven"));
        assert!(!of_job("revenue_rollup_v2", "revenue_rollup"));
        assert!(!of_job("rev", "revenue_rollup"));
    }
}
