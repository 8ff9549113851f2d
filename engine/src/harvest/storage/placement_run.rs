//! Placing many blocks at once (each from a random writer with room) and
//! what the result looks like: replicas per cell, space used, the
//! diversity checks of Algorithm 2 (environments, rows and columns within
//! a round), and the space-versus-diversity trade-off of §4.2 — how many
//! tenants and environments still have room, and from which block on
//! fewer than R environments did.

use super::grid_cells::Grid;
use super::params::Policy;
use super::placement::Placer;
use super::tenant::Cluster;
use crate::harvest::error::HarvestError;
use serde::{Deserialize, Serialize};

/// Blocks' replicas, `replication` server ids per block, block-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// Replicas per block.
    pub replication: usize,
    /// Server of each replica (`blocks × replication`).
    pub replicas: Vec<u32>,
}

impl Placement {
    /// Blocks.
    pub fn blocks(&self) -> usize {
        self.replicas.len() / self.replication.max(1)
    }
}

/// The diversity checks over a placement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Diversity {
    /// Blocks with two replicas in one environment.
    pub environment_repeats: u64,
    /// Blocks with two replicas in one tenant.
    pub tenant_repeats: u64,
    /// Blocks with two replicas in one row or one column within a round
    /// of n replicas.
    pub row_column_repeats: u64,
    /// Servers holding more replicas than their room.
    pub over_room_servers: u64,
}

/// What [`place_blocks`] did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaceReport {
    /// The policy.
    pub policy: Policy,
    /// Blocks placed.
    pub blocks: u64,
    /// Replicas per block.
    pub replication: usize,
    /// Servers and tenants of the cluster.
    pub servers: usize,
    /// Tenants.
    pub tenants: usize,
    /// Replicas the cluster can hold.
    pub capacity: u64,
    /// Share of that room used.
    pub used_share: f64,
    /// Replicas per grid cell.
    pub cell_replicas: Vec<u64>,
    /// Share of each cell's room used.
    pub cell_fill: Vec<f64>,
    /// Blocks placed with the row/column rule relaxed (HDFS-H).
    pub relaxed: u64,
    /// The checks.
    pub diversity: Diversity,
    /// Tenants with room left at the end.
    pub open_tenants: usize,
    /// Environments with room left at the end.
    pub open_environments: usize,
    /// First block after which fewer than R environments had room (none:
    /// diversity never ran short).
    pub diversity_short_at: Option<u64>,
    /// The fullest server's share of its room.
    pub max_server_fill: f64,
}

/// Places `blocks` blocks of `replication` replicas by `policy`, writers
/// drawn uniformly among servers with room (seeded). A cluster without
/// room for every replica is refused up front.
pub fn place_blocks(
    cluster: &Cluster,
    grid: &Grid,
    policy: Policy,
    blocks: usize,
    replication: usize,
    seed: u64,
) -> Result<(Placement, PlaceReport), HarvestError> {
    let needed = cluster.room_for(blocks, replication)?;
    if !(1..=16).contains(&replication) {
        return Err(HarvestError::Invalid {
            name: "replication",
            why: "must be in 1..=16".into(),
        });
    }
    let mut placer = Placer::new(cluster, grid);
    let mut short_at = None;
    let check_every = (blocks / 256).max(1);
    let replicas = placer.fill(policy, blocks, replication, seed, |b, placer| {
        if short_at.is_none() && b % check_every == 0 && placer.open_environments() < replication {
            short_at = Some(b as u64);
        }
    })?;
    if short_at.is_none() && placer.open_environments() < replication {
        short_at = Some(blocks as u64);
    }
    let placement = Placement {
        replication,
        replicas,
    };
    let n = grid.cells.len();
    let mut cell_replicas = vec![0u64; n];
    for &s in &placement.replicas {
        let cell = grid.cell_of[cluster.tenant_of[s as usize] as usize];
        if cell != u16::MAX {
            cell_replicas[cell as usize] += 1;
        }
    }
    let cell_fill = grid
        .cells
        .iter()
        .zip(&cell_replicas)
        .map(|(c, &u)| {
            if c.space > 0 {
                u as f64 / c.space as f64
            } else {
                0.0
            }
        })
        .collect();
    let free = placer.free();
    let max_server_fill = cluster
        .room
        .iter()
        .zip(free)
        .filter(|(&r, _)| r > 0)
        .map(|(&r, &f)| f64::from(r - f) / f64::from(r))
        .fold(0.0, f64::max);
    let report = PlaceReport {
        policy,
        blocks: blocks as u64,
        replication,
        servers: cluster.servers(),
        tenants: cluster.tenants.len(),
        capacity: cluster.capacity(),
        used_share: needed as f64 / cluster.capacity().max(1) as f64,
        cell_replicas,
        cell_fill,
        relaxed: placer.relaxed,
        diversity: check_diversity(cluster, grid, &placement),
        open_tenants: placer.open_tenants(),
        open_environments: placer.open_environments(),
        diversity_short_at: short_at,
        max_server_fill,
    };
    Ok((placement, report))
}

/// Counts the blocks of `p` breaking each of Algorithm 2's rules (and the
/// servers over their room), independently of how they were placed.
pub fn check_diversity(cluster: &Cluster, grid: &Grid, p: &Placement) -> Diversity {
    let n = grid.n;
    let r = p.replication;
    let mut d = Diversity::default();
    let mut held = vec![0u32; cluster.servers()];
    let repeats = |v: &[u32]| (0..v.len()).any(|i| v[..i].contains(&v[i]));
    let (mut tenants, mut envs, mut rows, mut cols) =
        ([0u32; 16], [0u32; 16], [0u32; 16], [0u32; 16]);
    for block in p.replicas.chunks_exact(r) {
        for (k, &s) in block.iter().enumerate() {
            tenants[k] = cluster.tenant_of[s as usize];
            envs[k] = cluster.env_of[tenants[k] as usize];
            held[s as usize] += 1;
        }
        d.environment_repeats += u64::from(repeats(&envs[..r]));
        d.tenant_repeats += u64::from(repeats(&tenants[..r]));
        let mut bad = false;
        for round in tenants[..r].chunks(n) {
            for (k, &t) in round.iter().enumerate() {
                let c = grid.cell_of[t as usize];
                bad |= c == u16::MAX;
                rows[k] = u32::from(c) / n as u32;
                cols[k] = u32::from(c) % n as u32;
            }
            bad |= repeats(&rows[..round.len()]) || repeats(&cols[..round.len()]);
        }
        d.row_column_repeats += u64::from(bad);
    }
    d.over_room_servers = held
        .iter()
        .zip(&cluster.room)
        .filter(|(&h, &r)| h > r)
        .count() as u64;
    d
}
