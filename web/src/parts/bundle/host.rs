//! The workspace bundle in the worker. Saving gathers what IndexedDB keeps
//! — the files with their bytes (a demo file from the copy embedded here,
//! a user's from its `Blob`), the SLO decisions and every panel's record
//! mapped to the engine's panel states ([`PanelRecord`]) — and compresses
//! it with `skyplan_engine::bundle::encode`. Opening decodes a bundle,
//! imports each of its trace files as a check, then replaces the saved
//! workspace in one IndexedDB transaction ([`Store::replace`]): a bundle
//! refused at any step leaves everything as it was. The plan report is
//! rendered from the same gathered bundle (`skyplan_report`), so it shows
//! what a saved bundle would. After a bundle is
//! opened this worker answers nothing more: the page reloads, and the
//! fresh worker restores every panel from the records, as on any reload.

use super::protocol::{BundleRequest, BundleResponse};
use super::views::contents;
use crate::demo::DEMO_FILES;
use crate::parts::agenda::host::SavedAgenda;
use crate::parts::forecast::saved::SavedForecast;
use crate::parts::harvest::files::SavedHarvest;
use crate::parts::pricing::host::SavedPricing;
use crate::parts::runway::saved::SavedRunway;
use crate::parts::shaping::saved::SavedShaping;
use crate::parts::traces::host::import_options;
use crate::parts::tuning::saved::SavedTuning;
use crate::protocol::{js_error_text, now_ms};
use crate::store::{blob_bytes, kept_records, PanelRecord, Store, StoredFile};
use crate::toolkit::host::{Ctx, PartHost};
use crate::toolkit::protocol::Failure;
use js_sys::{Array, Uint8Array};
use skyplan_engine::bundle::{decode, encode, Bundle, BundleFile};
use skyplan_report::{render_with_progress, Progress, ReportOptions};
use wasm_bindgen::JsValue;
use web_sys::Blob;

/// The `meta` key of what the last bundle opened brought, told once by the
/// next worker to start (the page reloads after an open).
const OPENED: &str = "opened";

/// Why there is nothing to save or open into without IndexedDB.
const NO_STORE: &str = "this browser keeps no workspace here (no IndexedDB)";

/// The bundle part's worker state.
#[derive(Default)]
pub struct BundleHost {
    /// A bundle replaced the saved workspace: the page reloads, and this
    /// worker, whose parts still hold the old one, must not write it back.
    opened: bool,
}

impl PartHost for BundleHost {
    type Request = BundleRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: BundleRequest) {
        let t0 = now_ms();
        match request {
            BundleRequest::Save { ticket } => {
                let saved = match gather(ctx.store).await {
                    Ok(bundle) => encode(&bundle)
                        .map(|bytes| (bytes, contents(&bundle)))
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e),
                };
                ctx.send(match saved {
                    Ok((bytes, contents)) => BundleResponse::Saved {
                        ticket,
                        bytes,
                        contents,
                        millis: now_ms() - t0,
                    },
                    Err(why) => BundleResponse::Failed(Failure::new(
                        ticket,
                        format!("The workspace could not be saved: {why}."),
                    )),
                });
            }
            BundleRequest::Report { ticket, now_secs } => {
                let report = match gather(ctx.store).await {
                    Ok(bundle) => {
                        let options = ReportOptions {
                            title: None,
                            source: Some("the studio's saved workspace".into()),
                            generated_at: Some(now_secs),
                        };
                        // One message a stage or a whole percent of one:
                        // a message per application would flood the page.
                        let mut last = (None, usize::MAX);
                        let mut progress = |p: Progress| {
                            let pct = (p.done * 100).checked_div(p.total).unwrap_or(0);
                            if last != (Some(p.stage), pct) {
                                last = (Some(p.stage), pct);
                                ctx.send(BundleResponse::Progress {
                                    ticket,
                                    stage: stage_text(&p),
                                });
                            }
                        };
                        render_with_progress(&bundle, &options, &mut progress)
                            .map_err(|e| e.to_string())
                    }
                    Err(e) => Err(e),
                };
                ctx.send(match report {
                    Ok(r) => BundleResponse::Report {
                        ticket,
                        sections: r
                            .sections
                            .iter()
                            .map(|s| (s.title.to_string(), s.present))
                            .collect(),
                        html: r.html,
                        millis: now_ms() - t0,
                    },
                    Err(why) => BundleResponse::Failed(Failure::new(
                        ticket,
                        format!("The report could not be made: {why}."),
                    )),
                });
            }
            BundleRequest::Open { ticket, name } => {
                let file = ctx.file.take();
                match open(ctx.store, &name, file).await {
                    Ok(message) => {
                        self.opened = true;
                        ctx.send(BundleResponse::Opened {
                            ticket,
                            message,
                            millis: now_ms() - t0,
                        });
                    }
                    Err(why) => ctx.send(BundleResponse::Failed(Failure::new(ticket, why))),
                }
            }
        }
    }
}

impl BundleHost {
    /// Whether a bundle replaced the saved workspace in this worker's
    /// session (it then answers nothing more).
    pub fn opened(&self) -> bool {
        self.opened
    }

    /// Tells, once, what the bundle opened before this start brought.
    pub async fn announce(ctx: &Ctx<'_>) {
        let Some(store) = ctx.store else {
            return;
        };
        if let Ok(Some(message)) = store.get_meta(OPENED).await.map(|v| v.as_string()) {
            ctx.notice(message);
            if let Err(e) = store.delete_meta(OPENED).await {
                ctx.notice(format!("Could not update the saved workspace: {e}"));
            }
        }
    }
}

/// A report's progress in words: the stage, and how far when counted.
fn stage_text(p: &Progress) -> String {
    if p.total > 0 {
        format!("{}: {} of {}", p.stage.label(), p.done, p.total)
    } else {
        p.stage.label().to_string()
    }
}

