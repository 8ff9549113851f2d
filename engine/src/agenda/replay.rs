//! Dynamic reprovisioning (Morpheus §7): actual runs replayed against their
//! reservations. When a job's demand (containers in use plus pending work)
//! exceeds what its reservation gives, the Dynamic Reprovisioning Algorithm
//! grants extra containers for `T` seconds, capped at `ρ·max(R_recent)` and
//! never more than the job asks, and only if the plan has room at that time;
//! then it re-evaluates.

use super::error::AgendaError;
use super::plan::Plan;
use super::view::size_of;
use serde::{Deserialize, Serialize};

/// DRA settings (defaults from §7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReprovisionParams {
    /// Whether DRA runs at all (off: the reservation is all a job gets).
    pub enabled: bool,
    /// How long a grant lasts before DRA re-evaluates, seconds (1 min).
    pub grant_secs: i64,
    /// The fudge factor ρ on the recent reservation (2).
    pub rho: f64,
    /// The window of "recent" reservation, seconds (2 min).
    pub recent_secs: i64,
}

impl Default for ReprovisionParams {
    fn default() -> Self {
        ReprovisionParams {
            enabled: true,
            grant_secs: 60,
            rho: 2.0,
            recent_secs: 120,
        }
    }
}

/// One actual run to replay: the containers it would use at each step if
/// unconstrained (its skyline on the plan's step), and how many steps after
/// the reservation's start it could begin (a late input).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayRun {
    /// Run name.
    pub name: String,
    /// Containers wanted per step at its natural pace.
    pub demand: Vec<f64>,
    /// Steps after the reservation's start before the run can begin.
    pub start_delay: usize,
}

/// What happened to one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// Run name.
    pub name: String,
    /// Steps from the window start to completion (`None`: did not finish
    /// within one period after its deadline).
    pub finish_step: Option<usize>,
    /// The deadline, steps from the window start.
    pub deadline_step: usize,
    /// Finished after the deadline, or not at all.
    pub missed: bool,
    /// Extra container-steps DRA granted.
    pub granted: f64,
    /// Extra container-steps DRA asked for but the plan had no room for.
    pub refused: f64,
}

