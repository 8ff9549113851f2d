//! The application scheduler (§III, §IV): FIFO admission and first-fit
//! placement. Applications wait in one queue ordered by arrival (a
//! preempted or failed application re-enters at its original place:
//! "a position commensurate to its original priority", §III-B); the head
//! is admitted when all its core components fit the free capacity — if it
//! does not, nothing behind it is (strict FIFO, no backfilling). Elastic
//! components are placed when and where they fit, in the same order,
//! without blocking anyone.
//!
//! Placement is first fit over the hosts in index order, a group of equal
//! components filling each host as far as it goes.

use super::model::Host;
use super::pessimistic::EPS;
use std::collections::BTreeSet;

/// The FIFO key: arrival, then the application's index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FifoKey {
    /// Original arrival (s).
    pub arrival: f64,
    /// Application index.
    pub app: usize,
}

impl Eq for FifoKey {}

impl PartialOrd for FifoKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FifoKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.arrival
            .total_cmp(&other.arrival)
            .then(self.app.cmp(&other.app))
    }
}

/// Applications that want capacity (queued ones, and running ones with
/// elastic components waiting), in FIFO order.
#[derive(Clone, Debug, Default)]
pub struct FifoQueue {
    set: BTreeSet<FifoKey>,
}

impl FifoQueue {
    /// Adds an application (no-op when present).
    pub fn insert(&mut self, key: FifoKey) {
        self.set.insert(key);
    }

    /// Removes an application.
    pub fn remove(&mut self, key: FifoKey) {
        self.set.remove(&key);
    }

    /// The first key after `after` (the first of all with `None`): a pass
    /// that stops at the blocked head visits only what it needs, while
    /// the queue changes under it.
    pub fn next_after(&self, after: Option<FifoKey>) -> Option<FifoKey> {
        use std::ops::Bound::{Excluded, Unbounded};
        match after {
            None => self.set.iter().next().copied(),
            Some(k) => self.set.range((Excluded(k), Unbounded)).next().copied(),
        }
    }

    /// The keys in order (a snapshot: the pass may change the queue).
    pub fn snapshot(&self, out: &mut Vec<FifoKey>) {
        out.clear();
        out.extend(self.set.iter().copied());
    }

    /// Applications waiting or wanting.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether nobody wants capacity.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

/// How many components of (`cpu`, `mem`) fit in `free`.
pub fn fits(free: Host, cpu: f64, mem: f64) -> u32 {
    let by_cpu = ((free.cpu + EPS) / cpu).floor();
    let by_mem = ((free.mem + EPS) / mem).floor();
    by_cpu.min(by_mem).clamp(0.0, u32::MAX as f64) as u32
}

/// First fit of `count` components of (`cpu`, `mem`) into `free`, which is
/// charged; the hosts chosen, one entry per component, are appended to
/// `placed`. Places as many as fit; returns how many.
pub fn first_fit(free: &mut [Host], cpu: f64, mem: f64, count: u32, placed: &mut Vec<u32>) -> u32 {
    let mut left = count;
    for (h, f) in free.iter_mut().enumerate() {
        if left == 0 {
            break;
        }
        let k = fits(*f, cpu, mem).min(left);
        if k > 0 {
            f.cpu -= cpu * k as f64;
            f.mem -= mem * k as f64;
            placed.extend(std::iter::repeat_n(h as u32, k as usize));
            left -= k;
        }
    }
    count - left
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_fit_fills_hosts_in_order() {
        let mut free = vec![
            Host {
                cpu: 4.0,
                mem: 10.0,
            },
            Host { cpu: 8.0, mem: 3.0 },
        ];
        let mut placed = Vec::new();
        // 2 cores, 2 GB: host 0 takes 2, host 1 takes 1 (memory).
        assert_eq!(first_fit(&mut free, 2.0, 2.0, 5, &mut placed), 3);
        assert_eq!(placed, vec![0, 0, 1]);
        assert_eq!(free[0], Host { cpu: 0.0, mem: 6.0 });
        assert_eq!(free[1], Host { cpu: 6.0, mem: 1.0 });
    }

    #[test]
    fn fifo_keeps_original_priority() {
        let mut q = FifoQueue::default();
        q.insert(FifoKey {
            arrival: 5.0,
            app: 2,
        });
        q.insert(FifoKey {
            arrival: 1.0,
            app: 7,
        });
        q.insert(FifoKey {
            arrival: 5.0,
            app: 1,
        });
        let mut v = Vec::new();
        q.snapshot(&mut v);
        assert_eq!(v.iter().map(|k| k.app).collect::<Vec<_>>(), vec![7, 1, 2]);
    }
}
