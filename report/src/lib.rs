//! skyplan's plan report: a workspace [`Bundle`] rendered as one
//! self-contained HTML file — the workspace's span and sources, the
//! signed-off SLOs with their skylines, the agenda, the pricing queue,
//! harvesting advice, the shaping and the tuning recommendations — each
//! section with the settings it was computed under.
//!
//! Plain data in, an HTML string out: no I/O, no clock, so the same code
//! runs in the CLI (`skyplan report BUNDLE -o report.html`) and in the
//! studio's Web Worker (it builds for `wasm32-unknown-unknown`). Every
//! section computes with the engine's entry points and the panels'
//! defaults, so its numbers are the ones the panel shows.
//!
//! The page has no `<script>`, no external reference (charts are inline
//! SVG, the style sheet is inline, no font or image is loaded) and every
//! name from a trace is escaped ([`html::escape`]).
//!
//! - [`html`]: the writer and the one escaping rule;
//! - `chart`: inline SVG charts; `style`: the print-ready style sheet;
//!   `fmt`: numbers and times;
//! - `context`: the workspace a bundle's files make, read once;
//! - `runway`: the runway of a bundle, computed once for the report, the
//!   CLI and the studio;
//! - `sections/`: one file per section.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod chart;
mod context;
mod fmt;
pub mod html;
mod progress;
pub mod runway;
mod sections;
mod style;

pub use progress::{Progress, Stage};

use context::Context;
use html::{escape, Html};
use skyplan_engine::bundle::{Bundle, BundleError};
use skyplan_engine::Timestamp;

/// What the caller tells the report beyond the bundle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportOptions {
    /// The report's title (default: "Capacity plan").
    pub title: Option<String>,
    /// Where the bundle came from (its file name), shown under the title.
    pub source: Option<String>,
    /// When the report is made (the engine has no clock: the caller's).
    pub generated_at: Option<Timestamp>,
}

/// One section of a rendered report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionOutline {
    /// Its anchor (`id`) in the page.
    pub id: &'static str,
    /// Its heading.
    pub title: &'static str,
    /// Whether the bundle held its input (otherwise the section says so in
    /// one line).
    pub present: bool,
}

/// A rendered report.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The whole HTML document.
    pub html: String,
    /// Its sections, in order.
    pub sections: Vec<SectionOutline>,
}

/// Why no report was made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The bundle does not hold together (two decisions for a job, a
    /// non-finite setting…).
    #[error(transparent)]
    Bundle(#[from] BundleError),
}

/// The report of `bundle`. A section whose computation the engine refuses
/// (a bad tenants file, too few history jobs for the tuning window) says
/// why in its place; only a bundle that does not hold together is an error.
pub fn render(bundle: &Bundle, options: &ReportOptions) -> Result<Report, ReportError> {
    render_with_progress(bundle, options, &mut |_| {})
}

/// [`render`], telling `progress` where it is: each section as it starts,
/// and the steps of the heavy ones (shaping's applications, tuning's
/// searches, harvesting's durability runs).
pub fn render_with_progress(
    bundle: &Bundle,
    options: &ReportOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Report, ReportError> {
    bundle.validate("the bundle")?;
    progress(Progress::start(Stage::Sources));
    let ctx = Context::new(bundle);
    let title = options.title.as_deref().unwrap_or("Capacity plan");
    let mut body = Html::new();
    let mut outline = Vec::new();
    for section in sections::ALL {
        progress(Progress::start(section.stage));
        let mut present = false;
        body.section(section.id, section.title, |h| {
            present = (section.write)(&ctx, h, progress);
        });
        outline.push(SectionOutline {
            id: section.id,
            title: section.title,
            present,
        });
    }
    progress(Progress::start(Stage::Done));

    let mut page = Html::new();
    page.markup("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    page.text(title);
    page.markup("</title>\n<style>");
    page.markup(style::CSS);
    page.markup("</style>\n</head>\n<body>\n<header>");
    page.heading(1, title);
    let mut sub = Vec::new();
    if let Some(s) = &options.source {
        sub.push(format!("Workspace {s}"));
    }
    if let Some(t) = options.generated_at {
        sub.push(format!("made {}", fmt::instant(t)));
    }
    sub.push(format!("skyplan {} plan report", env!("CARGO_PKG_VERSION")));
    page.para(&sub.join(" · "));
    page.markup("</header>\n<nav><ol>");
    let mut nav = String::new();
    for s in &outline {
        // Ids and titles are this crate's constants; escaped all the same.
        nav.push_str(&format!(
            "<li><a href=\"#{}\">{}</a></li>",
            escape(s.id),
            escape(s.title)
        ));
    }
    let mut page = page.finish();
    page.push_str(&nav);
    page.push_str("</ol></nav>\n<main>\n");
    page.push_str(&body.finish());
    page.push_str("</main>\n<footer>");
    page.push_str(&escape(
        "Every number was computed from the bundle by skyplan's engine with the settings each section states; runs are seeded and redone, so the same bundle gives the same report.",
    ));
    page.push_str("</footer>\n</body>\n</html>\n");
    Ok(Report {
        html: page,
        sections: outline,
    })
}
