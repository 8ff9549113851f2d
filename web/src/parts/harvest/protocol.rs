//! The Harvest part's envelope: each half's messages in one variant.
//! Carried by [`crate::protocol::Request::Harvest`] and
//! [`crate::protocol::Response::Harvest`].

use super::cycles::protocol::{CyclesRequest, CyclesResponse};
use super::storage::protocol::{StorageRequest, StorageResponse};
use crate::toolkit::protocol::Supersedes;
use serde::{Deserialize, Serialize};

/// What the Harvest panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "half")]
pub enum HarvestRequest {
    /// Spare cycles: tenants, classes, selection, the simulation.
    Cycles(CyclesRequest),
    /// Storage: reimages, the grid, placement, durability, availability.
    Storage(Box<StorageRequest>),
}

impl HarvestRequest {
    /// What supersedes this request while it is queued: as each half says.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            HarvestRequest::Cycles(r) => r.supersedes_key(),
            HarvestRequest::Storage(r) => r.supersedes_key(),
        }
    }
}

/// What the worker tells the Harvest panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "half")]
pub enum HarvestResponse {
    /// An answer of the spare-cycle half.
    Cycles(CyclesResponse),
    /// An answer of the storage half.
    Storage(Box<StorageResponse>),
}
