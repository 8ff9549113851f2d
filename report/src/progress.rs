//! Where a report is: the section being computed and, in the heavy ones,
//! how far it got.

/// A section's computation, in the order the report makes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading the bundle's files.
    Sources,
    /// The runway, the purchase schedule and the levers.
    Runway,
    /// The SLOs and their skylines.
    Slos,
    /// The agenda.
    Agenda,
    /// The pricing queue.
    Pricing,
    /// Classes, harvestable capacity, replica placement, durability.
    Harvest,
    /// The shaping simulation.
    Shaping,
    /// The tuning pass and its simulated confirmation.
    Tuning,
    /// The page is written.
    Done,
}

impl Stage {
    /// The stage in words.
    pub fn label(self) -> &'static str {
        match self {
            Stage::Sources => "reading the workspace",
            Stage::Runway => "runway",
            Stage::Slos => "SLOs",
            Stage::Agenda => "agenda",
            Stage::Pricing => "pricing queue",
            Stage::Harvest => "harvesting",
            Stage::Shaping => "shaping",
            Stage::Tuning => "tuning",
            Stage::Done => "done",
        }
    }
}

/// One report of progress: `done` of `total` steps of `stage` (0 of 0 when
/// a stage starts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The stage.
    pub stage: Stage,
    /// Steps done.
    pub done: usize,
    /// Steps in all (0: not counted).
    pub total: usize,
}

impl Progress {
    /// A stage starting.
    pub fn start(stage: Stage) -> Progress {
        Progress {
            stage,
            done: 0,
            total: 0,
        }
    }

    /// `done` of `total` steps of `stage`.
    pub fn at(stage: Stage, done: usize, total: usize) -> Progress {
        Progress { stage, done, total }
    }
}
