//! Persistence of the workspace across reloads, in IndexedDB (the worker's).
//!
//! Database `skyplan`, version 2, three object stores:
//!
//! - `files` (key path `id`, auto-increment, so key order is load order): one
//!   record per loaded file — `{id, name, format, lenient, blob}` for a user's
//!   file, with the `File`/`Blob` itself stored by structured clone (no copy
//!   through wasm memory), or `{id, demo: true, name}` for a demo file, which
//!   is re-read from the copy embedded in the worker, or `{id, kept: true,
//!   name, lenient, records}` for a large import kept as its records (the
//!   JSON of the engine's `LoadedFile`, with the source's name, size and
//!   hash, as a `Blob`), never its gigabytes
//!   (`skyplan_engine::bundle::keeps_records`).
//! - `meta`: the key `seeded` once the demo workspace has been loaded on a
//!   first visit, so clearing it is not undone by a reload; the key `agenda`
//!   holds the Agenda panel's plan ([`crate::parts::agenda::host`]), the key
//!   `pricing` the Pricing panel's queue ([`crate::parts::pricing::host`]), the
//!   key `harvest` the Harvest panel's files ([`crate::parts::harvest::files`]),
//!   the key `shaping` the Shaping panel's files read and latest run
//!   ([`crate::parts::shaping::saved`]), all [`MetaRecord`]s.
//! - `decisions` (key path `job`, since version 2): the user's SLO decisions,
//!   one [`SloDecision`] per recurring job as a plain object (serde), kept
//!   whether or not the job's runs are still loaded.
//!
//! Opening runs `upgradeneeded` from any older version (or none): it creates
//! whichever stores are missing, so a version-1 database keeps its files and
//! gains `decisions`. A connection closes itself when another tab asks for a
//! newer version, so it never blocks that upgrade.
//!
//! IndexedDB reports through events; [`settle`] turns a request's or a
//! transaction's outcome into a `js_sys::Promise` awaited as a
//! `wasm_bindgen_futures::JsFuture`. Every failure comes back as a
//! [`StoreError`] for the UI to show; nothing here panics.

use crate::protocol::js_error_text;
use js_sys::{Array, Function, Object, Promise, Reflect};
use skyplan_engine::slo::SloDecision;
use skyplan_engine::{Format, LoadedFile};
use std::fmt;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    Blob, Event, EventTarget, FileReaderSync, IdbDatabase, IdbFactory, IdbObjectStoreParameters,
    IdbRequest, IdbTransaction, IdbTransactionMode,
};

const DB_NAME: &str = "skyplan";

/// A panel's state saved as one versioned `meta` record (the Agenda
/// panel's plan, the Pricing panel's queue): read back only by a build that
/// writes the same version. It is serialized with its version in a field
/// `version`, which is read before the rest, so a record of another version
/// is recognised even when its shape changed.
pub trait MetaRecord: serde::Serialize + serde::de::DeserializeOwned {
    /// Its key in the `meta` store.
    const KEY: &'static str;
    /// What it is, in the user's words (`agenda`, `pricing queue`).
    const WHAT: &'static str;
    /// The version this build writes and reads.
    const VERSION: u32;
    /// Whether a record of another version is worth a notice: yes for
    /// what the user built by hand (a plan, a queue), which is lost; no
    /// for what the panel redoes by itself (the Shaping panel's default
    /// run), which is then ignored silently.
    const TELL_OTHER_VERSION: bool = true;
    /// The version of a record read back.
    fn version(&self) -> u32;
}

/// A panel's record that holds one panel's state of a workspace bundle
/// (`skyplan_engine::bundle`): read when a bundle is saved, written when one
/// is opened, so the bundle and the panel share one shape.
pub trait PanelRecord: MetaRecord {
    /// The panel's state as the bundle carries it.
    type State;
    /// The record of `state`, at this build's version.
    fn of_state(state: Self::State) -> Self;
    /// The state the record holds.
    fn into_state(self) -> Self::State;
}

