//! Errors located in a file: a bad line ([`ParseError`], public) and the
//! field-level error and column helper the parsers build it from. Below the
//! importer and its parsers, so the parsers never import the module that
//! dispatches to them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One bad line: where it is and why it was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    /// File name as given by the caller.
    pub file: String,
    /// 1-based line number.
    pub line: u64,
    /// 1-based character column where the offending field starts.
    pub column: u32,
    /// What is wrong, in words.
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.reason
        )
    }
}

/// A problem with one field of a line, before the file and line are attached.
#[derive(Debug)]
pub(crate) struct FieldError {
    /// 1-based character column.
    pub column: u32,
    pub reason: String,
    /// A bad header: the rest of the file cannot be read.
    pub fatal: bool,
}

impl FieldError {
    pub(crate) fn at(column: u32, reason: impl Into<String>) -> Self {
        FieldError {
            column,
            reason: reason.into(),
            fatal: false,
        }
    }

    pub(crate) fn fatal(column: u32, reason: impl Into<String>) -> Self {
        FieldError {
            column,
            reason: reason.into(),
            fatal: true,
        }
    }
}

/// 1-based character column of a byte offset in a line.
pub(crate) fn column_of(line: &str, byte_offset: usize) -> u32 {
    let off = byte_offset.min(line.len());
    let prefix = line.get(..off).unwrap_or(line);
    (prefix.chars().count() + 1) as u32
}
