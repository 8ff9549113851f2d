//! The batch containers running on each server of the §6 simulation.
//!
//! Why one flat array: a server holds at most its batch capacity (8
//! containers on 12 cores with 4 reserved), and every task's start and end
//! touches its server's containers. Rows of that fixed width in one array
//! cost one memory access per touch where a vector per server cost two,
//! and a month at 1,000 servers starts ~11 million tasks.

/// A task in a container.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Running {
    /// When it started, seconds.
    pub(super) start: f64,
    /// Its instance number: tasks are numbered as they start.
    pub(super) inst: u64,
    /// Its job.
    pub(super) job: u32,
    /// Its vertex in the job's DAG.
    pub(super) vertex: u32,
}

/// Per server, its running containers (in no particular order).
pub(super) struct Containers {
    /// Containers a server can hold at most.
    width: usize,
    /// Per server, how many it holds.
    len: Vec<usize>,
    /// Server s's containers are `rows[s * width..][..len[s]]`.
    rows: Vec<Running>,
}

impl Containers {
    /// `servers` empty servers of at most `width` containers each.
    pub(super) fn new(servers: usize, width: usize) -> Self {
        Containers {
            width,
            len: vec![0; servers],
            rows: vec![Running::default(); servers * width],
        }
    }

    /// Server `s`'s containers.
    pub(super) fn on(&self, s: usize) -> &[Running] {
        &self.rows[s * self.width..][..self.len[s]]
    }

    /// How many containers server `s` holds.
    pub(super) fn count(&self, s: usize) -> usize {
        self.len[s]
    }

    /// Starts `r` on server `s`, which must have room (the scheduler only
    /// places on servers with free cores, and no capacity exceeds the
    /// width).
    pub(super) fn start(&mut self, s: usize, r: Running) {
        let len = self.len[s];
        assert!(len < self.width, "server {s} is full");
        self.rows[s * self.width + len] = r;
        self.len[s] = len + 1;
    }

    /// Removes server `s`'s container at `pos` (of [`Self::on`]); the last
    /// takes its place.
    pub(super) fn remove(&mut self, s: usize, pos: usize) -> Running {
        let row = &mut self.rows[s * self.width..][..self.len[s]];
        let r = row[pos];
        row[pos] = row[row.len() - 1];
        self.len[s] -= 1;
        r
    }

    /// Removes the task of instance `inst` from server `s`, if it runs
    /// there (a killed task's completion finds nothing).
    pub(super) fn end(&mut self, s: usize, inst: u64) -> Option<Running> {
        let pos = self.on(s).iter().position(|r| r.inst == inst)?;
        Some(self.remove(s, pos))
    }

    /// Removes server `s`'s youngest task (latest start, then highest
    /// instance), the one YARN's NM kills first.
    pub(super) fn kill_youngest(&mut self, s: usize) -> Option<Running> {
        let (pos, _) = self.on(s).iter().enumerate().max_by(|a, b| {
            a.1.start
                .total_cmp(&b.1.start)
                .then(a.1.inst.cmp(&b.1.inst))
        })?;
        Some(self.remove(s, pos))
    }
}

#[cfg(test)]
mod tests {
    use super::{Containers, Running};

    fn task(start: f64, inst: u64) -> Running {
        Running {
            start,
            inst,
            job: inst as u32 * 10,
            vertex: 1,
        }
    }

    #[test]
    fn servers_keep_their_own_containers() {
        let mut c = Containers::new(3, 4);
        c.start(1, task(5.0, 1));
        c.start(1, task(7.0, 2));
        c.start(1, task(7.0, 3));
        c.start(2, task(1.0, 4));
        assert_eq!((c.count(0), c.count(1), c.count(2)), (0, 3, 1));
        // The youngest: the latest start, then the highest instance.
        assert_eq!(c.kill_youngest(1), Some(task(7.0, 3)));
        assert_eq!(c.end(1, 4), None);
        assert_eq!(c.end(1, 1), Some(task(5.0, 1)));
        assert_eq!(c.on(1), &[task(7.0, 2)]);
        assert_eq!(c.on(2), &[task(1.0, 4)]);
        assert_eq!(c.kill_youngest(0), None);
    }
}
