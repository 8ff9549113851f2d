//! The Shaping part in the worker: the workload read from files, the last
//! run (workload, settings and forecasts, kept to re-run for other
//! timelines and for Figure 2's policies), the last grid, exports and
//! timing. Progress is posted at most once per percent.
//!
//! **Persistence**: the files read and the latest run (settings and
//! results, with the timelines shown) are saved as the `meta` record
//! `shaping` ([`super::saved`]) whenever they change, before the panel is
//! answered (so a reload right after an answer finds it saved); it is read
//! back on the first request of a worker session. The panel's
//! [`ShapingRequest::Open`] then shows the saved run without recomputing
//! it, and its follow-ups rebuild the worker's copy from its settings.
//! "Clear" deletes the record. The grid is not saved.

use super::protocol::{
    GridView, ShapingRequest, ShapingResponse, ShapingSettings, Stage, TimelinesView,
};
use super::saved::{FilesRead, SavedRun, SavedShaping};
use super::views::{
    error_text, grid_csv, outcomes_csv, read_files, retarget, run, run_grid, LastRun, Throttle,
};
use crate::protocol::now_ms;
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::{Failure, Progress};
use skyplan_engine::shaping::{
    compare_policies_with, timelines, GridReport, Params, ShapingReport, Workload, WorkloadSummary,
};

/// The Shaping part's worker state.
#[derive(Default)]
pub struct ShapingHost {
    /// The saved record was read (on the first request of the session).
    restored: bool,
    /// What is saved: the files read and the latest run.
    saved: SavedShaping,
    /// The workload read from files: its name and itself.
    loaded: Option<(String, Workload)>,
    /// The last run.
    last: Option<LastRun>,
    /// The ticket the page showed the saved run under (after a reload):
    /// its follow-ups rebuild [`ShapingHost::last`] from its settings.
    reopened: Option<u32>,
    /// The last grid and its ticket.
    grid: Option<(u32, String, GridReport)>,
}

/// The answer to a follow-up (timelines, Figure 2, a new failure target,
/// an export) of a run this worker does not hold: the engine restarted
/// (Cancel) since, or a later run replaced it.
const RUN_AGAIN: &str =
    "This run is no longer in the engine (it restarted, or a later run replaced it): run it again.";

/// The answer to a follow-up of the saved run when running its settings
/// again does not give its results back.
const NOT_THE_SAME: &str =
    "The saved run could not be redone as it was (its workload files changed since): run it again.";

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
        self.restore_once(ctx).await;
        let send = |r: ShapingResponse| ctx.send(r);
        let failed = |ticket: u32, message: String| {
            send(ShapingResponse::Failed(Failure::new(ticket, message)))
        };
        match request {
            ShapingRequest::ReadWorkload { files, params } => match read_files(&files, &params) {
                Ok(loaded) => {
                    self.loaded = Some(loaded);
                    self.saved.files = Some(FilesRead { files, params });
                    self.save(ctx).await;
                    self.post_loaded(ctx);
                }
                Err(message) => send(ShapingResponse::ReadFailed { message }),
            },
            ShapingRequest::ForgetWorkload => {
                self.loaded = None;
                self.saved.files = None;
                self.save(ctx).await;
                self.post_loaded(ctx);
            }
            ShapingRequest::Open { ticket, settings } => {
                if self.loaded.is_some() {
                    self.post_loaded(ctx);
                }
                match self.saved.run.as_ref() {
                    Some(saved) => {
                        let (settings, view) = (saved.settings.clone(), saved.reticketed(ticket));
                        // In the session that ran it, the run held is the
                        // one saved: follow-ups name it by the new ticket.
                        if let Some(last) = &mut self.last {
                            last.ticket = ticket;
                        }
                        self.reopened = Some(ticket);
                        send(ShapingResponse::Restored {
                            settings,
                            view: Box::new(view),
                        });
                    }
                    None => {
                        // Settings kept without a run (a bundle's) are run,
                        // and shown in the form.
                        let settings = match self.saved.settings.clone() {
                            Some(kept) => {
                                send(ShapingResponse::Settings {
                                    ticket,
                                    settings: kept.clone(),
                                });
                                kept
                            }
                            None => settings,
                        };
                        self.run(ctx, ticket, settings).await;
                    }
                }
            }
            ShapingRequest::Run { ticket, settings } => self.run(ctx, ticket, settings).await,
            ShapingRequest::Timelines { ticket, app, host } => {
                let last = match self.held(ticket) {
                    Ok(last) => last,
                    Err(message) => return failed(ticket, message),
                };
                match timelines(&last.workload, &last.params, &last.forecasts, app, host) {
                    Ok(timelines) => {
                        let view = TimelinesView { ticket, timelines };
                        // The run held is the saved one: it is now shown
                        // with these timelines.
                        if let Some(saved) = &mut self.saved.run {
                            saved.view.timelines = Some(view.clone());
                            self.save(ctx).await;
                        }
                        send(ShapingResponse::Timelines(Box::new(view)));
                    }
                    Err(e) => failed(ticket, error_text(&e)),
                }
            }
            ShapingRequest::Compare { ticket, run } => {
                let last = match self.held(run) {
                    Ok(last) => last,
                    Err(message) => return failed(ticket, message),
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
            ShapingRequest::ExportRun => {
                let ticket = self.last.as_ref().map(|l| l.ticket).or(self.reopened);
                match ticket.map(|t| self.held(t)) {
                    Some(Ok(last)) => send(ShapingResponse::Csv {
                        name: "skyplan-shaping-apps.csv".into(),
                        text: outcomes_csv(last),
                    }),
                    Some(Err(message)) => ctx.notice(message),
                    None => ctx.notice(NOTHING_TO_EXPORT),
                }
            }
            ShapingRequest::ExportGrid => match &self.grid {
                Some((_, _, report)) => send(ShapingResponse::Csv {
                    name: "skyplan-shaping-grid.csv".into(),
                    text: grid_csv(report),
                }),
                None => ctx.notice(NOTHING_TO_EXPORT),
            },
        }
    }

    /// "Clear": the workload read from files, the last run and grid go,
    /// and so does the saved record (the next page opens on the default
    /// run).
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        *self = ShapingHost {
            restored: true,
            ..ShapingHost::default()
        };
        ctx.delete_record::<SavedShaping>().await;
        self.post_loaded(ctx);
    }
}

