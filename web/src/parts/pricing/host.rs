//! The worker's side of the Pricing panel (MRM §3.2, §4.2, §5): the
//! estimators fitted on the loaded job history (kept until the history
//! changes: a GP fit of 1,000 jobs takes the better part of a second), the
//! queue of admitted jobs with their deadlines and prices, and its copy in
//! IndexedDB.
//!
//! - **History**: every job with durations in the workspace's job
//!   histories (`Format::job_history`: `job-history-csv` files, the demo's
//!   `history.csv` among them, and the JobHistory server's jobs and tasks).
//! - **Quote**: the job's estimate by every method; the chosen method's PI
//!   upper bounds become its work (`engine::pricing::job_work`); the slack
//!   unit γ is the history's mean processing time; the curve is
//!   `engine::pricing::quote` against the queue.
//! - **Admit**: the price of the chosen deadline (`engine::pricing::price_at`,
//!   which refuses one before the earliest finish), then the job joins the
//!   queue under a unique name.
//! - **Simulation**: MRM §6.3 (`engine::pricing::sweep`) at each load the
//!   page asks for; it runs here, off the page's thread.
//! - **Persistence**: after every change the queue and the settings last
//!   used are saved as the `meta` record `pricing`, read back on the first
//!   request of a session.

use crate::parts::pricing::protocol::{
    JobSpec, PricingRequest, PricingResponse, PricingSettings, QueueRow, QueueView, QuoteView,
    SimView,
};
use crate::parts::pricing::views::{history, history_view, queue_view, QUANTUM};
use crate::protocol::now_ms;
use crate::store::PanelRecord;
use crate::toolkit::host::{timed, Ctx, PartHost};
use crate::toolkit::protocol::Failure;
use skyplan_engine::estimate::{EstimateParams, Estimator, JobEstimate};
use skyplan_engine::export::queue_csv;
use crate::demo::demo_queue_rows;
use skyplan_engine::fixtures::{admitted_rows, demo_queue, QueueParams};
use skyplan_engine::import::read_queue_csv;
use skyplan_engine::pricing::{
    job_work, mean_processing_secs, price_at, quote, sweep, JobWork, LazySchedule, PriceParams,
    PricePoint, QueuedJob, Quote,
};
use skyplan_engine::Workspace;

/// The `meta` record the queue is saved under.
const META_KEY: &str = "pricing";

/// Version of the saved record; another version is not read back.
const SAVED_VERSION: u32 = 1;

/// Deadlines on a quoted curve.
pub const CURVE_POINTS: usize = 60;

/// One admitted job and everything the panel works on, as saved: the
/// engine's panel types, which a workspace bundle carries too.
use skyplan_engine::bundle::{AdmittedJob as Admitted, PricingState as Desk};

crate::store::panel_record!(
    /// The `meta` record `pricing`: the queue and settings with the
    /// record's version.
    SavedPricing { desk: Desk },
    META_KEY,
    "pricing queue",
    SAVED_VERSION
);

/// A job estimated and quoted.
struct Priced {
    work: JobWork,
    estimate: JobEstimate,
    quote: Quote,
    /// Milliseconds of the estimator's fit, when one was needed.
    fit_millis: Option<f64>,
    /// γ, seconds.
    mean_job_secs: f64,
    /// The deadline asked for, priced (or why it cannot be), if one was.
    chosen: Option<Result<PricePoint, String>>,
}

/// The estimators of one history.
struct Model {
    /// Ids of the workspace files the history came from.
    key: Vec<u32>,
    estimator: Estimator,
    /// γ, seconds.
    mean_job_secs: f64,
}

/// The Pricing panel's worker state.
pub struct PricingHost {
    restored: bool,
    desk: Desk,
    model: Option<Model>,
    revision: u64,
}

impl Default for PricingHost {
    fn default() -> Self {
        PricingHost::new()
    }
}

impl PartHost for PricingHost {
    type Request = PricingRequest;

