//! YARN's per-queue limits on applications, in containers: how many
//! application masters a queue may run and how much one job may hold.
//!
//! Both the estimator (`tuning::release`) and the ground truth
//! ([`super::simulate`]) ask these, so that the concurrency of jobs — which
//! decides whether the tuned shares bind at all — follows the same rule in
//! both (a simulation that caps AMs and an estimator that does not rank
//! configurations by different workloads).
//!
//! - **AM limit.** Capacity: `maximum-am-resource-percent` (default 0.1)
//!   of the queue's guaranteed capacity; Fair: `maxAMShare` (default 0.5)
//!   of the queue's steady fair share (its weight's fraction of the
//!   group). Rounded down to whole containers, but never below one: the
//!   CapacityScheduler always activates a queue's first application
//!   whatever its AM limit, and we apply the same floor to Fair (whose
//!   `maxAMShare` of a one-container fair share would otherwise starve
//!   the queue for ever).
//! - **User limit.** Capacity only: with `user-limit-factor` f (default 1),
//!   one user holds at most f × the queue's capacity. Our jobs carry no
//!   user, so each job counts as its own user; the limit is at least one
//!   container above the AM, so every job can run a task.

use super::model::{QueueConf, SchedulerKind};

/// The CapacityScheduler's default `maximum-am-resource-percent`.
pub const CAPACITY_AM_SHARE: f64 = 0.1;
/// The FairScheduler's default `maxAMShare` (`queueMaxAMShareDefault`).
pub const FAIR_AM_SHARE: f64 = 0.5;

/// The AM share queue `q` uses under `scheduler`: its own, else YARN's
/// default for the scheduler.
pub fn am_share(scheduler: SchedulerKind, q: &QueueConf) -> f64 {
    q.am_share.unwrap_or(match scheduler {
        SchedulerKind::Capacity => CAPACITY_AM_SHARE,
        SchedulerKind::Fair => FAIR_AM_SHARE,
    })
}

/// The queue's guaranteed fraction of the group: Capacity's capacity,
/// Fair's weight over the sum of weights.
pub fn guaranteed_fraction(scheduler: SchedulerKind, queues: &[QueueConf], q: usize) -> f64 {
    match scheduler {
        SchedulerKind::Capacity => queues[q].share,
        SchedulerKind::Fair => {
            let sum: f64 = queues.iter().map(|x| x.share).sum();
            if sum > 0.0 {
                queues[q].share / sum
            } else {
                0.0
            }
        }
    }
}

/// How many application masters queue `q` may run at once in a group of
/// `total` containers (≥ 1); `override_share` replaces every queue's AM
/// share when given.
pub fn am_limit(
    scheduler: SchedulerKind,
    queues: &[QueueConf],
    q: usize,
    total: u32,
    override_share: Option<f64>,
) -> u32 {
    let share = override_share.unwrap_or_else(|| am_share(scheduler, &queues[q]));
    let limit = share * guaranteed_fraction(scheduler, queues, q) * f64::from(total);
    ((limit + 1e-9).floor() as u32).max(1)
}

/// The most containers one job of queue `q` may hold, its AM included
/// (`am` = 1 with AMs, else 0): Capacity's user limit, unbounded (the
/// group) under Fair.
pub fn job_limit(
    scheduler: SchedulerKind,
    queues: &[QueueConf],
    q: usize,
    total: u32,
    am: u32,
) -> u32 {
    match scheduler {
        SchedulerKind::Fair => total,
        SchedulerKind::Capacity => {
            let f = queues[q].user_limit_factor.unwrap_or(1.0);
            let limit = (f * queues[q].share * f64::from(total) + 1e-9).floor();
            (limit.min(f64::from(total)) as u32).max(am + 1)
        }
    }
}
