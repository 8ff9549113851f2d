//! YARN reservation JSON: the REST doc's examples, Jersey's shapes, each
//! interpreter placed, recurrences, errors, and the export round trip.

use super::*;
use crate::model::ContainerSize;

/// 2026-11-02 00:00 UTC.
const ORIGIN: i64 = 1_793_577_600;
const ORIGIN_MS: i64 = ORIGIN * 1000;

fn params() -> AgendaParams {
    AgendaParams::default()
}

fn plan(cores: f64) -> Plan {
    Plan::new(
        params(),
        vec![Capacity {
            cores,
            memory_mb: cores * 4096.0,
        }],
    )
    .unwrap()
}

/// A submission with the given interpreter, window (minutes after the
/// origin), recurrence and stages `(num-containers, min-concurrency,
/// duration s)`.
fn submit(
    name: &str,
    interpreter: &str,
    window_min: (i64, i64),
    recurrence_ms: i64,
    stages: &[(i64, i64, i64)],
) -> String {
    let reqs: Vec<String> = stages
        .iter()
        .map(|&(n, g, d)| {
            format!(
                r#"{{"duration": {}, "num-containers": {n}, "min-concurrency": {g},
                    "capability": {{"memory": 1024, "vCores": 1}}}}"#,
                d * 1000
            )
        })
        .collect();
    format!(
        r#"{{"queue": "dedicated", "reservation-id": "reservation_1_0001",
            "reservation-definition": {{
              "arrival": {}, "deadline": {}, "reservation-name": "{name}",
              "priority": 0, "recurrence-expression": "{recurrence_ms}",
              "reservation-requests": {{
                "reservation-request-interpreter": {interpreter},
                "reservation-request": [{}]}}}}}}"#,
        ORIGIN_MS + window_min.0 * 60_000,
        ORIGIN_MS + window_min.1 * 60_000,
        reqs.join(",")
    )
}

fn one(text: &str) -> ReservationRequest {
    let (mut reqs, skipped) = read_yarn(text, ORIGIN, &params()).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(reqs.len(), 1);
    reqs.remove(0)
}

fn work(r: &Reservation) -> f64 {
    r.alloc.iter().sum()
}

#[test]
fn the_rest_docs_submit_example() {
    // ResourceManagerRest.md, "Cluster Reservation API Submit" (with the
    // comma its example lacks after `reservation-id`).
    let text = r#"{
      "queue" : "dedicated",
      "reservation-id":"reservation_1404198295326_0003",
      "reservation-definition" : {
         "arrival" : 1765541532000,
         "deadline" : 1765542252000,
         "reservation-name" : "res_1",
         "reservation-requests" : {
            "reservation-request-interpreter" : 0,
            "reservation-request" : [
               { "duration" : 60000, "num-containers" : 220, "min-concurrency" : 220,
                 "capability" : { "memory" : 1024, "vCores" : 1 } },
               { "duration" : 120000, "num-containers" : 110, "min-concurrency" : 1,
                 "capability" : { "memory" : 1024, "vCores" : 1 } }
            ]
         }
       }
    }"#;
    let rs = parse_yarn(text).unwrap();
    assert_eq!(rs.len(), 1);
    let r = &rs[0];
    assert_eq!(r.queue.as_deref(), Some("dedicated"));
    assert_eq!(
        r.reservation_id.as_deref(),
        Some("reservation_1404198295326_0003")
    );
    assert_eq!(r.name, "res_1");
    assert_eq!(
        (r.arrival_ms, r.deadline_ms),
        (1765541532000, 1765542252000)
    );
    assert_eq!(r.interpreter, Interpreter::RAny);
    assert_eq!(r.recurrence_ms, 0);
    assert_eq!(
        r.container,
        ContainerSize {
            cores: 1.0,
            memory_mb: 1024.0
        }
    );
    assert_eq!(r.stages[1].min_concurrency, 1);
    // On a plan starting at the arrival's day.
    let origin = 1765541532 - 1765541532 % 86_400;
    let (reqs, skipped) = yarn_requests(&rs, origin, &params());
    assert!(skipped.is_empty());
    let q = &reqs[0];
    assert_eq!(q.recurrence, Recurrence::OneOff);
    assert_eq!(q.arrival_secs, 1765541532 - origin);
    assert_eq!(q.deadline_secs - q.arrival_secs, 720);
    // 220 containers × 60 s and 110 × 120 s, in container-seconds.
    assert_eq!(q.stages[0].demand, 13_200.0);
    assert_eq!(q.stages[1].demand, 13_200.0);
    assert_eq!(
        (q.stages[0].max_parallelism, q.stages[0].gang),
        (220.0, 220.0)
    );
    assert_eq!(
        (q.stages[1].max_parallelism, q.stages[1].gang),
        (110.0, 1.0)
    );
}

