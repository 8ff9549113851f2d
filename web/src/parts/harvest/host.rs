//! The Harvest part in the worker: the tenants file and the reimages file
//! (kept in the `meta` record `harvest`), the last classification (for
//! spectra, selections, the simulation and the storage view, whose
//! requests `storage_host` answers) and timing.

use super::protocol::{HarvestRequest, HarvestResponse, SimView};
use super::views::{classify_view, selection_view, sim_jobs, simulate_view, Classified};
use crate::protocol::{now_ms, Response};
use crate::store::Store;
use serde::{Deserialize, Serialize};
use skyplan_engine::harvest::{read_tenants_csv, tenant_spectrum, PatternParams, TenantInfo};
use skyplan_engine::Workspace;

/// The `meta` record's key.
const META_KEY: &str = "harvest";
/// The record's version.
const SAVED_VERSION: u32 = 1;

/// What survives a reload: the tenants file and the reimages file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Saved {
    version: u32,
    tenants: Option<(String, String)>,
    /// Absent in records saved before the storage view.
    #[serde(default)]
    reimages: Option<(String, String)>,
}

impl crate::store::MetaRecord for Saved {
    const KEY: &'static str = META_KEY;
    const WHAT: &'static str = "tenants file";
    const VERSION: u32 = SAVED_VERSION;
    fn version(&self) -> u32 {
        self.version
    }
}

/// The Harvest part's worker state.
#[derive(Default)]
pub struct HarvestHost {
    /// The tenants file: name, text and its tenants.
    pub(super) tenants: Option<(String, String, Vec<TenantInfo>)>,
    /// The reimages file: name and text (read against the tenants file
    /// when used).
    pub(super) reimages: Option<(String, String)>,
    /// The last classification.
    pub(super) last: Option<Classified>,
    restored: bool,
}

impl HarvestHost {
    /// No tenants file, nothing classified.
    pub fn new() -> HarvestHost {
        HarvestHost::default()
    }

    fn failed(post: &dyn Fn(&Response), what: &str, ticket: u32, message: String) {
        post(&Response::Harvest(HarvestResponse::Failed {
            what: what.into(),
            ticket,
            message,
        }));
    }

    fn post_file(&self, post: &dyn Fn(&Response)) {
        post(&Response::Harvest(HarvestResponse::TenantsFile {
            name: self.tenants.as_ref().map(|t| t.0.clone()),
            tenants: self.tenants.as_ref().map_or(0, |t| t.2.len()),
        }));
    }

    /// Reads the saved tenants file once.
    pub(super) async fn restore(&mut self, store: Option<&Store>, post: &dyn Fn(&Response)) {
        if self.restored {
            return;
        }
        self.restored = true;
        let Some(store) = store else {
            return;
        };
        match store.read_record::<Saved>().await {
            Ok(Some(Saved {
                tenants: Some((name, text)),
                reimages,
                ..
            })) => match read_tenants_csv(&name, &text) {
                Ok(list) => {
                    self.tenants = Some((name, text, list));
                    self.reimages = reimages;
                }
                Err(e) => Self::failed(post, "tenants", 0, e.to_string()),
            },
            Ok(_) => {}
            Err(message) => post(&Response::Notice { message }),
        }
    }

    pub(super) async fn save(&self, store: Option<&Store>, post: &dyn Fn(&Response)) {
        if let Some(store) = store {
            let record = Saved {
                version: SAVED_VERSION,
                tenants: self.tenants.as_ref().map(|t| (t.0.clone(), t.1.clone())),
                reimages: self.reimages.clone(),
            };
            if let Err(message) = store.write_record(&record).await {
                post(&Response::Notice { message });
            }
        }
    }

