//! Replica placement: Algorithm 2 (HDFS-H) as stated in §4.2, and the
//! stock HDFS baselines.
//!
//! **HDFS-H.** The first replica goes on the writer's server (lines 6–7).
//! Each next one (lines 8–14) goes to a random cell whose row and column
//! hold no replica of the block yet in this round, then a random tenant of
//! that cell whose environment holds no replica yet, then a random server
//! of that tenant with room; after every n-th replica the rows and
//! columns are forgotten (lines 15–17; n = 3 in the paper). Only cells
//! with at least one eligible tenant are drawn. When no cell satisfies
//! the row and column rule (a cell empty or full — the space-versus-
//! diversity trade-off of §4.2), the replica goes to a random cell with
//! an eligible tenant and the block is counted as *relaxed*; the
//! environment rule is never relaxed: with no eligible tenant anywhere the
//! placement fails.
//!
//! **HDFS-Stock** (BlockPlacementPolicyDefault): the writer, a server of
//! another rack, another server of that second rack, then random servers.
//! **HDFS-PT** is the same skipping busy servers (NN-H stops using a busy
//! DataNode as a destination, §5.2). HDFS-H skips busy tenants too.
//!
//! Every pick is O(1) amortized: open servers per tenant, per rack and in
//! all, and open tenants per cell, are kept in swap-remove lists; a server
//! leaves them when full. Busy state is per tenant (a tenant's servers
//! follow its average server).

use super::grid_cells::Grid;
use super::params::Policy;
use super::tenant::Cluster;
use crate::harvest::error::HarvestError;
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

const NONE: u32 = u32::MAX;

/// Items partitioned into groups, each group a list with O(1) insert and
/// swap-remove (an item is in at most one group).
#[derive(Clone, Debug)]
struct Groups {
    lists: Vec<Vec<u32>>,
    pos: Vec<u32>,
}

impl Groups {
    fn new(groups: usize, items: usize) -> Self {
        Groups {
            lists: vec![Vec::new(); groups],
            pos: vec![NONE; items],
        }
    }

    fn insert(&mut self, g: usize, item: u32) {
        self.pos[item as usize] = self.lists[g].len() as u32;
        self.lists[g].push(item);
    }

    fn remove(&mut self, g: usize, item: u32) {
        let i = self.pos[item as usize];
        if i == NONE {
            return;
        }
        let list = &mut self.lists[g];
        let last = *list.last().expect("non-empty");
        list.swap_remove(i as usize);
        if last != item {
            self.pos[last as usize] = i;
        }
        self.pos[item as usize] = NONE;
    }
}

/// Uniform integer in `0..n` (n ≥ 1) by multiply-shift.
#[inline]
fn below(rng: &mut Rng, n: usize) -> usize {
    (((rng.next_u64() >> 32) * n as u64) >> 32) as usize
}

/// Why a cell was or was not drawn for a replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellVerdict {
    /// Drawable.
    Candidate,
    /// Its row already holds a replica of this round.
    RowUsed,
    /// Its column already holds a replica of this round.
    ColumnUsed,
    /// No tenant of it has room left (or it has no tenant).
    Full,
    /// Its tenants with room are all in used environments or busy.
    NoEligibleTenant,
}

/// Why a tenant of the drawn cell was or was not eligible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TenantVerdict {
    /// Eligible.
    Eligible,
    /// Its environment already holds a replica.
    EnvironmentUsed,
    /// No server with room.
    Full,
    /// Busy (its primary above the reserve threshold).
    Busy,
}

/// A cell's verdict for one replica.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellCheck {
    /// Cell index (row · n + col).
    pub cell: usize,
    /// The verdict.
    pub verdict: CellVerdict,
}

/// A tenant's verdict for one replica.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TenantCheck {
    /// Tenant name.
    pub tenant: String,
    /// The verdict.
    pub verdict: TenantVerdict,
}

/// How one replica was placed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplicaStep {
    /// 1-based replica.
    pub replica: usize,
    /// Its server.
    pub server: u32,
    /// The server's name.
    pub server_name: String,
    /// Its tenant.
    pub tenant: String,
    /// Its cell (HDFS-H; the tenant's cell otherwise, if any).
    pub cell: Option<usize>,
    /// Its rack.
    pub rack: u32,
    /// Every cell's verdict (HDFS-H, replicas after the first).
    pub cells: Vec<CellCheck>,
    /// The drawn cell's tenants' verdicts (HDFS-H).
    pub tenants: Vec<TenantCheck>,
    /// No cell met the row/column rule; any cell was drawn.
    pub relaxed: bool,
    /// Rows and columns were forgotten after this replica.
    pub forgot: bool,
    /// The rule that picked it, in words.
    pub rule: String,
}

