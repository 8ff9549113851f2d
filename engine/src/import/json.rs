//! A push JSON tokenizer: bytes go in chunk by chunk, events come out, and
//! nothing is held but the token being read and the stack of open
//! containers.
//!
//! Why our own and not `serde_json`: a cluster's JSON answers are one
//! document (a ResourceManager's application list can be hundreds of
//! megabytes on one line), and the studio streams a file in slices it never
//! holds whole, so the parser must accept any cut between two bytes and keep
//! its memory bounded whatever the input — a deep nesting bomb, a string of
//! a gigabyte, an array of a billion elements. `serde_json` needs the whole
//! value; the push crates on crates.io report byte offsets, not the
//! `line:column` every skyplan error carries. This file is that tokenizer,
//! with three bounds: [`MAX_DEPTH`] nested containers, [`MAX_TOKEN`] bytes
//! kept of a string or number (the rest is scanned and dropped, the token
//! marked truncated), and nothing else buffered.
//!
//! Two framings share it: a **document** (one value, or several values one
//! after another — a saved page of many answers), where a syntax error ends
//! the file; and **JSON lines** (Spark event logs, BigQuery exports), where
//! each line is one value and a bad line is reported and skipped.

/// Deepest nesting of arrays and objects accepted: far above any cluster
/// answer (Spark's events nest six levels), far below a stack or memory
/// problem.
pub(crate) const MAX_DEPTH: usize = 100;

/// Bytes kept of one string or number token; longer ones are read to their
/// end and delivered cut to this length, marked truncated.
pub(crate) const MAX_TOKEN: usize = 1 << 20;

/// Where a token starts: 1-based line and character column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pos {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u32,
}

/// A located problem: where and why.
#[derive(Debug, PartialEq)]
pub(crate) struct Fault {
    /// Where it is.
    pub at: Pos,
    /// What is wrong, in words.
    pub reason: String,
}

impl Fault {
    /// A fault at `at`.
    pub(crate) fn at(at: Pos, reason: impl Into<String>) -> Fault {
        Fault {
            at,
            reason: reason.into(),
        }
    }
}

/// One token of the input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Event<'a> {
    /// `{`
    BeginObject,
    /// `}`
    EndObject,
    /// `[`
    BeginArray,
    /// `]`
    EndArray,
    /// An object's key.
    Key(&'a str),
    /// A string value; `true` when it was cut to [`MAX_TOKEN`] bytes.
    Str(&'a str, bool),
    /// A number, as written.
    Num(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// What consumes the events: a reader, or the format probe.
pub(crate) trait Sink {
    /// One event, at the start of its token. An `Err` is a problem of the
    /// data (a wrong type, a missing field): it is reported and reading goes
    /// on.
    fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), Fault>;

    /// A JSON line ended badly and was skipped: forget the partial value.
    fn reset(&mut self) {}
}

/// Whether one bad line ends the input or only itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// Values one after another; a syntax error is fatal.
    Document,
    /// One value a line; a syntax error skips the line.
    Lines,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    Object,
    Array,
}

/// What the next significant byte may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A value (top level, after `:` or `,` in an array).
    Value,
    /// A value or `]` (just after `[`).
    ValueOrEnd,
    /// A key or `}` (just after `{`).
    KeyOrEnd,
    /// A key (after `,` in an object).
    Key,
    /// `:` after a key.
    Colon,
    /// `,` or the container's end, after a value.
    CommaOrEnd,
}

/// A token read across chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// Between tokens.
    None,
    /// Inside a string (`key`: an object's key).
    Str { key: bool },
    /// Just after a backslash in a string.
    Escape { key: bool },
    /// Inside `\uXXXX`: digits read so far and their value.
    Unicode { key: bool, digits: u8, value: u32 },
    /// Inside a number.
    Number,
    /// Inside `true`, `false` or `null`: which one and bytes matched.
    Literal { word: &'static [u8], matched: u8 },
    /// After a syntax error in a JSON line: skipping to its end.
    SkipLine,
    /// After a fatal error: nothing more is read.
    Dead,
}

