//! Reusable pieces of the studio's panels. Widgets take their data as props
//! and report through callbacks; only panels know the [`crate::state::Studio`].

pub mod chart;
pub mod download;
pub mod dropzone;
pub mod fit_chart;
pub mod format;
pub mod pricing_charts;
pub mod problems;
pub mod progress;
pub mod stat;
pub mod timeline;

pub use chart::{ChartCanvas, PlotCanvas};
pub use dropzone::Dropzone;
pub use problems::ProblemList;
pub use progress::ProgressBar;
pub use stat::Stat;
