//! The worker's side of the boundary: it owns the engine's [`Workspace`]
//! and storage, and hands each [`Request`] to its part's host, one at a
//! time. Adding a part adds one field and one arm of [`Host::handle`].

use crate::demo::{DEMO_DECISIONS, DEMO_REIMAGES, DEMO_TENANTS};
use crate::parts::agenda::host::AgendaHost;
use crate::parts::forecast::host as forecast;
use crate::parts::forecast::protocol::ForecastRequest;
use crate::parts::harvest::host::HarvestHost;
use crate::parts::harvest::protocol::HarvestRequest;
use crate::parts::pricing::host::PricingHost;
use crate::parts::pricing::protocol::PricingRequest;
use crate::parts::shaping::host::ShapingHost;
use crate::parts::shaping::protocol::ShapingRequest;
use crate::parts::slos::host as slos;
use crate::parts::slos::protocol::SlosRequest;
use crate::parts::traces::host::{self as traces, Loaded, TracesHost};
use crate::parts::tuning::host::TuningHost;
use crate::parts::tuning::protocol::TuningRequest;
use crate::protocol::{Request, Response};
use crate::store::Store;
use skyplan_engine::import::read_decisions_csv;
use skyplan_engine::Workspace;
use std::collections::{HashSet, VecDeque};
use std::rc::Rc;
use web_sys::{Blob, IdbFactory};

/// Where responses go (the worker posts them to the page).
pub type Outbox = Rc<dyn Fn(&Response)>;

/// The engine host: workspace, storage, the page's outbox, and each part's
/// worker state.
pub struct Host {
    workspace: Workspace,
    store: Option<Store>,
    outbox: Outbox,
    /// The loaded files.
    traces: TracesHost,
    /// The Agenda panel's plan.
    agenda: AgendaHost,
    /// The Pricing panel's estimators and queue.
    pricing: PricingHost,
    /// The Tuning panel's imported file and last run.
    tuning: TuningHost,
    /// The Harvest panel's tenants file and classification.
    harvest: HarvestHost,
    /// The Shaping panel's workload file, last run and grid.
    shaping: ShapingHost,
}

impl Host {
    /// A host with an empty workspace and no storage yet.
    pub fn new(outbox: Outbox) -> Host {
        Host {
            workspace: Workspace::new(),
            store: None,
            outbox,
            traces: TracesHost::new(),
            agenda: AgendaHost::new(),
            pricing: PricingHost::new(),
            tuning: TuningHost::new(),
            harvest: HarvestHost::new(),
            shaping: ShapingHost::new(),
        }
    }

    fn notice(&self, message: String) {
        (self.outbox)(&Response::Notice { message });
    }

