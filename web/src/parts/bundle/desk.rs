//! The workspace bundle on the page: "Save workspace" asks the worker for
//! the bundle and downloads it; "Open workspace" (or a `.skyplan` file
//! dropped on the page) hands the file to the worker, which checks it and,
//! if it opens, replaces the saved workspace — then the page reloads, so
//! every panel restores from it exactly as after any reload (resetting
//! each desk in place would be a second restore path to keep in step with
//! the first). "Download report" asks the worker for the plan report of
//! the saved workspace and downloads the page. Holds no algorithm.

use super::protocol::{BundleRequest, BundleResponse};
use crate::page::Page;
use crate::protocol::{now_ms, Request};
use crate::widgets::download::save_bytes;
use leptos::prelude::*;
use skyplan_engine::bundle::BUNDLE_EXTENSION;
use web_sys::File;

/// What the last save or open is doing or did.
#[derive(Clone, Debug, PartialEq)]
pub enum BundleStatus {
    /// The worker is gathering and compressing the workspace.
    Saving,
    /// The worker is checking the bundle named so.
    Opening(String),
    /// The worker is rendering the report: where it is.
    Reporting(String),
    /// The report was downloaded: what, in words.
    Reported(String),
    /// Saved: what was downloaded, in words.
    Saved(String),
    /// Opened: the page reloads.
    Opened(String),
    /// Refused: the file's name and why (an open changed nothing).
    Failed(String),
}

impl BundleStatus {
    /// The status line's `data-state`.
    pub fn state(&self) -> &'static str {
        match self {
            BundleStatus::Saving => "saving",
            BundleStatus::Opening(_) => "opening",
            BundleStatus::Reporting(_) => "reporting",
            BundleStatus::Reported(_) => "reported",
            BundleStatus::Saved(_) => "saved",
            BundleStatus::Opened(_) => "opened",
            BundleStatus::Failed(_) => "failed",
        }
    }

    /// The status line.
    pub fn text(&self) -> String {
        match self {
            BundleStatus::Saving => "Saving the workspace…".into(),
            BundleStatus::Opening(name) => format!("Opening {name}…"),
            BundleStatus::Reporting(stage) => format!("Making the report: {stage}…"),
            BundleStatus::Reported(text) => text.clone(),
            BundleStatus::Saved(text) | BundleStatus::Opened(text) | BundleStatus::Failed(text) => {
                text.clone()
            }
        }
    }

    /// A save or an open is out.
    pub fn busy(&self) -> bool {
        matches!(
            self,
            BundleStatus::Saving | BundleStatus::Opening(_) | BundleStatus::Reporting(_)
        )
    }
}

/// Whether `name` is a workspace bundle's (by its extension: the worker
/// checks the content).
pub fn is_bundle(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case(BUNDLE_EXTENSION))
}

/// The bundle's download name, by today's date:
/// `skyplan-workspace-YYYY-MM-DD.skyplan`.
fn bundle_name() -> String {
    let today = js_sys::Date::new_0();
    format!(
        "skyplan-workspace-{:04}-{:02}-{:02}.{BUNDLE_EXTENSION}",
        today.get_full_year(),
        today.get_month() + 1,
        today.get_date()
    )
}

/// The report's download name, by today's date:
/// `skyplan-report-YYYY-MM-DD.html`.
fn report_name() -> String {
    let today = js_sys::Date::new_0();
    format!(
        "skyplan-report-{:04}-{:02}-{:02}.html",
        today.get_full_year(),
        today.get_month() + 1,
        today.get_date()
    )
}

/// Logs a timing line on the console (the benchmarks read it there).
fn log(line: &str) {
    web_sys::console::log_1(&line.into());
}

/// The bundle's page state.
#[derive(Clone, Copy)]
pub struct BundleDesk {
    page: Page,
    /// What the last save or open is doing or did.
    pub status: RwSignal<Option<BundleStatus>>,
    /// The save or open out: its ticket, the file's name and size (an
    /// open's), and when it was asked.
    out: StoredValue<Option<(u32, String, f64, f64)>>,
}

impl BundleDesk {
    /// Nothing saved or opened yet.
    pub fn new(page: Page) -> BundleDesk {
        BundleDesk {
            page,
            status: RwSignal::new(None),
            out: StoredValue::new(None),
        }
    }

    fn busy(self) -> bool {
        self.status
            .with_untracked(|s| s.as_ref().is_some_and(BundleStatus::busy))
    }

