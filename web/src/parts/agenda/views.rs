//! What the Agenda part computes in the worker and sends: a reservation as
//! the panel shows it, the methods compared on the plan's requests, and the
//! capacity derived for the first requests.

use crate::parts::agenda::protocol::{CompareRow, CompareView, ReservationView, COMPARED};
use crate::protocol::now_ms;
use skyplan_engine::agenda::{
    lower_bounds, optimize_batch, AgendaParams, Capacity, Method, OptimizeParams, Plan, Recurrence,
    Reservation, ReservationRequest,
};

/// Largest LP relaxation (variables) solved for a lower bound, as in
/// `skyplan plan`.
pub const LP_MAX_VARS: usize = 5_000;

/// Capacity derived on first admission: this much above the lower bound.
pub const HEADROOM: f64 = 1.25;

/// Memory per core of a derived capacity (the CLI's default), MB.
pub const MB_PER_CORE: f64 = 4096.0;

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

/// The capacity derived for the first requests: [`HEADROOM`] × the lower
/// bound on their peak load, in whole cores, [`MB_PER_CORE`] a core; and
/// the note that says so.
pub fn derived_capacity(
    params: &AgendaParams,
    requests: &[ReservationRequest],
) -> Result<(Capacity, String), String> {
    // Lower bounds are costs (load over capacity): on a reference capacity
    // they scale to a load.
    const REFERENCE: f64 = 1_000.0;
    let reference = Plan::new(
        params.clone(),
        vec![Capacity {
            cores: REFERENCE,
            memory_mb: REFERENCE * MB_PER_CORE,
        }],
    )
    .map_err(|e| e.to_string())?;
    let bound = lower_bounds(&reference, requests, LP_MAX_VARS).best * REFERENCE;
    if !(bound.is_finite() && bound > 0.0) {
        return Err(
            "These requests do not fit the plan's day; nothing to size the capacity on.".into(),
        );
    }
    let cores = (bound * HEADROOM - 1e-9).ceil().max(1.0);
    let capacity = Capacity {
        cores,
        memory_mb: cores * MB_PER_CORE,
    };
    let note = format!(
        "Derived when the first jobs were admitted: {HEADROOM} × the lower bound on their peak load ({bound:.1} cores), rounded up, {MB_PER_CORE} MB a core. Change it here."
    );
    Ok((capacity, note))
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
pub fn of_job(name: &str, job: &str) -> bool {
    name.strip_prefix(job)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::ContainerSize;

    #[test]
    fn reservations_belong_to_their_job() {
        assert!(of_job("revenue_rollup", "revenue_rollup"));
        assert!(of_job("seven#2", "seven"));
        assert!(!of_job("revenue_rollup_v2", "revenue_rollup"));
        assert!(!of_job("rev", "revenue_rollup"));
    }

    #[test]
    fn derived_capacity_is_a_quarter_above_the_bound() {
        // 40 containers for 10 minutes in a window of exactly 10 minutes:
        // the bound on the peak is 40 cores, the capacity 50.
        let request = ReservationRequest::from_skyline(
            "a",
            Recurrence::OneOff,
            (600, 1_200),
            ContainerSize::default(),
            &[40.0; 10],
            60,
            1.0,
        );
        let (c, note) = derived_capacity(&AgendaParams::default(), &[request]).unwrap();
        assert_eq!(c.cores, 50.0);
        assert_eq!(c.memory_mb, 50.0 * MB_PER_CORE);
        assert!(note.contains("40.0 cores"), "{note}");
    }
}
