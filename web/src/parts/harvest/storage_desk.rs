//! The storage view's state: its settings as typed, the reimages file in
//! use, the grid with its fill run, the block explorer and the durability
//! and availability simulations. Work is ticketed: answers to anything but
//! the latest request of a kind are dropped.

use super::protocol::HarvestRequest;
use super::storage_protocol::{
    AvailabilityView, DurabilityView, PlaceView, StorageRequest, StorageResponse, StorageSettings,
    StorageView,
};
use crate::page::Page;
use crate::protocol::Request;
use leptos::prelude::*;
use skyplan_engine::harvest::Policy;

/// The storage settings as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct StorageForm {
    /// Grid n.
    pub grid: String,
    /// Replicas per block.
    pub replication: String,
    /// Blocks (fill and durability).
    pub blocks: String,
    /// Runs.
    pub runs: String,
    /// Availability blocks.
    pub availability_blocks: String,
    /// Levels, comma-separated.
    pub levels: String,
    /// Seed.
    pub seed: String,
}

impl Default for StorageForm {
    fn default() -> Self {
        let s = StorageSettings::default();
        StorageForm {
            grid: s.grid.to_string(),
            replication: s.replication.to_string(),
            blocks: s.blocks.to_string(),
            runs: s.runs.to_string(),
            availability_blocks: s.availability_blocks.to_string(),
            levels: s
                .levels
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            seed: s.seed.to_string(),
        }
    }
}

fn whole<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.trim()
        .parse::<T>()
        .map_err(|_| format!("{what}: a whole number, please"))
}

impl StorageForm {
    /// The settings (the engine checks the ranges).
    pub fn settings(&self) -> Result<StorageSettings, String> {
        let levels = self
            .levels
            .split(',')
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                l.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| "Levels: numbers, please".to_owned())
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(StorageSettings {
            grid: whole(&self.grid, "Grid")?,
            replication: whole(&self.replication, "Replicas")?,
            blocks: whole(&self.blocks, "Blocks")?,
            runs: whole(&self.runs, "Runs")?,
            availability_blocks: whole(&self.availability_blocks, "Availability blocks")?,
            levels,
            seed: whole(&self.seed, "Seed")?,
        })
    }
}

/// A simulation's state.
pub struct SimSlot<T: Send + Sync + 'static> {
    /// Its last results.
    pub view: RwSignal<Option<T>>,
    /// Running.
    pub running: RwSignal<bool>,
    /// Steps done and in all.
    pub progress: RwSignal<(usize, usize)>,
    /// Its last refusal.
    pub error: RwSignal<Option<String>>,
    ticket: StoredValue<u32>,
}

impl<T: Send + Sync + 'static> Clone for SimSlot<T> {
    fn clone(&self) -> Self {
        *self
    }
}

// Signals are handles: a slot is Copy whatever it holds.
impl<T: Send + Sync + 'static> Copy for SimSlot<T> {}

impl<T: Send + Sync + 'static> SimSlot<T> {
    fn new() -> Self {
        SimSlot {
            view: RwSignal::new(None),
            running: RwSignal::new(false),
            progress: RwSignal::new((0, 0)),
            error: RwSignal::new(None),
            ticket: StoredValue::new(0),
        }
    }

    fn start(self, counter: StoredValue<u32>) -> u32 {
        // One counter for both simulations, so their progress never mixes.
        counter.update_value(|t| *t = t.wrapping_add(1));
        self.ticket.set_value(counter.get_value());
        self.error.set(None);
        self.running.set(true);
        self.progress.set((0, 0));
        self.ticket.get_value()
    }

    fn is(self, ticket: u32) -> bool {
        ticket == self.ticket.get_value()
    }

    fn done(self, view: T) {
        self.running.set(false);
        self.view.set(Some(view));
    }

    fn failed(self, message: String) {
        self.running.set(false);
        self.error.set(Some(message));
    }
}

/// The storage view's signals.
#[derive(Clone, Copy)]
pub struct StorageDesk {
    page: Page,
    /// Settings as typed.
    pub form: RwSignal<StorageForm>,
    /// The reimages file in use and its server reimages.
    pub reimages_file: RwSignal<Option<(String, u64)>>,
    /// The grid, statistics and fill run.
    pub view: RwSignal<Option<StorageView>>,
    /// The grid is being computed.
    pub loading: RwSignal<bool>,
    /// The grid's or the reimages file's last refusal.
    pub error: RwSignal<Option<String>>,
    /// The explorer's writer tenant.
    pub writer_tenant: RwSignal<String>,
    /// The explorer's writer server number (1-based, as typed).
    pub writer_server: RwSignal<String>,
    /// The explorer's policy.
    pub policy: RwSignal<Policy>,
    /// The explorer's last block.
    pub placed: RwSignal<Option<PlaceView>>,
    /// The explorer's last refusal.
    pub place_error: RwSignal<Option<String>>,
    /// Figure 15.
    pub durability: SimSlot<DurabilityView>,
    /// Figure 16.
    pub availability: SimSlot<AvailabilityView>,
    ticket: StoredValue<u32>,
    sim_counter: StoredValue<u32>,
}

