//! The storage half in the worker: its requests, answered from the part's
//! files (the reimages file read against the tenants file) and the spare-
//! cycle half's last classification.

use super::protocol::{StorageRequest, StorageResponse};
use super::views::{availability_view, durability_view, grid_view, place_view, StorageInputs};
use crate::parts::harvest::cycles::views::Classified;
use crate::parts::harvest::files::Files;
use crate::toolkit::host::{timed, Ctx};
use crate::toolkit::protocol::Failure;

/// The storage half's worker state: none of its own.
#[derive(Default)]
pub struct StorageHost;

impl StorageHost {
    /// Answers one request of the storage half.
    pub async fn handle(
        &mut self,
        ctx: &Ctx<'_>,
        files: &mut Files,
        last: Option<&Classified>,
        request: StorageRequest,
    ) {
        let (ticket, place) = match request {
            StorageRequest::ImportReimages { name, text } => {
                // A bad file is refused and the one in use kept.
                files.use_reimages(ctx, name, text).await;
                return;
            }
            StorageRequest::Place { ticket, .. } => (ticket, true),
            StorageRequest::Grid { ticket, .. }
            | StorageRequest::Durability { ticket, .. }
            | StorageRequest::Availability { ticket, .. } => (ticket, false),
        };
        let failed = |message: String| {
            let failure = Failure::new(ticket, message);
            ctx.send(if place {
                StorageResponse::PlaceFailed(failure)
            } else {
                StorageResponse::Failed(failure)
            })
        };
        let Some(last) = last else {
            failed("Classify the tenants first.".into());
            return;
        };
        // The reimages file names the tenants file's servers; the machine
        // tables' failure domains have none.
        if files.machines.is_some() {
            failed("The storage view reads the reimages file against the tenants file, and the Alibaba machine tables (which have no reimages) stand in for it: forget the machine files for the storage view.".into());
            return;
        }
        let (name, history) = match files.reimage_history() {
            None => {
                failed("Load a reimages file.".into());
                return;
            }
            Some(Err(message)) => {
                failed(message);
                return;
            }
            Some(Ok(read)) => read,
        };
        let infos = files.tenant_list().map(<[_]>::to_vec).unwrap_or_default();
        let inputs = StorageInputs {
            infos: &infos,
            reimages: (name, &history),
            set: &last.set,
            peak_percentile: last.settings.peak_percentile,
        };
        let mut progress = ctx.progress(ticket, StorageResponse::Progress);
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
                ctx.send(r);
            }
            Err(message) => failed(message),
        }
    }
}
