//! The pending task completions of the §6 simulation, soonest first.
//!
//! A task ends at its start plus its vertex's length, rounded to the
//! millisecond; tasks ending in the same millisecond end in the order of
//! their server, then of their start (the instance number). Each ending
//! runs the scheduler, which draws random numbers, so this order is part
//! of the simulation's results.
//!
//! Why batches: one heap entry per task cost O(log running) per task, with
//! ~8,000 tasks running on 1,000 servers and ~11 million started in a
//! month, and was most of a run's time. But the tasks of a vertex start in
//! one scheduling pass and last alike, so they end in the same
//! millisecond: this calendar keeps one batch per end time and sorts a
//! batch only when it is the soonest, which costs a few comparisons per
//! task and keeps the order exactly. A push looks its batch up by end
//! time only when the end differs from the last push's.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A task's completion: its server in the high 64 bits, its instance
/// number in the low ones, so the order of the numbers is the order of
/// the completions within a millisecond.
type Ending = u128;

fn ending(server: u32, inst: u64) -> Ending {
    (u128::from(server) << 64) | u128::from(inst)
}

/// The pending completions.
#[derive(Default)]
pub(super) struct Completions {
    /// The soonest batch: its end time and its endings sorted descending,
    /// so the next to end is last. Never empty when set.
    soonest: Option<(u64, Vec<Ending>)>,
    /// The other batches' end times, soonest first.
    times: BinaryHeap<Reverse<u64>>,
    /// The other batches' places in `batches` by end time.
    index: HashMap<u64, usize, BuildHasherDefault<EndHasher>>,
    /// The other batches' endings, unsorted; unused places are empty.
    batches: Vec<Vec<Ending>>,
    /// Unused places of `batches`.
    unused: Vec<usize>,
    /// The batch last pushed to, (end, place): a scheduling pass starts a
    /// vertex's tasks one after another, and a burst of endings in one
    /// millisecond restarts tasks of the same vertex.
    last: Option<(u64, usize)>,
    /// Emptied buffers, reused.
    spare: Vec<Vec<Ending>>,
}

impl Completions {
    /// A task on `server`, instance `inst`, ending at `end` (ms).
    pub(super) fn push(&mut self, end: u64, server: u32, inst: u64) {
        let e = ending(server, inst);
        if let Some((t, batch)) = self.soonest.as_mut() {
            match end.cmp(t) {
                // A task of (almost) no length: into the sorted batch.
                Ordering::Equal => {
                    let at = batch.partition_point(|&x| x > e);
                    batch.insert(at, e);
                    return;
                }
                // Sooner than the soonest (a length under half a
                // millisecond after a slot or an arrival): the soonest
                // goes back, to be sorted again with the rest.
                Ordering::Less => {
                    if let Some((t, b)) = self.soonest.take() {
                        let at = self.place(t);
                        self.batches[at].extend(b);
                    }
                }
                Ordering::Greater => {}
            }
        }
        let at = match self.last {
            Some((t, at)) if t == end => at,
            _ => self.place(end),
        };
        self.batches[at].push(e);
    }

    /// The end time (ms) of the next completion, if any.
    pub(super) fn next_end(&mut self) -> Option<u64> {
        if self.soonest.is_none() {
            let Reverse(end) = self.times.pop()?;
            let at = self.index.remove(&end)?;
            let spare = self.spare.pop().unwrap_or_default();
            let mut batch = std::mem::replace(&mut self.batches[at], spare);
            self.unused.push(at);
            if self.last.is_some_and(|(t, _)| t == end) {
                self.last = None;
            }
            batch.sort_unstable_by(|a, b| b.cmp(a));
            self.soonest = Some((end, batch));
        }
        self.soonest.as_ref().map(|&(end, _)| end)
    }

    /// Takes the next completion: (end, server, instance).
    pub(super) fn pop(&mut self) -> Option<(u64, u32, u64)> {
        self.next_end()?;
        let (end, batch) = self.soonest.as_mut()?;
        let (end, e) = (*end, batch.pop()?);
        if batch.is_empty() {
            if let Some((_, b)) = self.soonest.take() {
                self.spare.push(b);
            }
        }
        Some((end, (e >> 64) as u32, e as u64))
    }

    /// The place in `batches` of the batch ending at `end` (after the
    /// soonest), made if new; remembered as the last pushed to.
    fn place(&mut self, end: u64) -> usize {
        let (times, unused, batches) = (&mut self.times, &mut self.unused, &mut self.batches);
        let at = *self.index.entry(end).or_insert_with(|| {
            times.push(Reverse(end));
            unused.pop().unwrap_or_else(|| {
                batches.push(Vec::new());
                batches.len() - 1
            })
        });
        self.last = Some((end, at));
        at
    }
}

/// The hash of an end time: one multiplication, rotated so the map's
/// bucket bits come from the product's middle. End times are our own
/// milliseconds, not input an adversary could choose, and the default
/// SipHash was a visible share of a run.
#[derive(Default)]
struct EndHasher(u64);

impl Hasher for EndHasher {
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[cfg(test)]
mod tests {
    use super::Completions;
    use crate::numerics::Rng;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Random pushes and pops, with many ties and ends before the soonest,
    /// against a binary heap of (end, server, instance).
    #[test]
    fn completions_come_in_the_order_of_a_heap() {
        let mut rng = Rng::new(11);
        let mut cal = Completions::default();
        let mut heap = BinaryHeap::new();
        let (mut now, mut inst) = (0u64, 0u64);
        for _ in 0..20_000 {
            let pushes = rng.int(0, 6);
            for _ in 0..pushes {
                // Ends near now, sometimes at it or just before it.
                let end = (now + rng.int(0, 5) as u64).saturating_sub(rng.int(0, 1) as u64);
                let server = rng.int(0, 9) as u32;
                inst += 1;
                cal.push(end, server, inst);
                heap.push(Reverse((end, server, inst)));
            }
            let pops = rng.int(0, 6);
            for _ in 0..pops {
                let want = heap.peek().map(|Reverse(e)| e.0);
                assert_eq!(cal.next_end(), want);
                let want = heap.pop().map(|Reverse(e)| e);
                assert_eq!(cal.pop(), want);
                if let Some((end, _, _)) = want {
                    now = end;
                }
            }
        }
        while let Some(Reverse(e)) = heap.pop() {
            assert_eq!(cal.pop(), Some(e));
        }
        assert_eq!(cal.next_end(), None);
    }
}
