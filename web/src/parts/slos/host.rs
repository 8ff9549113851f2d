//! The SLOs part in the worker: infers SLOs and fits skylines on the
//! workspace's runs, records the owner's decisions in the workspace and
//! keeps them in IndexedDB's `decisions` store.

use super::protocol::{ExportFormat, SlosRequest, SlosResponse};
use super::views::{fit_view, slo_table};
use crate::protocol::Response;
use crate::store::Store;
use skyplan_engine::export::decisions_csv;
use skyplan_engine::slo::SloDecision;
use skyplan_engine::Workspace;

/// The context a request is answered in: the workspace (runs and
/// decisions), storage, and where answers go.
pub struct Ctx<'a> {
    /// The engine's workspace.
    pub workspace: &'a mut Workspace,
    /// Where decisions are saved (`None`: no persistence this session).
    pub store: Option<&'a Store>,
    /// Where answers go.
    pub post: &'a dyn Fn(&Response),
}

impl Ctx<'_> {
    fn send(&self, response: SlosResponse) {
        (self.post)(&Response::Slos(response));
    }

    fn notice(&self, message: String) {
        (self.post)(&Response::Notice { message });
    }

    fn post_decisions(&self) {
        self.send(SlosResponse::Decisions {
            decisions: self.workspace.decisions().cloned().collect(),
        });
    }
}

/// Answers one request of the SLOs panel.
pub async fn handle(ctx: &mut Ctx<'_>, request: SlosRequest) {
    match request {
        SlosRequest::Infer { params } => ctx.send(match slo_table(ctx.workspace, &params) {
            Ok(table) => SlosResponse::Table(table),
            Err(e) => SlosResponse::TableFailed {
                message: e.to_string(),
            },
        }),
        SlosRequest::FitSkyline {
            ticket,
            job,
            params,
        } => ctx.send(match fit_view(ctx.workspace, ticket, &job, &params) {
            Ok(view) => SlosResponse::Fit(Box::new(view)),
            Err(message) => SlosResponse::FitFailed {
                ticket,
                job,
                message,
            },
        }),
        SlosRequest::Decide { decision } => {
            let job = decision.job.clone();
            match decide(ctx, decision).await {
                Ok(()) => ctx.post_decisions(),
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
            ctx.post_decisions();
        }
        SlosRequest::Decisions => ctx.post_decisions(),
        SlosRequest::ExportDecisions { format } => export_decisions(ctx, format),
    }
}

/// Records a decision the engine accepts and saves it; a refused one is
/// left out with the engine's reason.
///
/// # Errors
/// The engine's message when it refuses the decision.
pub async fn decide(ctx: &mut Ctx<'_>, decision: SloDecision) -> Result<(), String> {
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
    let decisions: Vec<SloDecision> = ctx.workspace.decisions().cloned().collect();
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

/// Puts the saved decisions back into the workspace, whether or not their
/// jobs are loaded; one the engine no longer accepts is reported and
/// dropped from storage.
pub async fn restore_decisions(ctx: &mut Ctx<'_>) {
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

/// The demo's decisions: each one whose job has no decision yet is
/// recorded and saved (one the engine refuses is reported).
pub async fn seed_decisions(ctx: &mut Ctx<'_>, decisions: Vec<SloDecision>) {
    for decision in decisions {
        if ctx.workspace.decisions().any(|d| d.job == decision.job) {
            continue;
        }
        let job = decision.job.clone();
        if let Err(e) = decide(ctx, decision).await {
            ctx.notice(format!("The demo decision on {job} was not taken: {e}"));
        }
    }
    ctx.post_decisions();
}

/// Withdraws every decision and deletes the saved ones ("Clear" empties
/// everything).
pub async fn clear_decisions(ctx: &mut Ctx<'_>) {
    let jobs: Vec<String> = ctx.workspace.decisions().map(|d| d.job.clone()).collect();
    for job in jobs {
        ctx.workspace.undecide(&job);
        forget_decision(ctx, &job).await;
    }
    ctx.post_decisions();
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