impl ShapingHost {
    /// Reads the saved record on the first request of a worker session
    /// (a new page, or the worker restarted by Cancel): the files are read
    /// again, the run is kept to show. A record that cannot be read is
    /// reported (by [`Ctx::read_record`]) and the panel starts afresh.
    async fn restore_once(&mut self, ctx: &Ctx<'_>) {
        if self.restored {
            return;
        }
        self.restored = true;
        let Some(mut saved) = ctx.read_record::<SavedShaping>().await else {
            return;
        };
        if let Some(read) = &saved.files {
            match read_files(&read.files, &read.params) {
                Ok(loaded) => self.loaded = Some(loaded),
                Err(message) => {
                    ctx.notice(format!(
                        "The saved workload files could not be read again: {message}"
                    ));
                    saved.files = None;
                }
            }
        }
        self.saved = saved;
    }

    /// Saves the record (a failure is a notice; the session goes on).
    async fn save(&self, ctx: &Ctx<'_>) {
        ctx.write_record(&self.saved).await;
    }

    /// Tells the panel which workload is read from files, if any.
    fn post_loaded(&self, ctx: &Ctx<'_>) {
        let summary =
            |w: &Workload, p: &Params| WorkloadSummary::of(w, p.hosts as f64 * p.host_cpu);
        let loaded = self.loaded.as_ref().zip(self.saved.files.as_ref());
        ctx.send(ShapingResponse::Loaded {
            name: loaded.map(|((name, _), _)| name.clone()),
            summary: loaded.map(|((_, w), read)| summary(w, &read.params)),
        });
    }

    /// Runs the baseline and the shaped run; the results are saved, then
    /// sent.
    async fn run(&mut self, ctx: &Ctx<'_>, ticket: u32, settings: ShapingSettings) {
        let mut forecast = Throttle::new(ctx.progress(ticket, progress(Stage::Forecast)));
        let mut simulate = Throttle::new(ctx.progress(ticket, progress(Stage::Simulate)));
        let (answer, millis) = timed(|| {
            run(
                ticket,
                &settings,
                self.loaded.as_ref(),
                &mut |d, t| forecast.tick(d, t),
                &mut |d, t| simulate.tick(d, t),
                &now_ms,
            )
        });
        match answer {
            Ok((mut view, last)) => {
                view.millis = millis;
                self.last = Some(last);
                self.reopened = None;
                self.saved.run = Some(SavedRun {
                    settings,
                    view: view.clone(),
                });
                self.saved.settings = None;
                self.save(ctx).await;
                ctx.send(ShapingResponse::Ready(Box::new(view)));
            }
            Err(message) => ctx.send(ShapingResponse::Failed(Failure::new(ticket, message))),
        }
    }

    /// The run that follow-ups of run `ticket` work on: the one held, or,
    /// for the saved run shown again after a reload, its settings run once
    /// more (seeded: the same run, checked by its results), or why not.
    fn held(&mut self, ticket: u32) -> Result<&LastRun, String> {
        let holds = |host: &Self| host.last.as_ref().is_some_and(|l| l.ticket == ticket);
        if !holds(self) && self.reopened == Some(ticket) {
            self.rebuild(ticket)?;
        }
        self.last
            .as_ref()
            .filter(|l| l.ticket == ticket)
            .ok_or_else(|| RUN_AGAIN.to_owned())
    }

    /// Runs the saved run's settings again under `ticket`, keeping it when
    /// its results are the saved ones.
    fn rebuild(&mut self, ticket: u32) -> Result<(), String> {
        let saved = self
            .saved
            .run
            .as_ref()
            .ok_or_else(|| RUN_AGAIN.to_owned())?;
        let (view, last) = run(
            ticket,
            &saved.settings,
            self.loaded.as_ref(),
            &mut |_, _| {},
            &mut |_, _| {},
            &now_ms,
        )?;
        if !same_results(&view.report, &saved.view.report) {
            self.reopened = None;
            return Err(NOT_THE_SAME.to_owned());
        }
        self.last = Some(last);
        Ok(())
    }
}

/// Two reports hold the same results. Compared as JSON, where a NaN (a
/// ratio of nothing) equals itself.
fn same_results(a: &ShapingReport, b: &ShapingReport) -> bool {
    serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}
