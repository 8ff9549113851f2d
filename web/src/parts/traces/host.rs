//! The Traces part in the worker: streams files into the engine chunk by
//! chunk from `Blob.stream()` (never holding a file whole: a 10 GB trace
//! passes through a few megabytes of wasm memory), loads the embedded demo
//! files, restores saved files on start, and keeps IndexedDB in step with
//! what is loaded — a large import as its records, not its bytes.
//!
//! A file is saved only once its import succeeded, so an import cancelled
//! (the worker restarted) leaves the saved workspace, and so the restored
//! one, as it was.

use super::protocol::{TracesRequest, TracesResponse};
use super::views::{job_chart, series_chart, workspace_view};
use crate::demo::DEMO_FILES;
use crate::protocol::{js_error_text, now_ms};
use crate::store::{kept_records, Record, StoredFile};
use crate::toolkit::host::{Ctx, PartHost};
use js_sys::{Reflect, Uint8Array};
use skyplan_engine::bundle::keeps_records;
use skyplan_engine::{Format, ImportError, ImportOptions, Importer, LoadedFile, ParseError};
use std::collections::HashMap;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableStreamDefaultReader};

/// Bytes read between two progress reports.
pub const SLICE_BYTES: u64 = 4 << 20;

/// Bad lines listed per file; the rest are counted.
pub const MAX_REPORTED_ERRORS: usize = 100;

/// Why a file was not loaded, as the page shows it.
struct Failure {
    message: String,
    errors: Vec<ParseError>,
    total: u64,
}

impl From<ImportError> for Failure {
    fn from(e: ImportError) -> Self {
        match e {
            // The lines themselves are listed; say what they add up to.
            ImportError::Malformed {
                format,
                errors,
                total,
                ..
            } => Failure {
                message: format!(
                    "{total} bad line(s) when read as {}; nothing was loaded.",
                    format.label()
                ),
                errors,
                total,
            },
            // The page names the file already: drop the engine's `file: ` prefix.
            ImportError::UnknownFormat { ref file, .. }
            | ImportError::Empty { ref file, .. }
            | ImportError::Compressed { ref file, .. } => {
                let text = e.to_string();
                let message = text.strip_prefix(&format!("{file}: ")).unwrap_or(&text);
                Failure::plain(message.to_owned())
            }
        }
    }
}

impl Failure {
    fn plain(message: String) -> Self {
        Failure {
            message,
            errors: Vec::new(),
            total: 0,
        }
    }
}

/// Sends a Traces answer.
fn send(ctx: &Ctx<'_>, response: TracesResponse) {
    ctx.send(response);
}

/// What a request does that the other parts follow: the demo brings their
/// content too, and "Clear" empties everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// Nothing the other parts follow.
    Nothing,
    /// The demo files are (re)loaded.
    Demo,
    /// Every file is removed.
    Cleared,
}

impl After {
    /// What the other parts follow after `request`.
    pub fn of(request: &TracesRequest) -> After {
        match request {
            TracesRequest::LoadDemo => After::Demo,
            TracesRequest::Clear => After::Cleared,
            _ => After::Nothing,
        }
    }
}

/// The Traces part's worker state: which loaded file is saved under which
/// record, and which demo files are loaded.
#[derive(Default)]
pub struct TracesHost {
    /// Record key of each saved workspace file, by workspace id.
    saved: HashMap<u32, f64>,
    /// Workspace id of each loaded demo file, by name.
    demo: HashMap<&'static str, u32>,
}

impl TracesHost {
    /// Nothing loaded yet.
    pub fn new() -> TracesHost {
        TracesHost::default()
    }

    /// Posts the workspace as it is now.
    pub fn post_summary(&self, ctx: &Ctx<'_>) {
        send(
            ctx,
            TracesResponse::Summary(workspace_view(ctx.workspace())),
        );
    }
}