/// One block's placement, explained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockTrace {
    /// The policy.
    pub policy: Policy,
    /// The writer's server.
    pub writer: u32,
    /// Each replica.
    pub steps: Vec<ReplicaStep>,
}

/// The placement state: room left per server and the open lists.
#[derive(Clone, Debug)]
pub struct Placer<'a> {
    c: &'a Cluster,
    grid: &'a Grid,
    free: Vec<u32>,
    tenant_servers: Groups,
    cell_tenants: Groups,
    rack_servers: Groups,
    open: Groups,
    /// Blocks placed with a relaxed row/column rule.
    pub relaxed: u64,
    /// Blocks placed.
    pub blocks: u64,
    cand: Vec<usize>,
    scratch: Vec<u32>,
}

/// Per-replica bookkeeping of one block.
struct BlockState {
    rows: u64,
    cols: u64,
    envs: [u32; 16],
    n_envs: usize,
}

impl BlockState {
    fn env_used(&self, e: u32) -> bool {
        self.envs[..self.n_envs].contains(&e)
    }
}

impl<'a> Placer<'a> {
    /// An empty cluster (every server's whole room free).
    pub fn new(c: &'a Cluster, grid: &'a Grid) -> Self {
        let n = c.servers();
        let tn = c.tenants.len();
        let mut p = Placer {
            c,
            grid,
            free: c.room.clone(),
            tenant_servers: Groups::new(tn, n),
            cell_tenants: Groups::new(grid.cells.len(), tn),
            rack_servers: Groups::new(c.racks as usize, n),
            open: Groups::new(1, n),
            relaxed: 0,
            blocks: 0,
            cand: Vec::with_capacity(64),
            scratch: Vec::new(),
        };
        for s in 0..n as u32 {
            if p.free[s as usize] > 0 {
                p.tenant_servers.insert(c.tenant_of[s as usize] as usize, s);
                p.rack_servers.insert(c.rack_of[s as usize] as usize, s);
                p.open.insert(0, s);
            }
        }
        for t in 0..tn {
            let cell = grid.cell_of[t];
            if cell != u16::MAX && !p.tenant_servers.lists[t].is_empty() {
                p.cell_tenants.insert(cell as usize, t as u32);
            }
        }
        p
    }

    /// Room left on each server, replicas.
    pub fn free(&self) -> &[u32] {
        &self.free
    }

    /// Tenants with room left.
    pub fn open_tenants(&self) -> usize {
        self.tenant_servers
            .lists
            .iter()
            .filter(|l| !l.is_empty())
            .count()
    }

    /// Environments with room left.
    pub fn open_environments(&self) -> usize {
        let mut seen = vec![false; self.c.environments.len()];
        for (t, l) in self.tenant_servers.lists.iter().enumerate() {
            if !l.is_empty() {
                seen[self.c.env_of[t] as usize] = true;
            }
        }
        seen.iter().filter(|&&b| b).count()
    }

    /// A random server with room whose tenant is not busy (`busy` per
    /// tenant; empty = none busy).
    pub fn random_writer(&mut self, busy: &[bool], rng: &mut Rng) -> Option<u32> {
        let open = &self.open.lists[0];
        if open.is_empty() {
            return None;
        }
        let ok = |s: u32| busy.is_empty() || !busy[self.c.tenant_of[s as usize] as usize];
        for _ in 0..32 {
            let s = open[below(rng, open.len())];
            if ok(s) {
                return Some(s);
            }
        }
        self.scratch.clear();
        self.scratch.extend(open.iter().copied().filter(|&s| ok(s)));
        (!self.scratch.is_empty()).then(|| self.scratch[below(rng, self.scratch.len())])
    }