#[test]
fn jersey_list_response_with_strings_and_single_elements() {
    // The list API's example in ResourceManagerRest.md: numbers as strings,
    // one reservation and one request as objects rather than arrays.
    let info = r#"{
        "acceptance-time": "1455160008442",
        "user": "submitter",
        "resource-allocations": [
          { "resource": { "memory": "0", "vCores": "0" },
            "startTime": "1465541532000", "endTime": "1465542250000" } ],
        "reservation-id": "reservation_1458852875788_0002",
        "reservation-definition": {
          "arrival": "1465541532000",
          "deadline": "1465542252000",
          "reservation-requests": {
            "reservation-request-interpreter": "0",
            "reservation-request": {
              "capability": { "memory": "1024", "vCores": "1" },
              "min-concurrency": "1",
              "num-containers": "1",
              "duration": "60"
            }
          },
          "reservation-name": "res_1"
        }
      }"#;
    let text = &format!(r#"{{"reservations": {info}}}"#);
    let rs = parse_yarn(text).unwrap();
    assert_eq!(rs.len(), 1);
    assert_eq!(rs[0].queue, None);
    assert_eq!(rs[0].stages[0].duration_ms, 60);
    assert_eq!(rs[0].arrival_ms, 1465541532000);
    // An array of them, and an empty list.
    let two = format!(r#"{{"reservations": [{info}, {info}]}}"#);
    assert_eq!(parse_yarn(&two).unwrap().len(), 2);
    assert_eq!(parse_yarn(r#"{"reservations": null}"#).unwrap(), vec![]);
    assert_eq!(parse_yarn("[]").unwrap(), vec![]);
}

#[test]
fn each_interpreter_read_and_placed() {
    // Numeric ordinals and names, as YARN's enum orders them.
    for (text, want) in [
        ("0", Interpreter::RAny),
        ("\"1\"", Interpreter::RAll),
        ("\"R_ORDER\"", Interpreter::ROrder),
        ("\"order_no_gap\"", Interpreter::ROrderNoGap),
        ("3", Interpreter::ROrderNoGap),
    ] {
        let r = one(&submit("x", text, (0, 60), 0, &[(1, 1, 60)]));
        assert_eq!(r.interpreter, want, "{text}");
    }
    let mut p = plan(100.0);
    // R_ANY: 50 containers for 1 min, or 5 for 8 min: one of them.
    let any = one(&submit(
        "any",
        "0",
        (0, 60),
        0,
        &[(50, 50, 60), (5, 1, 480)],
    ));
    let (id, _) = p.admit(any, Method::LowCost).unwrap();
    let w = work(p.reservation(id).unwrap());
    assert!((w - 50.0).abs() < 1e-9 || (w - 40.0).abs() < 1e-9, "{w}");
    // R_ALL: both stages' work.
    let all = one(&submit(
        "all",
        "1",
        (100, 110),
        0,
        &[(10, 10, 120), (10, 10, 120)],
    ));
    let (id, _) = p.admit(all, Method::LowCost).unwrap();
    assert!((work(p.reservation(id).unwrap()) - 40.0).abs() < 1e-9);
    // R_ORDER and R_ORDER_NO_GAP: both stages, the latter contiguous.
    for interp in ["2", "3"] {
        let r = one(&submit(
            &format!("order{interp}"),
            interp,
            (200, 260),
            0,
            &[(20, 20, 120), (10, 10, 180)],
        ));
        let (id, _) = p.admit(r, Method::LowCost).unwrap();
        let r = p.reservation(id).unwrap();
        assert!((work(r) - 70.0).abs() < 1e-9, "{interp}: {:?}", r.alloc);
        assert!(r.start >= 200 && r.start + r.alloc.len() <= 260);
        if interp == "3" {
            assert!(r.alloc.iter().all(|&c| c > 0.0), "{:?}", r.alloc);
        }
    }
    // An absent interpreter is YARN's default int 0: R_ANY.
    let text = submit("d", "0", (0, 60), 0, &[(1, 1, 60)])
        .replace("\"reservation-request-interpreter\": 0,", "");
    assert_eq!(one(&text).interpreter, Interpreter::RAny);
}

#[test]
fn recurrences() {
    // Hourly: divides the day, so periodic, window folded into the first hour.
    let r = one(&submit("h", "3", (125, 170), 3_600_000, &[(4, 1, 600)]));
    assert_eq!(r.recurrence, Recurrence::Periodic { period_secs: 3_600 });
    assert_eq!((r.arrival_secs, r.deadline_secs), (5 * 60, 50 * 60));
    // Daily, first instance before the origin: folded too.
    let r = one(&submit(
        "d",
        "3",
        (-1_440 * 5 + 60, -1_440 * 5 + 120),
        86_400_000,
        &[(4, 1, 600)],
    ));
    assert_eq!((r.arrival_secs, r.deadline_secs), (3_600, 7_200));
    // 7 hours does not divide a day: one-offs per instance inside the plan.
    let (reqs, skipped) = read_yarn(
        &submit("seven", "3", (60, 120), 25_200_000, &[(4, 1, 600)]),
        ORIGIN,
        &params(),
    )
    .unwrap();
    assert!(skipped.is_empty());
    let names: Vec<&str> = reqs.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["seven#0", "seven#1", "seven#2", "seven#3"]);
    assert!(reqs.iter().all(|r| r.recurrence == Recurrence::OneOff));
    assert_eq!(reqs[2].arrival_secs, 3_600 + 2 * 25_200);
    // "0" and absent: one-off; a one-off outside the plan is skipped.
    let r = one(&submit("o", "3", (60, 120), 0, &[(4, 1, 600)])
        .replace(r#""recurrence-expression": "0","#, ""));
    assert_eq!(r.recurrence, Recurrence::OneOff);
    let (reqs, skipped) = read_yarn(
        &submit("late", "3", (2_000, 2_100), 0, &[(4, 1, 600)]),
        ORIGIN,
        &params(),
    )
    .unwrap();
    assert!(reqs.is_empty());
    assert_eq!(skipped[0].0, "late");
    assert!(skipped[0].1.contains("outside the plan"), "{skipped:?}");
    // A window straddling the plan's start is clipped to it.
    let r = one(&submit("early", "3", (-30, 30), 0, &[(4, 1, 600)]));
    assert_eq!((r.arrival_secs, r.deadline_secs), (0, 1_800));
    // A number works as well as a string.
    let r = one(&submit("n", "3", (0, 30), 0, &[(4, 1, 600)]).replace(
        r#""recurrence-expression": "0""#,
        r#""recurrence-expression": 3600000"#,
    ));
    assert_eq!(r.recurrence, Recurrence::Periodic { period_secs: 3_600 });
}

fn field_error(text: &str) -> (usize, String, String, String) {
    match parse_yarn(text) {
        Err(YarnError::Field {
            index,
            name,
            path,
            reason,
            ..
        }) => (index, name, path, reason),
        other => panic!("{other:?}"),
    }
}

#[test]
fn errors_name_the_reservation_path_and_reason() {
    let good = submit("ok", "3", (0, 60), 0, &[(4, 1, 600)]);
    // Malformed JSON: line and column.
    let e = parse_yarn("{\n  \"queue\": \"a\",\n  oops\n}").unwrap_err();
    assert!(
        matches!(
            e,
            YarnError::Json {
                line: 3,
                column: 3,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with("3:3: key must be a string"),
        "{e}"
    );
    // Not one of the shapes.
    let e = parse_yarn("42").unwrap_err();
    assert!(matches!(e, YarnError::Shape { .. }), "{e:?}");
    assert!(e.to_string().starts_with("1:1: $: expected"), "{e}");
    assert!(parse_yarn(r#"{"reservations": 3}"#).is_err());
    // A missing field, in the second reservation.
    let bad = good.replace("\"duration\": 600000,", "");
    let (index, name, path, reason) = field_error(&format!("[{good}, {bad}]"));
    assert_eq!((index, name.as_str()), (1, "ok"));
    assert_eq!(
        path,
        "$[1].reservation-definition.reservation-requests.reservation-request[0]"
    );
    assert_eq!(reason, "`duration` is missing");
    let e = parse_yarn(&format!("[{good}, {bad}]"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(": reservation 1 (`ok`), $[1].reservation-definition"),
        "{e}"
    );
    // Bad values.
    let (_, _, path, reason) = field_error(&good.replace(
        "\"reservation-request-interpreter\": 3",
        "\"reservation-request-interpreter\": 7",
    ));
    assert!(path.ends_with("reservation-request-interpreter"), "{path}");
    assert!(reason.contains("R_ORDER_NO_GAP"), "{reason}");
    let (_, _, path, reason) =
        field_error(&good.replace("\"num-containers\": 4", "\"num-containers\": \"four\""));
    assert!(path.ends_with("[0].num-containers"), "{path}");
    assert!(reason.contains("`four` is not an integer"), "{reason}");
    // An array, an object or a boolean where a number or text belongs: a
    // type error at the field's path, never a field read as missing.
    for (from, to, at, found) in [
        (
            "\"num-containers\": 4",
            "\"num-containers\": [4]",
            "[0].num-containers",
            "expected an integer, found an array",
        ),
        (
            "\"vCores\": 1",
            "\"vCores\": {\"n\": 1}",
            "capability.vCores",
            "expected an integer, found an object",
        ),
        (
            "\"num-containers\": 4",
            "\"num-containers\": true",
            "[0].num-containers",
            "expected an integer, found a boolean",
        ),
        (
            "\"reservation-name\": \"ok\"",
            "\"reservation-name\": [\"ok\"]",
            "reservation-name",
            "expected a string, found an array",
        ),
    ] {
        let (_, _, path, reason) = field_error(&good.replace(from, to));
        assert!(path.ends_with(at), "{to}: {path}");
        assert_eq!(reason, found, "{to}");
    }
    let (_, _, _, reason) =
        field_error(&good.replace("\"min-concurrency\": 1", "\"min-concurrency\": 9"));
    assert!(reason.contains("more than num-containers 4"), "{reason}");
    let (_, _, path, reason) = field_error(&good.replace("\"vCores\": 1", "\"vCores\": 0"));
    assert!(path.ends_with("capability.vCores"), "{path}");
    assert!(reason.contains("out of range"), "{reason}");
    let (_, _, path, _) = field_error(&good.replace(
        "\"recurrence-expression\": \"0\"",
        "\"recurrence-expression\": \"-5\"",
    ));
    assert!(path.ends_with("recurrence-expression"), "{path}");
    let (_, _, _, reason) = field_error(&good.replace(
        "\"recurrence-expression\": \"0\"",
        "\"recurrence-expression\": \"60000\"",
    ));
    assert!(reason.contains("longer than the period"), "{reason}");
    let (_, name, path, reason) = field_error(&good.replace("\"deadline\"", "\"deadline_\""));
    assert_eq!(
        (name.as_str(), path.as_str()),
        ("ok", "$.reservation-definition")
    );
    assert_eq!(reason, "`deadline` is missing");
    let (_, _, path, reason) = field_error(&good.replace("\"reservation-request\": [", "\"reservation-request\": [{\"duration\": 60, \"num-containers\": 1, \"capability\": {\"memory\": 2048, \"vCores\": 1}},"));
    assert!(
        path.ends_with("reservation-request[1].capability"),
        "{path}"
    );
    assert!(reason.contains("one container size"), "{reason}");
    let (_, _, _, reason) = field_error(&good.replace(
        &format!("\"deadline\": {}", ORIGIN_MS + 3_600_000),
        &format!("\"deadline\": {}", ORIGIN_MS),
    ));
    assert!(reason.contains("not after arrival"), "{reason}");
    // Without a name or an id, a reservation is known by its position.
    let anon = good
        .replace("\"reservation-name\": \"ok\",", "")
        .replace("\"reservation-id\": \"reservation_1_0001\",", "")
        .replace("\"capability\"", "\"capabilities\"");
    let (_, name, _, reason) = field_error(&format!("[{good}, {anon}]"));
    assert_eq!(name, "reservation-1");
    assert_eq!(reason, "`capability` is missing");
    let (_, _, path, reason) = field_error(&format!("[{good}, 5]"));
    assert_eq!(
        (path.as_str(), reason.as_str()),
        ("$[1]", "expected an object, found a number")
    );
}

#[test]
fn export_then_read_and_place_keeps_each_reservations_work() {
    let mut p = plan(200.0);
    let sky = |name: &str, rec, w: (i64, i64), s: &[f64]| {
        ReservationRequest::from_skyline(
            name,
            rec,
            (w.0 * 60, w.1 * 60),
            ContainerSize {
                cores: 2.0,
                memory_mb: 3072.0,
            },
            s,
            60,
            1.0,
        )
    };
    let daily = Recurrence::Periodic {
        period_secs: 86_400,
    };
    let hourly = Recurrence::Periodic { period_secs: 3_600 };
    let reqs = vec![
        sky("etl", daily, (60, 240), &[10.0, 40.0, 40.0, 20.0, 5.0]),
        sky("lp", daily, (300, 420), &[3.7, 12.25, 8.5, 0.4]),
        sky("hourly", hourly, (10, 55), &[6.0, 6.0, 2.5]),
        sky("adhoc", Recurrence::OneOff, (600, 700), &[30.0, 30.0, 10.0]),
        ReservationRequest {
            interpreter: Interpreter::ROrder,
            ..sky("ordered", daily, (800, 900), &[50.0, 20.0])
        },
    ];
    for r in &reqs {
        p.admit(r.clone(), Method::LowCost).unwrap();
    }
    // One, with the baseline, so runs of equal counts are merged.
    p.admit(
        sky("rigid", daily, (1000, 1100), &[8.0, 8.0, 8.0, 4.0]),
        Method::Greedy,
    )
    .unwrap();
    let text = plan_to_yarn(&p, ORIGIN, "dedicated");
    // The shape YARN's REST layer reads.
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let first = &v[0];
    assert_eq!(first["queue"], "dedicated");
    assert!(first["reservation-id"]
        .as_str()
        .unwrap()
        .starts_with("reservation_"));
    let def = &first["reservation-definition"];
    assert_eq!(def["reservation-name"], "etl");
    assert_eq!(def["recurrence-expression"], "86400000");
    assert_eq!(def["arrival"], ORIGIN_MS + 60 * 60_000);
    assert_eq!(def["deadline"], ORIGIN_MS + 240 * 60_000);
    let rr = &def["reservation-requests"];
    assert_eq!(rr["reservation-request-interpreter"], 3);
    let stage = &rr["reservation-request"][0];
    assert_eq!(stage["capability"]["memory"], 3072);
    assert_eq!(stage["capability"]["vCores"], 2);
    assert_eq!(stage["num-containers"], stage["min-concurrency"]);
    let rigid = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["reservation-definition"]["reservation-name"] == "rigid")
        .unwrap();
    let stages = &rigid["reservation-definition"]["reservation-requests"]["reservation-request"];
    assert_eq!(stages.as_array().unwrap().len(), 2);
    assert_eq!(stages[0]["num-containers"], 8);
    assert_eq!(stages[0]["duration"], 180_000);
    let adhoc = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["reservation-definition"]["reservation-name"] == "adhoc")
        .unwrap();
    assert_eq!(
        adhoc["reservation-definition"]["recurrence-expression"],
        "0"
    );
    // Read back and placed again: the same work, instances and kind.
    let (back, skipped) = read_yarn(&text, ORIGIN, &params()).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(back.len(), p.reservations().len());
    let mut q = plan(200.0);
    for r in back {
        q.admit(r, Method::LowCost).unwrap();
    }
    for r in p.reservations() {
        let s = q
            .reservations()
            .iter()
            .find(|s| s.request.name == r.request.name)
            .unwrap();
        assert!(
            (work(r) - work(s)).abs() < 1e-3,
            "{}: {} vs {}",
            r.request.name,
            work(r),
            work(s)
        );
        assert_eq!(r.instances, s.instances, "{}", r.request.name);
        assert_eq!(r.request.recurrence, s.request.recurrence);
        assert_eq!(r.window, s.window, "{}", r.request.name);
        assert_eq!(r.request.container, s.request.container);
    }
}

#[test]
fn lower_bounds_stay_below_the_peak_for_each_interpreter() {
    // R_ANY needs only one alternative: a 90-container gang next to a thin
    // one must not lift the bound above what LowCost reaches.
    for interp in ["0", "1", "2", "3"] {
        let r = one(&submit(
            "x",
            interp,
            (720, 780),
            0,
            &[(90, 90, 600), (30, 1, 1_800)],
        ));
        let mut p = plan(100.0);
        p.admit(r.clone(), Method::LowCost).unwrap();
        let b = lower_bounds(&p, &[r], 10_000);
        assert!(
            b.best <= p.peak() + 1e-9,
            "{interp}: bound {b:?} above peak {}",
            p.peak()
        );
        assert!(b.lp.is_some());
    }
}

/// A submission laid out over lines, for errors located by hand. Columns
/// (1-based, in characters) of what the tests below point at:
/// - line 2: the reservation's `{` at 3; after an escaped quote and `é`,
///   the `reservation-id` value `"r1"` at 40;
/// - line 3: the `reservation-definition` object's `{` at 30;
/// - line 4: after `ï` (2 bytes) and `😀` (4 bytes), the `priority` value
///   at 49 (its byte column would be 53);
/// - line 5: the `deadline` value at 32;
/// - line 10: the second request's `{` at 10, its `duration` value at 23;
/// - line 11: its `capability` object's `{` at 25.
const LAID_OUT: &str = concat!(
    "[\n",
    "  {\"queue\": \"q\\\"ué\", \"reservation-id\": \"r1\",\n",
    "   \"reservation-definition\": {\n",
    "     \"reservation-name\": \"naïve 😀\", \"priority\": 0,\n",
    "     \"arrival\": 0, \"deadline\": 60000,\n",
    "     \"reservation-requests\": {\n",
    "       \"reservation-request\": [\n",
    "         {\"duration\": 1000, \"num-containers\": 2,\n",
    "          \"capability\": {\"memory\": 1024, \"vCores\": 1}},\n",
    "         {\"duration\": 2000, \"num-containers\": 2,\n",
    "          \"capability\": {\"memory\": 1024, \"vCores\": 2}}]}}}\n",
    "]\n",
);

/// The error's `line:column`, its path and the whole message.
fn located(text: &str) -> (String, String, String) {
    match parse_yarn(text) {
        Err(
            ref e @ (YarnError::Field {
                line,
                column,
                ref path,
                ..
            }
            | YarnError::Shape {
                line,
                column,
                ref path,
                ..
            }),
        ) => (format!("{line}:{column}"), path.clone(), e.to_string()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn errors_lead_with_the_line_and_column_of_the_fault() {
    // The fixture is valid once its second request has the first's size.
    let valid = LAID_OUT.replace("\"vCores\": 2}", "\"vCores\": 1}");
    assert_eq!(parse_yarn(&valid).unwrap()[0].stages.len(), 2);
    let stage1 = "$[0].reservation-definition.reservation-requests.reservation-request[1]";
    // A container size that differs from the first request's: its object.
    let (at, path, message) = located(LAID_OUT);
    assert_eq!(
        (at.as_str(), path),
        ("11:25", format!("{stage1}.capability"))
    );
    assert!(
        message.starts_with(&format!(
            "11:25: reservation 0 (`naïve 😀`), {stage1}.capability: <1024 MB, 2 vCores> differs"
        )),
        "{message}"
    );
    for (from, to, want_at, want_path) in [
        // A bad value in an array element, keys with `-`.
        (
            "\"duration\": 2000",
            "\"duration\": \"x\"",
            "10:23",
            format!("{stage1}.duration"),
        ),
        // A missing key: the object it is missing from.
        (
            "\"duration\": 2000, \"num-containers\": 2,",
            "\"duration\": 2000,",
            "10:10",
            stage1.to_string(),
        ),
        (
            "\"reservation-definition\"",
            "\"definition\"",
            "2:3",
            "$[0]".to_string(),
        ),
        // After escapes and multi-byte characters on the same line.
        ("\"r1\"", "5", "2:40", "$[0].reservation-id".to_string()),
        (
            "\"priority\": 0",
            "\"priority\": \"high\"",
            "4:49",
            "$[0].reservation-definition.priority".to_string(),
        ),
        (
            "\"deadline\": 60000",
            "\"deadline\": 0",
            "5:32",
            "$[0].reservation-definition.deadline".to_string(),
        ),
        (
            "\"arrival\": 0, ",
            "",
            "3:30",
            "$[0].reservation-definition".to_string(),
        ),
    ] {
        let text = valid.replace(from, to);
        let (at, path, message) = located(&text);
        assert_eq!(
            (at.as_str(), &path),
            (want_at, &want_path),
            "{to}: {message}"
        );
        assert!(message.starts_with(&format!("{want_at}: ")), "{message}");
    }
    // The two shapes other than an array: a list whose `reservations` is
    // not a list, a submission object, and Jersey's one-element list.
    let (at, path, _) = located("\n  {\"reservations\":\n     3}");
    assert_eq!((at.as_str(), path.as_str()), ("3:6", "$.reservations"));
    let (at, path, _) = located("\n\n   42");
    assert_eq!((at.as_str(), path.as_str()), ("3:4", "$"));
    let one = valid.trim().trim_start_matches('[').trim_end_matches(']');
    let (at, path, _) = located(&one.replace("\"deadline\": 60000", "\"deadline\": 0"));
    assert_eq!(
        (at.as_str(), path.as_str()),
        ("5:32", "$.reservation-definition.deadline")
    );
    let list = format!("{{\"reservations\":{one}}}");
    let (at, path, _) = located(&list.replace("\"priority\": 0", "\"priority\": [0]"));
    assert_eq!(
        (at.as_str(), path.as_str()),
        ("4:49", "$.reservations.reservation-definition.priority")
    );
    // A list of two; a key given twice is located where serde_json takes
    // it, the last (line 14: the second reservation's line 2).
    let list = format!("{{\"reservations\": [\n{one}, {one}]}}");
    let second = list.rfind("\"reservation-id\": \"r1\"").unwrap();
    let list = format!(
        "{}\"reservation-id\": null, \"queue\": 7{}",
        &list[..second],
        &list[second + 22..]
    );
    let (at, path, message) = located(&list);
    assert_eq!(
        (at.as_str(), path.as_str()),
        ("14:55", "$.reservations[1].queue"),
        "{message}"
    );
}

#[test]
fn hostile_input_is_located_without_a_panic() {
    // Nesting deeper than the locating scan follows (but within what
    // serde_json reads) before the fault: located at the deepest part of
    // the path the scan reached, the reservation's `{`.
    let deep = format!(
        "[{{\"x\": {}{}, \"reservation-definition\": 5}}]",
        "[".repeat(110),
        "]".repeat(110)
    );
    let (at, path, _) = located(&deep);
    assert_eq!(
        (at.as_str(), path.as_str()),
        ("1:2", "$[0].reservation-definition")
    );
    // Nesting beyond serde_json's limit is a syntax error, located too.
    let e = parse_yarn(&"[".repeat(100_000)).unwrap_err();
    assert!(matches!(e, YarnError::Json { line: 1, .. }), "{e:?}");
    // A 3 MiB single line of multi-byte characters before the fault.
    let huge = format!(
        "{{\"queue\": \"{}\", \"reservation-definition\": []}}",
        "é".repeat(3 << 20)
    );
    let (at, path, _) = located(&huge);
    assert_eq!(path, "$.reservation-definition");
    assert_eq!(at, format!("1:{}", 12 + (3 << 20) + 29));
}