impl StorageDesk {
    /// Nothing computed yet.
    pub fn new(page: Page) -> StorageDesk {
        StorageDesk {
            page,
            form: RwSignal::new(StorageForm::default()),
            reimages_file: RwSignal::new(None),
            view: RwSignal::new(None),
            loading: RwSignal::new(false),
            error: RwSignal::new(None),
            writer_tenant: RwSignal::new(String::new()),
            writer_server: RwSignal::new("1".into()),
            policy: RwSignal::new(Policy::HdfsH),
            placed: RwSignal::new(None),
            place_error: RwSignal::new(None),
            durability: SimSlot::new(),
            availability: SimSlot::new(),
            ticket: StoredValue::new(0),
            sim_counter: StoredValue::new(0),
        }
    }

    fn send(self, request: StorageRequest) {
        self.page
            .send(Request::Harvest(HarvestRequest::Storage(Box::new(request))));
    }

    fn settings(self, error: RwSignal<Option<String>>) -> Option<StorageSettings> {
        match self.form.with_untracked(StorageForm::settings) {
            Ok(s) => Some(s),
            Err(e) => {
                error.set(Some(e));
                None
            }
        }
    }

    /// The grid, statistics and fill run (after every classification).
    pub fn refresh(self) {
        let Some(settings) = self.settings(self.error) else {
            return;
        };
        self.ticket.update_value(|t| *t = t.wrapping_add(1));
        self.error.set(None);
        self.loading.set(true);
        self.send(StorageRequest::Grid {
            ticket: self.ticket.get_value(),
            settings,
        });
    }

    /// Reads a reimages CSV chosen by the user and sends it to the worker.
    pub fn import_reimages(self, file: web_sys::File) {
        let name = file.name();
        self.error.set(None);
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => self.send(StorageRequest::ImportReimages {
                    name,
                    text: text.as_string().unwrap_or_default(),
                }),
                Err(e) => self.error.set(Some(format!(
                    "{name} could not be read: {}",
                    crate::protocol::js_error_text(&e)
                ))),
            }
        });
    }

    /// Places one block from the explorer's writer.
    pub fn place(self) {
        let Some(settings) = self.settings(self.place_error) else {
            return;
        };
        let writer = format!(
            "{}/s{}",
            self.writer_tenant.get_untracked(),
            self.writer_server.get_untracked().trim()
        );
        self.place_error.set(None);
        self.send(StorageRequest::Place {
            ticket: self.ticket.get_value(),
            writer,
            policy: self.policy.get_untracked(),
            settings,
        });
    }

    /// Runs Figure 15's simulation.
    pub fn run_durability(self) {
        let Some(settings) = self.settings(self.durability.error) else {
            return;
        };
        let ticket = self.durability.start(self.sim_counter);
        self.send(StorageRequest::Durability { ticket, settings });
    }

    /// Runs Figure 16's simulation.
    pub fn run_availability(self) {
        let Some(settings) = self.settings(self.availability.error) else {
            return;
        };
        let ticket = self.availability.start(self.sim_counter);
        self.send(StorageRequest::Availability { ticket, settings });
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: StorageResponse) {
        let latest = self.ticket.get_value();
        match response {
            StorageResponse::ReimagesFile { name, reimages } => {
                let changed = self.reimages_file.get_untracked().map(|f| f.0) != name;
                self.reimages_file.set(name.map(|n| (n, reimages)));
                if changed && self.view.with_untracked(Option::is_some) {
                    self.refresh();
                }
            }
            StorageResponse::Grid(view) if view.ticket == latest => {
                self.loading.set(false);
                if self
                    .writer_tenant
                    .with_untracked(|w| w.is_empty() || !view.tenants.iter().any(|t| &t.name == w))
                {
                    if let Some(t) = view.tenants.iter().find(|t| t.cell.is_some()) {
                        self.writer_tenant.set(t.name.clone());
                    }
                }
                self.view.set(Some(*view));
                self.placed.set(None);
            }
            StorageResponse::Placed(view) if view.ticket == latest => {
                self.placed.set(Some(*view));
            }
            StorageResponse::Progress {
                ticket,
                done,
                total,
            } => {
                if self.durability.is(ticket) && self.durability.running.get_untracked() {
                    self.durability.progress.set((done, total));
                }
                if self.availability.is(ticket) && self.availability.running.get_untracked() {
                    self.availability.progress.set((done, total));
                }
            }
            StorageResponse::Durability(view) if self.durability.is(view.ticket) => {
                self.durability.done(*view);
            }
            StorageResponse::Availability(view) if self.availability.is(view.ticket) => {
                self.availability.done(*view);
            }
            StorageResponse::Failed {
                what,
                ticket,
                message,
            } => match what.as_str() {
                "reimages" => self.error.set(Some(message)),
                "grid" if ticket == latest => {
                    self.loading.set(false);
                    self.error.set(Some(message));
                }
                "place" if ticket == latest => self.place_error.set(Some(message)),
                "durability" if self.durability.is(ticket) => self.durability.failed(message),
                "availability" if self.availability.is(ticket) => self.availability.failed(message),
                _ => {}
            },
            // Superseded answers: dropped.
            StorageResponse::Grid(_)
            | StorageResponse::Placed(_)
            | StorageResponse::Durability(_)
            | StorageResponse::Availability(_) => {}
        }
    }
}
