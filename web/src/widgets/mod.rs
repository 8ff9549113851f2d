//! Reusable pieces shared by the parts' panels. Widgets take their data as
//! props and report through callbacks; only panels know the
//! [`crate::state::Studio`], and a chart used by one part lives in its folder.

pub mod button;
pub mod card;
pub mod chart;
pub mod download;
pub mod dropzone;
pub mod field;
pub mod figure;
pub mod file_button;
pub mod file_source;
pub mod format;
pub mod progress;
pub mod regime;
pub mod stat;
pub mod table;

pub use chart::PlotCanvas;
pub use dropzone::Dropzone;
pub use progress::ProgressBar;
pub use stat::Stat;
