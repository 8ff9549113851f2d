//! Earliest feasible finish times (MRM §5): admitted jobs are laid out in a
//! *lazy* schedule — each as late as its deadline allows, latest deadline
//! first — and a new job fills the slack that leaves, map phase on map slots
//! and then reduce phase on reduce slots, from now on. Its finish is the
//! earliest deadline MRM can offer without endangering anyone (Figure 7).
//!
//! Time is discretized on a quantum (one second by default); work is in
//! slot-seconds and a job may use every slot of its phase (the fluid view
//! the paper's example takes: "10 seconds of execution time over 16 map
//! slots").

use serde::{Deserialize, Serialize};

/// A cluster of map and reduce slots.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slots {
    /// Map slots.
    pub map: f64,
    /// Reduce slots.
    pub reduce: f64,
}

/// A job as the scheduler sees it: work per phase (the prediction interval's
/// upper bound, slot-seconds) and, once admitted, its deadline (seconds from
/// now).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueuedJob {
    /// Name.
    pub name: String,
    /// Map work, slot-seconds.
    pub map_work: f64,
    /// Reduce work, slot-seconds.
    pub reduce_work: f64,
    /// Committed deadline, seconds from now.
    pub deadline: f64,
}

/// Why a schedule cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum ScheduleError {
    /// A setting or a job is invalid.
    #[error("invalid {0}")]
    Invalid(String),
    /// The admitted jobs cannot all meet their deadlines.
    #[error("job `{0}` cannot meet its deadline")]
    Infeasible(String),
}

/// Free and used capacity per quantum, for both phases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LazySchedule {
    /// Per phase, a union–find "latest quantum at or before t that still has
    /// room" (`skip[p][t] = t` when quantum t has room), so laying out a long
    /// queue skips full quanta instead of rescanning them.
    #[serde(skip)]
    skip: [Vec<usize>; 2],
    /// Seconds per quantum.
    pub quantum: f64,
    /// Capacity per quantum, slot-seconds: `[map, reduce]`.
    pub capacity: [f64; 2],
    /// Work placed per quantum, `[map, reduce]`.
    pub used: Vec<[f64; 2]>,
    /// Each job's occupied quanta per phase: `(name, [(first, last); 2])`.
    pub placements: Vec<(String, [(usize, usize); 2])>,
}

fn check_job(j: &QueuedJob) -> Result<(), ScheduleError> {
    let ok = |v: f64| v.is_finite() && v >= 0.0;
    if !ok(j.map_work) || !ok(j.reduce_work) || !ok(j.deadline) {
        return Err(ScheduleError::Invalid(format!(
            "job `{}`: work and deadline must be finite and ≥ 0",
            j.name
        )));
    }
    Ok(())
}

impl LazySchedule {
    /// Lays out `jobs` lazily on `slots`, with `quantum` seconds per step.
    pub fn build(
        jobs: &[QueuedJob],
        slots: Slots,
        quantum: f64,
    ) -> Result<LazySchedule, ScheduleError> {
        if !(quantum.is_finite() && quantum > 0.0) {
            return Err(ScheduleError::Invalid("quantum must be positive".into()));
        }
        if !(slots.map.is_finite()
            && slots.map > 0.0
            && slots.reduce.is_finite()
            && slots.reduce > 0.0)
        {
            return Err(ScheduleError::Invalid(
                "slot counts must be positive".into(),
            ));
        }
        for j in jobs {
            check_job(j)?;
        }
        let horizon = jobs
            .iter()
            .map(|j| (j.deadline / quantum).floor() as usize)
            .max()
            .unwrap_or(0);
        if horizon > 50_000_000 {
            return Err(ScheduleError::Invalid(
                "deadlines too far for the quantum".into(),
            ));
        }
        let mut s = LazySchedule {
            skip: [(0..=horizon).collect(), (0..=horizon).collect()],
            quantum,
            capacity: [slots.map * quantum, slots.reduce * quantum],
            used: vec![[0.0; 2]; horizon],
            placements: Vec::new(),
        };
        let mut order: Vec<&QueuedJob> = jobs.iter().collect();
        order.sort_by(|a, b| b.deadline.total_cmp(&a.deadline));
        for j in order {
            let end = (j.deadline / quantum).floor() as usize;
            let (r0, r1, before) = s
                .fill_backward(1, j.reduce_work, end)
                .ok_or_else(|| ScheduleError::Infeasible(j.name.clone()))?;
            let (m0, m1, _) = s
                .fill_backward(0, j.map_work, before)
                .ok_or_else(|| ScheduleError::Infeasible(j.name.clone()))?;
            s.placements.push((j.name.clone(), [(m0, m1), (r0, r1)]));
        }
        Ok(s)
    }