impl PartHost for TracesHost {
    type Request = TracesRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: TracesRequest) {
        match request {
            TracesRequest::LoadDemo => {
                self.load_demo(ctx).await;
                self.post_summary(ctx);
            }
            TracesRequest::Import {
                ticket,
                name,
                format,
                lenient,
            } => {
                let file = ctx.file.take();
                self.import(ctx, ticket, name, format, lenient, file).await;
            }
            TracesRequest::Remove { id } => {
                if ctx.workspace.remove(id).is_some() {
                    self.demo.retain(|_, loaded| *loaded != id);
                    if let Some(key) = self.saved.remove(&id) {
                        self.forget(ctx, key).await;
                    }
                }
                self.post_summary(ctx);
            }
            TracesRequest::Clear => {
                ctx.workspace.clear();
                self.saved.clear();
                self.demo.clear();
                if let Some(store) = ctx.store {
                    if let Err(e) = store.clear().await {
                        ctx.notice(format!("Could not clear the saved workspace: {e}"));
                    }
                }
                self.post_summary(ctx);
            }
            TracesRequest::Summary => self.post_summary(ctx),
            TracesRequest::JobSkylines { job } => {
                send(
                    ctx,
                    TracesResponse::JobSkylines(job_chart(ctx.workspace(), &job)),
                );
            }
            TracesRequest::Series { index } => match series_chart(ctx.workspace(), index) {
                Some(chart) => send(ctx, TracesResponse::Series(chart)),
                None => ctx.notice(format!("There is no series #{index} any more.")),
            },
        }
    }
}

impl TracesHost {
    /// Saves a loaded file and remembers its record.
    async fn save(&mut self, ctx: &Ctx<'_>, id: u32, file: StoredFile) {
        let Some(store) = ctx.store else {
            return;
        };
        match store.add(&file).await {
            Ok(key) => {
                self.saved.insert(id, key);
            }
            Err(e) => {
                let name = ctx.workspace.file(id).map_or("", |f| f.name.as_str());
                ctx.notice(format!(
                    "{name} is loaded but could not be saved for the next visit: {e}"
                ));
            }
        }
    }

    /// Imports the user's file (streamed from its `Blob`) and saves it.
    async fn import(
        &mut self,
        ctx: &mut Ctx<'_>,
        ticket: u32,
        name: String,
        format: Option<Format>,
        lenient: bool,
        file: Option<Blob>,
    ) {
        let Some(blob) = file else {
            let message = format!("{name}: no file arrived with the request");
            fail(ctx, ticket, name, Failure::plain(message));
            return;
        };
        match read_blob(ctx, Some(ticket), &name, format, lenient, &blob).await {
            Ok(loaded) => {
                let (warnings, skipped, read_as) =
                    (loaded.warnings.clone(), loaded.skipped_lines, loaded.format);
                // A large import is saved as its records, not its bytes.
                let stored = if keeps_records(&loaded) {
                    StoredFile::kept(&loaded, lenient)
                } else {
                    Ok(StoredFile::Upload {
                        name: name.clone(),
                        format: Some(read_as),
                        lenient,
                        blob,
                    })
                };
                let id = ctx.workspace.add(loaded);
                match stored {
                    Ok(stored) => self.save(ctx, id, stored).await,
                    Err(e) => ctx.notice(format!(
                        "{name} is loaded but could not be saved for the next visit: {e}"
                    )),
                }
                if let Some(file) = ctx.workspace.file(id) {
                    send(
                        ctx,
                        TracesResponse::Imported {
                            ticket,
                            file: file.summary(),
                            warnings,
                            skipped,
                        },
                    );
                }
                self.post_summary(ctx);
            }
            Err(failure) => fail(ctx, ticket, name, failure),
        }
    }

    /// Re-imports a saved file on start; one that no longer loads is
    /// reported and dropped from storage.
    pub async fn restore(&mut self, ctx: &mut Ctx<'_>, record: Record) {
        match record.file {
            StoredFile::Demo { name } => match self.import_demo(ctx, &name) {
                Some(Ok(id)) => {
                    self.saved.insert(id, record.key);
                }
                Some(Err(f)) => {
                    fail(ctx, 0, name, f);
                    self.forget(ctx, record.key).await;
                }
                None => self.forget(ctx, record.key).await,
            },
            StoredFile::Upload {
                name,
                format,
                lenient,
                blob,
            } => match read_blob(ctx, None, &name, format, lenient, &blob).await {
                Ok(loaded) => {
                    let id = ctx.workspace.add(loaded);
                    self.saved.insert(id, record.key);
                }
                Err(mut f) => {
                    f.message = format!("saved file could not be restored: {}", f.message);
                    fail(ctx, 0, name, f);
                    self.forget(ctx, record.key).await;
                }
            },
            StoredFile::Kept { name, records, .. } => match kept_records(&records) {
                Ok(loaded) => {
                    let id = ctx.workspace.add(loaded);
                    self.saved.insert(id, record.key);
                }
                Err(e) => {
                    let message = format!("its saved records could not be restored: {e}");
                    fail(ctx, 0, name, Failure::plain(message));
                    self.forget(ctx, record.key).await;
                }
            },
        }
    }