    fn take(&mut self, s: u32) {
        let si = s as usize;
        self.free[si] -= 1;
        if self.free[si] == 0 {
            let t = self.c.tenant_of[si] as usize;
            self.tenant_servers.remove(t, s);
            self.rack_servers.remove(self.c.rack_of[si] as usize, s);
            self.open.remove(0, s);
            if self.tenant_servers.lists[t].is_empty() {
                let cell = self.grid.cell_of[t];
                if cell != u16::MAX {
                    self.cell_tenants.remove(cell as usize, t as u32);
                }
            }
        }
    }

    /// Undoes one [`Placer::take`].
    fn give_back(&mut self, s: u32) {
        let si = s as usize;
        self.free[si] += 1;
        if self.free[si] == 1 {
            let t = self.c.tenant_of[si] as usize;
            if self.tenant_servers.lists[t].is_empty() {
                let cell = self.grid.cell_of[t];
                if cell != u16::MAX {
                    self.cell_tenants.insert(cell as usize, t as u32);
                }
            }
            self.tenant_servers.insert(t, s);
            self.rack_servers.insert(self.c.rack_of[si] as usize, s);
            self.open.insert(0, s);
        }
    }

    /// Places the `out.len()` replicas of block `block` written at
    /// `writer` (its server ids into `out`). On failure nothing is taken.
    pub fn place(
        &mut self,
        policy: Policy,
        block: u64,
        writer: u32,
        busy: &[bool],
        rng: &mut Rng,
        out: &mut [u32],
    ) -> Result<(), HarvestError> {
        self.place_impl(policy, block, writer, busy, rng, out, None)
    }

    /// As [`Placer::place`], explaining every pick.
    pub fn place_traced(
        &mut self,
        policy: Policy,
        block: u64,
        writer: u32,
        busy: &[bool],
        rng: &mut Rng,
        r: usize,
    ) -> Result<BlockTrace, HarvestError> {
        let mut out = vec![0u32; r];
        let mut steps = Vec::with_capacity(r);
        self.place_impl(policy, block, writer, busy, rng, &mut out, Some(&mut steps))?;
        Ok(BlockTrace {
            policy,
            writer,
            steps,
        })
    }

    /// Places `blocks` blocks of `replication` replicas by `policy`, each
    /// written from a server drawn uniformly among those with room (seeded),
    /// and calls `after` with each block's index once it is placed: the
    /// replicas, block-major. A cluster without room for every replica is
    /// refused up front.
    pub fn fill(
        &mut self,
        policy: Policy,
        blocks: usize,
        replication: usize,
        seed: u64,
        mut after: impl FnMut(usize, &Self),
    ) -> Result<Vec<u32>, HarvestError> {
        let needed = self.c.room_for(blocks, replication)?;
        let mut rng = Rng::new(seed ^ 0x504c_4143);
        let mut replicas = vec![0u32; blocks * replication];
        for (b, out) in replicas.chunks_exact_mut(replication.max(1)).enumerate() {
            let w = self
                .random_writer(&[], &mut rng)
                .ok_or_else(|| HarvestError::ClusterFull {
                    needed,
                    capacity: self.c.capacity(),
                })?;
            self.place(policy, b as u64, w, &[], &mut rng, out)?;
            after(b, self);
        }
        Ok(replicas)
    }