    /// Answers one Pricing request: the workspace holds the job history,
    /// the store the saved queue.
    async fn handle(&mut self, ctx: &mut Ctx<'_>, request: PricingRequest) {
        self.restore_once(ctx).await;
        match request {
            PricingRequest::State => {
                ctx.send(PricingResponse::History(history_view(ctx.workspace())));
                self.post_queue(ctx);
            }
            PricingRequest::Quote {
                ticket,
                job,
                settings,
                deadline,
            } => {
                let t0 = now_ms();
                ctx.send(
                    match self.quote(ctx.workspace(), &job, &settings, deadline) {
                        Ok(p) => PricingResponse::Quote(Box::new(QuoteView {
                            ticket,
                            estimate: p.estimate,
                            work: p.work,
                            quote: p.quote,
                            mean_job_secs: p.mean_job_secs,
                            chosen: p.chosen.clone().and_then(Result::ok),
                            chosen_error: p.chosen.and_then(Result::err),
                            queued: self.desk.queue.len(),
                            fit_millis: p.fit_millis,
                            quote_millis: now_ms() - t0 - p.fit_millis.unwrap_or(0.0),
                        })),
                        Err(message) => PricingResponse::Failed(Failure::new(ticket, message)),
                    },
                );
            }
            PricingRequest::Admit {
                job,
                settings,
                deadline,
            } => self.admit(ctx, job, settings, deadline).await,
            PricingRequest::Remove { name } => {
                let before = self.desk.queue.len();
                self.desk.queue.retain(|a| a.job.name != name);
                if self.desk.queue.len() == before {
                    ctx.send(PricingResponse::Refused {
                        message: format!("`{name}` is not in the queue."),
                    });
                    return;
                }
                self.changed(ctx).await;
            }
            PricingRequest::Clear => {
                self.desk.queue.clear();
                self.changed(ctx).await;
            }
            PricingRequest::ImportQueue {
                settings,
                name,
                text,
            } => self.import(ctx, settings, &name, &text).await,
            PricingRequest::Export => ctx.send(PricingResponse::Exported {
                text: queue_csv(&self.queued()),
            }),
            PricingRequest::Simulate { ticket, settings } => {
                let (runs, millis) = timed(|| sweep(&settings.params(), &settings.interarrivals));
                ctx.send(match runs {
                    Ok(runs) => PricingResponse::Simulated(Box::new(SimView {
                        ticket,
                        settings,
                        runs,
                        millis,
                    })),
                    Err(e) => PricingResponse::Failed(Failure::new(ticket, e.to_string())),
                });
            }
        }
    }

    /// The demo's queue: when the queue is empty, the jobs the engine's
    /// demo generator admits from the loaded history
    /// (`engine::fixtures::demo_queue`), each at the price it was quoted,
    /// on the default cluster. On the demo's own history its rows are
    /// read from `fixtures/demo/queue.csv` and priced again
    /// ([`demo_queue_rows`]): the same queue without the GP fit.
    async fn seed(&mut self, ctx: &mut Ctx<'_>) {
        self.restore_once(ctx).await;
        if !self.desk.queue.is_empty() {
            return;
        }
        let (_, _, jobs) = history(ctx.workspace());
        if jobs.is_empty() {
            return;
        }
        let params = QueueParams::default();
        let admitted = match demo_queue_rows(&jobs) {
            Some(rows) => admitted_rows(&jobs, &rows, &params),
            None => demo_queue(&jobs, &params),
        };
        match admitted {
            Ok(admitted) => {
                self.desk.queue = admitted
                    .into_iter()
                    .map(|a| Admitted {
                        job: a.job,
                        price: Some(a.price),
                        method: Some(a.method),
                    })
                    .collect();
                self.changed(ctx).await;
            }
            Err(e) => ctx.notice(format!("The demo's pricing queue was not built: {e}")),
        }
    }

    /// "Clear" empties the queue.
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        self.handle(ctx, PricingRequest::Clear).await;
    }
}

impl PricingHost {
    /// No queue yet; the saved one is read on the first request.
    pub fn new() -> PricingHost {
        PricingHost {
            restored: false,
            desk: Desk::default(),
            model: None,
            revision: 0,
        }
    }

    /// Reads the saved queue on the first request of a session.
    async fn restore_once(&mut self, ctx: &Ctx<'_>) {
        if !self.restored {
            self.restored = true;
            if let Some(saved) = ctx.read_record::<SavedPricing>().await {
                self.desk = saved.desk;
            }
        }
    }

    fn queued(&self) -> Vec<QueuedJob> {
        self.desk.queue.iter().map(|a| a.job.clone()).collect()
    }

    /// The estimators for the workspace's history at `level`, fitted now
    /// (with the milliseconds it took) or kept from an earlier quote.
    fn model(
        &mut self,
        workspace: &Workspace,
        level: f64,
    ) -> Result<(&Model, Option<f64>), String> {
        let (key, _, jobs) = history(workspace);
        if jobs.is_empty() {
            self.model = None;
            return Err(
                "There is no job history: load a job-history CSV or the JobHistory server's jobs and tasks in Traces (the demo workspace has one)."
                    .into(),
            );
        }
        let mut fit_millis = None;
        let stale = self.model.as_ref().is_none_or(|m| m.key != key);
        if stale {
            let t0 = now_ms();
            let params = EstimateParams {
                level,
                ..EstimateParams::default()
            };
            let estimator = Estimator::fit(&jobs, &params).map_err(|e| e.to_string())?;
            let mean_job_secs = mean_processing_secs(&jobs)
                .ok_or("No job of the history has a positive processing time.")?;
            self.model = Some(Model {
                key,
                estimator,
                mean_job_secs,
            });
            fit_millis = Some(now_ms() - t0);
        }
        let model = self.model.as_mut().ok_or("no model")?;
        model
            .estimator
            .set_level(level)
            .map_err(|e| e.to_string())?;
        Ok((model, fit_millis))
    }