/// Declares a panel's record that holds its bundle state in one field
/// beside the record's version — `{ version, <field>: State }`, the shape
/// the agenda and pricing records have always had — with its
/// [`MetaRecord`] and [`PanelRecord`]:
/// `panel_record!(/// doc, SavedX { field: State }, "key", "what", VERSION);`.
macro_rules! panel_record {
    ($(#[$doc:meta])* $name:ident { $field:ident: $state:ty }, $key:expr, $what:expr, $version:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct $name {
            version: u32,
            $field: $state,
        }

        impl $crate::store::MetaRecord for $name {
            const KEY: &'static str = $key;
            const WHAT: &'static str = $what;
            const VERSION: u32 = $version;
            fn version(&self) -> u32 {
                self.version
            }
        }

        impl $crate::store::PanelRecord for $name {
            type State = $state;
            fn of_state($field: $state) -> Self {
                $name {
                    version: $version,
                    $field,
                }
            }
            fn into_state(self) -> $state {
                self.$field
            }
        }
    };
}
pub(crate) use panel_record;

const DB_VERSION: u32 = 2;
const FILES: &str = "files";
const META: &str = "meta";
const DECISIONS: &str = "decisions";
const SEEDED: &str = "seeded";

/// A storage operation that failed, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<JsValue> for StoreError {
    fn from(e: JsValue) -> Self {
        StoreError(js_error_text(&e))
    }
}

/// A file as saved: enough to import it again on the next visit.
#[derive(Clone, Debug)]
pub enum StoredFile {
    /// One of the demo files embedded in the worker.
    Demo {
        /// Its file name (`demo/runs.csv`, …).
        name: String,
    },
    /// A file the user imported.
    Upload {
        /// File name.
        name: String,
        /// The format it was read as.
        format: Option<Format>,
        /// Whether bad lines were skipped.
        lenient: bool,
        /// The file itself.
        blob: Blob,
    },
    /// A large import kept as its records.
    Kept {
        /// File name.
        name: String,
        /// Whether bad lines were skipped.
        lenient: bool,
        /// The records: a `LoadedFile` as JSON.
        records: Blob,
    },
}

impl StoredFile {
    /// A loaded file kept as its records.
    ///
    /// # Errors
    /// When the records cannot be written as JSON or into a `Blob`.
    pub fn kept(file: &LoadedFile, lenient: bool) -> Result<StoredFile, String> {
        // Written out in parts as it is serialized: the JSON of a
        // multi-gigabyte import's records is over a hundred megabytes, and
        // whole in a `Vec` (grown by doubling) it would raise the worker's
        // wasm memory, which never shrinks, by twice that.
        let mut parts = JsParts::default();
        serde_json::to_writer(&mut parts, file).map_err(|e| e.to_string())?;
        parts.part();
        let records =
            Blob::new_with_u8_array_sequence(&parts.parts).map_err(|e| js_error_text(&e))?;
        Ok(StoredFile::Kept {
            name: file.name.clone(),
            lenient,
            records,
        })
    }
}

/// Bytes gathered into JS byte arrays of about [`JsParts::PART`] bytes
/// each, so no more than one part is in wasm memory at a time.
#[derive(Default)]
struct JsParts {
    parts: Array,
    buf: Vec<u8>,
}

impl JsParts {
    /// Bytes per part.
    const PART: usize = 4 << 20;

    /// Moves what is buffered into a new part.
    fn part(&mut self) {
        if !self.buf.is_empty() {
            self.parts
                .push(&js_sys::Uint8Array::from(self.buf.as_slice()));
            self.buf.clear();
        }
    }
}

