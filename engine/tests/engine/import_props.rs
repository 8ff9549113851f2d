//! Property tests of the importer, for every format forced and for detection:
//!
//! - no input panics, arbitrary bytes or arbitrary line-shaped text;
//! - pushing the same bytes in chunks of random sizes gives exactly the
//!   result of one push;
//! - lenient mode keeps exactly the records of the lines strict mode did not
//!   refuse: strict's errors are lenient's warnings, and blanking the refused
//!   lines gives a file that imports cleanly to the same records;
//! - every reported error points inside the file: line ≥ 1, column ≥ 1, line
//!   ≤ number of lines, column ≤ length of that line + 1.

use proptest::prelude::*;
use proptest::sample::select;
use skyplan_engine::import::runs_csv_columns;
use skyplan_engine::{import, Format, ImportError, ImportOptions, Importer, LoadedFile};

/// Detection (`None`) and each format forced.
fn format_choice() -> impl Strategy<Value = Option<Format>> {
    prop_oneof![Just(None), select(Format::ALL.to_vec()).prop_map(Some)]
}

fn options(format: Option<Format>, lenient: bool) -> ImportOptions {
    ImportOptions {
        format,
        lenient,
        ..ImportOptions::default()
    }
}

// ---------------------------------------------------------------- generators

fn native_line() -> impl Strategy<Value = String> {
    (
        "[a-z_]{1,8}",
        0u32..100,
        0i64..2_000_000_000_000,
        0i64..100_000,
        0i64..1_000_000,
        "[a-z0-9_]{1,8}",
        prop::collection::vec((0u32..5_000, 0i64..600), 1..6),
    )
        .prop_map(|(job, n, submit, wait, run, inst, units)| {
            let usage: String = units.iter().map(|(c, t)| format!("{c}:{t}|")).collect();
            let start = submit + wait;
            format!(
                "{job} {n} {submit} {start} {} {inst} 1024:0| {usage}",
                start + run
            )
        })
}

fn swim_line() -> impl Strategy<Value = String> {
    (
        "job[0-9]{1,4}",
        0u32..100_000,
        0u32..1_000,
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
    )
        .prop_map(|(j, s, g, a, b, c)| format!("{j}\t{s}\t{g}\t{a}\t{b}\t{c}"))
}

fn timestamp() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..2_000_000_000).prop_map(|t| t.to_string()),
        (
            2000u32..2030,
            1u32..13,
            1u32..29,
            0u32..24,
            0u32..60,
            0u32..60
        )
            .prop_map(|(y, mo, d, h, mi, s)| format!("{y}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}")),
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..100).prop_map(|v| v.to_string()),
        (0.0f64..100.0).prop_map(|v| format!("{v:.3}")),
    ]
}

fn util_line() -> impl Strategy<Value = String> {
    (timestamp(), value()).prop_map(|(t, v)| format!("{t},{v}"))
}

fn long_line() -> impl Strategy<Value = String> {
    (
        timestamp(),
        "s[0-9]",
        select(vec!["cpu", "memory", "disk"]),
        value(),
    )
        .prop_map(|(t, s, r, v)| format!("{t},{s},{r},{v}"))
}

fn runs_line() -> impl Strategy<Value = String> {
    (
        "[a-z]{1,6}",
        0i64..2_000_000_000,
        0i64..1_000,
        0i64..10_000,
        prop::collection::vec(0u32..50, 1..5),
    )
        .prop_map(|(job, submit, wait, run, sky)| {
            let sky: Vec<String> = sky.iter().map(u32::to_string).collect();
            let start = submit + wait;
            format!(
                "{job},{job}_{submit},{submit},{start},{},,,1,1024,60,{}",
                start + run,
                sky.join(";")
            )
        })
}

fn header() -> impl Strategy<Value = String> {
    select(vec![
        "timestamp,value".to_string(),
        "timestamp,series,resource,value".to_string(),
        "series,value,timestamp".to_string(),
        runs_csv_columns().join(","),
        "job,submit,start,end,skyline".to_string(),
        "job,submit,start,end,skyline,colour".to_string(),
        "# a comment".to_string(),
        String::new(),
    ])
}

