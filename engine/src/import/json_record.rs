//! Records out of a JSON stream: the objects a reader wants (an
//! application of a ResourceManager answer, a Spark event, a BigQuery row),
//! each gathered as flat `key → scalar` fields while the tokenizer streams,
//! then handed over whole.
//!
//! Nested objects are flattened with dotted keys (`average_usage.cpus`,
//! `Executor Info.Total Cores`); arrays inside a record are skipped (no
//! reader needs one, and one may be huge), but every nested object and
//! array is kept as a field of its own kind, so a container where a reader
//! wants a number or text is a located error naming what was found, never a
//! field silently missing. A record keeps at most
//! [`MAX_RECORD_BYTES`] of keys and values: what does not fit is dropped,
//! so a record's memory is bounded whatever the input.

use super::csv::shorten;
use super::json::{Event, Fault, Pos, Sink};

/// Keys and values kept of one record, bytes.
pub(crate) const MAX_RECORD_BYTES: usize = 1 << 20;

/// Which objects of the stream are records.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RecordAt {
    /// Every top-level object (a JSON line, a BigQuery row).
    TopLevel,
    /// The objects held under one of these keys, directly
    /// (`{"app": {…}}`) or as the elements of the array there
    /// (`{"apps": {"app": [{…}, {…}]}}`); a record's kind is the key's
    /// position in the list.
    Under(&'static [&'static str]),
}

/// What a field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A string.
    Str,
    /// A number.
    Num,
    /// `true` or `false`.
    Bool,
    /// `null`.
    Null,
    /// An array (its content is not kept).
    Array,
    /// An object (its fields are kept under the dotted prefix).
    Object,
}

impl Kind {
    /// What a value of this kind is, in words, for messages (`the text
    /// `x``, `an array`).
    pub(crate) fn found(self, text: &str) -> String {
        match self {
            Kind::Str => format!("the text `{}`", shorten(text)),
            Kind::Num => format!("the number {}", shorten(text)),
            Kind::Bool => format!("`{text}`"),
            Kind::Null => "`null`".into(),
            Kind::Array => "an array".into(),
            Kind::Object => "an object".into(),
        }
    }
}

/// A number's text as `f64`, surrounding spaces allowed. Most numbers in
/// a cluster's exports are integers (times in µs, ids, counts): up to 15
/// digits they are read exactly as integers, faster than the general
/// float parser, which reads everything else.
fn parse_number(text: &str) -> Result<f64, std::num::ParseFloatError> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if !digits.is_empty() && digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit()) {
        let n = digits
            .bytes()
            .fold(0i64, |n, b| n * 10 + i64::from(b - b'0')) as f64;
        return Ok(if digits.len() < t.len() { -n } else { n });
    }
    t.parse::<f64>()
}

/// One field: its key and value as ranges of the record's text.
#[derive(Clone, Copy, Debug)]
struct Field {
    key: (usize, usize),
    value: (usize, usize),
    kind: Kind,
    at: Pos,
}

/// One record: flat fields and where the object starts.
#[derive(Debug, Default)]
pub(crate) struct Record {
    text: String,
    fields: Vec<Field>,
    /// Where its `{` is.
    pub at: Pos,
}

impl Record {
    fn clear(&mut self) {
        self.text.clear();
        self.fields.clear();
    }

    fn find(&self, key: &str) -> Option<&Field> {
        // Keys are short and read many times a row: compared in line, from
        // the end, where the names of one table differ most (`start_time`,
        // `end_time`; `average_usage_cpus`, `…_memory`), not by a libc call.
        let key = key.as_bytes();
        let text = self.text.as_bytes();
        self.fields.iter().find(|f| {
            let k = &text[f.key.0..f.key.1];
            k.len() == key.len() && k.iter().rev().zip(key.iter().rev()).all(|(a, b)| a == b)
        })
    }

