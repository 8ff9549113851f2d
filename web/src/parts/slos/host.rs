//! The SLOs part in the worker: infers SLOs and fits skylines on the
//! workspace's runs, records the owner's decisions in the workspace and
//! keeps them in IndexedDB's `decisions` store.

use super::protocol::{ExportFormat, SlosRequest, SlosResponse};
use super::views::{fit_view, slo_table};
use crate::demo::DEMO_DECISIONS;
use crate::store::Store;
use crate::toolkit::host::{Ctx, PartHost};
use crate::toolkit::protocol::Failure;
use skyplan_engine::export::decisions_csv;
use skyplan_engine::import::read_decisions_csv;
use skyplan_engine::slo::SloDecision;

/// The SLOs part's worker state: none beyond the workspace's decisions.
#[derive(Default)]
pub struct SlosHost;

fn post_decisions(ctx: &Ctx<'_>) {
    ctx.send(SlosResponse::Decisions {
        decisions: ctx.workspace().decisions().cloned().collect(),
    });
}

impl PartHost for SlosHost {
    type Request = SlosRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: SlosRequest) {
        match request {
            SlosRequest::Infer { params } => ctx.send(match slo_table(ctx.workspace(), &params) {
                Ok(table) => SlosResponse::Table(table),
                Err(e) => SlosResponse::TableFailed {
                    message: e.to_string(),
                },
            }),
            SlosRequest::FitSkyline {
                ticket,
                job,
                params,
            } => ctx.send(match fit_view(ctx.workspace(), ticket, &job, &params) {
                Ok(view) => SlosResponse::Fit(Box::new(view)),
                Err(message) => SlosResponse::FitFailed(Failure::new(ticket, message)),
            }),
            SlosRequest::Decide { decision } => {
                let job = decision.job.clone();
                match decide(ctx, decision).await {
                    Ok(()) => post_decisions(ctx),
                    Err(message) => ctx.send(SlosResponse::DecisionFailed { job, message }),
                }
            }
            SlosRequest::Undecide { job } => {
                if ctx.workspace.undecide(&job).is_some() {
                    if let Some(Err(e)) = with_store(ctx, |s| s.delete_decision(&job)).await {
                        ctx.notice(format!(
                            "The decision on {job} was withdrawn but is still saved: {e}"
                        ));
                    }
                }
                post_decisions(ctx);
            }
            SlosRequest::Decisions => post_decisions(ctx),
            SlosRequest::ExportDecisions { format } => export_decisions(ctx, format),
        }
    }

    /// The demo's decisions: each one whose job has no decision yet is
    /// recorded and saved (one the engine refuses is reported).
    async fn seed(&mut self, ctx: &mut Ctx<'_>) {
        let decisions = match read_decisions_csv(DEMO_DECISIONS.0, DEMO_DECISIONS.1) {
            Ok(decisions) => decisions,
            Err(errors) => {
                ctx.notice(format!(
                    "The demo's decisions were not read: {}",
                    errors.first().map(ToString::to_string).unwrap_or_default()
                ));
                return;
            }
        };
        for decision in decisions {
            if ctx.workspace().decisions().any(|d| d.job == decision.job) {
                continue;
            }
            let job = decision.job.clone();
            if let Err(e) = decide(ctx, decision).await {
                ctx.notice(format!("The demo decision on {job} was not taken: {e}"));
            }
        }
        post_decisions(ctx);
    }

    /// Withdraws every decision and deletes the saved ones ("Clear" empties
    /// everything).
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        let jobs: Vec<String> = ctx.workspace().decisions().map(|d| d.job.clone()).collect();
        for job in jobs {
            ctx.workspace.undecide(&job);
            forget_decision(ctx, &job).await;
        }
        post_decisions(ctx);
    }
}

impl SlosHost {
    /// Puts the saved decisions back into the workspace, whether or not
    /// their jobs are loaded; one the engine no longer accepts is reported
    /// and dropped from storage.
    pub async fn restore(&mut self, ctx: &mut Ctx<'_>) {
        let saved = match with_store(ctx, |s| s.load_decisions()).await {
            Some(Ok(saved)) => saved,
            Some(Err(e)) => {
                ctx.notice(format!("Could not read the saved SLO decisions: {e}"));
                return;
            }
            None => return,
        };
        for (job, why) in saved.unreadable {
            ctx.notice(format!("A saved decision on {job} was dropped: {why}."));
            forget_decision(ctx, &job).await;
        }
        for decision in saved.decisions {
            let job = decision.job.clone();
            if let Err(e) = ctx.workspace.decide(decision) {
                ctx.notice(format!("A saved decision was dropped: {e}."));
                forget_decision(ctx, &job).await;
            }
        }
    }
}

/// Records a decision the engine accepts and saves it; a refused one is
/// left out with the engine's reason.
///
/// # Errors
/// The engine's message when it refuses the decision.
async fn decide(ctx: &mut Ctx<'_>, decision: SloDecision) -> Result<(), String> {
    let job = decision.job.clone();
    ctx.workspace
        .decide(decision.clone())
        .map_err(|e| e.to_string())?;
    if let Some(Err(e)) = with_store(ctx, |s| s.put_decision(&decision)).await {
        ctx.notice(format!(
            "The decision on {job} holds for this session but could not be saved: {e}"
        ));
    }
    Ok(())
}

fn export_decisions(ctx: &Ctx<'_>, format: ExportFormat) {
    let decisions: Vec<SloDecision> = ctx.workspace().decisions().cloned().collect();
    let text = match format {
        ExportFormat::Csv => Ok(decisions_csv(&decisions)),
        ExportFormat::Json => serde_json::to_string_pretty(&decisions).map(|mut t| {
            t.push('\n');
            t
        }),
    };
    match text {
        Ok(text) => ctx.send(SlosResponse::Exported { format, text }),
        Err(e) => ctx.notice(format!("The decisions could not be exported: {e}")),
    }
}

async fn forget_decision(ctx: &Ctx<'_>, job: &str) {
    if let Some(Err(e)) = with_store(ctx, |s| s.delete_decision(job)).await {
        ctx.notice(format!("Could not update the saved decisions: {e}"));
    }
}

async fn with_store<'a, T, F>(ctx: &Ctx<'a>, op: impl FnOnce(&'a Store) -> F) -> Option<T>
where
    F: std::future::Future<Output = T> + 'a,
{
    match ctx.store {
        Some(store) => Some(op(store).await),
        None => None,
    }
}
