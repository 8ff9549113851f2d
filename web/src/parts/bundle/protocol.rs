//! The workspace bundle's messages: save everything the studio keeps as
//! one `.skyplan` file, or open one in its place. Carried by
//! [`crate::protocol::Request::Bundle`] and
//! [`crate::protocol::Response::Bundle`].

use crate::toolkit::protocol::{Failure, Supersedes};
use serde::{Deserialize, Serialize};

/// What the page asks of the worker about workspace bundles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum BundleRequest {
    /// Gather the saved workspace — files with their bytes, SLO decisions,
    /// every panel's record — into bundle bytes (answered by
    /// [`BundleResponse::Saved`] or [`BundleResponse::Failed`]).
    Save {
        /// The page's ticket, echoed.
        ticket: u32,
    },
    /// Render the saved workspace as the plan report (answered by
    /// [`BundleResponse::Progress`] as it goes, then
    /// [`BundleResponse::Report`] or [`BundleResponse::Failed`]).
    Report {
        /// The page's ticket, echoed.
        ticket: u32,
        /// The page's clock, seconds since the epoch (the report says when
        /// it was made; the engine has no clock).
        now_secs: i64,
    },
    /// Open the bundle posted next to this message in place of the saved
    /// workspace (answered by [`BundleResponse::Opened`], after which the
    /// page reloads, or [`BundleResponse::Failed`], with nothing changed).
    Open {
        /// The page's ticket, echoed.
        ticket: u32,
        /// The file's name, said in every message.
        name: String,
    },
}

impl BundleRequest {
    /// A later save supersedes one still queued (the same bytes); every
    /// open is answered.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            BundleRequest::Save { .. } => Supersedes::any("bundle save"),
            BundleRequest::Report { .. } => Supersedes::any("bundle report"),
            BundleRequest::Open { .. } => None,
        }
    }
}

/// What the worker tells the page about workspace bundles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum BundleResponse {
    /// The saved workspace as bundle bytes, to download.
    Saved {
        /// The save's ticket.
        ticket: u32,
        /// The bundle.
        #[serde(with = "crate::toolkit::protocol::bytes")]
        bytes: Vec<u8>,
        /// What it holds, in words (`4 files, 12 SLO decisions, …`).
        contents: String,
        /// Worker time to gather and compress, milliseconds.
        millis: f64,
    },
    /// The report's progress: the section it is computing.
    Progress {
        /// The report's ticket.
        ticket: u32,
        /// What it is doing, in words (`shaping: application 120 of 400`).
        stage: String,
    },
    /// The plan report, one self-contained HTML page, to download.
    Report {
        /// The report's ticket.
        ticket: u32,
        /// The page.
        html: String,
        /// Its sections with their input (`true`) or its absence.
        sections: Vec<(String, bool)>,
        /// Worker time to gather and render, milliseconds.
        millis: f64,
    },
    /// The bundle replaced the saved workspace; the page reloads to restore
    /// every panel from it, as on any reload.
    Opened {
        /// The open's ticket.
        ticket: u32,
        /// What was opened, in words (`Opened name.skyplan: …`).
        message: String,
        /// Worker time to read, check and write it, milliseconds.
        millis: f64,
    },
    /// A save or an open refused (the file's name and why); an open
    /// refused changes nothing.
    Failed(Failure),
}
