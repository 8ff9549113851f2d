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
//!
//! Two halves, one per binary, by cargo feature: `page` (the UI: `app`,
//! `client`, `page`, `state`, `nav`, `widgets`, the toolkit's jobs, run
//! controls, forms and file reading, and each part's desk, panel and
//! charts) and `worker` (`host`, `store`, `demo`, the toolkit's host
//! context, and each part's host, views and saved records). The protocol
//! — the envelope and each part's messages — is in both. Trunk builds the
//! page with `page` only, so its code cannot name a host or a view, and
//! `scripts/check_page_wasm.py` fails when its wasm links an engine
//! function that is not plain data. Native builds and tests take both.
#![warn(missing_docs)]

/// Items of the page's half (the `page` feature: the UI). Every `mod.rs`
/// declares its page files in one of these.
macro_rules! page_side {
    ($($item:item)*) => { $(#[cfg(feature = "page")] $item)* };
}

/// Items of the worker's half (the `worker` feature: what calls the
/// engine). Every `mod.rs` declares its worker files in one of these.
macro_rules! worker_side {
    ($($item:item)*) => { $(#[cfg(feature = "worker")] $item)* };
}

pub mod parts;
pub mod protocol;
pub mod toolkit;

// The crate root's own files, gated one by one: `widgets` exports the
// `fields!` macro, which a macro-expanded module could not name by path.
#[cfg(feature = "page")]
pub mod app;
#[cfg(feature = "page")]
pub mod client;
#[cfg(feature = "worker")]
pub mod demo;
#[cfg(feature = "worker")]
pub mod host;
#[cfg(feature = "page")]
pub mod nav;
#[cfg(feature = "page")]
pub mod page;
#[cfg(feature = "page")]
pub mod state;
#[cfg(feature = "worker")]
pub mod store;
#[cfg(feature = "page")]
pub mod widgets;
