//! The cluster's size and the machine added to it: what a purchase of `M`
//! machines does to every capacity (`k`, the capacity multiplier).

use super::demand::Demand;
use super::error::RunwayError;
use super::params::RunwayParams;
use serde::{Deserialize, Serialize};

/// The cluster and the machine a purchase adds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// Machines today.
    pub machines: u32,
    /// Cores today, when known (the agenda's capacity).
    pub cores: Option<f64>,
    /// Cores of a machine added (`None`: the cluster's own size, cores /
    /// machines, or one machine's share when the cores are unknown).
    pub machine_cores: Option<f64>,
}

impl Cluster {
    /// The cluster of `demand`: its machines from `params` or one per
    /// server series; its cores from the agenda's capacity.
    pub fn of(demand: &Demand, params: &RunwayParams) -> Result<Cluster, RunwayError> {
        let machines = match (params.machines, demand.servers()) {
            (Some(m), _) => m,
            (None, Some(s)) => s as u32,
            (None, None) => return Err(RunwayError::Cluster(
                "no utilization series to count its servers in: give its machines (--machines N)"
                    .into(),
            )),
        };
        let cores = demand.agenda.as_ref().map(|a| a.capacity.cores);
        if params.machine_cores.is_some() && cores.is_none() {
            return Err(RunwayError::Cluster(
                "a machine's cores are compared with the cluster's, which only the agenda's capacity gives: admit SLO jobs, or leave the machine at the cluster's own size".into(),
            ));
        }
        Ok(Cluster {
            machines,
            cores,
            machine_cores: params.machine_cores,
        })
    }

    /// The share of today's capacity one added machine brings.
    pub fn machine_share(&self) -> f64 {
        match (self.machine_cores, self.cores) {
            (Some(m), Some(c)) if c > 0.0 => m / c,
            _ => 1.0 / f64::from(self.machines.max(1)),
        }
    }

    /// The capacity multiplier with `added` machines.
    pub fn k(&self, added: u32) -> f64 {
        1.0 + f64::from(added) * self.machine_share()
    }

    /// Cores of one added machine, when the cluster's cores are known.
    pub fn cores_per_machine(&self) -> Option<f64> {
        self.machine_cores
            .or_else(|| self.cores.map(|c| c / f64::from(self.machines.max(1))))
    }
}
