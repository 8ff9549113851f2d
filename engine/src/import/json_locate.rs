//! Where a value of a JSON text starts, given its path: the `line:column`
//! of a fault that a reader found by walking a parsed `serde_json::Value`.
//!
//! Why: a reader that parses a small whole document into a `Value` (the
//! agenda's YARN reservation JSON) finds a bad field by its path, but a
//! `Value` keeps no positions, and every skyplan error leads with
//! `line:column`. Rather than a second parser that keeps positions, the text
//! is scanned again with the push tokenizer (`json`) — only on the error
//! path, so one more pass costs nothing that matters — and a sink follows
//! the open containers to the value the path names. Positions are the
//! tokenizer's: 1-based lines, 1-based columns in characters (as
//! `located::column_of` counts them), escapes and multi-byte UTF-8 before
//! the value counted as written.

use super::json::{Event, Fault, Framing, Pos, Sink, Tokenizer};
use std::fmt;

/// One step of a path: an object's key or an array's 0-based index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A key of an object, unescaped.
    Key(String),
    /// A position in an array.
    Index(usize),
}

/// A path into a JSON document from its root, written as `$`, `$.key`,
/// `$[0].key[2]` (the form errors show it in).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct JsonPath(Vec<Step>);

impl JsonPath {
    /// The document's root, `$`.
    pub(crate) fn root() -> JsonPath {
        JsonPath::default()
    }

    /// This path's member `key`.
    pub(crate) fn key(&self, key: &str) -> JsonPath {
        let mut steps = self.0.clone();
        steps.push(Step::Key(key.to_string()));
        JsonPath(steps)
    }

    /// This path's element `index`.
    pub(crate) fn index(&self, index: usize) -> JsonPath {
        let mut steps = self.0.clone();
        steps.push(Step::Index(index));
        JsonPath(steps)
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for step in &self.0 {
            match step {
                Step::Key(k) => write!(f, ".{k}")?,
                Step::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// An open container and, for the value being read inside it, whether it
/// lies on the path sought.
struct Frame {
    array: bool,
    /// The container itself is on the path.
    on_path: bool,
    /// Elements of an array read so far (the next one's index).
    next: usize,
    /// The last key of an object is the path's next step.
    key_on_path: bool,
}

/// Follows the open containers and keeps where the path's deepest value on
/// it starts.
struct Finder<'p> {
    steps: &'p [Step],
    stack: Vec<Frame>,
    /// Length of the deepest prefix of the path seen, and where its value
    /// starts. A key given twice is taken at its last occurrence, as
    /// `serde_json` keeps the last.
    deepest: Option<(usize, Pos)>,
}

impl Finder<'_> {
    /// A value starts at `at`: whether it is on the path.
    fn value(&mut self, at: Pos) -> bool {
        let depth = self.stack.len();
        let on_path = match self.stack.last() {
            None => true,
            Some(parent) if !parent.on_path => false,
            Some(parent) if parent.array => {
                self.steps.get(depth - 1) == Some(&Step::Index(parent.next))
            }
            Some(parent) => parent.key_on_path,
        };
        if on_path && depth <= self.steps.len() && self.deepest.is_none_or(|(d, _)| depth >= d) {
            self.deepest = Some((depth, at));
        }
        on_path
    }

    /// A value ended: its array moves to the next element.
    fn ended(&mut self) {
        if let Some(parent) = self.stack.last_mut() {
            if parent.array {
                parent.next += 1;
            }
        }
    }
}

impl Sink for Finder<'_> {
    fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), Fault> {
        match event {
            Event::BeginObject | Event::BeginArray => {
                let on_path = self.value(at);
                self.stack.push(Frame {
                    array: event == Event::BeginArray,
                    on_path,
                    next: 0,
                    key_on_path: false,
                });
            }
            Event::EndObject | Event::EndArray => {
                self.stack.pop();
                self.ended();
            }
            Event::Key(k) => {
                let depth = self.stack.len();
                if let Some(frame) = self.stack.last_mut() {
                    frame.key_on_path = frame.on_path
                        && matches!(self.steps.get(depth - 1), Some(Step::Key(s)) if s == k);
                }
            }
            Event::Str(..) | Event::Num(_) | Event::Bool(_) | Event::Null => {
                self.value(at);
                self.ended();
            }
        }
        Ok(())
    }
}

