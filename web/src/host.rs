//! The worker's side of the boundary: it owns the engine's [`Workspace`],
//! answers [`Request`]s one at a time, streams files into the engine slice by
//! slice, and keeps IndexedDB in step with what is loaded and decided.

use crate::protocol::{js_error_text, ExportFormat, Request, Response};
use crate::store::{Record, Store, StoredFile};
use crate::views::{fit_view, job_chart, series_chart, slo_table, workspace_view};
use js_sys::Uint8Array;
use skyplan_engine::export::decisions_csv;
use skyplan_engine::slo::SloDecision;
use skyplan_engine::{
    Format, ImportError, ImportOptions, Importer, LoadedFile, ParseError, Workspace,
};
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;
use web_sys::{Blob, FileReaderSync, IdbFactory};

/// Bytes read from a file per slice (and per progress report).
pub const SLICE_BYTES: u64 = 4 << 20;

/// Bad lines listed per file; the rest are counted.
pub const MAX_REPORTED_ERRORS: usize = 100;

/// The built-in demo workspace: file name and content.
pub const DEMO_FILES: [(&str, &str); 3] = [
    (
        "demo/runs.csv",
        include_str!("../../fixtures/demo/runs.csv"),
    ),
    (
        "demo/utilization.csv",
        include_str!("../../fixtures/demo/utilization.csv"),
    ),
    (
        "demo/history.csv",
        include_str!("../../fixtures/demo/history.csv"),
    ),
];

