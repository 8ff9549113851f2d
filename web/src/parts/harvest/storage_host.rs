//! The storage view in the worker: the reimages file (kept with the
//! tenants file in the `meta` record `harvest`, read against it on every
//! use) and the storage requests, answered from the last classification.

use super::host::HarvestHost;
use super::protocol::HarvestResponse;
use super::storage_protocol::{StorageRequest, StorageResponse};
use super::storage_views::{
    availability_view, durability_view, grid_view, place_view, StorageInputs,
};
use crate::protocol::{now_ms, Response};
use crate::store::Store;
use skyplan_engine::harvest::{read_reimages_csv, ReimageHistory, TenantInfo};

fn send(post: &dyn Fn(&Response), r: StorageResponse) {
    post(&Response::Harvest(HarvestResponse::Storage(Box::new(r))));
}

fn failed(post: &dyn Fn(&Response), what: &str, ticket: u32, message: String) {
    send(
        post,
        StorageResponse::Failed {
            what: what.into(),
            ticket,
            message,
        },
    );
}

/// Reads `text` against the tenants file's tenants.
pub fn read_against(
    name: &str,
    text: &str,
    tenants: Option<&[TenantInfo]>,
) -> Result<ReimageHistory, String> {
    let tenants = tenants.ok_or_else(|| {
        "A reimages file names the tenants file's servers: load a tenants file first.".to_owned()
    })?;
    read_reimages_csv(name, text, tenants).map_err(|e| e.to_string())
}

impl HarvestHost {
    /// Tells the panel which reimages file is in use.
    pub(super) fn post_reimages_file(&self, post: &dyn Fn(&Response)) {
        let tenants = self.tenants.as_ref().map(|t| t.2.as_slice());
        let reimages = self.reimages.as_ref().map_or(0, |(n, t)| {
            read_against(n, t, tenants).map_or(0, |h| h.server_reimages())
        });
        send(
            post,
            StorageResponse::ReimagesFile {
                name: self.reimages.as_ref().map(|r| r.0.clone()),
                reimages,
            },
        );
    }

    /// Answers one request of the storage view.
    pub(super) async fn storage(
        &mut self,
        request: StorageRequest,
        store: Option<&Store>,
        post: &dyn Fn(&Response),
    ) {
        let tenants = self.tenants.as_ref().map(|t| t.2.clone());
        if let StorageRequest::ImportReimages { name, text } = request {
            // A bad file is refused and the one in use kept.
            match read_against(&name, &text, tenants.as_deref()) {
                Ok(_) => {
                    self.reimages = Some((name, text));
                    self.save(store, post).await;
                    self.post_reimages_file(post);
                }
                Err(message) => failed(post, "reimages", 0, message),
            }
            return;
        }
        let (what, ticket) = match &request {
            StorageRequest::Grid { ticket, .. } => ("grid", *ticket),
            StorageRequest::Place { ticket, .. } => ("place", *ticket),
            StorageRequest::Durability { ticket, .. } => ("durability", *ticket),
            StorageRequest::Availability { ticket, .. } => ("availability", *ticket),
            StorageRequest::ImportReimages { .. } => return,
        };
        let Some(last) = self.last.as_ref() else {
            failed(post, what, ticket, "Classify the tenants first.".into());
            return;
        };
        let Some((name, text)) = self.reimages.as_ref() else {
            failed(post, what, ticket, "Load a reimages file.".into());
            return;
        };
        let history = match read_against(name, text, tenants.as_deref()) {
            Ok(h) => h,
            Err(message) => {
                failed(post, what, ticket, message);
                return;
            }
        };
        let infos = tenants.unwrap_or_default();
        let inputs = StorageInputs {
            infos: &infos,
            reimages: (name, &history),
            set: &last.set,
            peak_percentile: last.settings.peak_percentile,
        };
        let t0 = now_ms();
        let mut progress = |done: usize, total: usize| {
            send(
                post,
                StorageResponse::Progress {
                    ticket,
                    done,
                    total,
                },
            )
        };
        let answer = match request {
            StorageRequest::Grid { settings, .. } => {
                grid_view(&inputs, ticket, &settings).map(|mut v| {
                    v.millis = now_ms() - t0;
                    StorageResponse::Grid(Box::new(v))
                })
            }
            StorageRequest::Place {
                writer,
                policy,
                settings,
                ..
            } => place_view(&inputs, ticket, &writer, policy, &settings)
                .map(|v| StorageResponse::Placed(Box::new(v))),
            StorageRequest::Durability { settings, .. } => {
                durability_view(&inputs, ticket, &settings, &mut progress).map(|mut v| {
                    v.millis = now_ms() - t0;
                    StorageResponse::Durability(Box::new(v))
                })
            }
            StorageRequest::Availability { settings, .. } => {
                availability_view(&inputs, ticket, &settings, &mut progress).map(|mut v| {
                    v.millis = now_ms() - t0;
                    StorageResponse::Availability(Box::new(v))
                })
            }
            StorageRequest::ImportReimages { .. } => return,
        };
        match answer {
            Ok(r) => send(post, r),
            Err(message) => failed(post, what, ticket, message),
        }
    }
}
