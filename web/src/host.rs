//! The worker's side of the boundary: it owns the engine's [`Workspace`]
//! and storage, and hands each [`Request`] to its part's host, one at a
//! time, through the one signature every part host has
//! ([`PartHost::handle`] in the one context [`Ctx`]). Adding a part adds
//! one field to [`Parts`] and one arm of [`dispatch`].

use crate::parts::agenda::host::AgendaHost;
use crate::parts::bundle::host::BundleHost;
use crate::parts::forecast::host::ForecastHost;
use crate::parts::harvest::host::HarvestHost;
use crate::parts::pricing::host::PricingHost;
use crate::parts::runway::host::RunwayHost;
use crate::parts::shaping::host::ShapingHost;
use crate::parts::slos::host::SlosHost;
use crate::parts::traces::host::{After, TracesHost};
use crate::parts::tuning::host::TuningHost;
use crate::protocol::{Request, Response};
use crate::store::Store;
use crate::toolkit::host::{Ctx, PartHost};
use skyplan_engine::Workspace;
use std::collections::{HashSet, VecDeque};
use std::rc::Rc;
use web_sys::{Blob, IdbFactory};

// The coalescing tests below name these requests.
#[cfg(test)]
use crate::parts::{pricing::protocol::PricingRequest, slos::protocol::SlosRequest};

/// Where responses go (the worker posts them to the page).
pub type Outbox = Rc<dyn Fn(&Response)>;

/// The engine host: workspace, storage, the page's outbox, and each part's
/// worker state.
pub struct Host {
    workspace: Workspace,
    store: Option<Store>,
    outbox: Outbox,
    parts: Parts,
}

/// Each part's worker state.
#[derive(Default)]
struct Parts {
    /// The loaded files.
    traces: TracesHost,
    /// The SLO decisions.
    slos: SlosHost,
    /// The Agenda panel's plan.
    agenda: AgendaHost,
    /// The Pricing panel's estimators and queue.
    pricing: PricingHost,
    /// The forecasts of a series.
    forecast: ForecastHost,
    /// The Tuning panel's imported file and last run.
    tuning: TuningHost,
    /// The Harvest panel's tenants file and classification.
    harvest: HarvestHost,
    /// The Shaping panel's workload file, last run and grid.
    shaping: ShapingHost,
    /// The workspace bundle: saved from, and opened into, the store.
    bundle: BundleHost,
    /// The Runway panel's settings; its runs plan on the saved workspace.
    runway: RunwayHost,
}

/// Hands `request` to its part's host.
async fn dispatch(parts: &mut Parts, ctx: &mut Ctx<'_>, request: Request) {
    match request {
        Request::Traces(r) => parts.traces.handle(ctx, r).await,
        Request::Slos(r) => parts.slos.handle(ctx, r).await,
        Request::Agenda(r) => parts.agenda.handle(ctx, r).await,
        Request::Pricing(r) => parts.pricing.handle(ctx, r).await,
        Request::Forecast(r) => parts.forecast.handle(ctx, r).await,
        Request::Tuning(r) => parts.tuning.handle(ctx, r).await,
        Request::Harvest(r) => parts.harvest.handle(ctx, r).await,
        Request::Shaping(r) => parts.shaping.handle(ctx, r).await,
        Request::Bundle(r) => parts.bundle.handle(ctx, r).await,
        Request::Runway(r) => parts.runway.handle(ctx, r).await,
    }
}

impl Parts {
    /// The demo's content beyond its files: its SLO decisions (for jobs
    /// not decided yet), the plan they make when nothing is planned, a
    /// pricing queue admitted from its job history when the queue is empty,
    /// its tenants and reimages files — so every panel opens at work.
    async fn seed(&mut self, ctx: &mut Ctx<'_>) {
        self.slos.seed(ctx).await;
        self.agenda.seed(ctx).await;
        self.pricing.seed(ctx).await;
        self.harvest.seed(ctx).await;
    }

    /// "Clear" empties everything: after the files, the decisions, the
    /// plan, the pricing queue, the Tuning, Harvest and Shaping panels'
    /// files and runs.
    async fn clear(&mut self, ctx: &mut Ctx<'_>) {
        self.slos.clear(ctx).await;
        self.agenda.clear(ctx).await;
        self.pricing.clear(ctx).await;
        self.tuning.clear(ctx).await;
        self.harvest.clear(ctx).await;
        self.shaping.clear(ctx).await;
    }
}

impl Host {
    /// A host with an empty workspace and no storage yet.
    pub fn new(outbox: Outbox) -> Host {
        Host {
            workspace: Workspace::new(),
            store: None,
            outbox,
            parts: Parts::default(),
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

    /// The parts and the context they answer in (`file`: the one posted
    /// with the request).
    fn split(&mut self, file: Option<Blob>) -> (&mut Parts, Ctx<'_>) {
        let ctx = Ctx {
            workspace: &mut self.workspace,
            store: self.store.as_ref(),
            post: &*self.outbox,
            file,
        };
        (&mut self.parts, ctx)
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
        let (parts, mut ctx) = self.split(None);
        parts.slos.restore(&mut ctx).await;
        let (first_visit, seeded) = match saved {
            Some(saved) => {
                for (key, why) in saved.unreadable {
                    ctx.notice(format!("A saved file was dropped: {why}."));
                    parts.traces.forget(&ctx, key).await;
                }
                let first_visit = !saved.seeded && saved.records.is_empty();
                for record in saved.records {
                    parts.traces.restore(&mut ctx, record).await;
                }
                (first_visit, saved.seeded)
            }
            None => (true, true),
        };
        if first_visit {
            parts.traces.load_demo(&mut ctx).await;
            parts.seed(&mut ctx).await;
        }
        if !seeded {
            if let Some(Err(e)) = match ctx.store {
                Some(store) => Some(store.mark_seeded().await),
                None => None,
            } {
                ctx.notice(format!("Could not save the workspace state: {e}"));
            }
        }
        BundleHost::announce(&ctx).await;
        ctx.send(Response::Ready);
        parts.traces.post_summary(&ctx);
    }

    /// Answers one request; the demo and "Clear" of the Traces part are
    /// followed by every part. Once a workspace bundle has replaced the
    /// saved workspace, nothing more is answered: the page reloads, and
    /// the parts here still hold the old workspace, which must not be
    /// written over the bundle's.
    pub async fn handle(&mut self, request: Request, file: Option<Blob>) {
        if self.parts.bundle.opened() {
            return;
        }
        let after = match &request {
            Request::Traces(r) => After::of(r),
            _ => After::Nothing,
        };
        let (parts, mut ctx) = self.split(file);
        dispatch(parts, &mut ctx, request).await;
        match after {
            After::Nothing => {}
            After::Demo => parts.seed(&mut ctx).await,
            After::Cleared => parts.clear(&mut ctx).await,
        }
    }
}

/// Drops from `queue` every request that a later one supersedes (as each
/// request says: [`Request::supersedes_key`]), so a burst of slider changes
/// or keystrokes costs one fit, quote, simulation or forecast. The order
/// of everything else is kept.
pub fn coalesce<T>(queue: &mut VecDeque<(Request, T)>) {
    let mut later = HashSet::new();
    let mut keep: Vec<bool> = queue
        .iter()
        .rev()
        .map(|(request, _)| request.supersedes_key().is_none_or(|key| later.insert(key)))
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