    /// What to say while an older skyplan page holds the database open.
    fn blocked_notice(&self) -> impl Fn() + 'static {
        let outbox = Rc::clone(&self.outbox);
        move || {
            outbox(&Response::Notice {
                message: "Saved data is being upgraded for this version: close or reload the other skyplan tabs to continue.".into(),
            })
        }
    }

    /// The Traces part's context.
    fn traces_ctx(&mut self) -> traces::Ctx<'_> {
        traces::Ctx {
            workspace: &mut self.workspace,
            store: self.store.as_ref(),
            post: &*self.outbox,
        }
    }

    /// The SLOs part's context.
    fn slos_ctx(&mut self) -> slos::Ctx<'_> {
        slos::Ctx {
            workspace: &mut self.workspace,
            store: self.store.as_ref(),
            post: &*self.outbox,
        }
    }

    /// Opens storage, restores the saved files in order (or loads the demo
    /// workspace on a first visit) and the saved SLO decisions, then posts
    /// [`Response::Ready`] and the first workspace summary. Storage
    /// problems are reported as notices and the session goes on without
    /// persistence.
    pub async fn start(&mut self, factory: Option<IdbFactory>) {
        let store = match factory {
            Some(factory) => match Store::open(&factory, self.blocked_notice()).await {
                Ok(store) => Some(store),
                Err(e) => {
                    self.notice(format!(
                        "Saved workspace unavailable ({e}); changes will not survive a reload."
                    ));
                    None
                }
            },
            None => {
                self.notice(
                    "This browser offers no IndexedDB here; changes will not survive a reload."
                        .into(),
                );
                None
            }
        };
        let saved = match &store {
            Some(store) => match store.load().await {
                Ok(saved) => Some(saved),
                Err(e) => {
                    self.notice(format!("Could not read the saved workspace: {e}"));
                    None
                }
            },
            None => None,
        };
        self.store = store;
        slos::restore_decisions(&mut self.slos_ctx()).await;
        match saved {
            Some(saved) => {
                let mut traces = std::mem::take(&mut self.traces);
                for (key, why) in saved.unreadable {
                    self.notice(format!("A saved file was dropped: {why}."));
                    traces::forget(&self.traces_ctx(), key).await;
                }
                let first_visit = !saved.seeded && saved.records.is_empty();
                for record in saved.records {
                    traces.restore(&mut self.traces_ctx(), record).await;
                }
                if first_visit {
                    traces.load_demo(&mut self.traces_ctx()).await;
                }
                self.traces = traces;
                if first_visit {
                    self.seed_demo().await;
                }
                if !saved.seeded {
                    if let Some(Err(e)) = match &self.store {
                        Some(store) => Some(store.mark_seeded().await),
                        None => None,
                    } {
                        self.notice(format!("Could not save the workspace state: {e}"));
                    }
                }
            }
            None => {
                let mut traces = std::mem::take(&mut self.traces);
                traces.load_demo(&mut self.traces_ctx()).await;
                self.traces = traces;
                self.seed_demo().await;
            }
        }
        (self.outbox)(&Response::Ready);
        self.traces_ctx().post_summary();
    }

    /// Answers one request.
    pub async fn handle(&mut self, request: Request, file: Option<Blob>) {
        match request {
            Request::Traces(request) => {
                let mut traces = std::mem::take(&mut self.traces);
                let loaded = traces.handle(&mut self.traces_ctx(), request, file).await;
                self.traces = traces;
                match loaded {
                    Loaded::Files => {}
                    Loaded::Demo => self.seed_demo().await,
                    Loaded::Cleared => self.clear_parts().await,
                }
            }
            Request::Slos(request) => slos::handle(&mut self.slos_ctx(), request).await,
            Request::Agenda(request) => {
                let (workspace, store) = (&self.workspace, self.store.as_ref());
                let post = |r: &Response| (self.outbox)(r);
                self.agenda.handle(request, workspace, store, &post).await;
            }
            Request::Pricing(request) => {
                let (workspace, store) = (&self.workspace, self.store.as_ref());
                let post = |r: &Response| (self.outbox)(r);
                self.pricing.handle(request, workspace, store, &post).await;
            }
            Request::Forecast(request) => forecast::handle(&self.workspace, request, &*self.outbox),
            Request::Harvest(request) => {
                let (workspace, store) = (&self.workspace, self.store.as_ref());
                self.harvest
                    .handle(request, workspace, store, &*self.outbox)
                    .await;
            }
            Request::Tuning(request) => self.tuning.handle(&self.workspace, request, &*self.outbox),
            Request::Shaping(request) => self.shaping.handle(request, &*self.outbox),
        }
    }
}

impl Host {
    /// The demo's content beyond its files: its SLO decisions (for jobs not
    /// decided yet), the plan they make when nothing is planned, and a
    /// pricing queue admitted from its job history when the queue is empty — so every panel opens at work.
    async fn seed_demo(&mut self) {
        match read_decisions_csv(DEMO_DECISIONS.0, DEMO_DECISIONS.1) {
            Ok(decisions) => slos::seed_decisions(&mut self.slos_ctx(), decisions).await,
            Err(errors) => self.notice(format!(
                "The demo's decisions were not read: {}",
                errors.first().map(ToString::to_string).unwrap_or_default()
            )),
        }
        let (workspace, store) = (&self.workspace, self.store.as_ref());
        let post = |r: &Response| (self.outbox)(r);
        self.agenda.seed(workspace, store, &post).await;
        self.pricing.seed(workspace, store, &post).await;
        self.harvest
            .seed(DEMO_TENANTS, DEMO_REIMAGES, store, &*self.outbox)
            .await;
    }

    /// "Clear" empties everything: after the files, the decisions, the plan,
    /// the pricing queue and the Tuning panel's imported file and run.
    async fn clear_parts(&mut self) {
        slos::clear_decisions(&mut self.slos_ctx()).await;
        let (workspace, store) = (&self.workspace, self.store.as_ref());
        let post = |r: &Response| (self.outbox)(r);
        self.agenda.reset(workspace, store, &post).await;
        self.pricing
            .handle(PricingRequest::Clear, workspace, store, &post)
            .await;
        self.tuning.reset();
        self.harvest.reset(store, &*self.outbox).await;
        self.shaping.reset(&*self.outbox);
    }
}