impl std::io::Write for JsParts {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= Self::PART {
            self.part();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The records a [`StoredFile::Kept`] holds, marked kept.
///
/// # Errors
/// When the blob cannot be read or its JSON is not a loaded file.
pub fn kept_records(records: &Blob) -> Result<LoadedFile, String> {
    let mut file: LoadedFile =
        serde_json::from_slice(&blob_bytes(records)?).map_err(|e| e.to_string())?;
    file.kept = true;
    Ok(file)
}

/// A `Blob`'s bytes, read at once (the worker may block).
///
/// # Errors
/// When the blob cannot be read.
pub fn blob_bytes(blob: &Blob) -> Result<Vec<u8>, String> {
    let reader = FileReaderSync::new().map_err(|e| js_error_text(&e))?;
    let buffer = reader
        .read_as_array_buffer(blob)
        .map_err(|e| js_error_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// A saved file with its record key.
#[derive(Clone, Debug)]
pub struct Record {
    /// Record key in the `files` store.
    pub key: f64,
    /// What was saved.
    pub file: StoredFile,
}

/// Everything saved, in load order.
#[derive(Clone, Debug, Default)]
pub struct Saved {
    /// Readable records.
    pub records: Vec<Record>,
    /// Records that cannot be read back, with why.
    pub unreadable: Vec<(f64, String)>,
    /// The demo workspace was loaded on a first visit already.
    pub seeded: bool,
}

/// The saved SLO decisions.
#[derive(Clone, Debug, Default)]
pub struct SavedDecisions {
    /// Decisions read back, by job name.
    pub decisions: Vec<SloDecision>,
    /// Records that cannot be read back: their key (the job) and why.
    pub unreadable: Vec<(String, String)>,
}

/// The open database.
pub struct Store {
    db: IdbDatabase,
    /// Closes the connection when another tab upgrades the database.
    _on_version_change: Closure<dyn FnMut(Event)>,
}

impl Store {
    /// Opens (creating or upgrading on first use) the database. While an
    /// upgrade waits for an older page that keeps the database open, it
    /// calls `on_blocked` (once per `blocked` event) and goes on waiting.
    ///
    /// # Errors
    /// When IndexedDB refuses (private browsing, quota, a failed upgrade).
    pub async fn open(
        factory: &IdbFactory,
        on_blocked: impl Fn() + 'static,
    ) -> Result<Store, StoreError> {
        let request = factory.open_with_u32(DB_NAME, DB_VERSION)?;
        let blocked = Closure::<dyn FnMut(Event)>::new(move |_: Event| on_blocked());
        request.set_onblocked(Some(blocked.as_ref().unchecked_ref()));
        let upgrade = Closure::<dyn FnMut(Event)>::new({
            let request = request.clone();
            move |_: Event| {
                let created = request
                    .result()
                    .and_then(|db| create_stores(&db.unchecked_into()));
                if created.is_err() {
                    if let Some(tx) = request.transaction() {
                        let _ = tx.abort();
                    }
                }
            }
        });
        request.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        let opened = outcome(&request).await;
        request.set_onupgradeneeded(None);
        request.set_onblocked(None);
        drop((upgrade, blocked));
        let db = opened?
            .dyn_into::<IdbDatabase>()
            .map_err(|_| StoreError("IndexedDB returned no database".into()))?;
        let on_version_change = Closure::<dyn FnMut(Event)>::new({
            let db = db.clone();
            move |_: Event| db.close()
        });
        db.set_onversionchange(Some(on_version_change.as_ref().unchecked_ref()));
        Ok(Store {
            db,
            _on_version_change: on_version_change,
        })
    }

    /// Reads every saved file, in load order, and the demo flag.
    ///
    /// # Errors
    /// When the stores cannot be read.
    pub async fn load(&self) -> Result<Saved, StoreError> {
        let names = Array::of2(&FILES.into(), &META.into());
        let tx = self.db.transaction_with_str_sequence(&names)?;
        let all = tx.object_store(FILES)?.get_all()?;
        let seeded = tx.object_store(META)?.get(&SEEDED.into())?;
        finish(&tx).await?;
        let mut saved = Saved {
            seeded: seeded.result()?.is_truthy(),
            ..Saved::default()
        };
        for value in Array::from(&all.result()?).iter() {
            match read_record(&value) {
                Ok(record) => saved.records.push(record),
                Err((Some(key), why)) => saved.unreadable.push((key, why)),
                Err((None, _)) => {}
            }
        }
        Ok(saved)
    }

    /// Saves a file; returns its record key.
    ///
    /// # Errors
    /// When the write fails (quota exceeded, the file is gone).
    pub async fn add(&self, file: &StoredFile) -> Result<f64, StoreError> {
        let record = write_record(file)?;
        let tx = self.writer(FILES)?;
        let request = tx.object_store(FILES)?.add(&record)?;
        finish(&tx).await?;
        request
            .result()?
            .as_f64()
            .ok_or_else(|| StoreError("IndexedDB returned no record key".into()))
    }

    /// Deletes one saved file.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn delete(&self, key: f64) -> Result<(), StoreError> {
        let tx = self.writer(FILES)?;
        tx.object_store(FILES)?.delete(&key.into())?;
        finish(&tx).await
    }

    /// Deletes every saved file (the demo flag stays).
    ///
    /// # Errors
    /// When the write fails.
    pub async fn clear(&self) -> Result<(), StoreError> {
        let tx = self.writer(FILES)?;
        tx.object_store(FILES)?.clear()?;
        finish(&tx).await
    }

    /// Records that the demo workspace has been loaded on a first visit.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn mark_seeded(&self) -> Result<(), StoreError> {
        let tx = self.writer(META)?;
        tx.object_store(META)?
            .put_with_key(&JsValue::TRUE, &SEEDED.into())?;
        finish(&tx).await
    }

    /// Reads the `meta` record `key` (`undefined` when there is none).
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn get_meta(&self, key: &str) -> Result<JsValue, StoreError> {
        let tx = self.db.transaction_with_str(META)?;
        let request = tx.object_store(META)?.get(&key.into())?;
        finish(&tx).await?;
        Ok(request.result()?)
    }

    /// Saves (or replaces) the `meta` record `key`.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn put_meta(&self, key: &str, value: &JsValue) -> Result<(), StoreError> {
        let tx = self.writer(META)?;
        tx.object_store(META)?.put_with_key(value, &key.into())?;
        finish(&tx).await
    }

