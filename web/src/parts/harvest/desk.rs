//! The Harvest panel's state: each half's desk. A new classification of
//! the spare-cycle half is followed by the storage half's grid.

use super::cycles::desk::CyclesDesk;
use super::protocol::HarvestResponse;
use super::storage::desk::StorageDesk;
use crate::page::Page;

/// The Harvest panel's signals, by half.
#[derive(Clone, Copy)]
pub struct HarvestDesk {
    /// Tenants, classes, selection, the simulation.
    pub cycles: CyclesDesk,
    /// Reimages, the grid, placement, durability, availability.
    pub storage: StorageDesk,
}

impl HarvestDesk {
    /// Nothing classified yet.
    pub fn new(page: Page) -> HarvestDesk {
        HarvestDesk {
            cycles: CyclesDesk::new(page),
            storage: StorageDesk::new(page),
        }
    }

    /// Classifies the tenants with the form's settings.
    pub fn classify(self) {
        self.cycles.classify();
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: HarvestResponse) {
        match response {
            HarvestResponse::Cycles(r) => {
                if self.cycles.apply(r) {
                    self.storage.refresh();
                }
            }
            HarvestResponse::Storage(r) => self.storage.apply(*r),
        }
    }
}
