//! Records out of a JSON stream: the objects a reader wants (an
//! application of a ResourceManager answer, a Spark event, a BigQuery row),
//! each gathered as flat `key → scalar` fields while the tokenizer streams,
//! then handed over whole.
//!
//! Nested objects are flattened with dotted keys (`average_usage.cpus`,
//! `Executor Info.Total Cores`); arrays inside a record are skipped (no
//! reader needs one, and one may be huge). A record keeps at most
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
        self.fields
            .iter()
            .find(|f| &self.text[f.key.0..f.key.1] == key)
    }

    /// A field's raw text, kind and position.
    pub(crate) fn get(&self, key: &str) -> Option<(&str, Kind, Pos)> {
        self.find(key)
            .map(|f| (&self.text[f.value.0..f.value.1], f.kind, f.at))
    }

    /// A text field (a number is taken as its digits); `None` when absent
    /// or `null`.
    pub(crate) fn text(&self, key: &str) -> Result<Option<&str>, Fault> {
        match self.get(key) {
            None | Some((_, Kind::Null, _)) => Ok(None),
            Some((t, Kind::Str | Kind::Num, _)) => Ok(Some(t)),
            Some((t, Kind::Bool, at)) => Err(Fault::at(
                at,
                format!("`{key}` should be text, found `{t}`"),
            )),
        }
    }

    /// A number field: a JSON number or a string holding one (BigQuery
    /// writes 64-bit integers as strings); `None` when absent, `null` or
    /// an empty string.
    pub(crate) fn number(&self, key: &str) -> Result<Option<f64>, Fault> {
        match self.get(key) {
            None | Some((_, Kind::Null, _)) => Ok(None),
            Some(("", Kind::Str, _)) => Ok(None),
            Some((t, Kind::Num | Kind::Str, at)) => match t.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(Some(v)),
                _ => Err(Fault::at(
                    at,
                    format!("`{key}` should be a finite number, found `{}`", shorten(t)),
                )),
            },
            Some((t, Kind::Bool, at)) => Err(Fault::at(
                at,
                format!("`{key}` should be a number, found `{t}`"),
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
        for k in keys {
            if self.find(k).is_some() {
                return self.number(k);
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
                Some(Frame { array: true, under }) => *under,
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
                    });
                }
                self.key = None;
            }
            Event::BeginArray => {
                let under = match self.frames.last() {
                    Some(Frame { array: false, .. }) => self.key,
                    _ => None,
                };
                self.frames.push(Frame { array: true, under });
                self.key = None;
            }
            Event::EndObject | Event::EndArray => {
                self.frames.pop();
                self.key = None;
            }
            Event::Key(k) => {
                self.key = match self.at {
                    RecordAt::Under(keys) => keys.iter().position(|w| *w == k),
                    RecordAt::TopLevel => None,
                };
            }
            Event::Str(..) | Event::Num(_) | Event::Bool(_) | Event::Null => {
                let in_array = matches!(self.frames.last(), Some(Frame { array: true, .. }));
                let expected = record_kind.is_some() || matches!(self.at, RecordAt::TopLevel);
                if expected && (in_array || event != Event::Null) {
                    let found = match event {
                        Event::Str(s, _) => format!("the text `{}`", shorten(s)),
                        Event::Num(n) => format!("the number {n}"),
                        Event::Bool(b) => format!("`{b}`"),
                        _ => "`null`".into(),
                    };
                    return Err(Fault::at(
                        at,
                        format!("expected {} (a JSON object), found {found}", self.noun),
                    ));
                }
            }
        }
        Ok(None)
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
            Event::BeginArray => self.skip = 1,
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
                ("r.mb".to_string(), "3".to_string()),
                ("t".to_string(), String::new()),
            ]
        );
    }

    #[test]
    fn wrong_types_where_records_belong() {
        let (recs, faults) = records(
            RecordAt::Under(&["app"]),
            r#"{"apps":{"app":[1,"x",{"id":"a"}]}}"#,
        );
        assert_eq!(recs.len(), 1);
        assert_eq!(
            faults,
            vec![
                "1:17 expected an app (a JSON object), found the number 1",
                "1:19 expected an app (a JSON object), found the text `x`",
            ]
        );
    }
}
