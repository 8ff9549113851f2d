//! One CSV cell, written safe to open and read back unchanged: the rule every
//! CSV the engine, the studio and the CLI write goes through.
//!
//! Names in those files come from traces nobody here controls. A spreadsheet
//! runs a text cell that starts with `=`, `+`, `-` or `@` (and, in some, a
//! tab or carriage return) as a formula, so a job named `=HYPERLINK(…)`
//! would become a link the moment a planner opens the export. Following
//! OWASP's CSV-injection advice, such a cell is written with a leading `'`
//! (which spreadsheets show as a text marker) and quoted. So that our own
//! importers read the name back unchanged, a cell that already starts with
//! `'` gets a second one, and the reader ([`unguard`]) drops exactly one `'`
//! when it is followed by one of those characters or by another `'`.
//!
//! Numbers are not text cells: they are written by [`number`] and never
//! guarded (`-5` stays a number).

use std::borrow::Cow;

/// First characters a spreadsheet may read as the start of a formula.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// The guard put before a formula-looking text cell.
pub const GUARD: char = '\'';

/// Whether `s`, written as is, would open as a formula or lose its guard.
fn needs_guard(s: &str) -> bool {
    s.starts_with(FORMULA_STARTS) || s.starts_with(GUARD)
}

/// A text cell: guarded when it looks like a formula (or starts with the
/// guard itself), then quoted when it holds a separator, a quote, a line
/// break or a guard was added.
pub fn text(s: &str) -> Cow<'_, str> {
    let guarded = needs_guard(s);
    if !guarded && !s.contains([',', '"', '\n', '\r', '\t']) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 3);
    out.push('"');
    if guarded {
        out.push(GUARD);
    }
    out.push_str(&s.replace('"', "\"\""));
    out.push('"');
    Cow::Owned(out)
}

/// A number: whole values without a trailing `.0`, others in Rust's
/// shortest exact form.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The text of a cell as written by [`text`]: one leading guard dropped
/// when it protects a formula-looking start or another guard; anything else
/// unchanged (a foreign file's `'quoted` word keeps its apostrophe).
pub fn unguard(cell: &str) -> &str {
    match cell.strip_prefix(GUARD) {
        Some(rest) if needs_guard(rest) => rest,
        _ => cell,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_looking_cells_are_guarded_and_quoted() {
        assert_eq!(
            text("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
        assert_eq!(text("+1"), "\"'+1\"");
        assert_eq!(text("-cmd"), "\"'-cmd\"");
        assert_eq!(text("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(text("\tx"), "\"'\tx\"");
        assert_eq!(text("'quoted"), "\"''quoted\"");
        assert_eq!(text("plain"), "plain");
        assert_eq!(text("a, b"), "\"a, b\"");
        assert_eq!(text("it's"), "it's");
        assert_eq!(number(-5.0), "-5");
        assert_eq!(number(0.25), "0.25");
    }

    #[test]
    fn every_guarded_cell_reads_back_unchanged() {
        for s in [
            "=1+1", "+x", "-x", "@x", "\tx", "\rx", "'", "''", "'=x", "'abc", "abc", "it's", "",
            "=", "'-'",
        ] {
            let cell = text(s);
            // What a CSV reader hands over after removing the quotes.
            let inner = cell
                .strip_prefix('"')
                .and_then(|c| c.strip_suffix('"'))
                .map(|c| c.replace("\"\"", "\""))
                .unwrap_or_else(|| cell.to_string());
            assert_eq!(unguard(&inner), s, "{s:?} written as {cell:?}");
            assert!(
                !inner.starts_with(FORMULA_STARTS),
                "{s:?} would open as a formula: {cell:?}"
            );
        }
        // A foreign cell that merely starts with an apostrophe is kept.
        assert_eq!(unguard("'tis"), "'tis");
    }
}
