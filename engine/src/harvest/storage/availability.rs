//! The availability simulation of Figure 16: primary utilization scaled
//! to a target average ([`crate::harvest::tenants::scaling`]: linear with saturation or
//! n-th root), a server busy in a slot when its primary's CPU is above the
//! reserve threshold (66 %), blocks written at random slots of the
//! replayed span by HDFS-Stock (blind to busy servers), HDFS-PT and
//! HDFS-H (both skip busy tenants as writers and destinations, §5.2), and
//! an access failing when every replica of its block is on a busy server.
//!
//! Accesses are uniform over blocks and over the span's slots, so the
//! failed-access share is computed exactly rather than sampled: for each
//! block, the share of slots in which all its replicas' tenants are busy
//! (a bitwise AND of per-tenant busy bitsets), averaged over blocks.

use super::grid_cells::build_grid;
use super::params::{AvailabilityParams, Policy};
use super::placement::Placer;
use super::tenant::{Cluster, StorageTenant};
use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::scaling::scale_to;
use crate::harvest::tenants::tenant::TenantSet;
use crate::numerics::MinAvgMax;
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

/// One policy at one replication level and one utilization level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AvailabilityPoint {
    /// The policy.
    pub policy: Policy,
    /// Replicas per block.
    pub replication: usize,
    /// Failed accesses, percent, per run.
    pub runs: Vec<f64>,
    /// Failed accesses, percent: min, mean, max.
    pub failed_percent: MinAvgMax,
}

/// One utilization level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AvailabilityLevel {
    /// The target average, percent.
    pub level: f64,
    /// The server-weighted average primary utilization reached, percent.
    pub utilization: f64,
    /// Share of tenant-slots busy, percent.
    pub busy_percent: f64,
    /// Per (replication, policy): for each replication, stock HDFS,
    /// HDFS-PT and HDFS-H in that order ([`AVAILABILITY_POLICIES`]).
    pub points: Vec<AvailabilityPoint>,
}

/// The policies every replication of a level is simulated with, in the
/// order of [`AvailabilityLevel::points`].
pub const AVAILABILITY_POLICIES: [Policy; 3] = [Policy::Stock, Policy::StockPt, Policy::HdfsH];

/// Figure 16's row: mean failed accesses, percent, of each policy at one
/// replication.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvailabilityRow {
    /// Replicas per block.
    pub replication: usize,
    /// Stock HDFS.
    pub stock: f64,
    /// HDFS-PT.
    pub pt: f64,
    /// HDFS-H.
    pub h: f64,
}

impl AvailabilityLevel {
    /// The level's points as Figure 16's rows, one per replication.
    pub fn rows(&self) -> impl Iterator<Item = AvailabilityRow> + '_ {
        self.points
            .chunks_exact(AVAILABILITY_POLICIES.len())
            .map(|pts| AvailabilityRow {
                replication: pts[0].replication,
                stock: pts[0].failed_percent.avg,
                pt: pts[1].failed_percent.avg,
                h: pts[2].failed_percent.avg,
            })
    }
}

/// The whole simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AvailabilityReport {
    /// Blocks per run.
    pub blocks: usize,
    /// Slots of the replayed span.
    pub slots: usize,
    /// Slot length, seconds.
    pub step_secs: i64,
    /// Servers and tenants.
    pub servers: usize,
    /// Tenants.
    pub tenants: usize,
    /// The levels, ascending.
    pub levels: Vec<AvailabilityLevel>,
    /// The paper's result.
    pub paper: String,
}

/// Busy bitsets, one per tenant, `words` u64 each.
struct Busy {
    words: usize,
    bits: Vec<u64>,
}

impl Busy {
    fn of(&self, t: usize) -> &[u64] {
        &self.bits[t * self.words..(t + 1) * self.words]
    }

    fn at(&self, t: usize, slot: usize) -> bool {
        self.bits[t * self.words + slot / 64] >> (slot % 64) & 1 == 1
    }
}

