//! Price–deadline negotiation (MRM §4–§5).
//!
//! - [`slots`]: the slotted single-server model of §4.1 — the price of each
//!   deadline slot for a delay-tolerant job is the probability that choosing
//!   it causes one more rejection of a delay-sensitive job, computed by the
//!   capacity/overflow recursion and checked against the brute force over
//!   all arrival patterns.
//! - [`schedule`]: the lazy schedule of admitted jobs and the earliest
//!   feasible finish time of a new one by filling its slack (§5, Fig. 7).
//! - [`price`]: price–deadline curves by eq. (13) and the alternatives
//!   (14)–(16), and the price of one chosen deadline;
//! - [`work`]: a processing-time estimate (seconds per phase) turned into
//!   the slot-seconds of work the schedule plans with;
//! - [`edf`]: the same earliest finish and eq. (13) on one preemptive
//!   server in continuous time, in closed form (for the simulation).
//! - [`simulate`]: §6.3's M/G/1 simulation — priced deadlines on EDF
//!   against FCFS and priority — with its workload in [`sim_workload`], its
//!   metrics in [`sim_report`] and the policies compared in [`policy`]
//!   (below both, so the report never imports the simulation).

pub mod edf;
pub mod policy;
pub mod price;
pub mod schedule;
pub mod sim_report;
#[cfg(test)]
mod sim_tests;
pub mod sim_workload;
pub mod simulate;
pub mod slots;
#[cfg(test)]
mod test_support;
pub mod work;

pub use edf::{Committed, Eq13, SlackProfile};
pub use policy::Policy;
pub use price::{price_at, processing_secs, quote, PriceFunction, PriceParams, PricePoint, Quote};
pub use schedule::{LazySchedule, QueuedJob, ScheduleError, Slots};
pub use sim_report::{ByClass, PolicyReport, PricingReport, Summary};
pub use sim_workload::{table1_durations, Arrivals, Durations, SimError, SimParams};
pub use simulate::{simulate, sweep, SimReport};
pub use slots::{price_curve, price_curve_brute_force, PricingError};
pub use work::{job_work, mean_processing_secs, phase_work, JobWork};