    /// Reads the panel record `R`: `Ok(None)` when there is none (or it is
    /// from another version and `R` says that is not worth telling), `Err`
    /// with what to tell the user when it cannot be read or is from another
    /// version (it is then not restored).
    pub async fn read_record<R: MetaRecord>(&self) -> Result<Option<R>, String> {
        let value = match self.get_meta(R::KEY).await {
            Ok(v) if v.is_undefined() || v.is_null() => return Ok(None),
            Ok(v) => v,
            Err(e) => return Err(format!("Could not read the saved {}: {e}", R::WHAT)),
        };
        let other_version = |version: f64| {
            if R::TELL_OTHER_VERSION {
                Err(format!(
                    "The saved {} is from another version ({version}) and was not restored.",
                    R::WHAT
                ))
            } else {
                Ok(None)
            }
        };
        // The version first: another version's shape may not parse as `R`.
        if let Some(version) = get(&value, "version").as_f64() {
            if version != f64::from(R::VERSION) {
                return other_version(version);
            }
        }
        match serde_wasm_bindgen::from_value::<R>(value) {
            Ok(r) if r.version() == R::VERSION => Ok(Some(r)),
            Ok(r) => other_version(f64::from(r.version())),
            Err(e) => Err(format!("The saved {} could not be read: {e}", R::WHAT)),
        }
    }

    /// Deletes the panel record `R`; `Err` with what to tell the user.
    pub async fn delete_record<R: MetaRecord>(&self) -> Result<(), String> {
        self.delete_meta(R::KEY)
            .await
            .map_err(|e| format!("The saved {} could not be deleted: {e}", R::WHAT))
    }

    /// Deletes the `meta` record `key` (nothing happens when there is none).
    ///
    /// # Errors
    /// When the write fails.
    pub async fn delete_meta(&self, key: &str) -> Result<(), StoreError> {
        let tx = self.writer(META)?;
        tx.object_store(META)?.delete(&key.into())?;
        finish(&tx).await
    }

    /// Saves the panel record `record`; `Err` with what to tell the user.
    pub async fn write_record<R: MetaRecord>(&self, record: &R) -> Result<(), String> {
        let written = match serde_wasm_bindgen::to_value(record) {
            Ok(value) => self.put_meta(R::KEY, &value).await.map_err(|e| e.0),
            Err(e) => Err(e.to_string()),
        };
        written.map_err(|e| {
            format!(
                "The {} holds for this session but could not be saved: {e}",
                R::WHAT
            )
        })
    }

