//! The storage side's view of a datacenter: each tenant with the space its
//! servers offer, its reimage rate and its peak CPU utilization (the two
//! axes of Algorithm 2), and the cluster built from them — servers
//! numbered tenant by tenant as in [`super::reimages::ServerLayout`],
//! environments, racks, and each server's room in replicas.

use super::params::PlacementParams;
use super::reimage_stats::ReimageStats;
use super::reimages::ServerLayout;
use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::tenant::{TenantInfo, TenantSet};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A tenant as the placement sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StorageTenant {
    /// Name.
    pub name: String,
    /// Environment (no two replicas of a block in one).
    pub environment: String,
    /// Servers.
    pub servers: u32,
    /// Explicit server names (may be fewer than `servers`).
    pub server_names: Vec<String>,
    /// Storage each server offers, GB.
    pub storage_gb_per_server: f64,
    /// Mean reimages per server per month (the durability axis).
    pub reimage_rate: f64,
    /// Peak CPU utilization, percent (the availability axis).
    pub peak: f64,
}

/// The tenants of `infos` with their reimage rates from `stats` (same
/// tenants, same order) and peaks from `set` (each tenant's
/// `peak_percentile` utilization; a tenant without series is refused).
pub fn storage_tenants(
    infos: &[TenantInfo],
    stats: &ReimageStats,
    set: &TenantSet,
    peak_percentile: f64,
) -> Result<Vec<StorageTenant>, HarvestError> {
    check(
        (0.0..=100.0).contains(&peak_percentile),
        "peak_percentile",
        "must be in [0, 100]",
    )?;
    check(
        stats.tenants.len() == infos.len()
            && stats
                .tenants
                .iter()
                .zip(infos)
                .all(|(s, i)| s.name == i.name),
        "reimages",
        "must be read against the same tenants file",
    )?;
    let mut scratch = Vec::new();
    infos
        .iter()
        .zip(&stats.tenants)
        .map(|(info, r)| {
            let t = set
                .find(&info.name)
                .ok_or_else(|| HarvestError::EmptySeries {
                    tenant: info.name.clone(),
                })?;
            Ok(StorageTenant {
                name: info.name.clone(),
                environment: info.environment.clone(),
                servers: info.servers as u32,
                server_names: info.server_names.clone(),
                storage_gb_per_server: info.storage_gb_per_server,
                reimage_rate: r.average,
                peak: crate::numerics::stats::percentile_select(
                    &t.utilization,
                    peak_percentile,
                    &mut scratch,
                ),
            })
        })
        .collect()
}

/// Servers, environments, racks and room, ready for placement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// The tenants.
    pub tenants: Vec<StorageTenant>,
    /// Server numbering (tenant by tenant).
    pub layout: ServerLayout,
    /// Tenant of each server.
    pub tenant_of: Vec<u32>,
    /// Environment of each tenant (index into `environments`).
    pub env_of: Vec<u32>,
    /// Environment names.
    pub environments: Vec<String>,
    /// Rack of each server (`rack_size` consecutive servers).
    pub rack_of: Vec<u32>,
    /// Racks.
    pub racks: u32,
    /// Replicas each server can hold.
    pub room: Vec<u32>,
}

impl Cluster {
    /// The cluster of `tenants` (checked: no negative or non-finite space,
    /// at least one server, names unique).
    pub fn new(tenants: &[StorageTenant], p: &PlacementParams) -> Result<Self, HarvestError> {
        p.validate()?;
        check(!tenants.is_empty(), "tenants", "must not be empty")?;
        let mut seen = HashMap::new();
        for t in tenants {
            check(
                seen.insert(t.name.as_str(), ()).is_none(),
                "tenants",
                "must have unique names",
            )?;
            if !(t.storage_gb_per_server.is_finite() && t.storage_gb_per_server >= 0.0) {
                return Err(HarvestError::Invalid {
                    name: "storage_gb_per_server",
                    why: format!("of `{}` must be finite and not negative", t.name),
                });
            }
            if !(t.reimage_rate.is_finite() && t.reimage_rate >= 0.0 && t.peak.is_finite()) {
                return Err(HarvestError::Invalid {
                    name: "tenants",
                    why: format!("`{}` has a non-finite reimage rate or peak", t.name),
                });
            }
        }
        let infos: Vec<TenantInfo> = tenants
            .iter()
            .map(|t| TenantInfo {
                name: t.name.clone(),
                environment: t.environment.clone(),
                machine_function: String::new(),
                servers: t.servers as usize,
                server_names: t.server_names.clone(),
                cores_per_server: 0.0,
                storage_gb_per_server: t.storage_gb_per_server,
            })
            .collect();
        let layout = ServerLayout::new(&infos);
        let n = layout.servers();
        check(n >= 1, "tenants", "must have at least one server")?;
        check(
            n < u32::MAX as usize / 2,
            "tenants",
            "have too many servers",
        )?;
        let mut env_ids: HashMap<&str, u32> = HashMap::new();
        let mut environments = Vec::new();
        let env_of = tenants
            .iter()
            .map(|t| {
                *env_ids.entry(t.environment.as_str()).or_insert_with(|| {
                    environments.push(t.environment.clone());
                    environments.len() as u32 - 1
                })
            })
            .collect();
        let mut tenant_of = Vec::with_capacity(n);
        let mut room = Vec::with_capacity(n);
        for (i, t) in tenants.iter().enumerate() {
            let r = (t.storage_gb_per_server * 1024.0 / p.block_mb).floor();
            let r = r.min(f64::from(u32::MAX / 2)) as u32;
            for _ in 0..t.servers {
                tenant_of.push(i as u32);
                room.push(r);
            }
        }
        let rack_of: Vec<u32> = (0..n).map(|s| (s / p.rack_size) as u32).collect();
        Ok(Cluster {
            tenants: tenants.to_vec(),
            layout,
            tenant_of,
            env_of,
            environments,
            racks: n.div_ceil(p.rack_size) as u32,
            rack_of,
            room,
        })
    }

    /// Servers.
    pub fn servers(&self) -> usize {
        self.tenant_of.len()
    }

    /// Replicas the whole cluster can hold.
    pub fn capacity(&self) -> u64 {
        self.room.iter().map(|&r| u64::from(r)).sum()
    }

    /// The replicas `blocks` blocks of `replication` need, refused when
    /// the cluster cannot hold them.
    pub fn room_for(&self, blocks: usize, replication: usize) -> Result<u64, HarvestError> {
        let needed = blocks as u64 * replication as u64;
        if needed > self.capacity() {
            return Err(HarvestError::ClusterFull {
                needed,
                capacity: self.capacity(),
            });
        }
        Ok(needed)
    }

    /// Replicas tenant `t` can hold.
    pub fn tenant_capacity(&self, t: usize) -> u64 {
        let (a, b) = (
            self.layout.first[t] as usize,
            self.layout.first[t + 1] as usize,
        );
        self.room[a..b].iter().map(|&r| u64::from(r)).sum()
    }
}
