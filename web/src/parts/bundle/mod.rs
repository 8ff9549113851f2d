//! The workspace bundle: everything the studio keeps — loaded files, SLO
//! decisions, every panel's state — saved as one `.skyplan` file
//! (`skyplan_engine::bundle`) and opened in place of the workspace. Not a
//! panel of its own: its buttons sit in the page's header.

pub mod desk;
pub mod host;
pub mod panel;
pub mod protocol;
pub mod views;

#[cfg(test)]
mod tests;
