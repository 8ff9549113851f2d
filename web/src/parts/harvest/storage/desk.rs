//! The storage view's state: its settings as typed, the reimages file in
//! use, the grid with its fill run, the block explorer and the durability
//! and availability simulations. The grid and the simulations are
//! [`Job`]s: answers to anything but the latest run of each are dropped
//! (placements follow the grid's).

use super::protocol::{
    AvailabilityView, DurabilityView, PlaceView, StorageRequest, StorageResponse, StorageSettings,
    StorageView,
};
use crate::page::Page;
use crate::toolkit::files::read_text;
use crate::toolkit::form::{list, numbers, whole};
use crate::toolkit::job::Job;
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
            levels: list(&s.levels),
            seed: s.seed.to_string(),
        }
    }
}

impl StorageForm {
    /// The settings (the engine checks the ranges).
    pub fn settings(&self) -> Result<StorageSettings, String> {
        Ok(StorageSettings {
            grid: whole(&self.grid, "Grid")?,
            replication: whole(&self.replication, "Replicas")?,
            blocks: whole(&self.blocks, "Blocks")?,
            runs: whole(&self.runs, "Runs")?,
            availability_blocks: whole(&self.availability_blocks, "Availability blocks")?,
            levels: numbers(&self.levels, "Levels")?,
            seed: whole(&self.seed, "Seed")?,
        })
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
    /// The grid, statistics and fill run (its error line also says why a
    /// reimages file was refused).
    pub grid: Job<StorageView>,
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
    pub durability: Job<DurabilityView>,
    /// Figure 16.
    pub availability: Job<AvailabilityView>,
}

impl StorageDesk {
    /// Nothing computed yet.
    pub fn new(page: Page) -> StorageDesk {
        StorageDesk {
            page,
            form: RwSignal::new(StorageForm::default()),
            reimages_file: RwSignal::new(None),
            grid: Job::new(page),
            writer_tenant: RwSignal::new(String::new()),
            writer_server: RwSignal::new("1".into()),
            policy: RwSignal::new(Policy::HdfsH),
            placed: RwSignal::new(None),
            place_error: RwSignal::new(None),
            durability: Job::new(page),
            availability: Job::new(page),
        }
    }

    fn send(self, request: StorageRequest) {
        self.page.send(request);
    }

    /// The settings, or why not (shown on `error`).
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
        let asked = self.form.with_untracked(StorageForm::settings);
        if let Some((ticket, settings)) = self.grid.start_with(asked) {
            self.send(StorageRequest::Grid { ticket, settings });
        }
    }

    /// Reads a reimages CSV chosen by the user and sends it to the worker.
    pub fn import_reimages(self, file: web_sys::File) {
        self.grid.error.set(None);
        read_text(file, move |read| match read {
            Ok((name, text)) => self.send(StorageRequest::ImportReimages { name, text }),
            Err(message) => self.grid.error.set(Some(message)),
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
            ticket: self.grid.ticket(),
            writer,
            policy: self.policy.get_untracked(),
            settings,
        });
    }

    /// Runs Figure 15's simulation.
    pub fn run_durability(self) {
        let asked = self.form.with_untracked(StorageForm::settings);
        if let Some((ticket, settings)) = self.durability.start_with(asked) {
            self.send(StorageRequest::Durability { ticket, settings });
        }
    }

    /// Runs Figure 16's simulation.
    pub fn run_availability(self) {
        let asked = self.form.with_untracked(StorageForm::settings);
        if let Some((ticket, settings)) = self.availability.start_with(asked) {
            self.send(StorageRequest::Availability { ticket, settings });
        }
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: StorageResponse) {
        match response {
            StorageResponse::ReimagesFile { name, reimages } => {
                let changed = self.reimages_file.get_untracked().map(|f| f.0) != name;
                self.reimages_file.set(name.map(|n| (n, reimages)));
                if changed && self.grid.view.with_untracked(Option::is_some) {
                    self.refresh();
                }
            }
            StorageResponse::Grid(view) => {
                let writer = view
                    .tenants
                    .iter()
                    .find(|t| t.cell.is_some())
                    .map(|t| t.name.clone());
                let known = self
                    .writer_tenant
                    .with_untracked(|w| !w.is_empty() && view.tenants.iter().any(|t| &t.name == w));
                if self.grid.done(view.ticket, *view) {
                    if let (false, Some(writer)) = (known, writer) {
                        self.writer_tenant.set(writer);
                    }
                    self.placed.set(None);
                }
            }
            StorageResponse::Placed(view) => {
                if self.grid.is_current(view.ticket) {
                    self.placed.set(Some(*view));
                }
            }
            StorageResponse::Progress(p) => {
                if !self.durability.progressed(&p) {
                    self.availability.progressed(&p);
                }
            }
            StorageResponse::Durability(view) => {
                self.durability.done(view.ticket, *view);
            }
            StorageResponse::Availability(view) => {
                self.availability.done(view.ticket, *view);
            }
            StorageResponse::FileRefused { message } => self.grid.error.set(Some(message)),
            StorageResponse::Failed(failure) => {
                if !self.grid.failed(&failure) && !self.durability.failed(&failure) {
                    self.availability.failed(&failure);
                }
            }
            StorageResponse::PlaceFailed(failure) => {
                if self.grid.is_current(failure.ticket) {
                    self.place_error.set(Some(failure.message));
                }
            }
        }
    }
}
