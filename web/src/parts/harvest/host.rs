//! The Harvest part in the worker: the tenants file and the reimages file
//! (kept in the `meta` record `harvest`), the last classification (for
//! spectra, selections, the simulation and the storage view, whose
//! requests `storage_host` answers) and timing.

use super::protocol::{HarvestRequest, HarvestResponse, SimView, SpectrumView};
use super::views::{classify_view, selection_view, sim_jobs, simulate_view, Classified};
use crate::demo::{DEMO_REIMAGES, DEMO_TENANTS};
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::Failure;
use serde::{Deserialize, Serialize};
use skyplan_engine::harvest::{read_tenants_csv, tenant_spectrum, PatternParams, TenantInfo};

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

/// Tells the panel why a tenants file was refused.
fn refuse_file(ctx: &Ctx<'_>, message: String) {
    ctx.send(HarvestResponse::FileRefused { message });
}

impl HarvestHost {
    fn post_file(&self, ctx: &Ctx<'_>) {
        ctx.send(HarvestResponse::TenantsFile {
            name: self.tenants.as_ref().map(|t| t.0.clone()),
            tenants: self.tenants.as_ref().map_or(0, |t| t.2.len()),
        });
    }

    /// Reads the saved tenants file once.
    pub(super) async fn restore(&mut self, ctx: &Ctx<'_>) {
        if self.restored {
            return;
        }
        self.restored = true;
        if let Some(Saved {
            tenants: Some((name, text)),
            reimages,
            ..
        }) = ctx.read_record::<Saved>().await
        {
            match read_tenants_csv(&name, &text) {
                Ok(list) => {
                    self.tenants = Some((name, text, list));
                    self.reimages = reimages;
                }
                Err(e) => refuse_file(ctx, e.to_string()),
            }
        }
    }

    pub(super) async fn save(&self, ctx: &Ctx<'_>) {
        ctx.write_record(&Saved {
            version: SAVED_VERSION,
            tenants: self.tenants.as_ref().map(|t| (t.0.clone(), t.1.clone())),
            reimages: self.reimages.clone(),
        })
        .await;
    }
}

impl PartHost for HarvestHost {
    type Request = HarvestRequest;

    /// Answers one request of the Harvest panel.
    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: HarvestRequest) {
        self.restore(ctx).await;
        let send = |r: HarvestResponse| ctx.send(r);
        let failed = |ticket: u32, message: String| {
            send(HarvestResponse::Failed(Failure::new(ticket, message)))
        };
        match request {
            HarvestRequest::ImportTenants { name, text } => match read_tenants_csv(&name, &text) {
                Ok(list) => {
                    self.tenants = Some((name, text, list));
                    self.save(ctx).await;
                    self.post_file(ctx);
                }
                Err(e) => refuse_file(ctx, e.to_string()),
            },
            HarvestRequest::ForgetTenants => {
                self.tenants = None;
                self.save(ctx).await;
                self.post_file(ctx);
                self.post_reimages_file(ctx);
            }
            HarvestRequest::Storage(request) => self.storage(ctx, *request).await,
            HarvestRequest::Classify { ticket, settings } => {
                self.post_file(ctx);
                self.post_reimages_file(ctx);
                let tenants = self.tenants.as_ref().map(|t| t.2.as_slice());
                let (answer, millis) =
                    timed(|| classify_view(ctx.workspace(), tenants, ticket, &settings));
                match answer {
                    Ok((mut view, kept)) => {
                        view.millis = millis;
                        self.last = Some(kept);
                        send(HarvestResponse::Classified(Box::new(view)));
                    }
                    Err(message) => failed(ticket, message),
                }
            }
            HarvestRequest::Spectrum { ticket, tenant } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                match tenant_spectrum(&last.set, &tenant, &PatternParams::default()) {
                    Ok(spectrum) => send(HarvestResponse::Spectrum(Box::new(SpectrumView {
                        ticket,
                        spectrum,
                    }))),
                    Err(e) => failed(ticket, e.to_string()),
                }
            }
            HarvestRequest::Select { ticket, job } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                let (answer, millis) = timed(|| selection_view(ctx.workspace(), last, &job));
                match answer {
                    Ok(mut view) => {
                        view.millis = millis;
                        send(HarvestResponse::Selected(Box::new(view)));
                    }
                    Err(message) => {
                        send(HarvestResponse::SelectFailed(Failure::new(ticket, message)))
                    }
                }
            }
            HarvestRequest::Simulate { ticket, settings } => {
                let Some(last) = self.last.as_ref() else {
                    failed(ticket, "Classify the tenants first.".into());
                    return;
                };
                let mut progress = ctx.progress(ticket, HarvestResponse::Progress);
                let (answer, millis) = timed(|| {
                    let jobs = sim_jobs(ctx.workspace(), &settings)?;
                    simulate_view(last, &jobs, &settings, &mut progress).map(|r| (r, jobs.len()))
                });
                match answer {
                    Ok((report, jobs)) => send(HarvestResponse::Simulated(Box::new(SimView {
                        ticket,
                        report,
                        jobs,
                        millis,
                    }))),
                    Err(message) => failed(ticket, message),
                }
            }
        }
    }

    /// The demo's tenants file and reimages file, unless a tenants file
    /// is in use (its reimages file, if any, stays too).
    async fn seed(&mut self, ctx: &mut Ctx<'_>) {
        self.restore(ctx).await;
        if self.tenants.is_some() {
            self.post_reimages_file(ctx);
            return;
        }
        let ((name, text), (reimages_name, reimages_text)) = (DEMO_TENANTS, DEMO_REIMAGES);
        match read_tenants_csv(name, text) {
            Ok(list) => {
                self.tenants = Some((name.to_owned(), text.to_owned(), list));
                self.reimages = Some((reimages_name.to_owned(), reimages_text.to_owned()));
                self.save(ctx).await;
            }
            Err(e) => refuse_file(ctx, e.to_string()),
        }
        self.post_file(ctx);
        self.post_reimages_file(ctx);
    }

    /// "Clear": the tenants file and the classification go.
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        self.restored = true;
        self.tenants = None;
        self.reimages = None;
        self.last = None;
        self.save(ctx).await;
        self.post_file(ctx);
        self.post_reimages_file(ctx);
    }
}