    /// The job's work, estimate and quote against the queue, and the price
    /// of `deadline` when one is given.
    fn quote(
        &mut self,
        workspace: &Workspace,
        job: &JobSpec,
        settings: &PricingSettings,
        deadline: Option<f64>,
    ) -> Result<Priced, String> {
        let queue = self.queued();
        let (model, fit_millis) = self.model(workspace, settings.level)?;
        let name = job.name.trim();
        let estimate = model
            .estimator
            .estimate((!name.is_empty()).then_some(name), &job.features)
            .map_err(|e| e.to_string())?;
        let work = job_work(&estimate, settings.method, &job.features, settings.slots)
            .map_err(|e| e.to_string())?;
        let params = PriceParams {
            function: settings.function,
            mean_job_secs: model.mean_job_secs,
            points: CURVE_POINTS,
            quantum: QUANTUM,
            ..PriceParams::default()
        };
        let gamma = model.mean_job_secs;
        let q = quote(
            &queue,
            settings.slots,
            work.map_work,
            work.reduce_work,
            &params,
        )
        .map_err(|e| e.to_string())?;
        let chosen = deadline.map(|d| {
            price_at(
                &queue,
                settings.slots,
                work.map_work,
                work.reduce_work,
                &params,
                d,
            )
            .map_err(|e| e.to_string())
        });
        Ok(Priced {
            work,
            estimate,
            quote: q,
            fit_millis,
            mean_job_secs: gamma,
            chosen,
        })
    }

    async fn admit(
        &mut self,
        ctx: &Ctx<'_>,
        job: JobSpec,
        settings: PricingSettings,
        deadline: f64,
    ) {
        let priced = self
            .quote(ctx.workspace(), &job, &settings, Some(deadline))
            .and_then(|p| match p.chosen {
                Some(Ok(point)) => Ok((p.work, point.price)),
                Some(Err(message)) => Err(message),
                None => Err("no deadline was chosen".into()),
            });
        let (work, price) = match priced {
            Ok(v) => v,
            Err(message) => {
                ctx.send(PricingResponse::Refused { message });
                return;
            }
        };
        let name = self.unique_name(&job.name);
        let admitted = Admitted {
            job: QueuedJob {
                name: name.clone(),
                map_work: work.map_work,
                reduce_work: work.reduce_work,
                deadline,
            },
            price: Some(price),
            method: Some(settings.method),
        };
        let mut queue = self.queued();
        queue.push(admitted.job.clone());
        if let Err(e) = LazySchedule::build(&queue, settings.slots, QUANTUM) {
            ctx.send(PricingResponse::Refused {
                message: e.to_string(),
            });
            return;
        }
        self.desk.queue.push(admitted);
        self.desk.settings = Some(settings);
        ctx.send(PricingResponse::Admitted {
            name,
            deadline,
            price,
        });
        self.changed(ctx).await;
    }

    /// Adds the jobs of a queue CSV, or says why not.
    async fn import(&mut self, ctx: &Ctx<'_>, settings: PricingSettings, name: &str, text: &str) {
        let jobs = match read_queue_csv(name, text) {
            Ok(jobs) => jobs,
            Err(errors) => {
                let mut message: Vec<String> =
                    errors.iter().take(5).map(|e| e.to_string()).collect();
                if errors.len() > 5 {
                    message.push(format!("… and {} more", errors.len() - 5));
                }
                ctx.send(PricingResponse::Refused {
                    message: message.join("\n"),
                });
                return;
            }
        };
        let before = self.desk.queue.clone();
        for mut job in jobs {
            job.name = self.unique_name(&job.name);
            self.desk.queue.push(Admitted {
                job,
                price: None,
                method: None,
            });
        }
        let slots = settings.slots;
        if let Err(e) = LazySchedule::build(&self.queued(), slots, QUANTUM) {
            self.desk.queue = before;
            ctx.send(PricingResponse::Refused {
                message: format!(
                    "{name} was not imported: {e} on {} map and {} reduce slots",
                    slots.map, slots.reduce
                ),
            });
            return;
        }
        self.desk.settings = Some(settings);
        self.changed(ctx).await;
    }

    /// `base` (or `job`), made unique in the queue with `#2`, `#3`, ….
    fn unique_name(&self, base: &str) -> String {
        let base = match base.trim() {
            "" => "job",
            b => b,
        };
        let taken = |n: &str| self.desk.queue.iter().any(|a| a.job.name == n);
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|k| format!("{base}#{k}"))
            .find(|n| !taken(n))
            .unwrap_or_default()
    }

    async fn changed(&mut self, ctx: &Ctx<'_>) {
        self.revision += 1;
        self.save(ctx).await;
        self.post_queue(ctx);
    }

    fn post_queue(&self, ctx: &Ctx<'_>) {
        ctx.send(PricingResponse::Queue(Box::new(self.queue_view())));
    }

    /// The queue with its lazy schedule on the settings' cluster.
    fn queue_view(&self) -> QueueView {
        let rows = self
            .desk
            .queue
            .iter()
            .map(|a| QueueRow {
                name: a.job.name.clone(),
                map_work: a.job.map_work,
                reduce_work: a.job.reduce_work,
                deadline: a.job.deadline,
                price: a.price,
                method: a.method,
                map: None,
                reduce: None,
            })
            .collect();
        queue_view(self.revision, self.desk.settings, rows)
    }

    async fn save(&self, ctx: &Ctx<'_>) {
        ctx.write_record(&SavedPricing::of_state(self.desk.clone()))
            .await;
    }
}
