//! The one HTML writer of the report, and the one place text is escaped.
//!
//! Every text that reaches the page — names from traces, file names, the
//! engine's messages, numbers — goes through [`escape`]; tags and
//! attributes are `&'static str` written by this crate, so no input can add
//! an element, an attribute or a URL. Charts come in as [`Svg`], which only
//! the chart module builds (with the same escaping).

use std::fmt::Write as _;

/// `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in
/// element content and in quoted attribute values alike. A name such as
/// `<script>…` or `"><img src=x onerror=…>` is shown, not run.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters (other than tab and newlines) have no
            // place in a page: shown as the replacement character.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// An SVG drawing, built by the chart module from escaped text only.
#[derive(Clone, Debug, PartialEq)]
pub struct Svg(pub(crate) String);

/// A table: a caption, column heads, rows of text cells; the columns listed
/// as numeric are right-aligned.
#[derive(Clone, Debug, Default)]
pub struct Table {
    caption: String,
    head: Vec<String>,
    numeric: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with `caption` and these column heads; a head starting with
    /// `#` marks a numeric column (the `#` is not shown).
    pub fn new(caption: impl Into<String>, head: &[&str]) -> Table {
        Table {
            caption: caption.into(),
            head: head
                .iter()
                .map(|h| h.strip_prefix('#').unwrap_or(h).to_string())
                .collect(),
            numeric: head.iter().map(|h| h.starts_with('#')).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (missing cells are left empty, extra ones dropped).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// The page being written.
#[derive(Debug, Default)]
pub struct Html {
    out: String,
}

impl Html {
    /// An empty page body.
    pub fn new() -> Html {
        Html::default()
    }

    /// What was written.
    pub fn finish(self) -> String {
        self.out
    }

    /// Markup of this crate's own (tags, the style sheet): never input.
    pub(crate) fn markup(&mut self, markup: &'static str) {
        self.out.push_str(markup);
    }

    /// Escaped text, in the current element.
    pub fn text(&mut self, text: &str) {
        self.out.push_str(&escape(text));
    }

    /// A heading `<hN>` with escaped text.
    pub fn heading(&mut self, level: u8, text: &str) {
        let level = level.clamp(1, 6);
        let _ = writeln!(self.out, "<h{level}>{}</h{level}>", escape(text));
    }

    /// A paragraph of escaped text.
    pub fn para(&mut self, text: &str) {
        let _ = writeln!(self.out, "<p>{}</p>", escape(text));
    }

    /// A paragraph in a class of the style sheet (`note`, `absent`,
    /// `problem`, `verdict`).
    pub fn para_in(&mut self, class: &'static str, text: &str) {
        let _ = writeln!(self.out, "<p class=\"{class}\">{}</p>", escape(text));
    }

    /// The one line a section says when its input is not in the bundle.
    pub fn absent(&mut self, text: &str) {
        self.para_in("absent", text);
    }

    /// The settings a section was computed under, as a definition list.
    pub fn settings(&mut self, pairs: &[(&str, String)]) {
        self.out.push_str(
            "<div class=\"settings\"><span class=\"settings-title\">Computed under</span><dl>",
        );
        for (k, v) in pairs {
            let _ = write!(self.out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
        }
        self.out.push_str("</dl></div>\n");
    }

    /// Key figures: (label, value) in large type.
    pub fn figures(&mut self, pairs: &[(&str, String)]) {
        self.out.push_str("<div class=\"figures\">");
        for (k, v) in pairs {
            let _ = write!(
                self.out,
                "<div class=\"figure\"><span class=\"value\">{}</span><span class=\"label\">{}</span></div>",
                escape(v),
                escape(k)
            );
        }
        self.out.push_str("</div>\n");
    }

    /// A bulleted list of escaped items.
    pub fn list(&mut self, items: &[String]) {
        self.out.push_str("<ul>");
        for i in items {
            let _ = write!(self.out, "<li>{}</li>", escape(i));
        }
        self.out.push_str("</ul>\n");
    }

    /// A table, every cell escaped.
    pub fn table(&mut self, t: &Table) {
        self.out.push_str("<table>");
        if !t.caption.is_empty() {
            let _ = write!(self.out, "<caption>{}</caption>", escape(&t.caption));
        }
        self.out.push_str("<thead><tr>");
        for (h, &n) in t.head.iter().zip(&t.numeric) {
            let class = if n { " class=\"n\"" } else { "" };
            let _ = write!(self.out, "<th{class}>{}</th>", escape(h));
        }
        self.out.push_str("</tr></thead><tbody>");
        for row in &t.rows {
            self.out.push_str("<tr>");
            for (k, &n) in t.numeric.iter().enumerate() {
                let class = if n { " class=\"n\"" } else { "" };
                let cell = row.get(k).map(String::as_str).unwrap_or("");
                let _ = write!(self.out, "<td{class}>{}</td>", escape(cell));
            }
            self.out.push_str("</tr>");
        }
        self.out.push_str("</tbody></table>\n");
    }

    /// A chart with its caption.
    pub fn chart(&mut self, svg: &Svg, caption: &str) {
        let _ = writeln!(
            self.out,
            "<figure>{}<figcaption>{}</figcaption></figure>",
            svg.0,
            escape(caption)
        );
    }

    /// A section: `<section id=…>` with its `<h2>` title, what `body`
    /// writes, closed.
    pub fn section(&mut self, id: &'static str, title: &'static str, body: impl FnOnce(&mut Html)) {
        let _ = writeln!(self.out, "<section id=\"{id}\"><h2>{}</h2>", escape(title));
        body(self);
        self.out.push_str("</section>\n");
    }

    /// Small charts side by side, two a row.
    pub fn small_charts(&mut self, body: impl FnOnce(&mut Html)) {
        self.out.push_str("<div class=\"small-charts\">");
        body(self);
        self.out.push_str("</div>\n");
    }

    /// A block kept together on a printed page (a sub-part of a section).
    pub fn keep(&mut self, body: impl FnOnce(&mut Html)) {
        self.out.push_str("<div class=\"keep\">");
        body(self);
        self.out.push_str("</div>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(
            escape("\"><img src=x onerror=alert(1)>"),
            "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
        );
        assert_eq!(escape("a & b's"), "a &amp; b&#39;s");
        assert_eq!(escape("nul\u{0}"), "nul\u{FFFD}");
    }

    #[test]
    fn tables_escape_every_cell_and_caption() {
        let mut t = Table::new("<b>", &["name", "#value"]);
        t.row(vec!["<i>x</i>".into(), "1".into()]);
        let mut h = Html::new();
        h.table(&t);
        let out = h.finish();
        assert!(out.contains("<caption>&lt;b&gt;</caption>"));
        assert!(out.contains("<td>&lt;i&gt;x&lt;/i&gt;</td><td class=\"n\">1</td>"));
        assert!(!out.contains("<i>"));
    }
}