/// Where responses go (the worker posts them to the page).
pub type Outbox = Rc<dyn Fn(&Response)>;

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
            ImportError::UnknownFormat { ref file, .. } | ImportError::Empty { ref file, .. } => {
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

/// The engine host: workspace, storage and the page's outbox.
pub struct Host {
    workspace: Workspace,
    store: Option<Store>,
    /// Record key of each saved workspace file, by workspace id.
    saved: HashMap<u32, f64>,
    /// Workspace id of each loaded demo file, by name.
    demo: HashMap<&'static str, u32>,
    outbox: Outbox,
    /// The Agenda panel's plan.
    agenda: crate::agenda_host::AgendaHost,
    /// The Pricing panel's estimators and queue.
    pricing: crate::pricing_host::PricingHost,
}

impl Host {
    /// A host with an empty workspace and no storage yet.
    pub fn new(outbox: Outbox) -> Host {
        Host {
            workspace: Workspace::new(),
            store: None,
            saved: HashMap::new(),
            demo: HashMap::new(),
            outbox,
            agenda: crate::agenda_host::AgendaHost::new(),
            pricing: crate::pricing_host::PricingHost::new(),
        }
    }

    fn post(&self, response: Response) {
        (self.outbox)(&response);
    }

    fn notice(&self, message: String) {
        self.post(Response::Notice { message });
    }

    /// What to say while an older skyplan page holds the database open.
    fn blocked_notice(&self) -> impl Fn() + 'static {
        let outbox = Rc::clone(&self.outbox);
        move || {
            outbox(&Response::Notice {
                message: "Saved data is being upgraded for this version: close or reload the other skyplan tabs to continue.".into(),
            })
        }
    }

    /// Opens storage, restores the saved files in order (or loads the demo
    /// workspace on a first visit) and the saved SLO decisions, then posts
    /// [`Response::Ready`] and the first [`Response::Summary`]. Storage
    /// problems are reported as notices and the session goes on without
    /// persistence.
    pub async fn start(&mut self, factory: Option<IdbFactory>) {
        let store = match factory {
            Some(factory) => match Store::open(&factory, self.blocked_notice()).await {
                Ok(store) => Some(store),
                Err(e) => {
                    self.notice(format!(
                        "Saved workspace unavailable ({e}); changes will not survive a reload."
                    ));
                    None
                }
            },
            None => {
                self.notice(
                    "This browser offers no IndexedDB here; changes will not survive a reload."
                        .into(),
                );
                None
            }
        };
        let saved = match &store {
            Some(store) => match store.load().await {
                Ok(saved) => Some(saved),
                Err(e) => {
                    self.notice(format!("Could not read the saved workspace: {e}"));
                    None
                }
            },
            None => None,
        };
        self.store = store;
        match saved {
            Some(saved) => {
                for (key, why) in saved.unreadable {
                    self.notice(format!("A saved file was dropped: {why}."));
                    self.forget(key).await;
                }
                let first_visit = !saved.seeded && saved.records.is_empty();
                for record in saved.records {
                    self.restore(record).await;
                }
                if first_visit {
                    self.load_demo().await;
                }
                if !saved.seeded {
                    if let Some(Err(e)) = self.with_store(|s| s.mark_seeded()).await {
                        self.notice(format!("Could not save the workspace state: {e}"));
                    }
                }
            }
            None => self.load_demo().await,
        }
        self.restore_decisions().await;
        self.post(Response::Ready);
        self.post_summary();
    }

    /// Answers one request.
    pub async fn handle(&mut self, request: Request, file: Option<Blob>) {
        match request {
            Request::LoadDemo => {
                self.load_demo().await;
                self.post_summary();
            }
            Request::Import {
                ticket,
                name,
                format,
                lenient,
            } => self.import(ticket, name, format, lenient, file).await,
            Request::Remove { id } => {
                if self.workspace.remove(id).is_some() {
                    self.demo.retain(|_, loaded| *loaded != id);
                    if let Some(key) = self.saved.remove(&id) {
                        self.forget(key).await;
                    }
                }
                self.post_summary();
            }
            Request::Clear => {
                self.workspace.clear();
                self.saved.clear();
                self.demo.clear();
                if let Some(Err(e)) = self.with_store(|s| s.clear()).await {
                    self.notice(format!("Could not clear the saved workspace: {e}"));
                }
                self.post_summary();
            }
            Request::Summary => self.post_summary(),
            Request::JobSkylines { job } => {
                self.post(Response::JobSkylines(job_chart(&self.workspace, &job)));
            }
            Request::Series { index } => match series_chart(&self.workspace, index) {
                Some(chart) => self.post(Response::Series(chart)),
                None => self.notice(format!("There is no series #{index} any more.")),
            },
            Request::Slos { params } => self.post(match slo_table(&self.workspace, &params) {
                Ok(table) => Response::Slos(table),
                Err(e) => Response::SlosFailed {
                    message: e.to_string(),
                },
            }),
            Request::FitSkyline {
                ticket,
                job,
                params,
            } => self.post(match fit_view(&self.workspace, ticket, &job, &params) {
                Ok(view) => Response::Fit(Box::new(view)),
                Err(message) => Response::FitFailed {
                    ticket,
                    job,
                    message,
                },
            }),
            Request::Decide { decision } => self.decide(decision).await,
            Request::Undecide { job } => {
                if self.workspace.undecide(&job).is_some() {
                    if let Some(Err(e)) = self.with_store(|s| s.delete_decision(&job)).await {
                        self.notice(format!(
                            "The decision on {job} was withdrawn but is still saved: {e}"
                        ));
                    }
                }
                self.post_decisions();
            }
            Request::Decisions => self.post_decisions(),
            Request::ExportDecisions { format } => self.export_decisions(format),
            Request::Agenda(request) => {
                let (workspace, store) = (&self.workspace, self.store.as_ref());
                let post = |r: &Response| (self.outbox)(r);
                self.agenda.handle(request, workspace, store, &post).await;
            }
            Request::Pricing(request) => {
                let (workspace, store) = (&self.workspace, self.store.as_ref());
                let post = |r: &Response| (self.outbox)(r);
                self.pricing.handle(request, workspace, store, &post).await;
            }
        }
    }

    /// Records a decision the engine accepts, saves it, and posts the
    /// decisions; a refused one is answered with the engine's reason.
    async fn decide(&mut self, decision: SloDecision) {
        let job = decision.job.clone();
        if let Err(e) = self.workspace.decide(decision.clone()) {
            self.post(Response::DecisionFailed {
                job,
                message: e.to_string(),
            });
            return;
        }
        if let Some(Err(e)) = self.with_store(|s| s.put_decision(&decision)).await {
            self.notice(format!(
                "The decision on {job} holds for this session but could not be saved: {e}"
            ));
        }
        self.post_decisions();
    }

    fn decision_list(&self) -> Vec<SloDecision> {
        self.workspace.decisions().cloned().collect()
    }

    fn post_decisions(&self) {
        self.post(Response::Decisions {
            decisions: self.decision_list(),
        });
    }

    fn export_decisions(&self, format: ExportFormat) {
        let decisions = self.decision_list();
        let text = match format {
            ExportFormat::Csv => Ok(decisions_csv(&decisions)),
            ExportFormat::Json => serde_json::to_string_pretty(&decisions).map(|mut t| {
                t.push('\n');
                t
            }),
        };
        match text {
            Ok(text) => self.post(Response::Exported { format, text }),
            Err(e) => self.notice(format!("The decisions could not be exported: {e}")),
        }
    }

    /// Puts the saved decisions back into the workspace, whether or not their
    /// jobs are loaded; one the engine no longer accepts is reported and
    /// dropped from storage.
    async fn restore_decisions(&mut self) {
        let saved = match self.with_store(|s| s.load_decisions()).await {
            Some(Ok(saved)) => saved,
            Some(Err(e)) => {
                self.notice(format!("Could not read the saved SLO decisions: {e}"));
                return;
            }
            None => return,
        };
        for (job, why) in saved.unreadable {
            self.notice(format!("A saved decision on {job} was dropped: {why}."));
            self.forget_decision(&job).await;
        }
        for decision in saved.decisions {
            let job = decision.job.clone();
            if let Err(e) = self.workspace.decide(decision) {
                self.notice(format!("A saved decision was dropped: {e}."));
                self.forget_decision(&job).await;
            }
        }
    }

    async fn forget_decision(&self, job: &str) {
        if let Some(Err(e)) = self.with_store(|s| s.delete_decision(job)).await {
            self.notice(format!("Could not update the saved decisions: {e}"));
        }
    }

    fn post_summary(&self) {
        self.post(Response::Summary(workspace_view(&self.workspace)));
    }

    async fn with_store<'a, T, F>(&'a self, op: impl FnOnce(&'a Store) -> F) -> Option<T>
    where
        F: std::future::Future<Output = T> + 'a,
    {
        match &self.store {
            Some(store) => Some(op(store).await),
            None => None,
        }
    }

    /// Saves a loaded file and remembers its record.
    async fn save(&mut self, id: u32, file: StoredFile) {
        match self.with_store(|s| s.add(&file)).await {
            Some(Ok(key)) => {
                self.saved.insert(id, key);
            }
            Some(Err(e)) => {
                let name = self.workspace.file(id).map_or("", |f| f.name.as_str());
                self.notice(format!(
                    "{name} is loaded but could not be saved for the next visit: {e}"
                ));
            }
            None => {}
        }
    }

    /// Deletes a saved record, reporting failure.
    async fn forget(&self, key: f64) {
        if let Some(Err(e)) = self.with_store(|s| s.delete(key)).await {
            self.notice(format!("Could not update the saved workspace: {e}"));
        }
    }

    /// Imports the user's file (streamed from its `Blob`) and saves it.
    async fn import(
        &mut self,
        ticket: u32,
        name: String,
        format: Option<Format>,
        lenient: bool,
        file: Option<Blob>,
    ) {
        let Some(blob) = file else {
            let message = format!("{name}: no file arrived with the request");
            self.fail(ticket, name, Failure::plain(message));
            return;
        };
        match self.read_blob(Some(ticket), &name, format, lenient, &blob) {
            Ok(loaded) => {
                let (warnings, skipped, read_as) =
                    (loaded.warnings.clone(), loaded.skipped_lines, loaded.format);
                let id = self.workspace.add(loaded);
                let stored = StoredFile::Upload {
                    name,
                    format: Some(read_as),
                    lenient,
                    blob,
                };
                self.save(id, stored).await;
                if let Some(file) = self.workspace.file(id) {
                    self.post(Response::Imported {
                        ticket,
                        file: file.summary(),
                        warnings,
                        skipped,
                    });
                }
                self.post_summary();
            }
            Err(failure) => self.fail(ticket, name, failure),
        }
    }

    fn fail(&self, ticket: u32, name: String, failure: Failure) {
        self.post(Response::ImportFailed {
            ticket,
            name,
            message: failure.message,
            errors: failure.errors,
            total: failure.total,
        });
    }

    /// Re-imports a saved file on start; one that no longer loads is
    /// reported and dropped from storage.
    async fn restore(&mut self, record: Record) {
        match record.file {
            StoredFile::Demo { name } => match self.import_demo(&name) {
                Some(Ok(id)) => {
                    self.saved.insert(id, record.key);
                }
                Some(Err(f)) => {
                    self.fail(0, name, f);
                    self.forget(record.key).await;
                }
                None => self.forget(record.key).await,
            },
            StoredFile::Upload {
                name,
                format,
                lenient,
                blob,
            } => match self.read_blob(None, &name, format, lenient, &blob) {
                Ok(loaded) => {
                    let id = self.workspace.add(loaded);
                    self.saved.insert(id, record.key);
                }
                Err(mut f) => {
                    f.message = format!("saved file could not be restored: {}", f.message);
                    self.fail(0, name, f);
                    self.forget(record.key).await;
                }
            },
        }
    }

    /// Adds the demo files that are not loaded yet, saving each.
    async fn load_demo(&mut self) {
        for (name, _) in DEMO_FILES {
            if self.demo.contains_key(name) {
                continue;
            }
            match self.import_demo(name) {
                Some(Ok(id)) => {
                    let stored = StoredFile::Demo {
                        name: name.to_owned(),
                    };
                    self.save(id, stored).await;
                }
                Some(Err(f)) => self.fail(0, name.to_owned(), f),
                None => {}
            }
        }
    }

    /// Imports the embedded demo file `name` (`None` if there is none).
    fn import_demo(&mut self, name: &str) -> Option<Result<u32, Failure>> {
        let (name, text) = DEMO_FILES.into_iter().find(|(n, _)| *n == name)?;
        let mut importer = Importer::new(name, import_options(None, false));
        importer.push(text.as_bytes());
        Some(importer.finish().map_err(Failure::from).map(|loaded| {
            let id = self.workspace.add(loaded);
            self.demo.insert(name, id);
            id
        }))
    }

    /// Streams a `Blob` into the engine in [`SLICE_BYTES`] slices, reporting
    /// progress after each when there is a `ticket`. Only one slice is in
    /// wasm memory at a time.
    fn read_blob(
        &self,
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
        let reader = FileReaderSync::new().map_err(unreadable)?;
        let total = blob.size().max(0.0) as u64;
        let mut importer = Importer::new(name, import_options(format, lenient));
        let mut slice = Vec::new();
        let mut offset = 0;
        while offset < total {
            let end = (offset + SLICE_BYTES).min(total);
            let buffer = blob
                .slice_with_f64_and_f64(offset as f64, end as f64)
                .and_then(|slice| reader.read_as_array_buffer(&slice))
                .map_err(unreadable)?;
            let bytes = Uint8Array::new(&buffer);
            slice.resize(bytes.length() as usize, 0);
            bytes.copy_to(&mut slice);
            importer.push(&slice);
            offset = end;
            if let Some(ticket) = ticket {
                self.post(Response::Progress {
                    ticket,
                    name: name.to_owned(),
                    done_bytes: offset,
                    total_bytes: total,
                });
            }
        }
        importer.finish().map_err(Failure::from)
    }
}

/// Drops from `queue` every [`Request::FitSkyline`] that a later one for
/// the same job supersedes, and every pricing quote or simulation a later
/// one supersedes, so a burst of slider changes or keystrokes costs one fit,
/// quote or simulation. The order of everything else is kept.
pub fn coalesce<T>(queue: &mut VecDeque<(Request, T)>) {
    let mut later: HashSet<String> = HashSet::new();
    let (mut quote_later, mut simulate_later) = (false, false);
    let mut keep: Vec<bool> = queue
        .iter()
        .rev()
        .map(|(request, _)| match request {
            Request::FitSkyline { job, .. } => later.insert(job.clone()),
            Request::Pricing(crate::pricing_protocol::PricingRequest::Quote { .. }) => {
                !std::mem::replace(&mut quote_later, true)
            }
            Request::Pricing(crate::pricing_protocol::PricingRequest::Simulate { .. }) => {
                !std::mem::replace(&mut simulate_later, true)
            }
            _ => true,
        })
        .collect();
    keep.reverse();
    let mut keep = keep.into_iter();
    queue.retain(|_| keep.next().unwrap_or(true));
}

/// Import settings: the engine's defaults with the page's choices.
fn import_options(format: Option<Format>, lenient: bool) -> ImportOptions {
    ImportOptions {
        format,
        lenient,
        max_reported_errors: MAX_REPORTED_ERRORS,
        ..ImportOptions::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::resource_model::ModelParams;

    fn fit(ticket: u32, job: &str) -> Request {
        Request::FitSkyline {
            ticket,
            job: job.to_owned(),
            params: ModelParams::paper(),
        }
    }

    /// What [`coalesce`] leaves of `requests`.
    fn coalesced(requests: Vec<Request>) -> Vec<Request> {
        let mut queue: VecDeque<(Request, ())> = requests.into_iter().map(|r| (r, ())).collect();
        coalesce(&mut queue);
        queue.into_iter().map(|(r, _)| r).collect()
    }

    #[test]
    fn coalesce_keeps_the_latest_fit_per_job_and_everything_else() {
        let left = coalesced(vec![
            fit(1, "a"),
            Request::Summary,
            fit(2, "b"),
            fit(3, "a"),
            Request::Decisions,
            fit(4, "a"),
        ]);
        assert_eq!(
            left,
            vec![
                Request::Summary,
                fit(2, "b"),
                Request::Decisions,
                fit(4, "a")
            ]
        );
    }

    #[test]
    fn coalesce_keeps_the_latest_pricing_quote() {
        use crate::pricing_protocol::{JobSpec, PricingRequest, PricingSettings};
        let quote = |ticket| {
            Request::Pricing(PricingRequest::Quote {
                ticket,
                job: JobSpec {
                    name: "j".into(),
                    features: Default::default(),
                },
                settings: PricingSettings::default(),
                deadline: None,
            })
        };
        let left = coalesced(vec![
            quote(1),
            Request::Pricing(PricingRequest::Clear),
            quote(2),
            fit(3, "a"),
            quote(4),
        ]);
        assert_eq!(
            left,
            vec![
                Request::Pricing(PricingRequest::Clear),
                fit(3, "a"),
                quote(4)
            ]
        );
    }

    #[test]
    fn coalesce_leaves_a_single_request_alone() {
        let mut queue: VecDeque<(Request, ())> = [(fit(9, "a"), ())].into_iter().collect();
        coalesce(&mut queue);
        assert_eq!(queue.len(), 1);
        let mut empty: VecDeque<(Request, ())> = VecDeque::new();
        coalesce(&mut empty);
        assert!(empty.is_empty());
    }
}