/// Replays `run` against instance `instance` of reservation `id`.
pub fn replay(
    plan: &Plan,
    id: u32,
    instance: usize,
    run: &ReplayRun,
    params: &ReprovisionParams,
) -> Result<RunOutcome, AgendaError> {
    let r = plan
        .reservation(id)
        .ok_or(AgendaError::NoSuchReservation(id))?;
    if !(params.rho.is_finite() && params.rho >= 0.0)
        || params.grant_secs <= 0
        || params.recent_secs < 0
    {
        return Err(AgendaError::Param {
            name: "reprovision",
            why: "rho must be ≥ 0, grant_secs > 0, recent_secs ≥ 0".into(),
        });
    }
    let steps = plan.steps();
    let step = plan.params().step_secs;
    let grant_steps = ((params.grant_secs + step - 1) / step).max(1) as usize;
    let recent_steps = ((params.recent_secs + step - 1) / step).max(1) as usize;
    let (a, d) = r.window;
    let base = a + (instance % r.instances) * r.period_steps;
    let size = size_of(&r.request);
    let load = plan.load();
    let cap = plan.capacity();
    // Reservation containers at window-relative step k.
    let reserved = |k: usize| -> f64 {
        let j = (a + k).checked_sub(r.start);
        j.and_then(|j| r.alloc.get(j)).copied().unwrap_or(0.0)
    };
    // Room for more containers of this size at window-relative step k.
    let room = |k: usize| -> f64 {
        let tau = (base + k) % steps;
        let c = cap[tau];
        ((c.cores - load[tau][0]) / size[0])
            .min((c.memory_mb - load[tau][1]) / size[1])
            .max(0.0)
    };
    let deadline = d - a;
    let horizon = deadline + r.period_steps;
    let begin = r.start.saturating_sub(a) + run.start_delay;
    let mut backlog = 0.0f64;
    let (mut granted, mut refused) = (0.0, 0.0);
    let mut history: Vec<f64> = Vec::with_capacity(horizon);
    let mut grant = 0.0f64;
    let mut grant_left = 0usize;
    let mut finish = None;
    for k in 0..horizon {
        let pace = if k >= begin {
            run.demand.get(k - begin).copied().unwrap_or(0.0)
        } else {
            0.0
        };
        let want = pace + backlog;
        let mut alloc = reserved(k);
        if params.enabled {
            if grant_left == 0 {
                grant = 0.0;
                if want > alloc + 1e-9 {
                    let recent = history
                        .iter()
                        .rev()
                        .take(recent_steps)
                        .copied()
                        .fold(alloc, f64::max);
                    let ask = (want - alloc).min(params.rho * recent);
                    let ok = ask.min(room(k));
                    grant = ok;
                    refused += (ask - ok) * grant_steps as f64;
                }
                grant_left = grant_steps;
            }
            grant_left -= 1;
            let used_extra = grant.min((want - alloc).max(0.0));
            granted += used_extra;
            alloc += grant;
        }
        let used = alloc.min(want);
        backlog = want - used;
        history.push(alloc);
        if k + 1 >= begin + run.demand.len() && backlog <= 1e-9 {
            finish = Some(k + 1);
            break;
        }
    }
    Ok(RunOutcome {
        name: run.name.clone(),
        missed: finish.is_none_or(|f| f > deadline),
        finish_step: finish,
        deadline_step: deadline,
        granted,
        refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agenda::params::AgendaParams;
    use crate::agenda::plan::Method;
    use crate::agenda::request::{Capacity, Recurrence, ReservationRequest};
    use crate::model::ContainerSize;

    /// Replays a run that needs `demand` containers a step for 3 steps
    /// and starts `delay` steps late, against its reservation of 10
    /// containers a step for 3 steps in the window `[0, window_end)`
    /// minutes, on a cluster of `cores`; with dynamic reprovisioning
    /// (`ReprovisionParams::default()`) when `dra`, without otherwise.
    fn replay_flat(
        cores: f64,
        window_end: i64,
        demand: f64,
        delay: usize,
        dra: bool,
    ) -> RunOutcome {
        let mut p = Plan::new(
            AgendaParams::default(),
            vec![Capacity {
                cores,
                memory_mb: cores * 4096.0,
            }],
        )
        .unwrap();
        let req = ReservationRequest::from_skyline(
            "job",
            Recurrence::Periodic {
                period_secs: 86_400,
            },
            (0, window_end * 60),
            ContainerSize::default(),
            &[10.0; 3],
            60,
            1.0,
        );
        let (id, _) = p.admit(req, Method::EarliestFirst).unwrap();
        let run = ReplayRun {
            name: "r".into(),
            demand: vec![demand; 3],
            start_delay: delay,
        };
        let params = ReprovisionParams {
            enabled: dra,
            ..ReprovisionParams::default()
        };
        replay(&p, id, 0, &run, &params).unwrap()
    }

    #[test]
    fn a_run_that_matches_its_reservation_finishes_on_time() {
        let o = replay_flat(100.0, 10, 10.0, 0, false);
        assert_eq!(o.finish_step, Some(3));
        assert!(!o.missed);
    }

    #[test]
    fn a_slow_run_misses_without_dra_and_is_stretched_with_it() {
        // Reservation: 10 containers for 3 steps in a 6-step window. The run
        // needs 15 per step: without DRA it owes 15 container-steps at the end
        // of the reservation and never gets them.
        let o = replay_flat(100.0, 6, 15.0, 0, false);
        assert!(o.missed && o.finish_step.is_none());
        // With DRA: 5 extra per step (ask 5 ≤ ρ·10), granted as the plan has room.
        let o = replay_flat(100.0, 6, 15.0, 0, true);
        assert_eq!(o.finish_step, Some(3));
        assert!(!o.missed);
        assert!((o.granted - 15.0).abs() < 1e-9, "{o:?}");
        assert_eq!(o.refused, 0.0);
    }

    #[test]
    fn late_input_is_caught_up_after_the_reservation_ends() {
        // The run starts 2 steps late; after the reservation ends DRA keeps
        // granting up to ρ·max(recent allocation), so it finishes at step 5.
        let o = replay_flat(100.0, 6, 10.0, 2, true);
        assert_eq!(o.finish_step, Some(5));
        assert!(!o.missed);
    }

    #[test]
    fn no_room_means_refused_and_missed() {
        // The cluster is exactly the reservation: nothing can be granted
        // while it runs; what is owed is granted only after it ends, too late.
        let o = replay_flat(10.0, 4, 15.0, 0, true);
        assert!(o.missed);
        assert!(o.refused >= 15.0, "{o:?}");
        assert!(o.finish_step.unwrap() > o.deadline_step);
    }
}