/// Everything saved, as a bundle (the Runway panel plans on it too).
pub(crate) async fn gather(store: Option<&Store>) -> Result<Bundle, String> {
    let store = store.ok_or(NO_STORE)?;
    let saved = store.load().await.map_err(|e| e.to_string())?;
    let mut files = Vec::with_capacity(saved.records.len());
    for record in saved.records {
        files.push(match record.file {
            StoredFile::Demo { name } => {
                let Some((_, text)) = DEMO_FILES.into_iter().find(|(n, _)| *n == name) else {
                    // Not a demo file of this build: it is not loaded either.
                    continue;
                };
                BundleFile {
                    name,
                    format: None,
                    lenient: false,
                    bytes: text.as_bytes().to_vec(),
                    kept: None,
                }
            }
            StoredFile::Upload {
                name,
                format,
                lenient,
                blob,
            } => BundleFile {
                bytes: blob_bytes(&blob).map_err(|e| format!("{name} could not be read: {e}"))?,
                name,
                format,
                lenient,
                kept: None,
            },
            StoredFile::Kept {
                name,
                lenient,
                records,
            } => {
                let file = kept_records(&records)
                    .map_err(|e| format!("the records kept of {name} could not be read: {e}"))?;
                BundleFile::of_records(&file, lenient)
            }
        });
    }
    let decisions = store.load_decisions().await.map_err(|e| e.to_string())?;
    Ok(Bundle {
        files,
        decisions: decisions.decisions,
        agenda: state::<SavedAgenda>(store).await?,
        pricing: state::<SavedPricing>(store).await?,
        harvest: state::<SavedHarvest>(store).await?,
        shaping: state::<SavedShaping>(store).await?,
        tuning: state::<SavedTuning>(store).await?,
        forecast: state::<SavedForecast>(store).await?,
        runway: state::<SavedRunway>(store).await?,
    })
}

/// The panel state record `R` holds, if there is one.
async fn state<R: PanelRecord>(store: &Store) -> Result<Option<R::State>, String> {
    Ok(store.read_record::<R>().await?.map(R::into_state))
}

/// Opens the bundle `file` named `name` in place of the saved workspace;
/// what it brought, in words, or why not (the workspace then unchanged).
async fn open(store: Option<&Store>, name: &str, file: Option<Blob>) -> Result<String, String> {
    let unchanged = |why: String| format!("{why}. The workspace is unchanged.");
    let blob =
        file.ok_or_else(|| unchanged(format!("{name}: no file arrived with the request")))?;
    let bytes =
        blob_bytes(&blob).map_err(|e| unchanged(format!("{name} could not be read: {e}")))?;
    let bundle = decode(name, &bytes).map_err(|e| unchanged(e.to_string()))?;
    // A trace file that does not load would be dropped on restore: refuse
    // the bundle instead, before anything changes.
    for f in &bundle.files {
        if let Err(e) = f.load(import_options(f.format, f.lenient)) {
            return Err(unchanged(format!("{name}: its file {e}")));
        }
    }
    let store = store.ok_or_else(|| unchanged(format!("{name} cannot be opened: {NO_STORE}")))?;
    let message = format!("Opened {name}: {}.", contents(&bundle));
    let files = bundle
        .files
        .iter()
        .map(stored)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| unchanged(format!("{name}: {e}")))?;
    let meta = [
        record::<SavedAgenda>(bundle.agenda),
        record::<SavedPricing>(bundle.pricing),
        record::<SavedHarvest>(bundle.harvest),
        record::<SavedShaping>(bundle.shaping),
        record::<SavedTuning>(bundle.tuning),
        record::<SavedForecast>(bundle.forecast),
        record::<SavedRunway>(bundle.runway),
        Ok((OPENED, Some(JsValue::from_str(&message)))),
    ]
    .into_iter()
    .collect::<Result<Vec<_>, _>>()
    .map_err(|e| unchanged(format!("{name}: {e}")))?;
    store
        .replace(&files, &bundle.decisions, &meta)
        .await
        .map_err(|e| unchanged(format!("{name} could not be saved in this browser: {e}")))?;
    Ok(message)
}

/// The `meta` record of a panel state (`None`: the record is deleted).
fn record<R: PanelRecord>(
    state: Option<R::State>,
) -> Result<(&'static str, Option<JsValue>), String> {
    let value = state
        .map(|s| serde_wasm_bindgen::to_value(&R::of_state(s)))
        .transpose()
        .map_err(|e| format!("the {} could not be stored: {e}", R::WHAT))?;
    Ok((R::KEY, value))
}

/// A bundle's file as the `files` store keeps it: a demo file of this
/// build (the same bytes) as a reference to the embedded copy, a large
/// import as its records, anything else as a `Blob` of its bytes.
fn stored(f: &BundleFile) -> Result<StoredFile, String> {
    if let Some(kept) = &f.kept {
        return StoredFile::kept(kept, f.lenient)
            .map_err(|e| format!("{} could not be kept: {e}", f.name));
    }
    let demo = DEMO_FILES
        .iter()
        .any(|(n, text)| *n == f.name && text.as_bytes() == f.bytes.as_slice());
    if demo && f.format.is_none() && !f.lenient {
        return Ok(StoredFile::Demo {
            name: f.name.clone(),
        });
    }
    let parts = Array::of1(&Uint8Array::from(f.bytes.as_slice()));
    let blob = Blob::new_with_u8_array_sequence(&parts)
        .map_err(|e| format!("{} could not be kept: {}", f.name, js_error_text(&e)))?;
    Ok(StoredFile::Upload {
        name: f.name.clone(),
        format: f.format,
        lenient: f.lenient,
        blob,
    })
}
