//! What every part's messages share: a ticketed job's [`Progress`] and
//! [`Failure`], and the key by which a queued request is [`Supersedes`]d
//! by a later one.
//!
//! A ticket is the page's id of one run of a job (a fit, a quote, a
//! simulation): the worker echoes it in the progress and the answer, and
//! the page keeps only answers to the run it asked last.

use serde::{Deserialize, Serialize};

/// Work done so far on a ticketed job: `done` steps of `total`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The run's ticket.
    pub ticket: u32,
    /// Steps done.
    pub done: usize,
    /// Steps in all.
    pub total: usize,
}

/// A ticketed job the worker (or the engine) refused, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The run's ticket.
    pub ticket: u32,
    /// Why, in words (located where it can be: `file:line:col: why`).
    pub message: String,
}

impl Failure {
    /// Run `ticket` refused for `message`.
    pub fn new(ticket: u32, message: impl Into<String>) -> Failure {
        Failure {
            ticket,
            message: message.into(),
        }
    }
}

/// What a queued request is superseded by: a later queued request with the
/// same key makes it pointless, so the worker drops it unanswered (a burst
/// of slider moves or keystrokes costs one fit, quote or run).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Supersedes {
    /// The kind of work, unique across parts (`"pricing quote"`).
    pub op: &'static str,
    /// What it is about (`""`: every request of the kind is the same work).
    pub subject: String,
}

impl Supersedes {
    /// Any later request of kind `op` supersedes this one.
    pub fn any(op: &'static str) -> Option<Supersedes> {
        Some(Supersedes {
            op,
            subject: String::new(),
        })
    }

    /// A later request of kind `op` about the same `subject` supersedes
    /// this one.
    pub fn same(op: &'static str, subject: &str) -> Option<Supersedes> {
        Some(Supersedes {
            op,
            subject: subject.to_owned(),
        })
    }
}

/// Bytes carried in a message as one `Uint8Array` (`serialize_bytes`),
/// not as an array of numbers, which costs a JS value a byte (a workspace
/// bundle is megabytes). Use as `#[serde(with = "crate::toolkit::protocol::bytes")]`.
pub mod bytes {
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Writes `bytes` as bytes.
    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(bytes)
    }

    /// Reads bytes written by [`serialize`] (or an array of numbers).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_byte_buf(BytesVisitor)
    }

    struct BytesVisitor;

    impl<'de> Visitor<'de> for BytesVisitor {
        type Value = Vec<u8>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("bytes")
        }

        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
            Ok(v.to_vec())
        }

        fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
            Ok(v)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(b) = seq.next_element()? {
                out.push(b);
            }
            Ok(out)
        }
    }
}

/// The name a sweep worker is started with (`new Worker(url, { name })`):
/// under it the worker binary serves sweep cells and nothing else — no
/// workspace, no IndexedDB — so a pool of them costs only their wasm.
pub const SWEEP_WORKER: &str = "skyplan-sweep";

/// What the page asks a sweep worker. The sweep travels as its JSON (the
/// engine's `SweepSpec`, as `skyplan sweep` writes it), so a cell's row is
/// the CLI's for the same sweep. The page holds no engine code: it asks a
/// worker to plan the sweep (check it, count its cells) before handing out
/// cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum CellAsk {
    /// Check the sweep and say how many cells it has.
    Plan {
        /// The sweep run's ticket (the page's).
        ticket: u32,
        /// The sweep, as JSON.
        sweep: String,
    },
    /// Run one cell of a planned sweep.
    Cell {
        /// The sweep run's ticket (the page's).
        ticket: u32,
        /// The sweep, as JSON.
        sweep: String,
        /// The cell's number.
        cell: usize,
    },
}

/// What a sweep worker says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum CellAnswer {
    /// Loaded and listening.
    Ready,
    /// The sweep is valid and has this many cells.
    Planned {
        /// The sweep run's ticket.
        ticket: u32,
        /// Cells in the grid.
        cells: usize,
    },
    /// A cell's row (the engine's `CellRow`, as JSON).
    Cell {
        /// The sweep run's ticket.
        ticket: u32,
        /// The row.
        row: String,
    },
    /// The sweep is invalid (the engine's reason), or the ask could not be
    /// read (a broken message, not a failed cell: a cell's own failure is
    /// in its row).
    Refused {
        /// The sweep run's ticket.
        ticket: u32,
        /// Why.
        message: String,
    },
}