    /// Reads every saved SLO decision.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn load_decisions(&self) -> Result<SavedDecisions, StoreError> {
        let tx = self.db.transaction_with_str(DECISIONS)?;
        let all = tx.object_store(DECISIONS)?.get_all()?;
        finish(&tx).await?;
        let mut saved = SavedDecisions::default();
        for value in Array::from(&all.result()?).iter() {
            match serde_wasm_bindgen::from_value::<SloDecision>(value.clone()) {
                Ok(decision) => saved.decisions.push(decision),
                Err(e) => {
                    if let Some(job) = get(&value, "job").as_string() {
                        saved.unreadable.push((job, e.to_string()));
                    }
                }
            }
        }
        Ok(saved)
    }

    /// Saves (or replaces) the decision on its job.
    ///
    /// # Errors
    /// When the decision cannot be converted or the write fails.
    pub async fn put_decision(&self, decision: &SloDecision) -> Result<(), StoreError> {
        let record =
            serde_wasm_bindgen::to_value(decision).map_err(|e| StoreError(e.to_string()))?;
        let tx = self.writer(DECISIONS)?;
        tx.object_store(DECISIONS)?.put(&record)?;
        finish(&tx).await
    }

    /// Deletes the saved decision on `job`.
    ///
    /// # Errors
    /// When the write fails.
    pub async fn delete_decision(&self, job: &str) -> Result<(), StoreError> {
        let tx = self.writer(DECISIONS)?;
        tx.object_store(DECISIONS)?.delete(&job.into())?;
        finish(&tx).await
    }

    /// Replaces everything saved at once — the files, the SLO decisions
    /// and the `meta` records listed (`None`: deleted) — in one
    /// transaction, so a failure leaves the saved workspace as it was
    /// (an opened workspace bundle). The demo flag is set: the next start
    /// restores these, never the demo.
    ///
    /// # Errors
    /// When a record cannot be converted or the transaction fails.
    pub async fn replace(
        &self,
        files: &[StoredFile],
        decisions: &[SloDecision],
        meta: &[(&str, Option<JsValue>)],
    ) -> Result<(), StoreError> {
        let names = Array::of3(&FILES.into(), &DECISIONS.into(), &META.into());
        let tx = self
            .db
            .transaction_with_str_sequence_and_mode(&names, IdbTransactionMode::Readwrite)?;
        let written = (|| {
            let store = tx.object_store(FILES)?;
            store.clear()?;
            for file in files {
                store.add(&write_record(file)?.into())?;
            }
            let store = tx.object_store(DECISIONS)?;
            store.clear()?;
            for decision in decisions {
                let record = serde_wasm_bindgen::to_value(decision)
                    .map_err(|e| StoreError(format!("the decision on `{}`: {e}", decision.job)))?;
                store.put(&record)?;
            }
            let store = tx.object_store(META)?;
            for (key, value) in meta {
                match value {
                    Some(value) => store.put_with_key(value, &(*key).into())?,
                    None => store.delete(&(*key).into())?,
                };
            }
            store.put_with_key(&JsValue::TRUE, &SEEDED.into())?;
            Ok::<(), StoreError>(())
        })();
        if let Err(e) = written {
            let _ = tx.abort();
            return Err(e);
        }
        finish(&tx).await
    }

    fn writer(&self, store: &str) -> Result<IdbTransaction, StoreError> {
        Ok(self
            .db
            .transaction_with_str_and_mode(store, IdbTransactionMode::Readwrite)?)
    }
}

/// Creates the object stores missing from a new or older database (inside
/// `upgradeneeded`).
fn create_stores(db: &IdbDatabase) -> Result<(), JsValue> {
    let names = db.object_store_names();
    if !names.contains(FILES) {
        let params = IdbObjectStoreParameters::new();
        params.set_key_path(&"id".into());
        params.set_auto_increment(true);
        db.create_object_store_with_optional_parameters(FILES, &params)?;
    }
    if !names.contains(META) {
        db.create_object_store(META)?;
    }
    if !names.contains(DECISIONS) {
        let params = IdbObjectStoreParameters::new();
        params.set_key_path(&"job".into());
        db.create_object_store_with_optional_parameters(DECISIONS, &params)?;
    }
    Ok(())
}

