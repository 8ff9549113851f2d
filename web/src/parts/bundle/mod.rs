//! The workspace bundle: everything the studio keeps — loaded files, SLO
//! decisions, every panel's state — saved as one `.skyplan` file
//! (`skyplan_engine::bundle`) and opened in place of the workspace. Not a
//! panel of its own: its buttons sit in the page's header.

pub mod protocol;
page_side! {
    pub mod desk;
    pub mod panel;
}
worker_side! {
    pub mod host;
    pub mod views;
}

// What the worker keeps and what a bundle carries agree (worker code only).
#[cfg(all(test, feature = "worker"))]
mod tests;
