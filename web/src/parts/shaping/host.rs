//! The Shaping part in the worker: the workload read from files, the last
//! run (workload, settings and forecasts, kept to re-run for other
//! timelines and for Figure 2's policies), the last grid, exports and
//! timing. Progress is posted at most once per percent.

use super::protocol::{ShapingRequest, ShapingResponse, Stage, TimelinesView};
use super::views::{
    error_text, grid_csv, outcomes_csv, read_files, retarget, run, run_grid, LastRun, Throttle,
};
use crate::protocol::{now_ms, Response};
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

impl ShapingHost {
    /// Nothing read, nothing run.
    pub fn new() -> ShapingHost {
        ShapingHost::default()
    }

    /// Answers one request of the Shaping panel.
    pub fn handle(&mut self, request: ShapingRequest, post: &dyn Fn(&Response)) {
        let send = |r: ShapingResponse| post(&Response::Shaping(r));
        let failed = |stage: Stage, ticket: u32, message: String| {
            send(ShapingResponse::Failed {
                stage,
                ticket,
                message,
            })
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
                let t0 = now_ms();
                let progress = |stage: Stage| {
                    move |done: usize, total: usize| {
                        send(ShapingResponse::Progress {
                            ticket,
                            stage,
                            done,
                            total,
                        })
                    }
                };
                let mut forecast = Throttle::new(progress(Stage::Forecast));
                let mut simulate = Throttle::new(progress(Stage::Simulate));
                match run(
                    ticket,
                    &settings,
                    self.loaded.as_ref(),
                    &mut |d, t| forecast.tick(d, t),
                    &mut |d, t| simulate.tick(d, t),
                ) {
                    Ok((mut view, last)) => {
                        view.millis = now_ms() - t0;
                        self.last = Some(last);
                        send(ShapingResponse::Ready(Box::new(view)));
                    }
                    Err(message) => failed(Stage::Simulate, ticket, message),
                }
            }
            ShapingRequest::Timelines { ticket, app, host } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                match timelines(&last.workload, &last.params, &last.forecasts, app, host) {
                    Ok(timelines) => send(ShapingResponse::Timelines(Box::new(TimelinesView {
                        ticket,
                        timelines,
                    }))),
                    Err(e) => failed(Stage::Simulate, ticket, error_text(&e)),
                }
            }
            ShapingRequest::Compare { ticket } => {
                let Some(last) = self.last.as_ref().filter(|l| l.ticket == ticket) else {
                    return;
                };
                let t0 = now_ms();
                let mut progress = |done, total| {
                    send(ShapingResponse::Progress {
                        ticket,
                        stage: Stage::Compare,
                        done,
                        total,
                    })
                };
                match compare_policies_with(
                    &last.workload,
                    &last.params,
                    &last.forecasts,
                    &mut progress,
                ) {
                    Ok(comparison) => send(ShapingResponse::Compared {
                        ticket,
                        comparison,
                        millis: now_ms() - t0,
                    }),
                    Err(e) => failed(Stage::Compare, ticket, error_text(&e)),
                }
            }
            ShapingRequest::Grid {
                ticket,
                settings,
                apps,
                target_failed_pct,
            } => {
                let t0 = now_ms();
                let mut progress = |done, total| {
                    send(ShapingResponse::Progress {
                        ticket,
                        stage: Stage::Grid,
                        done,
                        total,
                    })
                };
                match run_grid(
                    ticket,
                    &settings,
                    apps,
                    target_failed_pct,
                    self.loaded.as_ref(),
                    &mut progress,
                ) {
                    Ok(mut view) => {
                        view.millis = now_ms() - t0;
                        self.grid = Some((ticket, view.source.clone(), view.report.clone()));
                        send(ShapingResponse::GridReady(Box::new(view)));
                    }
                    Err(message) => failed(Stage::Grid, ticket, message),
                }
            }
            ShapingRequest::Retarget {
                ticket,
                target_failed_pct,
            } => {
                let Some((_, source, report)) = self.grid.as_mut().filter(|g| g.0 == ticket) else {
                    return;
                };
                match retarget(report, target_failed_pct) {
                    Ok(()) => send(ShapingResponse::GridReady(Box::new(
                        super::protocol::GridView {
                            ticket,
                            source: source.clone(),
                            report: report.clone(),
                            millis: 0.0,
                        },
                    ))),
                    Err(message) => failed(Stage::Grid, ticket, message),
                }
            }
            ShapingRequest::ExportRun => {
                if let Some(last) = &self.last {
                    send(ShapingResponse::Csv {
                        name: "skyplan-shaping-apps.csv".into(),
                        text: outcomes_csv(last),
                    });
                }
            }
            ShapingRequest::ExportGrid => {
                if let Some((_, _, report)) = &self.grid {
                    send(ShapingResponse::Csv {
                        name: "skyplan-shaping-grid.csv".into(),
                        text: grid_csv(report),
                    });
                }
            }
        }
    }

    /// "Clear": the workload read from files, the last run and grid go.
    pub fn reset(&mut self, post: &dyn Fn(&Response)) {
        *self = ShapingHost::new();
        post(&Response::Shaping(ShapingResponse::Loaded {
            name: None,
            summary: None,
        }));
    }
}
