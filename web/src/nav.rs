//! The navigation's registry: one [`Panel`] per part of the product. Only
//! panels that work are listed; the navigation shows exactly [`Panel::ALL`].
//! Which component each one mounts is in [`crate::app`].

/// A panel of the studio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// When the cluster runs out, what to add by when, what each lever
    /// buys instead: the planner's answer, first.
    Runway,
    /// Import traces and look at what is loaded.
    Traces,
    /// Recurring jobs: inferred SLOs, LP skylines and the owner's decisions.
    Slos,
    /// The reservation plan: timeline, drag, admissions, comparison, exports.
    Agenda,
    /// Price–deadline negotiation: estimate, quote, admit, the queue.
    Pricing,
    /// Harvesting spare cycles: tenants, patterns, classes, capacity,
    /// class selection, the scheduling simulation.
    Harvest,
    /// Dynamic resource shaping: baseline vs shaped runs, timelines,
    /// policies, the K1 × K2 heat maps.
    Shaping,
    /// Scheduler configuration tuning: queues, candidates, schedule, split.
    Tuning,
}

impl Panel {
    /// Every available panel, in navigation order.
    pub const ALL: [Panel; 8] = [
        Panel::Runway,
        Panel::Traces,
        Panel::Slos,
        Panel::Agenda,
        Panel::Pricing,
        Panel::Harvest,
        Panel::Shaping,
        Panel::Tuning,
    ];

    /// Navigation label.
    pub fn label(self) -> &'static str {
        match self {
            Panel::Runway => "Runway",
            Panel::Traces => "Traces",
            Panel::Slos => "SLOs",
            Panel::Agenda => "Agenda",
            Panel::Pricing => "Pricing",
            Panel::Harvest => "Harvest",
            Panel::Shaping => "Shaping",
            Panel::Tuning => "Tuning",
        }
    }

    /// `data-testid` of its navigation button.
    pub fn testid(self) -> &'static str {
        match self {
            Panel::Runway => "nav-runway",
            Panel::Traces => "nav-traces",
            Panel::Slos => "nav-slos",
            Panel::Agenda => "nav-agenda",
            Panel::Pricing => "nav-pricing",
            Panel::Harvest => "nav-harvest",
            Panel::Shaping => "nav-shaping",
            Panel::Tuning => "nav-tuning",
        }
    }
}
