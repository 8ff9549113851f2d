//! The report's sections, one file each, in the order the page shows them.
//! A section writes its body and returns whether the bundle held its input
//! (when not, it wrote the one line saying so).

mod agenda;
mod harvest;
mod pricing;
mod runway;
mod shaping;
mod slos;
mod sources;
mod tuning;

use crate::context::Context;
use crate::html::Html;
use crate::progress::{Progress, Stage};

/// One section: its anchor, heading, stage and writer.
pub struct Section {
    /// Anchor in the page.
    pub id: &'static str,
    /// Heading.
    pub title: &'static str,
    /// Its progress stage.
    pub stage: Stage,
    /// Writes the body; `true` when the bundle held its input.
    pub write: fn(&Context<'_>, &mut Html, &mut dyn FnMut(Progress)) -> bool,
}

/// Every section, in page order.
pub const ALL: &[Section] = &[
    Section {
        id: "runway",
        title: "Runway: when the cluster runs out, what to add and when",
        stage: Stage::Runway,
        write: runway::write,
    },
    Section {
        id: "sources",
        title: "Workspace: span and sources",
        stage: Stage::Sources,
        write: sources::write,
    },
    Section {
        id: "slos",
        title: "Signed-off SLOs and their skylines",
        stage: Stage::Slos,
        write: slos::write,
    },
    Section {
        id: "agenda",
        title: "Agenda: peak, cost and refused requests",
        stage: Stage::Agenda,
        write: agenda::write,
    },
    Section {
        id: "pricing",
        title: "Pricing queue",
        stage: Stage::Pricing,
        write: pricing::write,
    },
    Section {
        id: "harvest",
        title: "Harvesting: classes, capacity, replica placement",
        stage: Stage::Harvest,
        write: harvest::write,
    },
    Section {
        id: "shaping",
        title: "Shaping recommendation",
        stage: Stage::Shaping,
        write: shaping::write,
    },
    Section {
        id: "tuning",
        title: "Scheduler tuning recommendation",
        stage: Stage::Tuning,
        write: tuning::write,
    },
];
