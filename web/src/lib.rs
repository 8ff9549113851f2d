//! skyplan's studio in the browser: a Leptos page and one Web Worker.
//!
//! The page holds no algorithm. Every engine call crosses one boundary —
//! [`protocol::Request`] in, [`protocol::Response`] out — to the worker, which
//! owns the [`skyplan_engine::Workspace`] ([`host`]), streams files into the
//! engine slice by slice, and persists what is loaded in IndexedDB
//! ([`store`]) so the workspace survives a reload.
//!
//! - `bin/app.rs` mounts [`app::App`]; [`state`] is its reactive state (with
//!   [`desk`] for the SLOs panel and [`agenda_desk`] for the Agenda panel),
//!   [`client`] its link to the worker, [`panels`] and [`widgets`] its views.
//! - The Agenda panel's messages are in [`agenda_protocol`], carried by
//!   `Request::Agenda` / `Response::Agenda`; [`agenda_host`] owns the plan
//!   in the worker.
//! - The Pricing panel's messages are in [`pricing_protocol`], carried by
//!   `Request::Pricing` / `Response::Pricing`; [`pricing_host`] owns the
//!   estimators and the queue in the worker, [`pricing_desk`] the page's
//!   state.
//! - `bin/worker.rs` runs a [`host::Host`] on the worker's message queue;
//!   [`views`] builds what it sends.
#![warn(missing_docs)]

pub mod agenda_desk;
pub mod agenda_host;
pub mod agenda_protocol;
pub mod app;
pub mod client;
pub mod desk;
pub mod host;
pub mod panels;
pub mod pricing_desk;
pub mod pricing_host;
pub mod pricing_protocol;
pub mod protocol;
pub mod state;
pub mod store;
pub mod views;
pub mod widgets;