fn set(target: &Object, key: &str, value: &JsValue) -> Result<(), StoreError> {
    Reflect::set(target, &key.into(), value)?;
    Ok(())
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// The record object of a file (its `id` is added by the store).
fn write_record(file: &StoredFile) -> Result<Object, StoreError> {
    let record = Object::new();
    match file {
        StoredFile::Demo { name } => {
            set(&record, "demo", &JsValue::TRUE)?;
            set(&record, "name", &name.into())?;
        }
        StoredFile::Upload {
            name,
            format,
            lenient,
            blob,
        } => {
            set(&record, "name", &name.into())?;
            let format = format.map_or(JsValue::NULL, |f| f.id().into());
            set(&record, "format", &format)?;
            set(&record, "lenient", &JsValue::from_bool(*lenient))?;
            set(&record, "blob", blob)?;
        }
        StoredFile::Kept {
            name,
            lenient,
            records,
        } => {
            set(&record, "kept", &JsValue::TRUE)?;
            set(&record, "name", &name.into())?;
            set(&record, "lenient", &JsValue::from_bool(*lenient))?;
            set(&record, "records", records)?;
        }
    }
    Ok(record)
}

/// A record read back; on failure, its key (if it has one) and why.
fn read_record(value: &JsValue) -> Result<Record, (Option<f64>, String)> {
    let key = get(value, "id")
        .as_f64()
        .ok_or((None, "record without a key".to_owned()))?;
    let name = get(value, "name")
        .as_string()
        .ok_or((Some(key), "saved file without a name".to_owned()))?;
    let file = if get(value, "demo").is_truthy() {
        StoredFile::Demo { name }
    } else if get(value, "kept").is_truthy() {
        let records = get(value, "records")
            .dyn_into::<Blob>()
            .map_err(|_| (Some(key), format!("saved file {name} has lost its records")))?;
        StoredFile::Kept {
            lenient: get(value, "lenient").is_truthy(),
            records,
            name,
        }
    } else {
        let blob = get(value, "blob")
            .dyn_into::<Blob>()
            .map_err(|_| (Some(key), format!("saved file {name} has lost its content")))?;
        StoredFile::Upload {
            format: get(value, "format")
                .as_string()
                .and_then(|f| f.parse().ok()),
            lenient: get(value, "lenient").is_truthy(),
            blob,
            name,
        }
    };
    Ok(Record { key, file })
}

/// Waits for a request to succeed; returns its result, or its error.
async fn outcome(request: &IdbRequest) -> Result<JsValue, StoreError> {
    if settle(request, "success", &["error"]).await {
        Ok(request.result()?)
    } else {
        Err(match request.error() {
            Ok(Some(e)) => StoreError(format!("{}: {}", e.name(), e.message())),
            _ => StoreError("IndexedDB request failed".into()),
        })
    }
}

/// Waits for a transaction to commit.
async fn finish(tx: &IdbTransaction) -> Result<(), StoreError> {
    if settle(tx, "complete", &["error", "abort"]).await {
        Ok(())
    } else {
        Err(match tx.error() {
            Some(e) => StoreError(format!("{}: {}", e.name(), e.message())),
            None => StoreError("IndexedDB transaction aborted".into()),
        })
    }
}

/// The promise wrapper: resolves (`true`) when `target` fires `done`, rejects
/// (`false`) when it fires any of `failed`. The listeners live exactly as
/// long as the wait.
async fn settle(target: &EventTarget, done: &str, failed: &[&str]) -> bool {
    type Listener = Closure<dyn FnMut(Event)>;
    let mut listeners: Vec<(String, Listener)> = Vec::new();
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        listeners.push((
            done.to_owned(),
            Listener::new(move |_: Event| {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            }),
        ));
        for name in failed {
            let reject = reject.clone();
            listeners.push((
                (*name).to_owned(),
                Listener::new(move |_: Event| {
                    let _ = reject.call0(&JsValue::UNDEFINED);
                }),
            ));
        }
    });
    let mut armed = true;
    for (name, listener) in &listeners {
        armed &= target
            .add_event_listener_with_callback(name, listener.as_ref().unchecked_ref())
            .is_ok();
    }
    let ok = armed && JsFuture::from(promise).await.is_ok();
    for (name, listener) in &listeners {
        let _ = target.remove_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
    }
    ok
}
