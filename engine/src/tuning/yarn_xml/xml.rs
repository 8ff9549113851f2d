//! What both scheduler files share: reading XML with located errors, and
//! writing values back into the user's own text.

use crate::tuning::model::GroupConfig;
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

/// The warning for an element that is read past, as YARN's loaders do:
/// `node`, `what` it is ("unexpected", "unknown element") in `<parent>`,
/// located where it starts. One wording for both scheduler files.
pub(super) fn ignored(
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'_, '_>,
    what: &str,
    parent: &str,
) -> XmlError {
    at(
        doc,
        node.range().start,
        format!("{what} <{}> in <{parent}>: ignored", node.tag_name().name()),
    )
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

/// An error unless `current` (what the file's `parent` holds) has the same
/// queues, in the same order, as the tuned `config`: an update writes the
/// tuned values queue by queue, so both schedulers refuse a file whose
/// queues differ rather than write values to the wrong ones.
pub(super) fn same_queues(
    parent: &str,
    current: &GroupConfig,
    config: &GroupConfig,
) -> Result<(), XmlError> {
    let names = |c: &GroupConfig| c.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>();
    if names(current) != names(config) {
        return Err(XmlError {
            line: 1,
            column: 1,
            message: format!(
                "{parent} has queues {:?}, the tuned configuration {:?}",
                names(current),
                names(config)
            ),
        });
    }
    Ok(())
}
