//! Primary tenants: an ⟨environment, machine function⟩ pair with its
//! servers, represented by its "average server" — the mean utilization of
//! its servers in each time slot (§3). Every tenant of a [`TenantSet`]
//! sits on the same grid of slots, so classes can average them slot by
//! slot and the simulation can replay them side by side.

use crate::model::Timestamp;
use serde::{Deserialize, Serialize};

/// What the tenants CSV (or a series name, or a machine table) says about
/// a tenant, before any utilization is attached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TenantInfo {
    /// Tenant name (unique).
    pub name: String,
    /// Environment: a collection of logically related servers (§3). Two
    /// tenants of one environment are correlated; the storage half keeps
    /// replicas out of a shared environment.
    pub environment: String,
    /// Machine function (e.g. result ranking).
    pub machine_function: String,
    /// Number of servers.
    pub servers: usize,
    /// Server names, when known (they map utilization series and machine
    /// ids to the tenant); may be fewer than `servers`.
    pub server_names: Vec<String>,
    /// Cores of each server.
    pub cores_per_server: f64,
    /// Storage each server offers for harvesting, GB (§4.2: the primary
    /// tenant declares it; default [`DEFAULT_STORAGE_GB`] when a tenants
    /// file leaves it out).
    #[serde(default = "default_storage_gb")]
    pub storage_gb_per_server: f64,
}

/// Storage per server when a tenants file does not say (1 TB: the paper
/// gives no figure; a harvestable share of a production server's disks).
pub const DEFAULT_STORAGE_GB: f64 = 1024.0;

fn default_storage_gb() -> f64 {
    DEFAULT_STORAGE_GB
}

/// A primary tenant with its average server's CPU utilization.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tenant {
    /// Name, environment, machine function, servers.
    pub info: TenantInfo,
    /// CPU utilization of the average server, percent, one per slot of the
    /// set's grid; slots none of its servers reported are filled from the
    /// nearest earlier slot (the first ones from the first reported).
    pub utilization: Vec<f64>,
    /// Slots that had no sample and were filled.
    pub filled_slots: usize,
    /// Server series averaged into the utilization.
    pub series_used: usize,
}

/// Tenants on one grid of time slots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TenantSet {
    /// Start of slot 0.
    pub start: Timestamp,
    /// Slot length, seconds (the paper: 120).
    pub step_secs: i64,
    /// Number of slots; every tenant's utilization has this length.
    pub slots: usize,
    /// The tenants, by name.
    pub tenants: Vec<Tenant>,
}

impl Tenant {
    /// Mean utilization, percent.
    pub fn mean(&self) -> f64 {
        crate::numerics::stats::mean(&self.utilization)
    }
}

impl TenantSet {
    /// Total servers.
    pub fn servers(&self) -> usize {
        self.tenants.iter().map(|t| t.info.servers).sum()
    }

    /// The core-weighted mean utilization over every server and slot,
    /// percent: the "current" level of the §6 simulation, the one at which
    /// [`crate::harvest::tenants::scaling::scale_to`] leaves the set as it
    /// is (so a panel can replay the tenants as loaded).
    pub fn mean_utilization(&self) -> f64 {
        let (mut sum, mut weight) = (0.0, 0.0);
        for t in &self.tenants {
            let w = t.info.servers as f64 * t.info.cores_per_server;
            sum += w * t.mean();
            weight += w;
        }
        if weight > 0.0 {
            sum / weight
        } else {
            0.0
        }
    }

    /// The tenant named `name`.
    pub fn find(&self, name: &str) -> Option<&Tenant> {
        self.tenants.iter().find(|t| t.info.name == name)
    }

    /// Hour of day (UTC, 0–23) of slot `i`.
    pub fn hour_of(&self, i: usize) -> usize {
        let t = self.start + i as i64 * self.step_secs;
        (t.rem_euclid(86_400) / 3600) as usize
    }
}