    /// Asks the worker for the workspace as a bundle.
    pub fn save(self) {
        if self.busy() {
            return;
        }
        let ticket = self.page.next_id();
        self.out
            .set_value(Some((ticket, bundle_name(), 0.0, now_ms())));
        self.status.set(Some(BundleStatus::Saving));
        self.page
            .send(Request::Bundle(BundleRequest::Save { ticket }));
    }

    /// Asks the worker for the plan report of the saved workspace.
    pub fn report(self) {
        if self.busy() {
            return;
        }
        let ticket = self.page.next_id();
        self.out
            .set_value(Some((ticket, report_name(), 0.0, now_ms())));
        self.status
            .set(Some(BundleStatus::Reporting("starting".into())));
        let now_secs = (js_sys::Date::now() / 1000.0) as i64;
        self.page
            .send(Request::Bundle(BundleRequest::Report { ticket, now_secs }));
    }

    /// Hands `file` to the worker to open in place of the workspace.
    pub fn open(self, file: File) {
        if self.busy() {
            return;
        }
        let ticket = self.page.next_id();
        let name = file.name();
        self.out
            .set_value(Some((ticket, name.clone(), file.size(), now_ms())));
        self.status.set(Some(BundleStatus::Opening(name.clone())));
        self.page.send_with(
            Request::Bundle(BundleRequest::Open { ticket, name }),
            Some(&file),
        );
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: BundleResponse) {
        let ticket = match &response {
            BundleResponse::Saved { ticket, .. }
            | BundleResponse::Opened { ticket, .. }
            | BundleResponse::Progress { ticket, .. }
            | BundleResponse::Report { ticket, .. } => *ticket,
            BundleResponse::Failed(f) => f.ticket,
        };
        let Some((out, name, size, asked)) = self.out.get_value() else {
            return;
        };
        if out != ticket {
            return;
        }
        if let BundleResponse::Progress { stage, .. } = response {
            self.status.set(Some(BundleStatus::Reporting(stage)));
            return;
        }
        self.out.set_value(None);
        let took = now_ms() - asked;
        match response {
            BundleResponse::Progress { .. } => {}
            BundleResponse::Report {
                html,
                sections,
                millis,
                ..
            } => {
                log(&format!(
                    "skyplan report: {name}: {} bytes, {} sections; worker {millis:.0} ms, {took:.0} ms in all",
                    html.len(),
                    sections.len()
                ));
                let absent: Vec<&str> = sections
                    .iter()
                    .filter(|(_, present)| !present)
                    .map(|(title, _)| title.as_str())
                    .collect();
                let status = match save_bytes(&name, "text/html", html.as_bytes()) {
                    Ok(()) => BundleStatus::Reported(format!(
                        "Report {name} ({} kB, {} sections{}).",
                        html.len().div_ceil(1024),
                        sections.len(),
                        if absent.is_empty() {
                            String::new()
                        } else {
                            format!("; nothing yet for: {}", absent.join(", "))
                        }
                    )),
                    Err(e) => BundleStatus::Failed(format!("{name} could not be downloaded: {e}")),
                };
                self.status.set(Some(status));
            }
            BundleResponse::Saved {
                bytes,
                contents,
                millis,
                ..
            } => {
                log(&format!(
                    "skyplan bundle: saved {name}: {} bytes ({contents}); worker {millis:.0} ms, {took:.0} ms in all",
                    bytes.len()
                ));
                let status = match save_bytes(&name, "application/gzip", &bytes) {
                    Ok(()) => BundleStatus::Saved(format!(
                        "Saved {name} ({} kB): {contents}.",
                        bytes.len().div_ceil(1024)
                    )),
                    Err(e) => BundleStatus::Failed(format!("{name} could not be downloaded: {e}")),
                };
                self.status.set(Some(status));
            }
            BundleResponse::Opened {
                message, millis, ..
            } => {
                log(&format!(
                    "skyplan bundle: opened {name}: {size} bytes; worker {millis:.0} ms, {took:.0} ms before the reload"
                ));
                self.status
                    .set(Some(BundleStatus::Opened(format!("{message} Reloading…"))));
                if let Err(e) = window().location().reload() {
                    self.page.notify(format!(
                        "{name} was opened; reload the page to see it ({}).",
                        crate::protocol::js_error_text(&e)
                    ));
                }
            }
            BundleResponse::Failed(failure) => {
                self.page.notify(failure.message.clone());
                self.status.set(Some(BundleStatus::Failed(failure.message)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_are_told_by_their_extension() {
        assert!(is_bundle("team.skyplan"));
        assert!(is_bundle("TEAM.SKYPLAN"));
        assert!(!is_bundle("runs.csv"));
        assert!(!is_bundle("skyplan"));
    }
}
