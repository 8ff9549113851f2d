//! The free batch cores of the §6 simulation's servers: per server for
//! the draws ∝ free cores, per class and in all for the scheduler's
//! checks, and which servers have a free core at all for the draws of
//! RM-H's default policy ([`super::placement`]), which gives a server one
//! container whatever its room.
//!
//! Why the totals: the scheduler asks, for every waiting vertex at every
//! event, how many cores are free in all and in the vertex's classes.
//! Asked of the Fenwick tree that is O(log servers) per class, and
//! YARN-H's vertices waiting for full classes asked it again at every one
//! of a month's ~11 million task endings. The totals are kept beside the
//! tree, changed with it, so they are exactly its sums.

use crate::numerics::Fenwick;

/// Free cores per server, per class and in all.
pub(super) struct FreeCores<'a> {
    /// Per server (negative counts as 0, as in the tree).
    tree: Fenwick,
    /// Per server, its class.
    class_of: &'a [usize],
    /// Per class, the sum of its servers' free cores.
    by_class: Vec<i64>,
    /// The sum over all servers.
    total: i64,
    /// Per server, 1 when it has a free core: a uniform draw among the
    /// servers with room is a draw ∝ these.
    room: Fenwick,
    /// The sum of `room`.
    with_room: i64,
}

impl<'a> FreeCores<'a> {
    /// `free` cores per server of `classes` classes, server s in
    /// `class_of[s]`.
    pub(super) fn new(free: &[i64], class_of: &'a [usize], classes: usize) -> Self {
        let mut f = FreeCores {
            tree: Fenwick::default(),
            class_of,
            by_class: vec![0; classes],
            total: 0,
            room: Fenwick::default(),
            with_room: 0,
        };
        f.rebuild(free);
        f
    }

    /// Sets every server's free cores anew.
    pub(super) fn rebuild(&mut self, free: &[i64]) {
        self.tree.rebuild(free);
        let room: Vec<i64> = free.iter().map(|&v| i64::from(v > 0)).collect();
        self.room.rebuild(&room);
        self.with_room = room.iter().sum();
        self.by_class.iter_mut().for_each(|c| *c = 0);
        self.total = 0;
        for (s, &c) in self.class_of.iter().enumerate() {
            let v = self.tree.get(s);
            self.by_class[c] += v;
            self.total += v;
        }
    }

    /// Sets server `s`'s free cores to `v` (negative counts as 0).
    pub(super) fn set(&mut self, s: usize, v: i64) {
        let old = self.tree.get(s);
        self.tree.set(s, v);
        let d = self.tree.get(s) - old;
        self.by_class[self.class_of[s]] += d;
        self.total += d;
        if (old > 0) != (v > 0) {
            self.room.set(s, i64::from(v > 0));
            self.with_room += if v > 0 { 1 } else { -1 };
        }
    }

    /// Server `s`'s free cores.
    pub(super) fn get(&self, s: usize) -> i64 {
        self.tree.get(s)
    }

    /// Free cores in all.
    pub(super) fn total(&self) -> i64 {
        self.total
    }

    /// Servers with at least one free core.
    pub(super) fn with_room(&self) -> i64 {
        self.with_room
    }

    /// Server number `target` (0 ≤ target < [`Self::with_room`]) among
    /// those with a free core, in server order.
    pub(super) fn find_room(&self, target: i64) -> usize {
        self.room.find(target)
    }

    /// Free cores of class `c`.
    pub(super) fn of_class(&self, c: usize) -> i64 {
        self.by_class[c]
    }

    /// Free cores of servers `0..s`.
    pub(super) fn before(&self, s: usize) -> i64 {
        self.tree.prefix(s)
    }

    /// The server holding free core `target` (0 ≤ target < total) when
    /// the servers' free cores are laid end to end.
    pub(super) fn find(&self, target: i64) -> usize {
        self.tree.find(target)
    }
}

#[cfg(test)]
mod tests {
    use super::FreeCores;
    use crate::numerics::Rng;

    #[test]
    fn the_totals_are_the_sums_of_the_servers() {
        let class_of = [0, 0, 1, 2, 2, 2, 1];
        let mut rng = Rng::new(5);
        let mut free: Vec<i64> = (0..class_of.len()).map(|_| rng.int(-2, 8)).collect();
        let mut f = FreeCores::new(&free, &class_of, 3);
        for step in 0..2_000 {
            if step % 97 == 0 {
                free.iter_mut().for_each(|v| *v = rng.int(-2, 8));
                f.rebuild(&free);
            } else {
                let s = rng.int(0, class_of.len() as i64 - 1) as usize;
                free[s] = rng.int(-2, 8);
                f.set(s, free[s]);
            }
            let of = |c: usize| -> i64 {
                (0..class_of.len())
                    .filter(|&s| class_of[s] == c)
                    .map(|s| free[s].max(0))
                    .sum()
            };
            assert_eq!(f.total(), (0..3).map(of).sum::<i64>());
            for c in 0..3 {
                assert_eq!(f.of_class(c), of(c));
            }
            for s in 0..class_of.len() {
                assert_eq!(f.get(s), free[s].max(0));
                let before: i64 = free[..s].iter().map(|&v| v.max(0)).sum();
                assert_eq!(f.before(s), before);
            }
            let with_room: Vec<usize> = (0..class_of.len()).filter(|&s| free[s] > 0).collect();
            assert_eq!(f.with_room(), with_room.len() as i64);
            for (k, &s) in with_room.iter().enumerate() {
                assert_eq!(f.find_room(k as i64), s);
            }
        }
    }
}