/// Figure 16: failed accesses against average utilization. `set` holds
/// each tenant's utilization (by name).
pub fn simulate_availability(
    tenants: &[StorageTenant],
    set: &TenantSet,
    p: &AvailabilityParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<AvailabilityReport, HarvestError> {
    p.validate()?;
    check(set.slots >= 1, "utilization", "must have at least one slot")?;
    let cluster = Cluster::new(tenants, &p.placement)?;
    let grid = build_grid(&cluster, p.placement.grid);
    let index: Vec<usize> = tenants
        .iter()
        .map(|t| {
            set.tenants
                .iter()
                .position(|s| s.info.name == t.name)
                .ok_or_else(|| HarvestError::EmptySeries {
                    tenant: t.name.clone(),
                })
        })
        .collect::<Result<_, _>>()?;
    let rmax = p.replications.iter().copied().max().unwrap_or(1);
    cluster.room_for(p.blocks, rmax)?;
    let mut levels: Vec<f64> = p.levels.clone();
    levels.sort_by(f64::total_cmp);
    let policies = AVAILABILITY_POLICIES;
    let total = levels.len() * p.runs * p.replications.len() * policies.len();
    let mut done = 0;
    let slots = set.slots;
    let words = slots.div_ceil(64);
    let mut out = Vec::new();
    for &level in &levels {
        let (scaled, _) = scale_to(set, level, p.scaling)?;
        let mut bits = vec![0u64; words * tenants.len()];
        let (mut wsum, mut usum, mut busy_n) = (0.0, 0.0, 0u64);
        for (t, &i) in index.iter().enumerate() {
            let u = &scaled.tenants[i].utilization;
            let w = f64::from(tenants[t].servers);
            wsum += w;
            usum += w * u.iter().sum::<f64>() / slots as f64;
            for (k, &v) in u.iter().enumerate().take(slots) {
                if v > p.reserve_threshold {
                    bits[t * words + k / 64] |= 1 << (k % 64);
                    busy_n += 1;
                }
            }
        }
        let busy = Busy { words, bits };
        let mut points: Vec<AvailabilityPoint> = Vec::new();
        for &r in &p.replications {
            for &policy in &policies {
                let mut runs = Vec::new();
                for run in 0..p.runs {
                    let seed = p.placement.seed + run as u64;
                    runs.push(failed_share(
                        &cluster, &grid, &busy, slots, policy, p.blocks, r, seed,
                    )?);
                    done += 1;
                    progress(done, total);
                }
                points.push(AvailabilityPoint {
                    policy,
                    replication: r,
                    failed_percent: MinAvgMax::of(&runs),
                    runs,
                });
            }
        }
        out.push(AvailabilityLevel {
            level,
            utilization: if wsum > 0.0 { usum / wsum } else { 0.0 },
            busy_percent: 100.0 * busy_n as f64 / (slots * tenants.len()).max(1) as f64,
            points,
        });
    }
    Ok(AvailabilityReport {
        blocks: p.blocks,
        slots,
        step_secs: set.step_secs,
        servers: cluster.servers(),
        tenants: tenants.len(),
        levels: out,
        paper: "Figure 16 (linear scaling, R = 3 and 4): HDFS-H has no failed access up to \
                about 40 % average utilization, higher than HDFS-Stock, and few at 50 %"
            .into(),
    })
}

/// One run: place the blocks at their write slots, then the failed share.
#[allow(clippy::too_many_arguments)]
fn failed_share(
    cluster: &Cluster,
    grid: &super::grid_cells::Grid,
    busy: &Busy,
    slots: usize,
    policy: Policy,
    blocks: usize,
    r: usize,
    seed: u64,
) -> Result<f64, HarvestError> {
    let mut rng = Rng::new(seed ^ 0x4156_4149);
    let mut writes: Vec<u32> = (0..blocks)
        .map(|_| (rng.next_u64() % slots as u64) as u32)
        .collect();
    writes.sort_unstable();
    let mut placer = Placer::new(cluster, grid);
    let tn = cluster.tenants.len();
    let mut now = vec![false; tn];
    let mut at = u32::MAX;
    let mut out = vec![0u32; r];
    let mut acc = vec![0u64; busy.words];
    let mut failed = 0u64;
    for (b, &slot) in writes.iter().enumerate() {
        if slot != at {
            at = slot;
            for (t, x) in now.iter_mut().enumerate() {
                *x = busy.at(t, slot as usize);
            }
        }
        let aware: &[bool] = if policy == Policy::Stock { &[] } else { &now };
        let w =
            match placer.random_writer(aware, &mut rng) {
                Some(w) => w,
                // Every server with room is busy: the write waits for a
                // slot with an idle one; it is placed blind to busy state.
                None => placer.random_writer(&[], &mut rng).ok_or_else(|| {
                    HarvestError::ClusterFull {
                        needed: (blocks * r) as u64,
                        capacity: cluster.capacity(),
                    }
                })?,
            };
        let placed = placer.place(policy, b as u64, w, aware, &mut rng, &mut out);
        if placed.is_err() {
            placer.place(policy, b as u64, w, &[], &mut rng, &mut out)?;
        }
        acc.fill(u64::MAX);
        for &s in &out {
            let t = cluster.tenant_of[s as usize] as usize;
            for (a, &x) in acc.iter_mut().zip(busy.of(t)) {
                *a &= x;
            }
        }
        failed += acc.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
    }
    // Bits past the last slot are never set in the tenants' bitsets.
    Ok(100.0 * failed as f64 / (blocks as u64 * slots as u64) as f64)
}
