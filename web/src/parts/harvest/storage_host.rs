//! The storage view in the worker: the reimages file (kept with the
//! tenants file in the `meta` record `harvest`, read against it on every
//! use) and the storage requests, answered from the last classification.

use super::host::HarvestHost;
use super::protocol::HarvestResponse;
use super::storage_protocol::{StorageRequest, StorageResponse};
use super::storage_views::{
    availability_view, durability_view, grid_view, place_view, StorageInputs,
};
use crate::toolkit::host::{timed, Ctx};
use crate::toolkit::protocol::Failure;
use skyplan_engine::harvest::{read_reimages_csv, ReimageHistory, TenantInfo};

fn send(ctx: &Ctx<'_>, r: StorageResponse) {
    ctx.send(HarvestResponse::Storage(Box::new(r)));
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
    pub(super) fn post_reimages_file(&self, ctx: &Ctx<'_>) {
        let tenants = self.tenants.as_ref().map(|t| t.2.as_slice());
        let reimages = self.reimages.as_ref().map_or(0, |(n, t)| {
            read_against(n, t, tenants).map_or(0, |h| h.server_reimages())
        });
        send(
            ctx,
            StorageResponse::ReimagesFile {
                name: self.reimages.as_ref().map(|r| r.0.clone()),
                reimages,
            },
        );
    }

    /// Answers one request of the storage view.
    pub(super) async fn storage(&mut self, ctx: &Ctx<'_>, request: StorageRequest) {
        let tenants = self.tenants.as_ref().map(|t| t.2.clone());
        let (ticket, place) = match &request {
            StorageRequest::ImportReimages { name, text } => {
                // A bad file is refused and the one in use kept.
                match read_against(name, text, tenants.as_deref()) {
                    Ok(_) => {
                        self.reimages = Some((name.clone(), text.clone()));
                        self.save(ctx).await;
                        self.post_reimages_file(ctx);
                    }
                    Err(message) => send(ctx, StorageResponse::FileRefused { message }),
                }
                return;
            }
            StorageRequest::Place { ticket, .. } => (*ticket, true),
            StorageRequest::Grid { ticket, .. }
            | StorageRequest::Durability { ticket, .. }
            | StorageRequest::Availability { ticket, .. } => (*ticket, false),
        };
        let failed = |message: String| {
            let failure = Failure::new(ticket, message);
            send(
                ctx,
                if place {
                    StorageResponse::PlaceFailed(failure)
                } else {
                    StorageResponse::Failed(failure)
                },
            )
        };
        let Some(last) = self.last.as_ref() else {
            failed("Classify the tenants first.".into());
            return;
        };
        let Some((name, text)) = self.reimages.as_ref() else {
            failed("Load a reimages file.".into());
            return;
        };
        let history = match read_against(name, text, tenants.as_deref()) {
            Ok(h) => h,
            Err(message) => {
                failed(message);
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
        let mut progress = ctx.progress(ticket, |p| {
            HarvestResponse::Storage(Box::new(StorageResponse::Progress(p)))
        });
        let (answer, millis) = timed(|| match request {
            StorageRequest::Grid { settings, .. } => {
                grid_view(&inputs, ticket, &settings).map(|v| StorageResponse::Grid(Box::new(v)))
            }
            StorageRequest::Place {
                writer,
                policy,
                settings,
                ..
            } => place_view(&inputs, ticket, &writer, policy, &settings)
                .map(|v| StorageResponse::Placed(Box::new(v))),
            StorageRequest::Durability { settings, .. } => {
                durability_view(&inputs, ticket, &settings, &mut progress)
                    .map(|v| StorageResponse::Durability(Box::new(v)))
            }
            StorageRequest::Availability { settings, .. } => {
                availability_view(&inputs, ticket, &settings, &mut progress)
                    .map(|v| StorageResponse::Availability(Box::new(v)))
            }
            StorageRequest::ImportReimages { .. } => Err("not a computation".into()),
        });
        match answer {
            Ok(mut r) => {
                match &mut r {
                    StorageResponse::Grid(v) => v.millis = millis,
                    StorageResponse::Durability(v) => v.millis = millis,
                    StorageResponse::Availability(v) => v.millis = millis,
                    _ => {}
                }
                send(ctx, r);
            }
            Err(message) => failed(message),
        }
    }
}