fn valid_line() -> impl Strategy<Value = String> {
    prop_oneof![
        native_line(),
        swim_line(),
        util_line(),
        long_line(),
        runs_line(),
        header()
    ]
}

/// A valid line with one character inserted, one removed, or cut short.
fn mutated_line() -> impl Strategy<Value = String> {
    (
        valid_line(),
        any::<prop::sample::Index>(),
        select(vec![
            ',', '\t', ' ', ':', '|', ';', '-', '"', 'x', '9', '.', 'é', '\r',
        ]),
        0u8..3,
    )
        .prop_map(|(line, at, c, how)| {
            let mut chars: Vec<char> = line.chars().collect();
            let i = at.index(chars.len() + 1);
            match how {
                0 => chars.insert(i, c),
                1 if i < chars.len() => {
                    chars.remove(i);
                }
                _ => chars.truncate(i),
            }
            chars.into_iter().collect()
        })
}

fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => valid_line(),
        3 => mutated_line(),
        1 => "[ -~\t]{0,30}",
        1 => "\\PC{0,12}",
    ]
}

/// The lines of one format, with its usual first line (header, comment or
/// nothing).
fn format_lines() -> impl Strategy<Value = (String, Vec<String>)> {
    let lines = |s: BoxedStrategy<String>| prop::collection::vec(s, 0..8);
    let first = |v: Vec<&str>| select(v.into_iter().map(String::from).collect::<Vec<_>>());
    prop_oneof![
        (first(vec!["", "# native"]), lines(native_line().boxed())),
        (first(vec!["", "# swim"]), lines(swim_line().boxed())),
        (
            first(vec!["timestamp,value", ""]),
            lines(util_line().boxed())
        ),
        (
            first(vec!["timestamp,series,resource,value"]),
            lines(long_line().boxed())
        ),
        (
            Just(runs_csv_columns().join(",")),
            lines(runs_line().boxed())
        ),
    ]
}

/// A file: mostly the lines of one format under its own first line,
/// sometimes under another one, mixed with mutated and random lines, with
/// `\n` or `\r\n` endings, sometimes no final newline and sometimes a BOM.
fn line_file() -> impl Strategy<Value = Vec<u8>> {
    (
        format_lines(),
        prop::option::weighted(0.2, header()),
        prop::collection::vec((any::<prop::sample::Index>(), any_line()), 0..6),
        any::<bool>(),
        any::<bool>(),
        prop::bool::weighted(0.1),
    )
        .prop_map(
            |((first, mut lines), other_first, extra, crlf, final_newline, bom)| {
                for (at, line) in extra {
                    let i = at.index(lines.len() + 1);
                    lines.insert(i, line);
                }
                lines.insert(0, other_first.unwrap_or(first));
                let mut text = lines.join(if crlf { "\r\n" } else { "\n" });
                if final_newline {
                    text.push('\n');
                }
                let mut bytes = Vec::new();
                if bom {
                    bytes.extend_from_slice(b"\xEF\xBB\xBF");
                }
                bytes.extend_from_slice(text.as_bytes());
                bytes
            },
        )
}

/// Raw bytes, biased towards the separators the parsers split on.
fn raw_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            3 => any::<u8>(),
            1 => select(b"\n\r\t ,:|;0123456789\"".to_vec()),
        ],
        0..300,
    )
}

fn any_input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![2 => line_file(), 1 => raw_bytes()]
}

// ------------------------------------------------------------------- helpers

/// The lines of the input as the importer numbers them (a final newline
/// does not start a line).
fn lines_of(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        lines.pop();
    }
    lines
}

fn reported(result: &Result<LoadedFile, ImportError>) -> &[skyplan_engine::ParseError] {
    match result {
        Ok(f) => &f.warnings,
        Err(e) => e.errors(),
    }
}

fn check_positions(bytes: &[u8], result: &Result<LoadedFile, ImportError>) {
    let lines = lines_of(bytes);
    for e in reported(result) {
        prop_assert_ok(e.line >= 1 && e.column >= 1, e);
        prop_assert_ok(e.line as usize <= lines.len(), e);
        let text = String::from_utf8_lossy(lines[e.line as usize - 1]);
        prop_assert_ok(e.column as usize <= text.chars().count() + 1, e);
    }
}

