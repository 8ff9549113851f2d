//! Replaying a year of reimages over a placement: the inner loop of the
//! durability simulation (Figure 15).
//!
//! A reimage destroys every replica on the server. Each destroyed replica
//! is copied from a live replica of its block, at `recreate_per_hour`
//! blocks per hour per source server (§5.2: HDFS spreads re-replication
//! over the servers holding the surviving replicas; each works through its
//! copies one after the other, and the NameNode picks the live replica
//! whose server is free first; ties go to the earlier replica of the
//! block). The copy keeps the replica's server, so the placement's
//! diversity is what is measured; a replica destroyed again while being
//! re-created starts over. A block is lost when a reimage leaves it no
//! live replica. (A copy queued at a source that is itself reimaged before
//! the copy starts is not cancelled — the block is still lost if nothing
//! is left.)
//!
//! Server-major, so a reimage reads memory in order: each server's
//! replicas are one run of rows `[block, back, peers…]` (the block, the
//! time its replica there is back, the servers of the block's other
//! replicas in replica order). A replica's back time changes only when its
//! own server is reimaged, so each server keeps `up_by`, the time all its
//! replicas are back; a peer on a server up by `t` is live without looking
//! further, and only a peer on a server still recovering is looked up (a
//! binary search of that server's rows by block). The straightforward
//! block-major replay — every replica's state in block order, each
//! reimage touching its blocks at random — gives the same answers (the
//! tests replay both) but waits on a cache miss per replica: 9 s instead
//! of well under one for a year over 4 M blocks.

use super::placement_run::Placement;

/// The replay's arrays, kept between runs: a placement indexed by server,
/// each server's replicas as rows of `width` = replication + 1 words in
/// block order, and the servers' clocks. Reusing them spares the page
/// faults of mapping a few hundred MB afresh for every run.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// Words per row: the block, its back time, then `replication − 1`
    /// peers.
    width: usize,
    /// Row range of each server (`servers + 1` offsets, in rows).
    offsets: Vec<usize>,
    /// Each server's next free row while indexing.
    fill: Vec<usize>,
    /// The rows, server after server.
    rows: Vec<u32>,
    /// Per server, its clocks.
    clock: Vec<Clock>,
}

/// One server's clocks during the replay.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// Every replica on the server is back by then.
    up_by: u32,
    /// Its copy queue is empty from then.
    free: u32,
}

/// A row's back time once its block is lost: the row is skipped from then
/// on, so no per-block state is looked up at random.
const LOST: u32 = u32::MAX;

/// Bytes [`Replay`] holds for `blocks` × `r` on `servers` (the rows, their
/// offsets and the servers' clocks), beside the placement's 4 bytes a
/// replica.
pub fn replay_memory(blocks: usize, r: usize, servers: usize) -> u64 {
    let replicas = (blocks * r) as u64;
    replicas * 4 * (r as u64 + 1) + (servers as u64 + 1) * 8 * 2 + servers as u64 * 8
}

/// Replays `year` (`(seconds, server)` in time order) over `placement` and
/// returns the blocks lost and the replicas destroyed (each re-created
/// unless its block was lost). See [`Replay::run`] to reuse the arrays.
pub fn lost_blocks(
    placement: &Placement,
    servers: usize,
    year: &[(u32, u32)],
    recreate_per_hour: f64,
) -> (u64, u64) {
    Replay::default().run(placement, servers, year, recreate_per_hour)
}

