//! The page's state: the shared [`Page`] handle and one desk per part of
//! the product. [`Studio::apply`] hands each worker answer to its part's
//! desk. Holds no algorithm. Adding a part adds one field here.

use crate::page::Page;
use crate::parts::agenda::desk::AgendaDesk;
use crate::parts::bundle::desk::{is_bundle, BundleDesk};
use crate::parts::forecast::desk::ForecastDesk;
use crate::parts::harvest::desk::HarvestDesk;
use crate::parts::pricing::desk::PricingDesk;
use crate::parts::runway::desk::RunwayDesk;
use crate::parts::shaping::desk::ShapingDesk;
use crate::parts::slos::desk::SloDesk;
use crate::parts::traces::desk::TracesDesk;
use crate::parts::tuning::desk::TuningDesk;
use crate::protocol::Response;
use leptos::prelude::*;
use std::time::Duration;
use web_sys::File;

/// The studio's state, shared by every panel through context.
#[derive(Clone, Copy)]
pub struct Studio {
    /// Sending, notices, readiness.
    pub page: Page,
    /// The Traces panel's state (the workspace as last reported).
    pub traces: TracesDesk,
    /// The SLOs panel's state.
    pub slo: SloDesk,
    /// The Agenda panel's state.
    pub agenda: AgendaDesk,
    /// The Pricing panel's state.
    pub pricing: PricingDesk,
    /// The forecast view's state (in the Traces panel).
    pub forecast: ForecastDesk,
    /// The Tuning panel's state.
    pub tuning: TuningDesk,
    /// The Harvest panel's state.
    pub harvest: HarvestDesk,
    /// The Shaping panel's state.
    pub shaping: ShapingDesk,
    /// The workspace bundle's save and open.
    pub bundle: BundleDesk,
    /// The Runway panel's state.
    pub runway: RunwayDesk,
}

impl Studio {
    /// A fresh state, not yet connected to a worker.
    pub fn new() -> Studio {
        let page = Page::new();
        let traces = TracesDesk::new(page);
        Studio {
            page,
            traces,
            slo: SloDesk::new(page, traces.workspace),
            agenda: AgendaDesk::new(page),
            pricing: PricingDesk::new(page),
            forecast: ForecastDesk::new(page, traces),
            tuning: TuningDesk::new(page),
            harvest: HarvestDesk::new(page),
            shaping: ShapingDesk::new(page),
            bundle: BundleDesk::new(page),
            runway: RunwayDesk::new(page),
        }
    }

    /// Starts the engine worker and routes its responses here.
    pub fn connect(self) {
        self.page.connect(move |response| self.apply(response));
        // The desks whose state lives on the page ask for what was saved.
        self.tuning.open();
        self.forecast.open();
        self.runway.open();
    }

    /// Takes in one response from the worker.
    pub fn apply(self, response: Response) {
        match response {
            Response::Ready => self.page.restarting.set(false),
            // The link keeps it to itself; nothing for a desk.
            Response::Handled { .. } => {}
            Response::Notice { message } => self.page.notify(message),
            Response::Traces(response) => {
                if self.traces.apply(response) {
                    self.workspace_changed();
                }
            }
            Response::Slos(response) => self.slo.apply(response),
            Response::Agenda(response) => self.agenda.apply(response),
            Response::Pricing(response) => self.pricing.apply(response),
            Response::Forecast(response) => self.forecast.apply(response),
            Response::Tuning(response) => self.tuning.apply(response),
            Response::Harvest(response) => self.harvest.apply(response),
            Response::Shaping(response) => self.shaping.apply(response),
            Response::Bundle(response) => self.bundle.apply(response),
            Response::Runway(response) => self.runway.apply(response),
        }
    }

    /// Files dropped or picked where the page takes files: a workspace
    /// bundle (`.skyplan`) is opened in place of the workspace (the first,
    /// if several), any other file imported as a trace.
    pub fn take_files(self, files: Vec<File>) {
        let (bundles, traces): (Vec<File>, Vec<File>) =
            files.into_iter().partition(|f| is_bundle(&f.name()));
        if !traces.is_empty() {
            self.traces.import_files(traces);
        }
        if let Some(bundle) = bundles.into_iter().next() {
            self.bundle.open(bundle);
        }
    }

    /// A new workspace summary arrived: the parts that show it refresh, and
    /// the page is flagged ready after the first one.
    fn workspace_changed(self) {
        self.slo.workspace_changed();
        self.runway.workspace_changed();
        let ready = self.page.ready;
        if !ready.get_untracked() {
            ready.set(true);
            // After the reactive updates of this summary have reached the DOM.
            set_timeout(mark_body_ready, Duration::ZERO);
        }
    }
}

impl Default for Studio {
    fn default() -> Self {
        Studio::new()
    }
}

/// `<body data-ready="true">`: the contract the end-to-end test waits on.
fn mark_body_ready() {
    if let Some(body) = document().body() {
        let _ = body.set_attribute("data-ready", "true");
    }
}
