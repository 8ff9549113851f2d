//! The Harvest part in the worker: the files both halves work from
//! ([`Files`]), the spare-cycle half's host (whose last classification the
//! storage half works on) and the storage half's.

use super::cycles::host::CyclesHost;
use super::files::Files;
use super::protocol::HarvestRequest;
use super::storage::host::StorageHost;
use crate::toolkit::host::{Ctx, PartHost};

/// The Harvest part's worker state.
#[derive(Default)]
pub struct HarvestHost {
    files: Files,
    cycles: CyclesHost,
    storage: StorageHost,
}

impl PartHost for HarvestHost {
    type Request = HarvestRequest;

    /// Hands the request to its half.
    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: HarvestRequest) {
        self.files.restore(ctx).await;
        match request {
            HarvestRequest::Cycles(r) => self.cycles.handle(ctx, &mut self.files, r).await,
            HarvestRequest::Storage(r) => {
                let last = self.cycles.last();
                self.storage.handle(ctx, &mut self.files, last, *r).await;
            }
        }
    }

    /// The demo's tenants file and reimages file.
    async fn seed(&mut self, ctx: &mut Ctx<'_>) {
        self.files.seed(ctx).await;
    }

    /// "Clear": the files and the classification go.
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        self.cycles = CyclesHost::default();
        self.files.clear(ctx).await;
    }
}