/// The push tokenizer.
pub(crate) struct Tokenizer {
    framing: Framing,
    stack: Vec<Container>,
    expect: Expect,
    token: Token,
    /// The current string or number (at most [`MAX_TOKEN`] bytes).
    buf: Vec<u8>,
    /// A high surrogate waiting for its low half.
    surrogate: Option<u32>,
    truncated: bool,
    /// Where the current token started.
    token_at: Pos,
    /// Bytes before the current chunk.
    offset: u64,
    line: u64,
    /// Offset of the first byte of the current line.
    line_start: u64,
    /// UTF-8 continuation bytes seen on the current line before the scan point.
    continuation: u64,
}

/// The result of feeding bytes.
pub(crate) type Fed = Result<(), Fault>;

impl Tokenizer {
    /// A tokenizer at the start of its input.
    pub(crate) fn new(framing: Framing) -> Tokenizer {
        Tokenizer {
            framing,
            stack: Vec::new(),
            expect: Expect::Value,
            token: Token::None,
            buf: Vec::new(),
            surrogate: None,
            truncated: false,
            token_at: Pos::default(),
            offset: 0,
            line: 1,
            line_start: 0,
            continuation: 0,
        }
    }

    /// The position of byte `i` of the current chunk.
    fn pos(&self, i: usize) -> Pos {
        let col = self.offset + i as u64 - self.line_start - self.continuation + 1;
        Pos {
            line: self.line,
            column: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    /// A syntax error at byte `i`: reported through `report`; for a
    /// document it is fatal (returned), for a JSON line the line is skipped.
    fn syntax(
        &mut self,
        i: usize,
        reason: String,
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) -> Fed {
        let at = self.pos(i);
        self.fault(at, reason, sink, report)
    }

    /// A syntax error at `at`, fatal for a document, skipping the line of a
    /// JSON line.
    fn fault(
        &mut self,
        at: Pos,
        reason: String,
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) -> Fed {
        let fault = Fault::at(at, reason);
        match self.framing {
            Framing::Document => {
                self.token = Token::Dead;
                Err(fault)
            }
            Framing::Lines => {
                report(fault);
                sink.reset();
                self.stack.clear();
                self.expect = Expect::Value;
                self.token = Token::SkipLine;
                self.buf.clear();
                Ok(())
            }
        }
    }

    /// Feeds the next chunk. Data problems go to `report`; a syntax error
    /// of a document is returned (nothing more is read after it).
    pub(crate) fn feed(
        &mut self,
        chunk: &[u8],
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) -> Fed {
        let mut i = 0;
        let n = chunk.len();
        while i < n {
            match self.token {
                Token::Dead => break,
                Token::SkipLine => match memchr::memchr(b'\n', &chunk[i..]) {
                    None => i = n,
                    Some(p) => {
                        let nl = i + p;
                        self.count_continuation(&chunk[i..nl]);
                        self.newline(nl);
                        self.token = Token::None;
                        i = nl + 1;
                    }
                },
                Token::Str { key } => i = self.string(chunk, i, key, sink, report)?,
                Token::Escape { key } => i = self.escape((chunk, i), key, sink, report)?,
                Token::Unicode { key, digits, value } => {
                    let b = chunk[i];
                    let Some(d) = (b as char).to_digit(16) else {
                        self.syntax(i, "bad \\u escape in a string".into(), sink, report)?;
                        continue;
                    };
                    let value = value * 16 + d;
                    i += 1;
                    if digits + 1 < 4 {
                        self.token = Token::Unicode {
                            key,
                            digits: digits + 1,
                            value,
                        };
                    } else {
                        self.code_point(value);
                        self.token = Token::Str { key };
                    }
                }
                Token::Number => {
                    let start = i;
                    while i < n
                        && matches!(chunk[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                    {
                        i += 1;
                    }
                    self.keep(&chunk[start..i]);
                    if i < n {
                        self.end_number(sink, report)?;
                    }
                }
                Token::Literal { word, matched } => {
                    let b = chunk[i];
                    if b != word[usize::from(matched)] {
                        let reason = format!("expected `{}`", String::from_utf8_lossy(word));
                        self.syntax(i, reason, sink, report)?;
                        continue;
                    }
                    i += 1;
                    if usize::from(matched) + 1 == word.len() {
                        self.token = Token::None;
                        let event = match word {
                            b"true" => Event::Bool(true),
                            b"false" => Event::Bool(false),
                            _ => Event::Null,
                        };
                        self.scalar(event, sink, report);
                    } else {
                        self.token = Token::Literal {
                            word,
                            matched: matched + 1,
                        };
                    }
                }
                Token::None => i = self.structure(chunk, i, sink, report)?,
            }
        }
        self.offset += n as u64;
        Ok(())
    }

    fn count_continuation(&mut self, bytes: &[u8]) {
        self.continuation += bytes.iter().filter(|&&b| b & 0xC0 == 0x80).count() as u64;
    }

    fn newline(&mut self, i: usize) {
        self.line += 1;
        self.line_start = self.offset + i as u64 + 1;
        self.continuation = 0;
    }

    /// Appends to the token, up to [`MAX_TOKEN`].
    fn keep(&mut self, bytes: &[u8]) {
        let room = MAX_TOKEN.saturating_sub(self.buf.len());
        if bytes.len() > room {
            self.truncated = true;
        }
        self.buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn code_point(&mut self, value: u32) {
        let c = match (self.surrogate.take(), value) {
            (None, 0xD800..=0xDBFF) => {
                self.surrogate = Some(value);
                return;
            }
            (Some(high), 0xDC00..=0xDFFF) => {
                char::from_u32(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
            }
            (_, v) => char::from_u32(v),
        };
        let mut utf8 = [0u8; 4];
        let s = c.unwrap_or('\u{FFFD}').encode_utf8(&mut utf8);
        self.keep(s.as_bytes());
    }

    /// Between tokens: whitespace, structure, or the start of a token.
    fn structure(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) -> Result<usize, Fault> {
        let b = chunk[i];
        match b {
            b' ' | b'\t' | b'\r' => return Ok(i + 1),
            b'\n' => {
                if self.framing == Framing::Lines && !self.stack.is_empty() {
                    self.syntax(i, "the line ends inside a JSON value".into(), sink, report)?;
                    // The newline itself ends the skipped line.
                    self.token = Token::None;
                }
                self.newline(i);
                return Ok(i + 1);
            }
            _ => {}
        }
        self.token_at = self.pos(i);
        let at = self.token_at;
        match (b, self.expect) {
            (b'{', Expect::Value | Expect::ValueOrEnd) => {
                self.open(Container::Object, i, sink, report)?;
                i += 1;
            }
            (b'[', Expect::Value | Expect::ValueOrEnd) => {
                self.open(Container::Array, i, sink, report)?;
                i += 1;
            }
            (b'}', Expect::KeyOrEnd | Expect::CommaOrEnd)
                if self.stack.last() == Some(&Container::Object) =>
            {
                self.close(Event::EndObject, at, sink, report);
                i += 1;
            }
            (b']', Expect::ValueOrEnd | Expect::CommaOrEnd)
                if self.stack.last() == Some(&Container::Array) =>
            {
                self.close(Event::EndArray, at, sink, report);
                i += 1;
            }
            (b',', Expect::CommaOrEnd) if !self.stack.is_empty() => {
                self.expect = match self.stack.last() {
                    Some(Container::Object) => Expect::Key,
                    _ => Expect::Value,
                };
                i += 1;
            }
            (b':', Expect::Colon) => {
                self.expect = Expect::Value;
                i += 1;
            }
            (b'"', Expect::Key | Expect::KeyOrEnd) => {
                self.begin_token();
                self.token = Token::Str { key: true };
                i += 1;
            }
            (b'"', Expect::Value | Expect::ValueOrEnd) => {
                self.begin_token();
                self.token = Token::Str { key: false };
                i += 1;
            }
            (b'-' | b'0'..=b'9', Expect::Value | Expect::ValueOrEnd) => {
                self.begin_token();
                self.token = Token::Number;
            }
            (b't', Expect::Value | Expect::ValueOrEnd) => self.literal(b"true"),
            (b'f', Expect::Value | Expect::ValueOrEnd) => self.literal(b"false"),
            (b'n', Expect::Value | Expect::ValueOrEnd) => self.literal(b"null"),
            _ => {
                let what = self.expected();
                let got = describe(chunk, i);
                self.syntax(i, format!("expected {what}, found {got}"), sink, report)?;
                i += 1;
            }
        }
        Ok(i)
    }

    fn expected(&self) -> &'static str {
        match self.expect {
            Expect::Value => "a value",
            Expect::ValueOrEnd => "a value or `]`",
            Expect::KeyOrEnd => "a key or `}`",
            Expect::Key => "a key in quotes",
            Expect::Colon => "`:`",
            Expect::CommaOrEnd => match self.stack.last() {
                Some(Container::Object) => "`,` or `}`",
                Some(Container::Array) => "`,` or `]`",
                None => "the end of the value",
            },
        }
    }

    fn literal(&mut self, word: &'static [u8]) {
        self.token = Token::Literal { word, matched: 0 };
    }

    fn begin_token(&mut self) {
        self.buf.clear();
        self.truncated = false;
        self.surrogate = None;
    }

    fn open(
        &mut self,
        kind: Container,
        i: usize,
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) -> Fed {
        if self.stack.len() >= MAX_DEPTH {
            let reason = format!("JSON nested deeper than {MAX_DEPTH} levels");
            return self.syntax(i, reason, sink, report);
        }
        self.stack.push(kind);
        let (event, expect) = match kind {
            Container::Object => (Event::BeginObject, Expect::KeyOrEnd),
            Container::Array => (Event::BeginArray, Expect::ValueOrEnd),
        };
        self.expect = expect;
        if let Err(f) = sink.event(event, self.token_at) {
            report(f);
        }
        Ok(())
    }

    fn close(
        &mut self,
        event: Event<'_>,
        at: Pos,
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) {
        self.stack.pop();
        self.after_value();
        if let Err(f) = sink.event(event, at) {
            report(f);
        }
    }

    fn after_value(&mut self) {
        self.expect = if self.stack.is_empty() {
            Expect::Value
        } else {
            Expect::CommaOrEnd
        };
    }

    fn scalar(&mut self, event: Event<'_>, sink: &mut impl Sink, report: &mut impl FnMut(Fault)) {
        self.after_value();
        if let Err(f) = sink.event(event, self.token_at) {
            report(f);
        }
    }

    fn end_number(&mut self, sink: &mut impl Sink, report: &mut impl FnMut(Fault)) -> Fed {
        self.token = Token::None;
        self.after_value();
        let text = std::str::from_utf8(&self.buf).unwrap_or("");
        if let Err(f) = sink.event(Event::Num(text), self.token_at) {
            report(f);
        }
        Ok(())
    }

    /// Inside a string: copies up to its end or an escape.
    fn string(
        &mut self,
        chunk: &[u8],
        i: usize,
        key: bool,
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) -> Result<usize, Fault> {
        let rest = &chunk[i..];
        let Some(p) = memchr::memchr3(b'"', b'\\', b'\n', rest) else {
            self.count_continuation(rest);
            self.keep(rest);
            return Ok(chunk.len());
        };
        let span = &rest[..p];
        self.count_continuation(span);
        match rest[p] {
            b'"' => {
                self.token = Token::None;
                // The whole string in this chunk and nothing buffered:
                // deliver it from the chunk, without a copy.
                let direct = self.buf.is_empty() && span.len() <= MAX_TOKEN;
                let bytes: &[u8] = if direct {
                    span
                } else {
                    self.keep(span);
                    &self.buf
                };
                let text = match std::str::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(_) => {
                        let f = Fault::at(self.token_at, "invalid UTF-8 in a string");
                        report(f);
                        ""
                    }
                };
                let event = if key {
                    self.expect = Expect::Colon;
                    Event::Key(text)
                } else {
                    self.expect = if self.stack.is_empty() {
                        Expect::Value
                    } else {
                        Expect::CommaOrEnd
                    };
                    Event::Str(text, self.truncated)
                };
                if let Err(f) = sink.event(event, self.token_at) {
                    report(f);
                }
                Ok(i + p + 1)
            }
            b'\\' => {
                self.keep(span);
                self.token = Token::Escape { key };
                Ok(i + p + 1)
            }
            _ => {
                self.keep(span);
                self.syntax(i + p, "the line ends inside a string".into(), sink, report)?;
                // A document is dead by now; a JSON line restarts at the
                // newline, which ends the skipped line.
                self.token = Token::None;
                Ok(i + p)
            }
        }
    }

    /// The byte after a backslash at `i` of `chunk`; the position after it.
    fn escape(
        &mut self,
        (chunk, i): (&[u8], usize),
        key: bool,
        sink: &mut impl Sink,
        report: &mut impl FnMut(Fault),
    ) -> Result<usize, Fault> {
        let c = match chunk[i] {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                self.token = Token::Unicode {
                    key,
                    digits: 0,
                    value: 0,
                };
                return Ok(i + 1);
            }
            _ => {
                self.syntax(i, "bad escape in a string".into(), sink, report)?;
                return Ok(i + 1);
            }
        };
        self.keep(&[c]);
        self.token = Token::Str { key };
        Ok(i + 1)
    }

    /// Ends the input: a value left open is a truncated file.
    pub(crate) fn finish(&mut self, sink: &mut impl Sink, report: &mut impl FnMut(Fault)) -> Fed {
        let at = self.pos(0);
        match self.token {
            Token::Dead => return Ok(()),
            Token::Number => self.end_number(sink, report)?,
            Token::None | Token::SkipLine => {}
            _ => {
                let reason = "the file ends inside a JSON token (truncated?)".to_string();
                return self.fault(at, reason, sink, report);
            }
        }
        if !self.stack.is_empty() {
            let reason = format!(
                "the file ends inside a JSON value ({} level(s) left open; truncated?)",
                self.stack.len()
            );
            return self.fault(at, reason, sink, report);
        }
        Ok(())
    }
}

/// The byte at `i` in words, for a syntax error.
fn describe(chunk: &[u8], i: usize) -> String {
    match chunk[i] {
        b if b.is_ascii_graphic() => format!("`{}`", b as char),
        b => format!("byte 0x{b:02x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event as text, for comparisons.
    #[derive(Default)]
    struct Collect(Vec<String>);

    impl Sink for Collect {
        fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), Fault> {
            self.0.push(format!("{}:{} {event:?}", at.line, at.column));
            Ok(())
        }
        fn reset(&mut self) {
            self.0.push("reset".into());
        }
    }

    fn run(framing: Framing, text: &[u8], chunk: usize) -> (Vec<String>, Vec<String>) {
        let mut t = Tokenizer::new(framing);
        let mut sink = Collect::default();
        let mut faults = Vec::new();
        let mut report =
            |f: Fault| faults.push(format!("{}:{} {}", f.at.line, f.at.column, f.reason));
        let mut ended = false;
        for piece in text.chunks(chunk.max(1)) {
            if let Err(f) = t.feed(piece, &mut sink, &mut report) {
                report(f);
                ended = true;
                break;
            }
        }
        if !ended {
            if let Err(f) = t.finish(&mut sink, &mut report) {
                report(f);
            }
        }
        (sink.0, faults)
    }

    #[test]
    fn events_with_positions_whatever_the_chunks() {
        let text = "{\"a\": [1, -2.5e3, true, null],\n \"é\": \"x\\u00e9\\ud83d\\ude00\\n\"}";
        let whole = run(Framing::Document, text.as_bytes(), usize::MAX);
        assert_eq!(whole.1, Vec::<String>::new());
        assert_eq!(
            whole.0,
            vec![
                "1:1 BeginObject",
                "1:2 Key(\"a\")",
                "1:7 BeginArray",
                "1:8 Num(\"1\")",
                "1:11 Num(\"-2.5e3\")",
                "1:19 Bool(true)",
                "1:25 Null",
                "1:29 EndArray",
                "2:2 Key(\"é\")",
                "2:7 Str(\"xé😀\\n\", false)",
                "2:30 EndObject",
            ]
        );
        for chunk in 1..8 {
            assert_eq!(
                run(Framing::Document, text.as_bytes(), chunk),
                whole,
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn syntax_errors_are_located_and_fatal_in_a_document() {
        let (_, faults) = run(Framing::Document, b"{\"a\" 1}", 3);
        assert_eq!(faults, vec!["1:6 expected `:`, found `1`"]);
        let (_, faults) = run(Framing::Document, b"[1, 2", 2);
        assert_eq!(
            faults,
            vec!["1:6 the file ends inside a JSON value (1 level(s) left open; truncated?)"]
        );
        let (_, faults) = run(Framing::Document, b"{\"a\": tru", 2);
        assert_eq!(
            faults,
            vec!["1:10 the file ends inside a JSON token (truncated?)"]
        );
    }

    #[test]
    fn a_bad_json_line_is_skipped() {
        let text = b"{\"a\":1}\n{\"a\":\n{\"b\":[}\n{\"c\":2}\n";
        let (events, faults) = run(Framing::Lines, text, 4);
        assert_eq!(
            faults,
            vec![
                "2:6 the line ends inside a JSON value",
                "3:7 expected a value or `]`, found `}`"
            ]
        );
        assert!(events.contains(&"4:2 Key(\"c\")".to_string()), "{events:?}");
        assert_eq!(events.iter().filter(|e| *e == "reset").count(), 2);
    }

    #[test]
    fn deep_nesting_and_huge_tokens_stay_bounded() {
        let bomb = vec![b'['; 1_000_000];
        let (events, faults) = run(Framing::Document, &bomb, 4096);
        assert_eq!(events.len(), MAX_DEPTH);
        assert_eq!(
            faults,
            vec![format!(
                "1:{} JSON nested deeper than {MAX_DEPTH} levels",
                MAX_DEPTH + 1
            )]
        );
        // A 3 MiB string arrives cut to MAX_TOKEN, marked truncated.
        let mut long = b"[\"".to_vec();
        long.extend(std::iter::repeat_n(b'x', 3 << 20));
        long.extend_from_slice(b"\"]");
        let mut t = Tokenizer::new(Framing::Document);
        struct Len(usize, bool);
        impl Sink for Len {
            fn event(&mut self, event: Event<'_>, _: Pos) -> Result<(), Fault> {
                if let Event::Str(s, cut) = event {
                    *self = Len(s.len(), cut);
                }
                Ok(())
            }
        }
        let mut sink = Len(0, false);
        for piece in long.chunks(65_536) {
            t.feed(piece, &mut sink, &mut |_| {}).unwrap();
        }
        assert_eq!((sink.0, sink.1), (MAX_TOKEN, true));
        assert!(t.buf.capacity() <= 2 * MAX_TOKEN);
    }
}
