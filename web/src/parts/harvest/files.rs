//! The files both halves of the Harvest part work from, as the worker keeps
//! them: the tenants file (the spare-cycle half's), the Alibaba machine
//! tables (which, while in use, are the spare-cycle half's tenants and
//! series instead) and the reimages file (the storage half's, read against
//! the tenants file on every use), saved together in the `meta` record
//! `harvest`.

use super::cycles::protocol::CyclesResponse;
use super::machines::{read_machines, Machines};
use super::storage::protocol::StorageResponse;
use crate::demo::{DEMO_REIMAGES, DEMO_TENANTS};
use crate::store::PanelRecord;
use crate::toolkit::host::Ctx;
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::HarvestState;
use skyplan_engine::harvest::{read_reimages_csv, read_tenants_csv, ReimageHistory, TenantInfo};

/// The `meta` record's key.
const META_KEY: &str = "harvest";
/// The record's version.
const SAVED_VERSION: u32 = 1;

/// The `meta` record `harvest`: what survives a reload — the tenants file,
/// the reimages file and the machine tables, the fields of the engine's
/// [`HarvestState`] (which a workspace bundle carries) beside the record's
/// version, as records have always been written. (Not `#[serde(flatten)]`:
/// serde writes a flattened struct as a map, which `serde-wasm-bindgen`
/// stores as a JS `Map`, not the plain object older records are.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedHarvest {
    version: u32,
    tenants: Option<(String, String)>,
    /// Absent in records saved before the storage view.
    #[serde(default)]
    reimages: Option<(String, String)>,
    /// Absent in records saved before the studio read the machine tables.
    #[serde(default)]
    machines: Option<[(String, String); 2]>,
}

impl crate::store::MetaRecord for SavedHarvest {
    const KEY: &'static str = META_KEY;
    const WHAT: &'static str = "tenants file";
    const VERSION: u32 = SAVED_VERSION;
    fn version(&self) -> u32 {
        self.version
    }
}

impl PanelRecord for SavedHarvest {
    type State = HarvestState;
    fn of_state(files: HarvestState) -> Self {
        SavedHarvest {
            version: SAVED_VERSION,
            tenants: files.tenants,
            reimages: files.reimages,
            machines: files.machines,
        }
    }
    fn into_state(self) -> HarvestState {
        HarvestState {
            tenants: self.tenants,
            reimages: self.reimages,
            machines: self.machines,
        }
    }
}

/// The tenants file and the reimages file in use.
#[derive(Default)]
pub struct Files {
    /// The tenants file: name, text and its tenants.
    pub tenants: Option<(String, String, Vec<TenantInfo>)>,
    /// The reimages file: name and text.
    pub reimages: Option<(String, String)>,
    /// The Alibaba machine tables, read.
    pub machines: Option<Machines>,
    restored: bool,
}

impl Files {
    /// The tenants file's tenants, if one is in use.
    pub fn tenant_list(&self) -> Option<&[TenantInfo]> {
        self.tenants.as_ref().map(|t| t.2.as_slice())
    }

    /// Reads the saved files once.
    pub async fn restore(&mut self, ctx: &Ctx<'_>) {
        if self.restored {
            return;
        }
        self.restored = true;
        let Some(mut saved) = ctx
            .read_record::<SavedHarvest>()
            .await
            .map(PanelRecord::into_state)
        else {
            return;
        };
        if let Some([meta, usage]) = saved.machines.take() {
            match read_machines(&[meta, usage], None) {
                Ok(m) => self.machines = Some(m),
                Err(message) => refuse_tenants(ctx, message),
            }
        }
        if let HarvestState {
            tenants: Some((name, text)),
            reimages,
            ..
        } = saved
        {
            match read_tenants_csv(&name, &text) {
                Ok(list) => {
                    self.tenants = Some((name, text, list));
                    self.reimages = reimages;
                }
                Err(e) => refuse_tenants(ctx, e.to_string()),
            }
        }
    }

    /// Saves both files.
    pub async fn save(&self, ctx: &Ctx<'_>) {
        ctx.write_record(&SavedHarvest::of_state(HarvestState {
            tenants: self.tenants.as_ref().map(|t| (t.0.clone(), t.1.clone())),
            reimages: self.reimages.clone(),
            machines: self
                .machines
                .as_ref()
                .map(|m| [m.meta.clone(), m.usage.clone()]),
        }))
        .await;
    }

    /// Uses the machine tables among `files` (both, or one replacing its
    /// kind), saved; or says why not (the ones in use stay).
    pub async fn use_machines(&mut self, ctx: &Ctx<'_>, files: Vec<(String, String)>) {
        match read_machines(&files, self.machines.as_ref()) {
            Ok(m) => {
                self.machines = Some(m);
                self.save(ctx).await;
                self.post_machines(ctx);
            }
            Err(message) => refuse_tenants(ctx, message),
        }
    }

