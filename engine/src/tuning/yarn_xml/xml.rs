//! What both scheduler files share: reading XML with located errors, and
//! writing values back into the user's own text.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A located problem in a scheduler file.
#[derive(Clone, Debug, Error, PartialEq, Serialize, Deserialize)]
#[error("line {line}, column {column}: {message}")]
pub struct XmlError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

pub(super) fn at(
    doc: &roxmltree::Document<'_>,
    pos: usize,
    message: impl Into<String>,
) -> XmlError {
    let p = doc.text_pos_at(pos);
    XmlError {
        line: p.row,
        column: p.col,
        message: message.into(),
    }
}

pub(super) fn parse(text: &str) -> Result<roxmltree::Document<'_>, XmlError> {
    roxmltree::Document::parse(text).map_err(|e| {
        let p = e.pos();
        XmlError {
            line: p.row,
            column: p.col,
            message: format!("malformed XML: {e}"),
        }
    })
}

/// `s` with the XML special characters escaped.
pub(super) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `text` with each range replaced by its text (ranges must not overlap),
/// the rest kept byte for byte.
pub(super) fn apply(text: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    let mut out = text.to_string();
    for (r, v) in edits {
        out.replace_range(r, &v);
    }
    out
}