    /// Adds the demo files that are not loaded yet, saving each.
    pub async fn load_demo(&mut self, ctx: &mut Ctx<'_>) {
        for (name, _) in DEMO_FILES {
            if self.demo.contains_key(name) {
                continue;
            }
            match self.import_demo(ctx, name) {
                Some(Ok(id)) => {
                    let stored = StoredFile::Demo {
                        name: name.to_owned(),
                    };
                    self.save(ctx, id, stored).await;
                }
                Some(Err(f)) => fail(ctx, 0, name.to_owned(), f),
                None => {}
            }
        }
    }

    /// Deletes a saved record, reporting failure.
    pub async fn forget(&self, ctx: &Ctx<'_>, key: f64) {
        if let Some(store) = ctx.store {
            if let Err(e) = store.delete(key).await {
                ctx.notice(format!("Could not update the saved workspace: {e}"));
            }
        }
    }

    /// Imports the embedded demo file `name` (`None` if there is none).
    fn import_demo(&mut self, ctx: &mut Ctx<'_>, name: &str) -> Option<Result<u32, Failure>> {
        let (name, text) = DEMO_FILES.into_iter().find(|(n, _)| *n == name)?;
        let mut importer = Importer::new(name, import_options(None, false));
        importer.push(text.as_bytes());
        Some(importer.finish().map_err(Failure::from).map(|loaded| {
            let id = ctx.workspace.add(loaded);
            self.demo.insert(name, id);
            id
        }))
    }
}

fn fail(ctx: &Ctx<'_>, ticket: u32, name: String, failure: Failure) {
    send(
        ctx,
        TracesResponse::ImportFailed {
            ticket,
            name,
            message: failure.message,
            errors: failure.errors,
            total: failure.total,
        },
    );
}

/// Streams a `Blob` into the engine chunk by chunk from `Blob.stream()`,
/// reporting progress every [`SLICE_BYTES`] when there is a `ticket` (with
/// the time taken so far, for the page's estimate of the time left). Only
/// the chunk being read is in wasm memory.
async fn read_blob(
    ctx: &Ctx<'_>,
    ticket: Option<u32>,
    name: &str,
    format: Option<Format>,
    lenient: bool,
    blob: &Blob,
) -> Result<LoadedFile, Failure> {
    let unreadable = |e: wasm_bindgen::JsValue| {
        Failure::plain(format!(
            "{name}: could not read the file ({})",
            js_error_text(&e)
        ))
    };
    let reader: ReadableStreamDefaultReader = blob
        .stream()
        .get_reader()
        .dyn_into()
        .map_err(|o: js_sys::Object| unreadable(o.into()))?;
    let total = blob.size().max(0.0) as u64;
    let mut importer = Importer::new(name, import_options(format, lenient));
    let (t0, mut done, mut reported) = (now_ms(), 0u64, 0u64);
    let mut chunk = Vec::new();
    loop {
        let next = JsFuture::from(reader.read()).await.map_err(unreadable)?;
        let finished = Reflect::get(&next, &"done".into()).map_err(unreadable)?;
        if finished.is_truthy() {
            break;
        }
        let bytes = Uint8Array::new(&Reflect::get(&next, &"value".into()).map_err(unreadable)?);
        chunk.resize(bytes.length() as usize, 0);
        bytes.copy_to(&mut chunk);
        importer.push(&chunk);
        done += chunk.len() as u64;
        if let Some(ticket) = ticket {
            if done - reported >= SLICE_BYTES || done == total {
                reported = done;
                send(
                    ctx,
                    TracesResponse::Progress {
                        ticket,
                        name: name.to_owned(),
                        done_bytes: done,
                        total_bytes: total,
                        elapsed_ms: now_ms() - t0,
                    },
                );
            }
        }
    }
    importer.finish().map_err(Failure::from)
}

/// Import settings: the engine's defaults with the page's choices (a
/// workspace bundle's files are checked with the same).
pub fn import_options(format: Option<Format>, lenient: bool) -> ImportOptions {
    ImportOptions {
        format,
        lenient,
        max_reported_errors: MAX_REPORTED_ERRORS,
        ..ImportOptions::default()
    }
}