    /// The demo's tenants file and reimages file, unless a tenants file
    /// is in use (its reimages file, if any, stays too).
    pub async fn seed(
        &mut self,
        (name, text): (&str, &str),
        (reimages_name, reimages_text): (&str, &str),
        store: Option<&Store>,
        post: &dyn Fn(&Response),
    ) {
        self.restore(store, post).await;
        if self.tenants.is_some() {
            self.post_reimages_file(post);
            return;
        }
        match read_tenants_csv(name, text) {
            Ok(list) => {
                self.tenants = Some((name.to_owned(), text.to_owned(), list));
                self.reimages = Some((reimages_name.to_owned(), reimages_text.to_owned()));
                self.save(store, post).await;
            }
            Err(e) => Self::failed(post, "tenants", 0, e.to_string()),
        }
        self.post_file(post);
        self.post_reimages_file(post);
    }

    /// "Clear": the tenants file and the classification go.
    pub async fn reset(&mut self, store: Option<&Store>, post: &dyn Fn(&Response)) {
        self.restored = true;
        self.tenants = None;
        self.reimages = None;
        self.last = None;
        self.save(store, post).await;
        self.post_file(post);
        self.post_reimages_file(post);
    }

    /// Answers one request of the Harvest panel.
    pub async fn handle(
        &mut self,
        request: HarvestRequest,
        workspace: &Workspace,
        store: Option<&Store>,
        post: &dyn Fn(&Response),
    ) {
        self.restore(store, post).await;
        let send = |r: HarvestResponse| post(&Response::Harvest(r));
        match request {
            HarvestRequest::ImportTenants { name, text } => match read_tenants_csv(&name, &text) {
                Ok(list) => {
                    self.tenants = Some((name, text, list));
                    self.save(store, post).await;
                    self.post_file(post);
                }
                Err(e) => Self::failed(post, "tenants", 0, e.to_string()),
            },
            HarvestRequest::ForgetTenants => {
                self.tenants = None;
                self.save(store, post).await;
                self.post_file(post);
                self.post_reimages_file(post);
            }
            HarvestRequest::Storage(request) => self.storage(*request, store, post).await,
            HarvestRequest::Classify { ticket, settings } => {
                self.post_file(post);
                self.post_reimages_file(post);
                let t0 = now_ms();
                let tenants = self.tenants.as_ref().map(|t| t.2.as_slice());
                match classify_view(workspace, tenants, ticket, &settings) {
                    Ok((mut view, kept)) => {
                        view.millis = now_ms() - t0;
                        self.last = Some(kept);
                        send(HarvestResponse::Classified(Box::new(view)));
                    }
                    Err(message) => Self::failed(post, "classify", ticket, message),
                }
            }
            HarvestRequest::Spectrum { ticket, tenant } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                match tenant_spectrum(&last.set, &tenant, &PatternParams::default()) {
                    Ok(spectrum) => send(HarvestResponse::Spectrum(Box::new(
                        super::protocol::SpectrumView { ticket, spectrum },
                    ))),
                    Err(e) => Self::failed(post, "spectrum", ticket, e.to_string()),
                }
            }
            HarvestRequest::Select { ticket, job } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                let t0 = now_ms();
                match selection_view(workspace, last, &job) {
                    Ok(mut view) => {
                        view.millis = now_ms() - t0;
                        send(HarvestResponse::Selected(Box::new(view)));
                    }
                    Err(message) => Self::failed(post, "select", ticket, message),
                }
            }
            HarvestRequest::Simulate { ticket, settings } => {
                let Some(last) = self.last.as_ref() else {
                    Self::failed(
                        post,
                        "simulate",
                        ticket,
                        "Classify the tenants first.".into(),
                    );
                    return;
                };
                let t0 = now_ms();
                let jobs = match sim_jobs(workspace, &settings) {
                    Ok(jobs) => jobs,
                    Err(message) => {
                        Self::failed(post, "simulate", ticket, message);
                        return;
                    }
                };
                let mut progress = |done: usize, total: usize| {
                    send(HarvestResponse::SimProgress {
                        ticket,
                        done,
                        total,
                    })
                };
                match simulate_view(last, &jobs, &settings, &mut progress) {
                    Ok(report) => send(HarvestResponse::Simulated(Box::new(SimView {
                        ticket,
                        report,
                        jobs: jobs.len(),
                        millis: now_ms() - t0,
                    }))),
                    Err(message) => Self::failed(post, "simulate", ticket, message),
                }
            }
        }
    }
}
