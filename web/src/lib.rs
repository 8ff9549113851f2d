//! skyplan's studio in the browser: a Leptos page and one Web Worker.
//!
//! The page holds no algorithm. Every engine call crosses one boundary —
//! [`protocol::Request`] in, [`protocol::Response`] out — to the worker, which
//! owns the [`skyplan_engine::Workspace`] ([`host`]) and persists what is
//! loaded and decided in IndexedDB ([`store`]) so it survives a reload.
//!
//! Each part of the product has one folder under [`parts`], the same shape
//! for all: `protocol.rs` (its messages, one variant of the envelope),
//! `host.rs` (its worker side), `views.rs` (what it computes and sends),
//! `desk.rs` (its page state and forms), `panel/` (its cards) and its own
//! charts — all built on the [`toolkit`]. What every part uses stays here:
//!
//! - the [`toolkit`]: a ticketed job on the page and its run controls, form
//!   parsing, the messages every job sends, the one context and shape of a
//!   part host;
//! - the envelope [`protocol`], the worker [`host`] (dispatch by part) and
//!   the IndexedDB [`store`], the embedded [`demo`] files;
//! - the page's [`client`] (the worker link), [`page`] (what every desk
//!   shares: sending, notices, ids), [`state`] (one desk per part), the
//!   shell [`app`] and its navigation [`nav`], and the shared [`widgets`].
#![warn(missing_docs)]

pub mod app;
pub mod client;
pub mod demo;
pub mod host;
pub mod nav;
pub mod page;
pub mod parts;
pub mod protocol;
pub mod state;
pub mod store;
pub mod toolkit;
pub mod widgets;