/// Where the value at `path` starts in `text` (for an object or array, its
/// `{` or `[`); when the path does not reach that far (a missing key, a
/// syntax error or nesting beyond the tokenizer's bound before it), where
/// its deepest part that does starts; 1:1 at worst. Never panics, whatever
/// the text: the tokenizer's depth and token bounds hold.
pub(crate) fn locate(text: &str, path: &JsonPath) -> Pos {
    let mut finder = Finder {
        steps: &path.0,
        stack: Vec::new(),
        deepest: None,
    };
    let mut tokenizer = Tokenizer::new(Framing::Document);
    let mut ignore = |_: Fault| {};
    // A syntax error only ends the scan: what was found before it stands.
    if tokenizer
        .feed(text.as_bytes(), &mut finder, &mut ignore)
        .is_ok()
    {
        let _ = tokenizer.finish(&mut finder, &mut ignore);
    }
    finder
        .deepest
        .map_or(Pos { line: 1, column: 1 }, |(_, at)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, path: &JsonPath) -> String {
        let p = locate(text, path);
        format!("{}:{}", p.line, p.column)
    }

    /// Columns below are counted by hand on this text: line 2 has an
    /// escaped quote and a 4-byte emoji (one character) before `"b-c"`;
    /// line 4 has `é` (two bytes, one character) in a key.
    const TEXT: &str = concat!(
        "{\"a\": [1, {\"x\": null}],\n",
        " \"s\": \"q\\\"😀\", \"b-c\": {\"d\": [true,\n",
        "   [false, \"e\"]]},\n",
        " \"é\": 7, \"a\": [0, 5]}\n",
    );

    #[test]
    fn values_by_key_and_index() {
        let root = JsonPath::root();
        assert_eq!(at(TEXT, &root), "1:1");
        assert_eq!(at(TEXT, &root.key("s")), "2:7");
        assert_eq!(at(TEXT, &root.key("b-c")), "2:22");
        assert_eq!(at(TEXT, &root.key("b-c").key("d").index(0)), "2:29");
        assert_eq!(at(TEXT, &root.key("b-c").key("d").index(1)), "3:4");
        assert_eq!(
            at(TEXT, &root.key("b-c").key("d").index(1).index(1)),
            "3:12"
        );
        assert_eq!(at(TEXT, &root.key("é")), "4:7");
        // `a` twice: the last one, as serde_json keeps it.
        assert_eq!(at(TEXT, &root.key("a")), "4:15");
        assert_eq!(at(TEXT, &root.key("a").index(1)), "4:19");
    }

    #[test]
    fn a_path_that_stops_short_gives_its_deepest_part() {
        let root = JsonPath::root();
        // A missing key: the object it is missing from.
        assert_eq!(at(TEXT, &root.key("b-c").key("zz")), "2:22");
        // An index past the end: the array.
        assert_eq!(at(TEXT, &root.key("b-c").key("d").index(5)), "2:28");
        // Not JSON at all, or cut before the path: the start.
        assert_eq!(at("nonsense", &root.key("a")), "1:1");
        assert_eq!(at("{\"a\": [1, ", &root.key("a").index(1)), "1:7");
    }

    #[test]
    fn the_path_is_written_as_errors_show_it() {
        let p = JsonPath::root()
            .index(1)
            .key("reservation-definition")
            .key("reservation-request")
            .index(0)
            .key("duration");
        assert_eq!(
            p.to_string(),
            "$[1].reservation-definition.reservation-request[0].duration"
        );
        assert_eq!(JsonPath::root().to_string(), "$");
    }

    #[test]
    fn hostile_text_never_panics() {
        // Nesting far beyond the tokenizer's bound before the value sought.
        let mut deep = "[".repeat(100_000);
        deep.push('1');
        assert_eq!(at(&deep, &JsonPath::root().index(0).index(0)), "1:3");
        let bomb = format!("{{\"x\": {}, \"y\": 1}}", "[".repeat(50_000));
        assert_eq!(at(&bomb, &JsonPath::root().key("y")), "1:1");
        // A 4 MiB single line: the value after it is still found.
        let line = format!("{{\"big\": \"{}\", \"y\": [2]}}", "é".repeat(2 << 20));
        let p = locate(&line, &JsonPath::root().key("y").index(0));
        assert_eq!((p.line, p.column), (1, 10 + (2 << 20) + 9));
    }
}
