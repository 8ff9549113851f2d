//! The studio's panels, one per part of the product. Only panels that work
//! are listed; the navigation shows exactly [`Panel::ALL`].

mod traces;

pub use traces::TracesPanel;

/// A panel of the studio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// Import traces and look at what is loaded.
    Traces,
}

impl Panel {
    /// Every available panel, in navigation order.
    pub const ALL: [Panel; 1] = [Panel::Traces];

    /// Navigation label.
    pub fn label(self) -> &'static str {
        match self {
            Panel::Traces => "Traces",
        }
    }

    /// `data-testid` of its navigation button.
    pub fn testid(self) -> &'static str {
        match self {
            Panel::Traces => "nav-traces",
        }
    }
}
