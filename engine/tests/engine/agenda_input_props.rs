//! Property tests of the agenda's inputs: no input makes them panic.
//!
//! - YARN reservation JSON: arbitrary strings, arbitrary JSON-ish values,
//!   and valid submissions with fields removed or replaced by anything, read
//!   and turned into requests on a plan with any origin, then placed;
//! - the decisions CSV reader on arbitrary text and on mutated valid files;
//! - SLO decisions with any numbers turned into requests and placed.
//!
//! Every error names where it is: a JSON error has line and column ≥ 1, a
//! field error a reservation index inside the input and a `$` path, and a
//! shape or field error's `line:column` is where the value its path names
//! starts — checked independently of the locator, by parsing the text from
//! that character with serde_json and comparing with the value the path
//! (as a JSON pointer) gives in the whole document.

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Map, Value};
use skyplan_engine::agenda::{
    parse_yarn, requests_from_decisions, yarn_requests, AgendaParams, Capacity, Method, Plan,
    ReservationRequest, YarnError,
};
use skyplan_engine::export::decisions_csv;
use skyplan_engine::import::read_decisions_csv;
use skyplan_engine::slo::{DecisionKind, SloDecision};
use skyplan_engine::Skyline;

/// A small plan (one hour of one-minute steps) so placing stays quick.
fn small_params() -> AgendaParams {
    AgendaParams {
        period_secs: 3_600,
        step_secs: 60,
        ..AgendaParams::default()
    }
}

fn place_all(requests: Vec<ReservationRequest>) {
    let mut plan = Plan::new(
        small_params(),
        vec![Capacity {
            cores: 64.0,
            memory_mb: 64.0 * 4096.0,
        }],
    )
    .expect("plan");
    for (i, r) in requests.into_iter().take(8).enumerate() {
        let method = [Method::LowCost, Method::Greedy, Method::EarliestFirst][i % 3];
        let _ = plan.admit(r, method);
    }
}

fn check_yarn(text: &str, origin: i64) {
    match parse_yarn(text) {
        Ok(rs) => {
            let (reqs, skipped) = yarn_requests(&rs, origin, &small_params());
            for r in &reqs {
                assert!(!r.stages.is_empty());
                assert!(r
                    .stages
                    .iter()
                    .all(|s| s.demand.is_finite() && s.demand > 0.0));
            }
            assert!(skipped.iter().all(|(_, why)| !why.is_empty()));
            place_all(reqs);
        }
        Err(YarnError::Json { line, column, .. }) => assert!(line >= 1 && column >= 1),
        Err(YarnError::Shape {
            line,
            column,
            path,
            reason,
        }) => {
            assert!(path.starts_with('$') && !reason.is_empty());
            assert_located(text, line, column, &path);
        }
        Err(YarnError::Field {
            line,
            column,
            index,
            path,
            reason,
            ..
        }) => {
            assert!(index < 1_000 && path.starts_with('$') && !reason.is_empty());
            assert_located(text, line, column, &path);
        }
    }
}

/// `$[1].a-b.c[0]` as the JSON pointer `/1/a-b/c/0`.
fn pointer(path: &str) -> String {
    let mut out = String::new();
    let mut rest = path.strip_prefix('$').unwrap_or(path);
    while let Some(c) = rest.chars().next() {
        let body = &rest[1..];
        let end = body.find(['.', '[']).unwrap_or(body.len());
        let step = if c == '[' {
            body[..end].trim_end_matches(']')
        } else {
            &body[..end]
        };
        out.push('/');
        out.push_str(&step.replace('~', "~0").replace('/', "~1"));
        rest = &body[end..];
    }
    out
}

/// The value that starts at `line:column` (1-based, column in characters)
/// is the one `path` names in the document.
fn assert_located(text: &str, line: usize, column: usize, path: &str) {
    let line_start: usize = text.split('\n').take(line - 1).map(|l| l.len() + 1).sum();
    let line_text = text[line_start..].split('\n').next().unwrap_or("");
    let byte = line_text
        .char_indices()
        .nth(column - 1)
        .map_or(line_text.len(), |(b, _)| b);
    let here = serde_json::Deserializer::from_str(&text[line_start + byte..])
        .into_iter::<Value>()
        .next()
        .and_then(Result::ok);
    let root: Value = serde_json::from_str(text).expect("a shape or field error is valid JSON");
    assert_eq!(
        here.as_ref(),
        root.pointer(&pointer(path)),
        "{line}:{column} is not where {path} starts in {text}"
    );
}

/// Leaves of any JSON type, biased to what YARN fields hold.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|v| json!(v)),
        any::<u64>().prop_map(|v| json!(v)),
        (-1e20f64..1e20).prop_map(|v| json!(v)),
        (-5i64..5).prop_map(|v| json!(v)),
        (0i64..4_000_000_000_000).prop_map(|v| json!(v.to_string())),
        select(vec![
            "",
            "0",
            "-1",
            "R_ANY",
            "r_order_no_gap",
            "ALL",
            "x",
            "1e3",
            "3600000",
            " 7 ",
        ])
        .prop_map(|s| json!(s)),
        ".{0,12}".prop_map(Value::String),
    ]
}

const KEYS: [&str; 16] = [
    "queue",
    "reservation-id",
    "reservation-definition",
    "arrival",
    "deadline",
    "reservation-name",
    "priority",
    "recurrence-expression",
    "reservation-requests",
    "reservation-request-interpreter",
    "reservation-request",
    "capability",
    "memory",
    "vCores",
    "num-containers",
    "duration",
];

