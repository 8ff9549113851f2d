//! The spare-cycle half's cards of the Harvest panel (the harvesting
//! paper, §3–§6): the primary tenants of
//! the loaded CPU series (grouped by a tenants file or `tenant/server`
//! names) with their pattern by FFT and class by K-Means, sortable and
//! filterable; the chosen tenant's series and spectrum with the detected
//! peak; each class's average day; the harvestable containers per class and
//! hour; Algorithm 1's class selection for a job with every class's
//! probability; and the §6 simulation of YARN-PT against YARN-H, run in the
//! worker with progress (by itself at the tenants' current utilization
//! when they are classified), with each system's branch shares and the
//! thresholds used; and "where it pays", the harvest sweep over size and
//! primary level on the sweep pool. One file per card (the simulation's two tables in their
//! own); [`super::super::panel`] lays them out.
//!
//! Test ids: `harvest-tenants-file`, `harvest-tenants-input`,
//! `harvest-file`, `harvest-classify`, `harvest-status` (`data-running`),
//! `harvest-error`, `harvest-filter`, `harvest-sort` (`data-col`),
//! `harvest-tenant-row` (`data-name`, `data-pattern`, `data-class`),
//! `harvest-verdict`, `harvest-series`, `harvest-spectrum`,
//! `harvest-class-days`, `harvest-capacity` (canvases with `data-drawn`),
//! `harvest-class-row`, `harvest-capacity-low`, `harvest-select-job`,
//! `harvest-select-last`, `harvest-select-containers`, `harvest-select-hour`,
//! `harvest-select-run`, `harvest-select-result` (`data-type`,
//! `data-outcome`), `harvest-option-row` (`data-id`, `data-probability`),
//! `harvest-select-error`, `harvest-sim-run`, `harvest-sim-status`
//! (`data-running`), `harvest-sim-source`, `harvest-sim`, `harvest-sim-row`
//! (`data-level`, `data-improvement`), `harvest-sim-error`,
//! `harvest-system-row` (`data-level`, `data-system`, `data-job-secs`,
//! `data-kills`, `data-one`, `data-several`, `data-none`),
//! `harvest-thresholds` (`data-short`, `data-long`),
//! `harvest-threshold-row` (`data-type`, `data-work-share`,
//! `data-capacity-share`), `harvest-machines-input`,
//! `harvest-machines-file`, `harvest-pays-servers`, `harvest-pays-levels`,
//! `harvest-pays-days`, `harvest-pays-root`, `harvest-pays-status`
//! (`data-running`), `harvest-pays-run`, `harvest-pays-cancel`,
//! `harvest-pays-progress` (`data-workers`), `harvest-pays-error`,
//! `harvest-pays-chart`, `harvest-pays-row` (`data-cell`, `data-servers`,
//! `data-level`, `data-scaling`, `data-improvement`, `data-pt-kills`,
//! `data-h-kills`).

mod capacity;
mod classes;
mod pays;
mod select;
mod settings;
mod simulation;
mod systems;
mod tenant;
mod tenants;
mod thresholds;

pub use self::capacity::CapacityCard;
pub use self::classes::ClassesCard;
pub use self::pays::PaysCard;
pub use self::select::SelectCard;
pub use self::settings::SettingsCard;
pub use self::simulation::SimulationCard;
pub use self::tenant::TenantCard;
pub use self::tenants::TenantsCard;