    /// Places `work` of phase `p` as late as possible in quanta `< end`;
    /// returns the first and last quanta used and the quantum before which
    /// the previous phase must end (the first one used, or `end` when there
    /// is no work).
    fn fill_backward(&mut self, p: usize, work: f64, end: usize) -> Option<(usize, usize, usize)> {
        let mut left = work;
        if left <= 1e-12 {
            return Some((end, end, end));
        }
        // Quantum indices are shifted by one in `skip` so 0 means "none".
        let mut last = None;
        let mut t = end;
        while left > 1e-12 {
            let slot = self.find(p, t);
            if slot == 0 {
                return None;
            }
            t = slot - 1;
            let take = (self.capacity[p] - self.used[t][p]).min(left);
            self.used[t][p] += take;
            left -= take;
            last.get_or_insert(t);
            if self.capacity[p] - self.used[t][p] <= 1e-12 {
                self.skip[p][slot] = slot - 1;
            }
        }
        Some((t, last.unwrap_or(t), t))
    }

    /// Latest `s ≤ t` (shifted by one: quantum `s − 1`) whose quantum has
    /// room, or 0.
    fn find(&mut self, p: usize, t: usize) -> usize {
        let mut root = t;
        while self.skip[p][root] != root {
            root = self.skip[p][root];
        }
        let mut x = t;
        while self.skip[p][x] != root {
            let next = self.skip[p][x];
            self.skip[p][x] = root;
            x = next;
        }
        root
    }

    /// Free capacity of phase `p` in quantum `t` (all of it past the end).
    fn free(&self, p: usize, t: usize) -> f64 {
        self.used
            .get(t)
            .map_or(self.capacity[p], |u| self.capacity[p] - u[p])
    }

    /// Free slot-seconds of phase `p` in `[from, to)` seconds.
    pub fn free_between(&self, p: usize, from: f64, to: f64) -> f64 {
        let (a, b) = (
            (from / self.quantum).ceil() as usize,
            (to / self.quantum).floor() as usize,
        );
        (a..b.max(a)).map(|t| self.free(p, t)).sum()
    }