    #[allow(clippy::too_many_arguments)]
    fn place_impl(
        &mut self,
        policy: Policy,
        block: u64,
        writer: u32,
        busy: &[bool],
        rng: &mut Rng,
        out: &mut [u32],
        mut trace: Option<&mut Vec<ReplicaStep>>,
    ) -> Result<(), HarvestError> {
        let r = out.len();
        let fail = |replica: usize, why: String| HarvestError::Unplaceable {
            block,
            replica,
            why,
        };
        if r == 0 || r > 16 {
            return Err(fail(1, "replication must be in 1..=16".into()));
        }
        let ws = writer as usize;
        if ws >= self.c.servers() {
            return Err(fail(1, format!("unknown writer server {writer}")));
        }
        if self.free[ws] == 0 {
            return Err(fail(
                1,
                format!("the writer {} has no room left", self.c.layout.name(writer)),
            ));
        }
        let busy = if policy == Policy::Stock {
            &[][..]
        } else {
            busy
        };
        let wt = self.c.tenant_of[ws] as usize;
        let mut st = BlockState {
            rows: 0,
            cols: 0,
            envs: [NONE; 16],
            n_envs: 0,
        };
        out[0] = writer;
        self.take(writer);
        st.envs[0] = self.c.env_of[wt];
        st.n_envs = 1;
        let n = self.grid.n;
        let wcell = self.grid.cell_of[wt];
        if wcell != u16::MAX {
            st.rows |= 1 << (wcell as usize / n);
            st.cols |= 1 << (wcell as usize % n);
        }
        // With n = 1 every replica ends a round (line 15 with n for 3).
        if n == 1 {
            st.rows = 0;
            st.cols = 0;
        }
        if let Some(tr) = trace.as_deref_mut() {
            tr.push(self.step(1, writer, "the writer's own server (locality)", false));
            tr[0].forgot = n == 1 && policy == Policy::HdfsH;
        }
        let mut relaxed_block = false;
        for k in 1..r {
            let picked = match policy {
                Policy::HdfsH => self
                    .pick_h(&mut st, busy, rng, trace.as_deref_mut(), k + 1)
                    .map(|(s, relaxed)| {
                        relaxed_block |= relaxed;
                        s
                    })
                    .ok_or_else(|| {
                        fail(
                            k + 1,
                            "no tenant with room in an environment without a replica \
                             (too few tenants left: the space-versus-diversity trade-off)"
                                .into(),
                        )
                    }),
                _ => match self.pick_stock(out, k, busy, rng) {
                    Some((s, rule)) => {
                        if let Some(tr) = trace.as_deref_mut() {
                            tr.push(self.step(k + 1, s, rule, false));
                        }
                        Ok(s)
                    }
                    None => Err(fail(k + 1, "no server with room left".into())),
                },
            };
            let s = match picked {
                Ok(s) => s,
                Err(e) => {
                    for &s in &out[..k] {
                        self.give_back(s);
                    }
                    return Err(e);
                }
            };
            out[k] = s;
            self.take(s);
            if policy == Policy::HdfsH && (k + 1) % n == 0 {
                st.rows = 0;
                st.cols = 0;
                if let Some(tr) = trace.as_deref_mut() {
                    if let Some(last) = tr.last_mut() {
                        last.forgot = true;
                    }
                }
            }
        }
        if relaxed_block {
            self.relaxed += 1;
        }
        self.blocks += 1;
        Ok(())
    }

    fn step(&self, replica: usize, s: u32, rule: &str, relaxed: bool) -> ReplicaStep {
        let t = self.c.tenant_of[s as usize] as usize;
        let cell = self.grid.cell_of[t];
        ReplicaStep {
            replica,
            server: s,
            server_name: self.c.layout.name(s),
            tenant: self.c.tenants[t].name.clone(),
            cell: (cell != u16::MAX).then_some(cell as usize),
            rack: self.c.rack_of[s as usize],
            cells: Vec::new(),
            tenants: Vec::new(),
            relaxed,
            forgot: false,
            rule: rule.into(),
        }
    }

    fn tenant_ok(&self, t: u32, st: &BlockState, busy: &[bool]) -> bool {
        !st.env_used(self.c.env_of[t as usize]) && (busy.is_empty() || !busy[t as usize])
    }

    fn cell_eligible(&self, cell: usize, st: &BlockState, busy: &[bool]) -> bool {
        self.cell_tenants.lists[cell]
            .iter()
            .any(|&t| self.tenant_ok(t, st, busy))
    }

