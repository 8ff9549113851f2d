//! The studio toolkit: what every part builds on, so that a part is only
//! its own messages, work and views.
//!
//! - On the page: [`job::Job`], one ticketed piece of worker work (a fit,
//!   a quote, a run) with its last result, progress and error, where a new
//!   run supersedes the last; [`run`], its controls on a card (run button,
//!   status note, progress bar with what it is doing, error line); [`form`],
//!   reading typed fields with one wording for what is wrong; [`files`],
//!   reading a picked file as text.
//! - In the messages: [`protocol`], the progress and failure every job
//!   reports and the key by which a queued request is superseded.
//! - Sweeps: on the page, [`pool`], a pool of sweep workers and
//!   [`pool::SweepJob`], the sweep a card shows, with [`sweep_controls`];
//!   in the worker, [`sweep_worker`], what a sweep worker does (it plans
//!   the sweep — validation, the number of cells — and runs its cells: the
//!   page calls no engine function on a sweep).
//! - In the worker: [`host`], the one context a part host answers in and
//!   the one shape of a part host.
//!
//! Nothing here knows a part: parts look down on it, never the reverse.

pub mod protocol;
page_side! {
    pub mod files;
    pub mod form;
    pub mod job;
    pub mod pool;
    pub mod run;
    pub mod sweep_controls;
}
worker_side! {
    pub mod host;
    pub mod sweep_worker;
}