impl Replay {
    /// Replays `year` over `placement` on `servers` servers: blocks lost,
    /// replicas destroyed.
    pub fn run(
        &mut self,
        placement: &Placement,
        servers: usize,
        year: &[(u32, u32)],
        recreate_per_hour: f64,
    ) -> (u64, u64) {
        self.index(placement, servers);
        let w = self.width;
        self.clock.clear();
        self.clock.resize(servers, Clock::default());
        let (mut n_lost, mut destroyed) = (0u64, 0u64);
        let per = (3600.0 / recreate_per_hour)
            .ceil()
            .clamp(1.0, f64::from(u32::MAX - 1)) as u32;
        // A row's peers, copied out so the rows can be written while they
        // are read: on the stack up to the params' cap (a heap buffer
        // measured 10–15 % slower), on the heap beyond it.
        let mut stack = [0u32; 16];
        let mut heap = Vec::new();
        let peers: &mut [u32] = if w - 2 <= stack.len() {
            &mut stack[..w - 2]
        } else {
            heap.resize(w - 2, 0);
            &mut heap
        };
        for &(t, s) in year {
            let (a, z) = (self.offsets[s as usize], self.offsets[s as usize + 1]);
            let mut all_back = 0u32;
            for e in a..z {
                if self.rows[e * w + 1] == LOST {
                    continue;
                }
                destroyed += 1;
                let blk = self.rows[e * w];
                peers.copy_from_slice(&self.rows[e * w + 2..(e + 1) * w]);
                // The live peer whose server is free first copies it.
                let (mut src, mut free_at) = (u32::MAX, u32::MAX);
                for &srv in peers.iter() {
                    let c = self.clock[srv as usize];
                    // Rarely does a peer's server still recover; the choice
                    // is branch-free, as which peer is free first is a coin
                    // toss.
                    let live = c.up_by <= t || self.back(srv, blk) <= t;
                    let better = live & (c.free < free_at);
                    src = if better { srv } else { src };
                    free_at = if better { c.free } else { free_at };
                }
                if src == u32::MAX {
                    n_lost += 1;
                    self.rows[e * w + 1] = LOST;
                    for &srv in peers.iter() {
                        let i = self.row_of(srv, blk);
                        self.rows[i * w + 1] = LOST;
                    }
                    continue;
                }
                // Capped below LOST (a copy due after 136 years).
                let done = free_at.max(t).saturating_add(per).min(LOST - 1);
                self.clock[src as usize].free = done;
                self.rows[e * w + 1] = done;
                all_back = all_back.max(done);
            }
            self.clock[s as usize].up_by = all_back;
        }
        (n_lost, destroyed)
    }

    /// Indexes `placement` by server (a counting sort: blocks stay in
    /// order within each server), every replica back at 0.
    fn index(&mut self, placement: &Placement, servers: usize) {
        let r = placement.replication.max(1);
        let width = r + 1;
        let reps = &placement.replicas;
        self.width = width;
        let offsets = &mut self.offsets;
        offsets.clear();
        offsets.resize(servers + 1, 0);
        for &s in reps {
            offsets[s as usize + 1] += 1;
        }
        for i in 0..servers {
            offsets[i + 1] += offsets[i];
        }
        self.fill.clear();
        self.fill.extend_from_slice(&offsets[..servers]);
        // Every word is written below; resizing only grows the buffer.
        self.rows.resize(reps.len() * width, 0);
        for (b, block) in reps.chunks_exact(r).enumerate() {
            for (q, &s) in block.iter().enumerate() {
                let e = self.fill[s as usize];
                self.fill[s as usize] += 1;
                let row = &mut self.rows[e * width..(e + 1) * width];
                row[0] = b as u32;
                row[1] = 0;
                let mut k = 2;
                for (q2, &peer) in block.iter().enumerate() {
                    if q2 != q {
                        row[k] = peer;
                        k += 1;
                    }
                }
            }
        }
    }

    /// The back time of `block`'s replica on `server` (which holds one).
    fn back(&self, server: u32, block: u32) -> u32 {
        self.rows
            .get(self.row_of(server, block) * self.width + 1)
            .copied()
            .unwrap_or(0)
    }

    /// The row of `block`'s replica on `server` (which holds one).
    fn row_of(&self, server: u32, block: u32) -> usize {
        let (a, z) = (
            self.offsets[server as usize],
            self.offsets[server as usize + 1],
        );
        let w = self.width;
        let (mut lo, mut hi) = (a, z);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.rows[mid * w] < block {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        debug_assert!(lo < z && self.rows[lo * w] == block);
        lo
    }
}