/// Drops from `queue` every skyline fit that a later one for the same job
/// supersedes, and every pricing quote, simulation or forecast a later one
/// supersedes, so a burst of slider changes or keystrokes costs one fit,
/// quote, simulation or forecast. The order of everything else is kept.
pub fn coalesce<T>(queue: &mut VecDeque<(Request, T)>) {
    let mut later: HashSet<String> = HashSet::new();
    let (mut quote_later, mut simulate_later, mut forecast_later) = (false, false, false);
    let (mut tune_later, mut harvest_later, mut harvest_sim_later) = (false, false, false);
    let (mut shape_later, mut shape_grid_later, mut timelines_later) = (false, false, false);
    let mut keep: Vec<bool> = queue
        .iter()
        .rev()
        .map(|(request, _)| match request {
            Request::Slos(SlosRequest::FitSkyline { job, .. }) => later.insert(job.clone()),
            Request::Pricing(PricingRequest::Quote { .. }) => {
                !std::mem::replace(&mut quote_later, true)
            }
            Request::Pricing(PricingRequest::Simulate { .. }) => {
                !std::mem::replace(&mut simulate_later, true)
            }
            Request::Forecast(ForecastRequest::Run { .. }) => {
                !std::mem::replace(&mut forecast_later, true)
            }
            Request::Tuning(TuningRequest::Run { .. }) => !std::mem::replace(&mut tune_later, true),
            Request::Harvest(HarvestRequest::Classify { .. }) => {
                !std::mem::replace(&mut harvest_later, true)
            }
            Request::Harvest(HarvestRequest::Simulate { .. }) => {
                !std::mem::replace(&mut harvest_sim_later, true)
            }
            Request::Shaping(ShapingRequest::Run { .. }) => {
                !std::mem::replace(&mut shape_later, true)
            }
            Request::Shaping(ShapingRequest::Grid { .. }) => {
                !std::mem::replace(&mut shape_grid_later, true)
            }
            Request::Shaping(ShapingRequest::Timelines { .. }) => {
                !std::mem::replace(&mut timelines_later, true)
            }
            _ => true,
        })
        .collect();
    keep.reverse();
    let mut keep = keep.into_iter();
    queue.retain(|_| keep.next().unwrap_or(true));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::traces::protocol::TracesRequest;
    use skyplan_engine::resource_model::ModelParams;

    fn fit(ticket: u32, job: &str) -> Request {
        Request::Slos(SlosRequest::FitSkyline {
            ticket,
            job: job.to_owned(),
            params: ModelParams::paper(),
        })
    }

    /// What [`coalesce`] leaves of `requests`.
    fn coalesced(requests: Vec<Request>) -> Vec<Request> {
        let mut queue: VecDeque<(Request, ())> = requests.into_iter().map(|r| (r, ())).collect();
        coalesce(&mut queue);
        queue.into_iter().map(|(r, _)| r).collect()
    }

    #[test]
    fn coalesce_keeps_the_latest_fit_per_job_and_everything_else() {
        let left = coalesced(vec![
            fit(1, "a"),
            Request::Traces(TracesRequest::Summary),
            fit(2, "b"),
            fit(3, "a"),
            Request::Slos(SlosRequest::Decisions),
            fit(4, "a"),
        ]);
        assert_eq!(
            left,
            vec![
                Request::Traces(TracesRequest::Summary),
                fit(2, "b"),
                Request::Slos(SlosRequest::Decisions),
                fit(4, "a")
            ]
        );
    }

    #[test]
    fn coalesce_keeps_the_latest_pricing_quote() {
        use crate::parts::pricing::protocol::{JobSpec, PricingSettings};
        let quote = |ticket| {
            Request::Pricing(PricingRequest::Quote {
                ticket,
                job: JobSpec {
                    name: "j".into(),
                    features: Default::default(),
                },
                settings: PricingSettings::default(),
                deadline: None,
            })
        };
        let left = coalesced(vec![
            quote(1),
            Request::Pricing(PricingRequest::Clear),
            quote(2),
            fit(3, "a"),
            quote(4),
        ]);
        assert_eq!(
            left,
            vec![
                Request::Pricing(PricingRequest::Clear),
                fit(3, "a"),
                quote(4)
            ]
        );
    }

    #[test]
    fn coalesce_keeps_the_latest_shaping_run_grid_and_timelines() {
        use crate::parts::shaping::protocol::{ShapingRequest, ShapingSettings};
        let run = |ticket| {
            Request::Shaping(ShapingRequest::Run {
                ticket,
                settings: ShapingSettings::default(),
            })
        };
        let grid = |ticket| {
            Request::Shaping(ShapingRequest::Grid {
                ticket,
                settings: ShapingSettings::default(),
                apps: 10,
                target_failed_pct: 1.0,
            })
        };
        let timelines = |app| {
            Request::Shaping(ShapingRequest::Timelines {
                ticket: 1,
                app,
                host: 0,
            })
        };
        let left = coalesced(vec![
            run(1),
            timelines(3),
            grid(1),
            Request::Shaping(ShapingRequest::ExportRun),
            run(2),
            timelines(4),
            grid(2),
        ]);
        assert_eq!(
            left,
            vec![
                Request::Shaping(ShapingRequest::ExportRun),
                run(2),
                timelines(4),
                grid(2)
            ]
        );
    }

    #[test]
    fn coalesce_leaves_a_single_request_alone() {
        let mut queue: VecDeque<(Request, ())> = [(fit(9, "a"), ())].into_iter().collect();
        coalesce(&mut queue);
        assert_eq!(queue.len(), 1);
        let mut empty: VecDeque<(Request, ())> = VecDeque::new();
        coalesce(&mut empty);
        assert!(empty.is_empty());
    }
}
