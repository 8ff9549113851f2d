//! The spare-cycle half in the worker: the last classification (for
//! spectra, selections, the simulation and the storage half) and timing;
//! the tenants file and the machine tables are the part's [`Files`].

use super::protocol::{CyclesRequest, CyclesResponse, SimView, SpectrumView};
use super::views::{classify_view, selection_view, sim_jobs, simulate_view, Classified};
use crate::parts::harvest::files::Files;
use crate::toolkit::host::{timed, Ctx};
use crate::toolkit::protocol::Failure;
use skyplan_engine::harvest::{tenant_spectrum, PatternParams};

/// The spare-cycle half's worker state.
#[derive(Default)]
pub struct CyclesHost {
    /// The last classification.
    last: Option<Classified>,
}

impl CyclesHost {
    /// The last classification, if any.
    pub fn last(&self) -> Option<&Classified> {
        self.last.as_ref()
    }

    /// Answers one request of the spare-cycle half, with the part's files.
    pub async fn handle(&mut self, ctx: &Ctx<'_>, files: &mut Files, request: CyclesRequest) {
        let send = |r: CyclesResponse| ctx.send(r);
        let failed = |ticket: u32, message: String| {
            send(CyclesResponse::Failed(Failure::new(ticket, message)))
        };
        match request {
            CyclesRequest::ImportTenants { name, text } => {
                files.use_tenants(ctx, name, text).await;
            }
            CyclesRequest::ImportMachines { files: read } => {
                files.use_machines(ctx, read).await;
            }
            CyclesRequest::ForgetMachines => files.forget_machines(ctx).await,
            CyclesRequest::ForgetTenants => {
                files.tenants = None;
                files.save(ctx).await;
                files.post(ctx);
            }
            CyclesRequest::Classify { ticket, settings } => {
                files.post(ctx);
                let (tenants, machines) = (files.tenant_list(), files.machines.as_ref());
                let (answer, millis) =
                    timed(|| classify_view(ctx.workspace(), tenants, machines, ticket, &settings));
                match answer {
                    Ok((mut view, kept)) => {
                        view.millis = millis;
                        self.last = Some(kept);
                        send(CyclesResponse::Classified(Box::new(view)));
                    }
                    Err(message) => failed(ticket, message),
                }
            }
            CyclesRequest::Spectrum { ticket, tenant } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                match tenant_spectrum(&last.set, &tenant, &PatternParams::default()) {
                    Ok(spectrum) => send(CyclesResponse::Spectrum(Box::new(SpectrumView {
                        ticket,
                        spectrum,
                    }))),
                    Err(e) => failed(ticket, e.to_string()),
                }
            }
            CyclesRequest::Select { ticket, job } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                let (answer, millis) = timed(|| selection_view(ctx.workspace(), last, &job));
                match answer {
                    Ok(mut view) => {
                        view.millis = millis;
                        send(CyclesResponse::Selected(Box::new(view)));
                    }
                    Err(message) => {
                        send(CyclesResponse::SelectFailed(Failure::new(ticket, message)))
                    }
                }
            }
            CyclesRequest::Simulate { ticket, settings } => {
                let Some(last) = self.last.as_ref() else {
                    failed(ticket, "Classify the tenants first.".into());
                    return;
                };
                let mut progress = ctx.progress(ticket, CyclesResponse::Progress);
                let (answer, millis) = timed(|| {
                    let jobs = sim_jobs(ctx.workspace(), &settings)?;
                    simulate_view(last, &jobs, &settings, &mut progress).map(|r| (r, jobs.len()))
                });
                match answer {
                    Ok((report, jobs)) => send(CyclesResponse::Simulated(Box::new(SimView {
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
}