    /// A field, `Ok(None)` when absent. A dotted key whose enclosing field
    /// is there but not an object (`"Executor Info": [4]` when
    /// `Executor Info.Total Cores` is read) is that field's wrong type.
    fn lookup(&self, key: &str) -> Result<Option<&Field>, Fault> {
        if let Some(f) = self.find(key) {
            return Ok(Some(f));
        }
        let dots = key.bytes().enumerate().filter(|&(_, b)| b == b'.');
        for (i, _) in dots {
            let outer = &key[..i];
            match self.find(outer) {
                Some(f) if !matches!(f.kind, Kind::Object | Kind::Null) => {
                    return Err(Fault::at(
                        f.at,
                        format!(
                            "`{outer}` should be an object (holding `{}`), found {}",
                            &key[i + 1..],
                            self.found(f)
                        ),
                    ))
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// What a field holds, in words.
    fn found(&self, f: &Field) -> String {
        f.kind.found(&self.text[f.value.0..f.value.1])
    }

    /// A field's raw text, kind and position; `Ok(None)` when absent.
    pub(crate) fn get(&self, key: &str) -> Result<Option<(&str, Kind, Pos)>, Fault> {
        Ok(self
            .lookup(key)?
            .map(|f| (&self.text[f.value.0..f.value.1], f.kind, f.at)))
    }

    /// A text field (a number is taken as its digits); `None` when absent
    /// or `null`; a `true`/`false`, an array or an object is an error.
    pub(crate) fn text(&self, key: &str) -> Result<Option<&str>, Fault> {
        match self.get(key)? {
            None | Some((_, Kind::Null, _)) => Ok(None),
            Some((t, Kind::Str | Kind::Num, _)) => Ok(Some(t)),
            Some((t, kind, at)) => Err(Fault::at(
                at,
                format!("`{key}` should be text, found {}", kind.found(t)),
            )),
        }
    }

    /// A number field: a JSON number or a string holding one (BigQuery
    /// writes 64-bit integers as strings); `None` when absent, `null` or
    /// an empty string; a `true`/`false`, an array or an object is an
    /// error.
    pub(crate) fn number(&self, key: &str) -> Result<Option<f64>, Fault> {
        let field = self.lookup(key)?;
        self.number_in(key, field)
    }

    /// [`Record::number`] of a field already looked up.
    fn number_in(&self, key: &str, field: Option<&Field>) -> Result<Option<f64>, Fault> {
        match field.map(|f| (&self.text[f.value.0..f.value.1], f.kind, f.at)) {
            None | Some((_, Kind::Null, _)) => Ok(None),
            Some(("", Kind::Str, _)) => Ok(None),
            Some((t, Kind::Num | Kind::Str, at)) => match parse_number(t) {
                Ok(v) if v.is_finite() => Ok(Some(v)),
                _ => Err(Fault::at(
                    at,
                    format!("`{key}` should be a finite number, found `{}`", shorten(t)),
                )),
            },
            Some((t, kind, at)) => Err(Fault::at(
                at,
                format!("`{key}` should be a number, found {}", kind.found(t)),
            )),
        }
    }

    /// A required number field.
    pub(crate) fn need_number(&self, key: &str, what: &str) -> Result<f64, Fault> {
        self.number(key)?
            .ok_or_else(|| Fault::at(self.at, format!("{what} without `{key}`")))
    }

    /// A required text field, not empty.
    pub(crate) fn need_text(&self, key: &str, what: &str) -> Result<&str, Fault> {
        match self.text(key)? {
            Some(t) if !t.trim().is_empty() => Ok(t),
            _ => Err(Fault::at(self.at, format!("{what} without `{key}`"))),
        }
    }

    /// A record of text fields (a CSV line read against its header): each
    /// `(key, value, position)`.
    pub(crate) fn refill<'a>(
        &mut self,
        at: Pos,
        fields: impl Iterator<Item = (&'a str, &'a str, Pos)>,
    ) {
        self.clear();
        self.at = at;
        for (key, value, pos) in fields {
            let k0 = self.text.len();
            self.text.push_str(key);
            let v0 = self.text.len();
            self.text.push_str(value);
            self.fields.push(Field {
                key: (k0, v0),
                value: (v0, self.text.len()),
                kind: Kind::Str,
                at: pos,
            });
        }
    }

    /// The first of `keys` the record has as a number (a nested field
    /// exported flat may be `a.b` or `a_b`).
    pub(crate) fn number_of(&self, keys: &[&str]) -> Result<Option<f64>, Fault> {
        self.number_of_from(keys, &mut 0)
    }

    /// [`Record::number_of`] trying `keys[*first]` first and keeping in
    /// `first` the spelling found: a file spells a field one way on every
    /// row, so a reader that keeps `first` looks each field up once a row.
    pub(crate) fn number_of_from(
        &self,
        keys: &[&str],
        first: &mut usize,
    ) -> Result<Option<f64>, Fault> {
        let start = (*first).min(keys.len().saturating_sub(1));
        for (i, k) in keys.iter().enumerate().cycle().skip(start).take(keys.len()) {
            if let Some(f) = self.lookup(k)? {
                *first = i;
                return self.number_in(k, Some(f));
            }
        }
        Ok(None)
    }

    /// The position of a field, or of the record when it has none.
    pub(crate) fn at_field(&self, key: &str) -> Pos {
        self.find(key).map_or(self.at, |f| f.at)
    }
}

/// A container outside records: its kind, and for an array whether it is
/// held under a record key (its object elements are records).
#[derive(Clone, Copy, Debug)]
struct Frame {
    array: bool,
    under: Option<usize>,
    /// An array where a record belongs, opened here: reported when it
    /// closes, so a line that breaks inside it (a JSON bomb) is one error.
    misplaced: Option<Pos>,
}

/// Gathers the records of a JSON stream.
pub(crate) struct Records {
    at: RecordAt,
    /// Containers outside any record.
    frames: Vec<Frame>,
    /// The record key the last key named (in the innermost object), if any.
    key: Option<usize>,
    /// Inside a record: its kind and the depth of objects open in it.
    inside: Option<(usize, usize)>,
    /// Arrays open inside the record (their content is skipped).
    skip: usize,
    /// Lengths of the dotted prefix at each open nested object.
    prefixes: Vec<usize>,
    prefix: String,
    /// The current field's key (dotted).
    field: String,
    record: Record,
    /// What an element of a record array is called, for messages.
    noun: &'static str,
}

impl Records {
    /// Gathers the objects `at` names; `noun` names one in messages
    /// (`an application`).
    pub(crate) fn new(at: RecordAt, noun: &'static str) -> Records {
        Records {
            at,
            frames: Vec::new(),
            key: None,
            inside: None,
            skip: 0,
            prefixes: Vec::new(),
            prefix: String::new(),
            field: String::new(),
            record: Record::default(),
            noun,
        }
    }

    /// The record completed by the last event.
    pub(crate) fn record(&self) -> &Record {
        &self.record
    }

    /// Forgets a partial record (a skipped JSON line).
    pub(crate) fn reset(&mut self) {
        self.frames.clear();
        self.key = None;
        self.inside = None;
        self.skip = 0;
        self.prefixes.clear();
        self.prefix.clear();
        self.record.clear();
    }

    /// The record kind an object starting here would be, if it is one.
    fn starts_record(&self) -> Option<usize> {
        match self.at {
            RecordAt::TopLevel => self.frames.is_empty().then_some(0),
            RecordAt::Under(_) => match self.frames.last() {
                Some(Frame {
                    array: true, under, ..
                }) => *under,
                Some(Frame { array: false, .. }) => self.key,
                None => None,
            },
        }
    }

    /// Takes one event; `Some(kind)` when it completed a record, then
    /// readable with [`Records::record`].
    pub(crate) fn event(&mut self, event: Event<'_>, at: Pos) -> Result<Option<usize>, Fault> {
        if let Some((kind, depth)) = self.inside {
            return Ok(self.inside_event(kind, depth, event, at));
        }
        let record_kind = self.starts_record();
        match event {
            Event::BeginObject => {
                if let Some(kind) = record_kind {
                    self.record.clear();
                    self.record.at = at;
                    self.prefix.clear();
                    self.prefixes.clear();
                    self.inside = Some((kind, 1));
                } else {
                    self.frames.push(Frame {
                        array: false,
                        under: None,
                        misplaced: None,
                    });
                }
                self.key = None;
            }
            Event::BeginArray => {
                let parent = self.frames.last().copied();
                let under = match parent {
                    Some(Frame { array: false, .. }) => self.key,
                    _ => None,
                };
                // An array where a record belongs: an element of a record
                // array, or a JSON line.
                let misplaced = match self.at {
                    RecordAt::TopLevel => parent.is_none(),
                    RecordAt::Under(_) => {
                        record_kind.is_some() && matches!(parent, Some(Frame { array: true, .. }))
                    }
                };
                self.frames.push(Frame {
                    array: true,
                    under,
                    misplaced: misplaced.then_some(at),
                });
                self.key = None;
            }
            Event::EndObject | Event::EndArray => {
                let frame = self.frames.pop();
                self.key = None;
                if let Some(at) = frame.and_then(|f| f.misplaced) {
                    return Err(self.not_a_record(Kind::Array, "", at));
                }
            }
            Event::Key(k) => {
                self.key = match self.at {
                    RecordAt::Under(keys) => keys.iter().position(|w| *w == k),
                    RecordAt::TopLevel => None,
                };
            }
            Event::Str(..) | Event::Num(_) | Event::Bool(_) | Event::Null => {
                let in_array = matches!(self.frames.last(), Some(Frame { array: true, .. }));
                if record_kind.is_some() && (in_array || event != Event::Null) {
                    let (kind, text) = match event {
                        Event::Str(s, _) => (Kind::Str, s),
                        Event::Num(n) => (Kind::Num, n),
                        Event::Bool(true) => (Kind::Bool, "true"),
                        Event::Bool(false) => (Kind::Bool, "false"),
                        _ => (Kind::Null, ""),
                    };
                    return Err(self.not_a_record(kind, text, at));
                }
            }
        }
        Ok(None)
    }

    /// A value of `kind` where a record belongs.
    fn not_a_record(&self, kind: Kind, text: &str, at: Pos) -> Fault {
        Fault::at(
            at,
            format!(
                "expected {} (a JSON object), found {}",
                self.noun,
                kind.found(text)
            ),
        )
    }

    fn inside_event(
        &mut self,
        kind: usize,
        depth: usize,
        event: Event<'_>,
        at: Pos,
    ) -> Option<usize> {
        if self.skip > 0 {
            match event {
                Event::BeginArray | Event::BeginObject => self.skip += 1,
                Event::EndArray | Event::EndObject => self.skip -= 1,
                _ => {}
            }
            return None;
        }
        match event {
            Event::Key(k) => {
                self.field.clear();
                self.field.push_str(&self.prefix);
                if !self.prefix.is_empty() {
                    self.field.push('.');
                }
                self.field.push_str(k);
            }
            Event::BeginObject => {
                self.push("", Kind::Object, at);
                self.prefixes.push(self.prefix.len());
                self.prefix.clone_from(&self.field);
                self.inside = Some((kind, depth + 1));
            }
            Event::EndObject => {
                if depth == 1 {
                    self.inside = None;
                    self.key = None;
                    return Some(kind);
                }
                let len = self.prefixes.pop().unwrap_or(0);
                self.prefix.truncate(len);
                self.inside = Some((kind, depth - 1));
            }
            Event::BeginArray => {
                self.push("", Kind::Array, at);
                self.skip = 1;
            }
            Event::EndArray => {}
            Event::Str(s, _) => self.push(s, Kind::Str, at),
            Event::Num(n) => self.push(n, Kind::Num, at),
            Event::Bool(b) => self.push(if b { "true" } else { "false" }, Kind::Bool, at),
            Event::Null => self.push("", Kind::Null, at),
        }
        None
    }

    fn push(&mut self, value: &str, kind: Kind, at: Pos) {
        let r = &mut self.record;
        if r.text.len() + self.field.len() + value.len() > MAX_RECORD_BYTES {
            return;
        }
        let k0 = r.text.len();
        r.text.push_str(&self.field);
        let v0 = r.text.len();
        r.text.push_str(value);
        r.fields.push(Field {
            key: (k0, v0),
            value: (v0, r.text.len()),
            kind,
            at,
        });
    }
}

/// A record reader: what each JSON format implements over [`Records`].
pub(crate) trait RecordSink {
    /// One complete record of kind `kind` (the position of its key in
    /// [`RecordAt::Under`], 0 for top-level records).
    fn record(&mut self, kind: usize, record: &Record) -> Result<(), Fault>;

    /// The fields the reader ever reads, every spelling; `None` (the
    /// default) when it does not say. A CSV table read as records keeps
    /// only these columns of each row, so a wide table costs what its read
    /// columns cost (a streamed multi-gigabyte table is bound by this).
    fn fields_read(&self) -> Option<&'static [&'static str]> {
        None
    }
}

/// A [`Sink`] that gathers records and hands each to a [`RecordSink`].
pub(crate) struct RecordStream<R> {
    records: Records,
    /// The reader the records go to.
    pub reader: R,
}

impl<R: RecordSink> RecordStream<R> {
    /// Records `at` for `reader`.
    pub(crate) fn new(at: RecordAt, noun: &'static str, reader: R) -> Self {
        RecordStream {
            records: Records::new(at, noun),
            reader,
        }
    }
}

impl<R: RecordSink> Sink for RecordStream<R> {
    fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), Fault> {
        if let Some(kind) = self.records.event(event, at)? {
            self.reader.record(kind, self.records.record())?;
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.records.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::super::json::{Framing, Tokenizer};
    use super::*;

    #[test]
    fn numbers_read_as_the_float_parser_reads_them() {
        // The integer fast path against the standard library's parser,
        // bit for bit (so -0 stays -0.0), and what only the latter reads.
        for t in [
            "0",
            "-0",
            "7",
            " 42 ",
            "-13",
            "600000000",
            "999999999999999",
            "1000000000000000",
            "12345678901234567890",
            "1.5",
            "-2e3",
            "1e-7",
            "00012",
            "+5",
            "inf",
            "NaN",
        ] {
            let fast = parse_number(t).map(f64::to_bits);
            let std = t.trim().parse::<f64>().map(f64::to_bits);
            assert_eq!(fast, std, "{t:?}");
        }
        for t in ["", "-", "1-2", "1 2", "x"] {
            assert!(parse_number(t).is_err(), "{t:?}");
        }
    }

    /// A record's kind and its `(key, value)` fields.
    type Kept = (usize, Vec<(String, String)>);

    #[derive(Default)]
    struct Keep(Vec<Kept>);

    impl RecordSink for Keep {
        fn record(&mut self, kind: usize, r: &Record) -> Result<(), Fault> {
            let fields = r
                .fields
                .iter()
                .map(|f| {
                    (
                        r.text[f.key.0..f.key.1].to_string(),
                        r.text[f.value.0..f.value.1].to_string(),
                    )
                })
                .collect();
            self.0.push((kind, fields));
            Ok(())
        }
    }

    fn records(at: RecordAt, text: &str) -> (Vec<Kept>, Vec<String>) {
        let mut stream = RecordStream::new(at, "an app", Keep::default());
        let mut faults = Vec::new();
        let mut t = Tokenizer::new(Framing::Document);
        let mut report =
            |f: Fault| faults.push(format!("{}:{} {}", f.at.line, f.at.column, f.reason));
        t.feed(text.as_bytes(), &mut stream, &mut report).unwrap();
        t.finish(&mut stream, &mut report).unwrap();
        (stream.reader.0, faults)
    }

    #[test]
    fn records_under_keys_flattened() {
        let text = r#"[{"apps":{"app":[{"id":"a1","r":{"mb":3,"x":[1,{"y":2}]},"t":null},{"id":"a2"}]}},
                      {"app":{"id":"a3"}}, {"apps":null}]"#;
        let (recs, faults) = records(RecordAt::Under(&["app"]), text);
        assert_eq!(faults, Vec::<String>::new());
        let ids: Vec<&str> = recs.iter().map(|(_, f)| f[0].1.as_str()).collect();
        assert_eq!(ids, vec!["a1", "a2", "a3"]);
        assert_eq!(
            recs[0].1,
            vec![
                ("id".to_string(), "a1".to_string()),
                ("r".to_string(), String::new()),
                ("r.mb".to_string(), "3".to_string()),
                ("r.x".to_string(), String::new()),
                ("t".to_string(), String::new()),
            ]
        );
    }

    /// A field read from a record, in words.
    type Read = dyn Fn(&Record) -> Result<String, Fault>;

    /// The first record of `text` (JSON lines), and what reading `read`
    /// from it gives: its value in words, or the error with its column.
    fn read_one(text: &str, read: impl Fn(&Record) -> Result<String, Fault>) -> String {
        struct One<F>(F, Vec<String>);
        impl<F: Fn(&Record) -> Result<String, Fault>> RecordSink for One<F> {
            fn record(&mut self, _: usize, r: &Record) -> Result<(), Fault> {
                let got = (self.0)(r)?;
                self.1.push(got);
                Ok(())
            }
        }
        let mut stream = RecordStream::new(RecordAt::TopLevel, "a row", One(read, Vec::new()));
        let mut faults = Vec::new();
        let mut t = Tokenizer::new(Framing::Lines);
        let mut report = |f: Fault| faults.push(format!("{}: {}", f.at.column, f.reason));
        t.feed(text.as_bytes(), &mut stream, &mut report).unwrap();
        t.finish(&mut stream, &mut report).unwrap();
        faults
            .into_iter()
            .chain(stream.reader.1)
            .collect::<Vec<_>>()
            .join(" | ")
    }

    #[test]
    fn a_container_where_a_value_belongs_is_its_wrong_type() {
        let number = |r: &Record| Ok(format!("{:?}", r.number("n")?));
        let text = |r: &Record| Ok(format!("{:?}", r.text("n")?));
        let nested = |r: &Record| Ok(format!("{:?}", r.number("e.cores")?));
        let cases: [(&str, &Read, &str); 12] = [
            (
                r#"{"n":[1,2]}"#,
                &number,
                "6: `n` should be a number, found an array",
            ),
            (
                r#"{"n":{"v":1}}"#,
                &number,
                "6: `n` should be a number, found an object",
            ),
            (
                r#"{"n":true}"#,
                &number,
                "6: `n` should be a number, found `true`",
            ),
            (
                r#"{"n":"x"}"#,
                &number,
                "6: `n` should be a finite number, found `x`",
            ),
            (
                r#"{"n":[]}"#,
                &text,
                "6: `n` should be text, found an array",
            ),
            (
                r#"{"n":{}}"#,
                &text,
                "6: `n` should be text, found an object",
            ),
            (
                r#"{"e":[4]}"#,
                &nested,
                "6: `e` should be an object (holding `cores`), found an array",
            ),
            (
                r#"{"e":"4"}"#,
                &nested,
                "6: `e` should be an object (holding `cores`), found the text `4`",
            ),
            // Absent or null stays allowed; a number as text stays a number.
            (r#"{"m":1}"#, &number, "None"),
            (r#"{"n":null,"e":null}"#, &nested, "None"),
            (r#"{"e":{"cores":"3"}}"#, &nested, "Some(3.0)"),
            (
                r#"[{"n":1}]"#,
                &number,
                "1: expected a row (a JSON object), found an array",
            ),
        ];
        for (line, read, expected) in cases {
            assert_eq!(read_one(line, read), expected, "{line}");
        }
    }

    #[test]
    fn wrong_types_where_records_belong() {
        let (recs, faults) = records(
            RecordAt::Under(&["app"]),
            r#"{"apps":{"app":[1,"x",[{"id":"b"}],{"id":"a"}]}}"#,
        );
        assert_eq!(recs.len(), 1);
        assert_eq!(
            faults,
            vec![
                "1:17 expected an app (a JSON object), found the number 1",
                "1:19 expected an app (a JSON object), found the text `x`",
                "1:23 expected an app (a JSON object), found an array",
            ]
        );
    }
}