    /// The earliest time (seconds from now) a new job can finish by filling
    /// the slack: its map work in the free map capacity from now on, then its
    /// reduce work in the free reduce capacity after its map phase ends.
    pub fn earliest_finish(&self, map_work: f64, reduce_work: f64) -> f64 {
        let fill = |p: usize, work: f64, from: usize| -> usize {
            let mut left = work;
            let mut t = from;
            while left > 1e-12 {
                left -= self.free(p, t);
                t += 1;
            }
            t
        };
        let map_end = fill(0, map_work, 0);
        let end = fill(1, reduce_work, map_end);
        end as f64 * self.quantum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::Rng;
    use crate::pricing::test_support::{figure_7_queue, job, ONE};

    /// MRM Figure 7: A (10 s) due at 70, B (20 s) due at 110 on one slot;
    /// C of 80 s finishes at 90, C of 100 s at 130.
    #[test]
    fn figure_7() {
        let s = LazySchedule::build(&figure_7_queue(), ONE, 1.0).unwrap();
        assert_eq!(s.free_between(0, 0.0, 60.0), 60.0);
        assert_eq!(s.free_between(0, 60.0, 70.0), 0.0);
        assert_eq!(s.free_between(0, 70.0, 90.0), 20.0);
        assert_eq!(s.free_between(0, 90.0, 110.0), 0.0);
        assert_eq!(s.earliest_finish(80.0, 0.0), 90.0);
        assert_eq!(s.earliest_finish(100.0, 0.0), 130.0);
        // Over 16 map slots the same jobs take 160 and 320 slot-seconds.
        let sixteen = Slots {
            map: 16.0,
            reduce: 16.0,
        };
        let s = LazySchedule::build(
            &[job("A", 160.0, 70.0), job("B", 320.0, 110.0)],
            sixteen,
            1.0,
        )
        .unwrap();
        assert_eq!(s.earliest_finish(80.0 * 16.0, 0.0), 90.0);
    }

    #[test]
    fn map_then_reduce() {
        let slots = Slots {
            map: 2.0,
            reduce: 1.0,
        };
        let empty = LazySchedule::build(&[], slots, 1.0).unwrap();
        // 10 slot-seconds of map on 2 slots: 5 s; then 3 s of reduce.
        assert_eq!(empty.earliest_finish(10.0, 3.0), 8.0);
        let busy = LazySchedule::build(
            &[QueuedJob {
                name: "x".into(),
                map_work: 4.0,
                reduce_work: 2.0,
                deadline: 6.0,
            }],
            slots,
            1.0,
        )
        .unwrap();
        // x's reduce sits in [4, 6), its map in [2, 4): the new map uses
        // [0, 2) fully and [2, 4) not at all, then [4, 7) → map ends at 7.
        assert_eq!(busy.earliest_finish(10.0, 0.0), 7.0);
    }

    #[test]
    fn infeasible_and_invalid() {
        assert_eq!(
            LazySchedule::build(&[job("A", 10.0, 5.0)], ONE, 1.0),
            Err(ScheduleError::Infeasible("A".into()))
        );
        assert!(LazySchedule::build(&[job("A", f64::NAN, 5.0)], ONE, 1.0).is_err());
        assert!(LazySchedule::build(
            &[],
            Slots {
                map: 0.0,
                reduce: 1.0
            },
            1.0
        )
        .is_err());
        assert!(LazySchedule::build(&[], ONE, 0.0).is_err());
    }

    /// Preemptive EDF on one slot: does every job meet its deadline?
    fn edf_ok(jobs: &[(u32, u32)]) -> bool {
        let mut left: Vec<(u32, u32)> = jobs.to_vec();
        left.sort_by_key(|j| j.1);
        let mut t = 0;
        for (p, d) in left {
            t += p;
            if t > d {
                return false;
            }
        }
        true
    }

    /// On one slot, filling the lazy schedule's slack gives the smallest
    /// deadline EDF can meet with everyone else's intact (brute force).
    #[test]
    fn single_slot_matches_brute_force() {
        let mut rng = Rng::new(9);
        for case in 0..400 {
            let n = rng.int(0, 4) as usize;
            let mut jobs = Vec::new();
            let mut t = 0;
            for _ in 0..n {
                let p = rng.int(1, 6) as u32;
                t += p + rng.int(0, 5) as u32;
                jobs.push((p, t));
            }
            let new = rng.int(1, 8) as u32;
            let queued: Vec<QueuedJob> = jobs
                .iter()
                .enumerate()
                .map(|(i, &(p, d))| job(&format!("j{i}"), p.into(), d.into()))
                .collect();
            let s = LazySchedule::build(&queued, ONE, 1.0).unwrap();
            let fast = s.earliest_finish(new.into(), 0.0) as u32;
            let brute = (1..200)
                .find(|&f| {
                    let mut all = jobs.clone();
                    all.push((new, f));
                    edf_ok(&all)
                })
                .unwrap();
            assert_eq!(fast, brute, "case {case}: {jobs:?} + {new}");
        }
    }
}
