//! The Shaping part in the worker: the workload read from files, the last
//! run (workload, settings and forecasts, kept to re-run for other
//! timelines and for Figure 2's policies), the last grid, exports and
//! timing. Progress is posted at most once per percent.

use super::protocol::{GridView, ShapingRequest, ShapingResponse, Stage, TimelinesView};
use super::views::{
    error_text, grid_csv, outcomes_csv, read_files, retarget, run, run_grid, LastRun, Throttle,
};
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::{Failure, Progress};
use skyplan_engine::shaping::{
    compare_policies_with, timelines, GridReport, Workload, WorkloadSummary,
};

/// The Shaping part's worker state.
#[derive(Default)]
pub struct ShapingHost {
    /// The workload read from files: its name and itself.
    loaded: Option<(String, Workload)>,
    /// The last run.
    last: Option<LastRun>,
    /// The last grid and its ticket.
    grid: Option<(u32, String, GridReport)>,
}

/// The answer to a follow-up (timelines, Figure 2, a new failure target,
/// an export) of a run this worker does not hold: the engine restarted
/// (Cancel) since, or a later run replaced it.
const RUN_AGAIN: &str =
    "This run is no longer in the engine (it restarted, or a later run replaced it): run it again.";

/// The notice for an export with no run in the engine.
const NOTHING_TO_EXPORT: &str =
    "Nothing to export: the engine holds no run (it restarted since) — run it again.";

/// The progress report of `stage`.
fn progress(stage: Stage) -> impl Fn(Progress) -> ShapingResponse {
    move |progress| ShapingResponse::Progress { stage, progress }
}

impl PartHost for ShapingHost {
    type Request = ShapingRequest;

    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: ShapingRequest) {
        let send = |r: ShapingResponse| ctx.send(r);
        let failed = |ticket: u32, message: String| {
            send(ShapingResponse::Failed(Failure::new(ticket, message)))
        };
        match request {
            ShapingRequest::ReadWorkload { files, params } => match read_files(&files, &params) {
                Ok((name, workload)) => {
                    let summary =
                        WorkloadSummary::of(&workload, params.hosts as f64 * params.host_cpu);
                    self.loaded = Some((name.clone(), workload));
                    send(ShapingResponse::Loaded {
                        name: Some(name),
                        summary: Some(summary),
                    });
                }
                Err(message) => send(ShapingResponse::ReadFailed { message }),
            },
            ShapingRequest::ForgetWorkload => {
                self.loaded = None;
                send(ShapingResponse::Loaded {
                    name: None,
                    summary: None,
                });
            }
            ShapingRequest::Run { ticket, settings } => {
                let mut forecast = Throttle::new(ctx.progress(ticket, progress(Stage::Forecast)));
                let mut simulate = Throttle::new(ctx.progress(ticket, progress(Stage::Simulate)));
                let (answer, millis) = timed(|| {
                    run(
                        ticket,
                        &settings,
                        self.loaded.as_ref(),
                        &mut |d, t| forecast.tick(d, t),
                        &mut |d, t| simulate.tick(d, t),
                    )
                });
                match answer {
                    Ok((mut view, last)) => {
                        view.millis = millis;
                        self.last = Some(last);
                        send(ShapingResponse::Ready(Box::new(view)));
                    }
                    Err(message) => failed(ticket, message),
                }
            }
            ShapingRequest::Timelines { ticket, app, host } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return failed(ticket, RUN_AGAIN.into());
                };
                match timelines(&last.workload, &last.params, &last.forecasts, app, host) {
                    Ok(timelines) => send(ShapingResponse::Timelines(Box::new(TimelinesView {
                        ticket,
                        timelines,
                    }))),
                    Err(e) => failed(ticket, error_text(&e)),
                }
            }
            ShapingRequest::Compare { ticket, run } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == run) else {
                    return failed(ticket, RUN_AGAIN.into());
                };
                let mut progress = ctx.progress(ticket, progress(Stage::Compare));
                let (answer, millis) = timed(|| {
                    compare_policies_with(
                        &last.workload,
                        &last.params,
                        &last.forecasts,
                        &mut progress,
                    )
                });
                match answer {
                    Ok(comparison) => send(ShapingResponse::Compared {
                        ticket,
                        comparison,
                        millis,
                    }),
                    Err(e) => failed(ticket, error_text(&e)),
                }
            }
            ShapingRequest::Grid {
                ticket,
                settings,
                apps,
                target_failed_pct,
            } => {
                let mut progress = ctx.progress(ticket, progress(Stage::Grid));
                let (answer, millis) = timed(|| {
                    run_grid(
                        ticket,
                        &settings,
                        apps,
                        target_failed_pct,
                        self.loaded.as_ref(),
                        &mut progress,
                    )
                });
                match answer {
                    Ok(mut view) => {
                        view.millis = millis;
                        self.grid = Some((ticket, view.source.clone(), view.report.clone()));
                        send(ShapingResponse::GridReady(Box::new(view)));
                    }
                    Err(message) => failed(ticket, message),
                }
            }
            ShapingRequest::Retarget {
                ticket,
                target_failed_pct,
            } => {
                let Some((_, source, report)) = self.grid.as_mut().filter(|g| g.0 == ticket) else {
                    return failed(ticket, RUN_AGAIN.into());
                };
                match retarget(report, target_failed_pct) {
                    Ok(()) => send(ShapingResponse::GridReady(Box::new(GridView {
                        ticket,
                        source: source.clone(),
                        report: report.clone(),
                        millis: 0.0,
                    }))),
                    Err(message) => failed(ticket, message),
                }
            }
            ShapingRequest::ExportRun => match &self.last {
                Some(last) => send(ShapingResponse::Csv {
                    name: "skyplan-shaping-apps.csv".into(),
                    text: outcomes_csv(last),
                }),
                None => ctx.notice(NOTHING_TO_EXPORT),
            },
            ShapingRequest::ExportGrid => match &self.grid {
                Some((_, _, report)) => send(ShapingResponse::Csv {
                    name: "skyplan-shaping-grid.csv".into(),
                    text: grid_csv(report),
                }),
                None => ctx.notice(NOTHING_TO_EXPORT),
            },
        }
    }

    /// "Clear": the workload read from files, the last run and grid go.
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        *self = ShapingHost::default();
        ctx.send(ShapingResponse::Loaded {
            name: None,
            summary: None,
        });
    }
}