#[track_caller]
fn prop_assert_ok(ok: bool, e: &skyplan_engine::ParseError) {
    assert!(ok, "error outside the file: {e:?}");
}

fn chunked(bytes: &[u8], sizes: &[usize], opts: ImportOptions) -> Result<LoadedFile, ImportError> {
    let mut imp = Importer::new("in.csv", opts);
    let mut rest = bytes;
    let mut k = 0;
    while !rest.is_empty() {
        let n = sizes[k % sizes.len()].min(rest.len());
        imp.push(&rest[..n]);
        rest = &rest[n..];
        k += 1;
    }
    // Empty pushes are allowed anywhere.
    imp.push(&[]);
    assert_eq!(imp.bytes_read(), bytes.len() as u64);
    imp.finish()
}

// ----------------------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in raw_bytes(), format in format_choice(), lenient in any::<bool>()) {
        let r = import("in.csv", &bytes, options(format, lenient));
        check_positions(&bytes, &r);
    }

    #[test]
    fn line_shaped_text_never_panics(bytes in line_file(), format in format_choice(), lenient in any::<bool>()) {
        let r = import("in.csv", &bytes, options(format, lenient));
        check_positions(&bytes, &r);
    }

    #[test]
    fn chunking_does_not_change_the_result(
        bytes in any_input(),
        format in format_choice(),
        lenient in any::<bool>(),
        sizes in prop::collection::vec(1usize..40, 1..8),
    ) {
        let whole = import("in.csv", &bytes, options(format, lenient));
        let pieces = chunked(&bytes, &sizes, options(format, lenient));
        prop_assert_eq!(pieces, whole);
    }

    #[test]
    fn lenient_keeps_exactly_the_lines_strict_accepts(bytes in any_input(), format in format_choice()) {
        let strict = import("in.csv", &bytes, options(format, false));
        let lenient = import("in.csv", &bytes, options(format, true));
        check_positions(&bytes, &strict);
        check_positions(&bytes, &lenient);
        match (&strict, &lenient) {
            // A clean file reads the same either way.
            (Ok(s), Ok(l)) => prop_assert_eq!(s, l),
            (Ok(s), Err(e)) => prop_assert!(false, "strict loaded {s:?}, lenient failed: {e}"),
            // Strict refused bad lines: lenient reports the same ones.
            (Err(ImportError::Malformed { errors, total, .. }), Ok(l)) => {
                prop_assert_eq!(&l.warnings, errors);
                prop_assert_eq!(l.skipped_lines, *total);
            }
            // Only bad lines: strict refuses them, lenient has nothing left.
            (
                Err(ImportError::Malformed { total, .. }),
                Err(ImportError::Empty { skipped, .. }),
            ) => prop_assert_eq!(skipped, total),
            (Err(s), Err(l)) => prop_assert_eq!(s, l),
            (Err(e), Ok(l)) => prop_assert!(false, "strict failed with {e}, lenient loaded {l:?}"),
        }
        // Blank the refused lines (keeping the numbering; a header's unknown
        // column is a warning about a line that must stay): what is left
        // reads to exactly lenient's records.
        if let Ok(l) = &lenient {
            let header_warning = |r: &str| r.starts_with("unknown column");
            let bad: Vec<u64> = l
                .warnings
                .iter()
                .filter(|w| !header_warning(&w.reason))
                .map(|w| w.line)
                .collect();
            let kept: Vec<&[u8]> = lines_of(&bytes)
                .into_iter()
                .enumerate()
                .map(|(i, line)| if bad.contains(&(i as u64 + 1)) { &b""[..] } else { line })
                .collect();
            let cleaned = kept.join(&b"\n"[..]);
            let again = import("in.csv", &cleaned, options(Some(l.format), true)).unwrap();
            prop_assert_eq!(&again.data, &l.data);
            prop_assert!(again.warnings.iter().all(|w| header_warning(&w.reason)), "{:?}", again.warnings);
            if again.warnings.is_empty() {
                let clean = import("in.csv", &cleaned, options(Some(l.format), false)).unwrap();
                prop_assert_eq!(&clean.data, &l.data);
            }
        }
    }
}