    /// Algorithm 2's lines 9–14 for one replica: (server, relaxed).
    fn pick_h(
        &mut self,
        st: &mut BlockState,
        busy: &[bool],
        rng: &mut Rng,
        trace: Option<&mut Vec<ReplicaStep>>,
        replica: usize,
    ) -> Option<(u32, bool)> {
        let n = self.grid.n;
        let cells = n * n;
        self.cand.clear();
        for cell in 0..cells {
            if st.rows & (1 << (cell / n)) == 0
                && st.cols & (1 << (cell % n)) == 0
                && self.cell_eligible(cell, st, busy)
            {
                self.cand.push(cell);
            }
        }
        let mut relaxed = false;
        if self.cand.is_empty() {
            relaxed = true;
            for cell in 0..cells {
                if self.cell_eligible(cell, st, busy) {
                    self.cand.push(cell);
                }
            }
        }
        if self.cand.is_empty() {
            return None;
        }
        let cell = self.cand[below(rng, self.cand.len())];
        // A random eligible tenant of the cell: a few blind draws, then a scan.
        let list = &self.cell_tenants.lists[cell];
        let mut tenant = NONE;
        for _ in 0..8 {
            let t = list[below(rng, list.len())];
            if self.tenant_ok(t, st, busy) {
                tenant = t;
                break;
            }
        }
        if tenant == NONE {
            self.scratch.clear();
            for &t in list {
                if self.tenant_ok(t, st, busy) {
                    self.scratch.push(t);
                }
            }
            tenant = self.scratch[below(rng, self.scratch.len())];
        }
        let servers = &self.tenant_servers.lists[tenant as usize];
        let s = servers[below(rng, servers.len())];
        if let Some(tr) = trace {
            let mut step = self.step(
                replica,
                s,
                if relaxed {
                    "no cell in an unused row and column has an eligible tenant: any cell with one"
                } else {
                    "a random cell of an unused row and column, a random tenant of an unused \
                     environment, a random server with room"
                },
                relaxed,
            );
            step.cells = (0..cells)
                .map(|c| CellCheck {
                    cell: c,
                    verdict: if !relaxed && st.rows & (1 << (c / n)) != 0 {
                        CellVerdict::RowUsed
                    } else if !relaxed && st.cols & (1 << (c % n)) != 0 {
                        CellVerdict::ColumnUsed
                    } else if self.cell_tenants.lists[c].is_empty() {
                        CellVerdict::Full
                    } else if !self.cell_eligible(c, st, busy) {
                        CellVerdict::NoEligibleTenant
                    } else {
                        CellVerdict::Candidate
                    },
                })
                .collect();
            step.tenants = self.grid.cells[cell]
                .tenants
                .iter()
                .map(|&t| TenantCheck {
                    tenant: self.c.tenants[t as usize].name.clone(),
                    verdict: if self.tenant_servers.lists[t as usize].is_empty() {
                        TenantVerdict::Full
                    } else if st.env_used(self.c.env_of[t as usize]) {
                        TenantVerdict::EnvironmentUsed
                    } else if !busy.is_empty() && busy[t as usize] {
                        TenantVerdict::Busy
                    } else {
                        TenantVerdict::Eligible
                    },
                })
                .collect();
            tr.push(step);
        }
        st.rows |= 1 << (cell / n);
        st.cols |= 1 << (cell % n);
        st.envs[st.n_envs] = self.c.env_of[tenant as usize];
        st.n_envs += 1;
        Some((s, relaxed))
    }

    /// A random server drawn from `list` passing `ok`: blind draws, then a
    /// scan.
    fn draw_from(
        list: &[u32],
        ok: &dyn Fn(u32) -> bool,
        rng: &mut Rng,
        scratch: &mut Vec<u32>,
    ) -> Option<u32> {
        if list.is_empty() {
            return None;
        }
        for _ in 0..16 {
            let s = list[below(rng, list.len())];
            if ok(s) {
                return Some(s);
            }
        }
        scratch.clear();
        scratch.extend(list.iter().copied().filter(|&s| ok(s)));
        (!scratch.is_empty()).then(|| scratch[below(rng, scratch.len())])
    }

    /// BlockPlacementPolicyDefault for replica `k` (0-based, k ≥ 1).
    fn pick_stock(
        &mut self,
        out: &[u32],
        k: usize,
        busy: &[bool],
        rng: &mut Rng,
    ) -> Option<(u32, &'static str)> {
        let c = self.c;
        let used = &out[..k];
        let free_ok = |s: u32| {
            !used.contains(&s) && (busy.is_empty() || !busy[c.tenant_of[s as usize] as usize])
        };
        let writer_rack = c.rack_of[out[0] as usize];
        let mut scratch = std::mem::take(&mut self.scratch);
        let pick = match k {
            1 => Self::draw_from(
                &self.open.lists[0],
                &|s| free_ok(s) && c.rack_of[s as usize] != writer_rack,
                rng,
                &mut scratch,
            )
            .map(|s| (s, "a random server of another rack")),
            2 => Self::draw_from(
                &self.rack_servers.lists[c.rack_of[out[1] as usize] as usize],
                &free_ok,
                rng,
                &mut scratch,
            )
            .map(|s| (s, "another server of the second replica's rack")),
            _ => None,
        };
        let pick = pick.or_else(|| {
            Self::draw_from(&self.open.lists[0], &free_ok, rng, &mut scratch)
                .map(|s| (s, "a random server"))
        });
        self.scratch = scratch;
        pick
    }
}