/// JSON-ish trees over YARN's vocabulary.
fn tree() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((select(KEYS.to_vec()), inner), 0..6).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect::<Map<String, Value>>(),
                )
            }),
        ]
    })
}

/// A valid submission from a few numbers.
fn submission() -> impl Strategy<Value = Value> {
    (
        -200i64..200,
        1i64..120,
        select(vec![0i64, 600_000, 3_600_000, 1_500_000, 7_200_000]),
        0u8..4,
        prop::collection::vec((1i64..40, 0i64..3, 1i64..1_200), 1..4),
    )
        .prop_map(|(start_min, len_min, rec, interp, stages)| {
            let origin_ms = 1_800_000_000_000i64;
            let stages: Vec<Value> = stages
                .into_iter()
                .map(|(n, g, d)| {
                    json!({"duration": d * 1000, "num-containers": n, "min-concurrency": g.min(n),
                           "capability": {"memory": 1024, "vCores": 1}})
                })
                .collect();
            json!({
                "queue": "dedicated",
                "reservation-id": "reservation_1_0001",
                "reservation-definition": {
                    "arrival": origin_ms + start_min * 60_000,
                    "deadline": origin_ms + (start_min + len_min) * 60_000,
                    "reservation-name": "r",
                    "recurrence-expression": rec.to_string(),
                    "reservation-requests": {
                        "reservation-request-interpreter": interp,
                        "reservation-request": stages,
                    }
                }
            })
        })
}

/// Replaces or removes the value at a random path of `v`.
fn mutate(v: &mut Value, path: &[usize], with: Option<Value>) {
    let Some((&first, rest)) = path.split_first() else {
        return;
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            let key = m.keys().nth(first % m.len()).cloned().unwrap_or_default();
            if rest.is_empty() {
                match with {
                    Some(w) => {
                        m.insert(key, w);
                    }
                    None => {
                        m.remove(&key);
                    }
                }
            } else if let Some(child) = m.get_mut(&key) {
                mutate(child, rest, with);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = first % a.len();
            if rest.is_empty() {
                match with {
                    Some(w) => a[i] = w,
                    None => {
                        a.remove(i);
                    }
                }
            } else {
                mutate(&mut a[i], rest, with);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn yarn_never_panics_on_text(text in ".{0,200}", origin in any::<i64>()) {
        check_yarn(&text, origin);
    }

    #[test]
    fn yarn_never_panics_on_json_ish_values(v in tree(), origin in any::<i64>()) {
        check_yarn(&v.to_string(), origin);
        check_yarn(&Value::Array(vec![v.clone(), v.clone()]).to_string(), origin);
        check_yarn(&json!({"reservations": v}).to_string(), origin);
    }

    #[test]
    fn yarn_never_panics_on_mutated_submissions(
        subs in prop::collection::vec(submission(), 1..4),
        path in prop::collection::vec(any::<usize>(), 1..6),
        with in prop::option::of(leaf()),
        origin in prop_oneof![Just(1_800_000_000i64), any::<i64>()],
    ) {
        let mut v = Value::Array(subs);
        mutate(&mut v, &path, with);
        check_yarn(&v.to_string(), origin);
        // Over many lines, as a person writes it: located on its line.
        check_yarn(&serde_json::to_string_pretty(&v).unwrap_or_default(), origin);
        // Cut anywhere: malformed JSON is located, never a panic.
        let text = v.to_string();
        let cut = path[0] % (text.len() + 1);
        if text.is_char_boundary(cut) {
            check_yarn(&text[..cut], origin);
        }
    }

    #[test]
    fn decisions_csv_never_panics(text in ".{0,300}", lines in prop::collection::vec(".{0,60}", 0..5)) {
        let _ = read_decisions_csv("d.csv", &text);
        let with_header = format!(
            "job,decision,period_secs,reference,earliest_start_secs,deadline_secs,step_secs,skyline,note\n{}",
            lines.join("\n")
        );
        if let Err(errs) = read_decisions_csv("d.csv", &with_header) {
            for e in errs {
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
        }
    }

    #[test]
    fn decisions_with_any_numbers_never_panic(
        ds in prop::collection::vec(
            (
                select(vec![DecisionKind::SignedOff, DecisionKind::Overridden, DecisionKind::Rejected]),
                prop_oneof![any::<i64>(), 1i64..100_000],
                prop_oneof![any::<i64>(), 1_700_000_000i64..1_900_000_000],
                (prop_oneof![any::<i64>(), 0i64..7_200], prop_oneof![any::<i64>(), 0i64..7_200]),
                0u32..400,
                prop::collection::vec(0.0f64..50.0, 0..6),
            ),
            0..5,
        ),
        origin in prop_oneof![any::<i64>(), 1_700_000_000i64..1_900_000_000],
        min_par in 0.0f64..5.0,
    ) {
        let ds: Vec<SloDecision> = ds
            .into_iter()
            .enumerate()
            .map(|(i, (kind, period, reference, window, step, sky))| SloDecision {
                job: format!("j{i}"),
                kind,
                period_secs: period,
                reference,
                window: Some(window),
                skyline: Some(Skyline::new(step, sky)),
                model: None,
                note: None,
            })
            .collect();
        let (reqs, skipped) = requests_from_decisions(&ds, origin, &small_params(), min_par);
        prop_assert!(reqs.len() + skipped.len() >= ds.len());
        place_all(reqs);
        // What the export writes, the reader reads (valid decisions only).
        let valid: Vec<SloDecision> = ds.into_iter().filter(|d| d.validate().is_ok()).collect();
        let back = read_decisions_csv("d.csv", &decisions_csv(&valid));
        prop_assert!(back.is_ok(), "{:?}", back);
    }
}
