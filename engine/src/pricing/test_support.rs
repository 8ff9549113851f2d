//! What the pricing tests share: one slot of each kind, queued map-only
//! jobs, and MRM Figure 7's queue.

use super::{QueuedJob, Slots};

/// One map slot and one reduce slot.
pub(super) const ONE: Slots = Slots {
    map: 1.0,
    reduce: 1.0,
};

/// A queued map-only job of `map` slot-seconds due at `deadline`.
pub(super) fn job(name: &str, map: f64, deadline: f64) -> QueuedJob {
    QueuedJob {
        name: name.into(),
        map_work: map,
        reduce_work: 0.0,
        deadline,
    }
}

/// MRM Figure 7's queue on one slot: A (10 s) due at 70, B (20 s) due at
/// 110.
pub(super) fn figure_7_queue() -> [QueuedJob; 2] {
    [job("A", 10.0, 70.0), job("B", 20.0, 110.0)]
}