    /// Stops using the machine tables (saved so).
    pub async fn forget_machines(&mut self, ctx: &Ctx<'_>) {
        self.machines = None;
        self.save(ctx).await;
        self.post_machines(ctx);
    }

    /// Uses the tenants CSV `text` (saved), or says why not (the one in
    /// use stays).
    pub async fn use_tenants(&mut self, ctx: &Ctx<'_>, name: String, text: String) {
        match read_tenants_csv(&name, &text) {
            Ok(list) => {
                self.tenants = Some((name, text, list));
                self.save(ctx).await;
                self.post_tenants(ctx);
            }
            Err(e) => refuse_tenants(ctx, e.to_string()),
        }
    }

    /// Uses the reimages CSV `text` (saved), or says why not (the one in
    /// use stays).
    pub async fn use_reimages(&mut self, ctx: &Ctx<'_>, name: String, text: String) {
        match read_against(&name, &text, self.tenant_list()) {
            Ok(_) => {
                self.reimages = Some((name, text));
                self.save(ctx).await;
                self.post_reimages(ctx);
            }
            Err(message) => ctx.send(StorageResponse::FileRefused { message }),
        }
    }

    /// The reimages file read against the tenants file.
    pub fn reimage_history(&self) -> Option<Result<(&str, ReimageHistory), String>> {
        let (name, text) = self.reimages.as_ref()?;
        Some(read_against(name, text, self.tenant_list()).map(|h| (name.as_str(), h)))
    }

    /// The demo's tenants file and reimages file, unless a tenants file
    /// is in use (its reimages file, if any, stays too).
    pub async fn seed(&mut self, ctx: &Ctx<'_>) {
        self.restore(ctx).await;
        if self.tenants.is_some() {
            self.post_reimages(ctx);
            return;
        }
        let ((name, text), (reimages_name, reimages_text)) = (DEMO_TENANTS, DEMO_REIMAGES);
        match read_tenants_csv(name, text) {
            Ok(list) => {
                self.tenants = Some((name.to_owned(), text.to_owned(), list));
                self.reimages = Some((reimages_name.to_owned(), reimages_text.to_owned()));
                self.save(ctx).await;
            }
            Err(e) => refuse_tenants(ctx, e.to_string()),
        }
        self.post(ctx);
    }

    /// Forgets both files (saved so).
    pub async fn clear(&mut self, ctx: &Ctx<'_>) {
        self.restored = true;
        self.tenants = None;
        self.reimages = None;
        self.machines = None;
        self.save(ctx).await;
        self.post(ctx);
    }

    /// Tells both halves which files are in use.
    pub fn post(&self, ctx: &Ctx<'_>) {
        self.post_tenants(ctx);
        self.post_machines(ctx);
        self.post_reimages(ctx);
    }

    fn post_machines(&self, ctx: &Ctx<'_>) {
        ctx.send(CyclesResponse::MachinesFile {
            name: self.machines.as_ref().map(Machines::name),
            machines: self.machines.as_ref().map_or(0, Machines::machines),
            tenants: self.machines.as_ref().map_or(0, |m| m.tenants.len()),
        });
    }

    fn post_tenants(&self, ctx: &Ctx<'_>) {
        ctx.send(CyclesResponse::TenantsFile {
            name: self.tenants.as_ref().map(|t| t.0.clone()),
            tenants: self.tenants.as_ref().map_or(0, |t| t.2.len()),
        });
    }

    fn post_reimages(&self, ctx: &Ctx<'_>) {
        let reimages = self
            .reimage_history()
            .and_then(Result::ok)
            .map_or(0, |(_, h)| h.server_reimages());
        ctx.send(StorageResponse::ReimagesFile {
            name: self.reimages.as_ref().map(|r| r.0.clone()),
            reimages,
        });
    }
}

/// Tells the spare-cycle half why a tenants file was refused.
fn refuse_tenants(ctx: &Ctx<'_>, message: String) {
    ctx.send(CyclesResponse::FileRefused { message });
}

/// Reads `text` against the tenants file's tenants.
fn read_against(
    name: &str,
    text: &str,
    tenants: Option<&[TenantInfo]>,
) -> Result<ReimageHistory, String> {
    let tenants = tenants.ok_or_else(|| {
        "A reimages file names the tenants file's servers: load a tenants file first.".to_owned()
    })?;
    read_reimages_csv(name, text, tenants).map_err(|e| e.to_string())
}
