//! YARN ReservationSystem reservations as the ResourceManager REST API's
//! JSON: read them into agenda requests, and write a plan back as
//! reservations to submit.
//!
//! # The JSON
//!
//! The body of `POST /ws/v1/cluster/reservation/submit` (Hadoop's
//! `ResourceManagerRest.md`, "Cluster Reservation API Submit", and the DAO
//! classes of `hadoop-yarn-server-resourcemanager`'s `webapp/dao` that the
//! REST layer binds it to: `ReservationSubmissionRequestInfo`,
//! `ReservationDefinitionInfo`, `ReservationRequestsInfo`,
//! `ReservationRequestInfo`, `ResourceInfo`):
//!
//! ```json
//! { "queue": "dedicated",
//!   "reservation-id": "reservation_1404198295326_0003",
//!   "reservation-definition": {
//!     "arrival": 1765541532000, "deadline": 1765542252000,
//!     "reservation-name": "res_1", "priority": 0,
//!     "recurrence-expression": "86400000",
//!     "reservation-requests": {
//!       "reservation-request-interpreter": 0,
//!       "reservation-request": [
//!         { "duration": 60000, "num-containers": 220, "min-concurrency": 220,
//!           "capability": { "memory": 1024, "vCores": 1 } } ] } } }
//! ```
//!
//! - `arrival`, `deadline`: epoch milliseconds (Java `long`s).
//! - `duration`: milliseconds (the REST doc: "The duration of a
//!   ReservationRequest in milliseconds"; its submit example uses 60000).
//! - `reservation-request-interpreter`: the ordinal of YARN's
//!   `ReservationRequestInterpreter` enum, `R_ANY, R_ALL, R_ORDER,
//!   R_ORDER_NO_GAP` = 0–3 (`RMWebServices` takes
//!   `ReservationRequestInterpreter.values()[n]`). The DAO field is a Java
//!   `int`, so an absent interpreter is 0, `R_ANY`, on a real
//!   ResourceManager too; we do the same. The names (`R_ALL`, `ALL`, any
//!   case) are accepted as well.
//! - `recurrence-expression`: a `String` in the DAO, parsed by YARN's
//!   `ReservationInputValidator` with `Long.parseLong`: the period in
//!   milliseconds, `"0"` (or absent) for a one-off. YARN refuses a negative
//!   one and a window (`deadline - arrival`) longer than it; so do we.
//! - `min-concurrency` absent: 1 (no gang).
//!
//! Jersey's JSON (the list API's example in the REST doc) writes numbers as
//! strings (`"memory": "1024"`) and a one-element list as the element itself
//! (`"reservation-request": { … }`): both are accepted. The input may be one
//! submission object, an array of them (what [`plan_to_yarn`] writes), or the
//! body of `GET /ws/v1/cluster/reservation/list` (`ReservationListInfo`:
//! `{"reservations": …}`, an array or, for one reservation, an object of
//! `ReservationInfo`s, each with a `reservation-definition`).
//!
//! # Mapping to the agenda
//!
//! Each `reservation-request` is a [`Stage`]: work = `num-containers` ×
//! `duration` (container-seconds), maximum parallelism = `num-containers`,
//! gang = `min-concurrency`; the container is the `capability` (`memory`
//! MiB, `vCores`), which must be the same for all stages of a reservation
//! (the agenda counts a request's stages in one container size). The window
//! `[arrival, deadline]` is taken relative to the plan's origin and rounded
//! inward to whole seconds. A recurrence that divides the plan's period (and
//! is a multiple of its step) gives a periodic request with its first window
//! folded into the first period; any other recurrence gives one one-off
//! request per instance whose window overlaps the plan (`name#k`, clipped to
//! the plan); a one-off's window is clipped to the plan. What falls outside
//! the plan is returned as skipped, with the reason.
//!
//! # Errors
//!
//! Every [`YarnError`] leads with the 1-based `line:column` (a column in
//! characters) where the fault is, so a caller prints `file:line:column:
//! reason` like every other reader: serde_json gives it for a syntax error;
//! for a wrong shape or field, found by walking the parsed `Value` (which
//! keeps no positions), the error's JSON path is located in the text by
//! `import::fields::locate` — the value's first character, or for a missing
//! field the `{` of the object it is missing from.

use super::landing::{land, to_secs, Landing};
use super::params::AgendaParams;
use super::plan::{Plan, Reservation};
use super::request::{Interpreter, Recurrence, ReservationRequest, Stage};
use crate::import::fields::{locate, JsonPath};
use crate::model::{ContainerSize, Timestamp};
use crate::time::format_timestamp;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One `reservation-request` (stage) of a YARN reservation definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YarnStage {
    /// `num-containers`: the stage's containers (its maximum parallelism).
    pub num_containers: i64,
    /// `min-concurrency`: containers that must run together (gang).
    pub min_concurrency: i64,
    /// `duration`, milliseconds.
    pub duration_ms: i64,
}

/// One reservation as submitted to (or listed by) YARN's ResourceManager.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YarnReservation {
    /// `queue` (submissions only; the list API does not carry it).
    pub queue: Option<String>,
    /// `reservation-id`.
    pub reservation_id: Option<String>,
    /// `reservation-name`, else the id, else `reservation-<index>`.
    pub name: String,
    /// `arrival`, epoch milliseconds.
    pub arrival_ms: i64,
    /// `deadline`, epoch milliseconds.
    pub deadline_ms: i64,
    /// `priority` (lower is more important), if given.
    pub priority: Option<i64>,
    /// `recurrence-expression`: the period in milliseconds, 0 for a one-off.
    pub recurrence_ms: i64,
    /// `reservation-request-interpreter`.
    pub interpreter: Interpreter,
    /// `capability`: the container every stage counts in.
    pub container: ContainerSize,
    /// The `reservation-request` list, in order.
    pub stages: Vec<YarnStage>,
}

/// Why YARN reservation JSON could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum YarnError {
    /// Not JSON at all.
    #[error("{line}:{column}: {reason}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json found.
        reason: String,
    },
    /// JSON, but not one of the accepted top-level shapes.
    #[error("{line}:{column}: {path}: {reason}")]
    Shape {
        /// 1-based line where the offending value starts.
        line: usize,
        /// 1-based column (in characters) where it starts.
        column: usize,
        /// Where, as a JSON path (`$`, `$.reservations`).
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A reservation has a missing or bad field.
    #[error("{line}:{column}: reservation {index} (`{name}`), {path}: {reason}")]
    Field {
        /// 1-based line where the offending value starts (for a missing
        /// key, the object it is missing from).
        line: usize,
        /// 1-based column (in characters) where it starts.
        column: usize,
        /// 0-based position of the reservation in the input.
        index: usize,
        /// Its name, as far as it could be read.
        name: String,
        /// Where, as a JSON path
        /// (`$[1].reservation-definition.reservation-requests.reservation-request[0].duration`).
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// Java `int` and `long` ranges, as the DAO fields are typed.
const INT: (i128, i128) = (i32::MIN as i128, i32::MAX as i128);
const LONG: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);

fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// An integer given as a JSON number or (Jersey) a string, within `range`.
fn integer(v: &Value, range: (i128, i128)) -> Result<i128, String> {
    let n = match v {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Some(i128::from(i)),
            (_, Some(u), _) => Some(i128::from(u)),
            (_, _, Some(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30 => {
                Some(f as i128)
            }
            _ => None,
        },
        Value::String(s) => s.trim().parse::<i128>().ok(),
        other => return Err(format!("expected an integer, found {}", describe(other))),
    };
    match n {
        Some(n) if (range.0..=range.1).contains(&n) => Ok(n),
        Some(n) => Err(format!("{n} is out of range ({} to {})", range.0, range.1)),
        None => Err(format!(
            "`{}` is not an integer",
            shorten(v.as_str().map_or(&v.to_string(), |s| s))
        )),
    }
}

/// A list as Jersey writes it: an array, or its only element.
fn list(v: &Value) -> Vec<(Option<usize>, &Value)> {
    match v {
        Value::Array(a) => a.iter().enumerate().map(|(i, x)| (Some(i), x)).collect(),
        other => vec![(None, other)],
    }
}

fn interpreter(v: &Value) -> Result<Interpreter, String> {
    const ALL: [Interpreter; 4] = [
        Interpreter::RAny,
        Interpreter::RAll,
        Interpreter::ROrder,
        Interpreter::ROrderNoGap,
    ];
    if let Value::String(s) = v {
        let t = s.trim().to_ascii_uppercase().replace('-', "_");
        match t.strip_prefix("R_").unwrap_or(&t) {
            "ANY" => return Ok(Interpreter::RAny),
            "ALL" => return Ok(Interpreter::RAll),
            "ORDER" => return Ok(Interpreter::ROrder),
            "ORDER_NO_GAP" => return Ok(Interpreter::ROrderNoGap),
            _ => {}
        }
    }
    match integer(v, (0, 3)) {
        Ok(n) => Ok(ALL[n as usize]),
        Err(_) => Err(format!(
            "`{}` is not 0–3 (R_ANY, R_ALL, R_ORDER, R_ORDER_NO_GAP) or one of those names",
            shorten(v.as_str().map_or(&v.to_string(), |s| s))
        )),
    }
}

/// Where the value at `path` starts in `text`, as the 1-based line and
/// character column an error leads with.
fn position(text: &str, path: &JsonPath) -> (usize, usize) {
    let at = locate(text, path);
    (
        usize::try_from(at.line).unwrap_or(usize::MAX),
        usize::try_from(at.column).unwrap_or(usize::MAX),
    )
}

/// Reads one reservation, reporting errors with its index and name and
/// where in `text` the fault is.
struct Reader<'a> {
    /// The whole input, to locate a fault in (only when there is one).
    text: &'a str,
    index: usize,
    name: String,
    path: &'a JsonPath,
}

impl Reader<'_> {
    fn err(&self, path: &JsonPath, reason: impl Into<String>) -> YarnError {
        let (line, column) = position(self.text, path);
        YarnError::Field {
            line,
            column,
            index: self.index,
            name: self.name.clone(),
            path: path.to_string(),
            reason: reason.into(),
        }
    }

    /// A field of `obj` (`null` counts as absent).
    fn get<'v>(obj: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
        obj.get(key).filter(|v| !v.is_null())
    }

    fn object<'v>(
        &self,
        v: &'v Value,
        path: &JsonPath,
    ) -> Result<&'v Map<String, Value>, YarnError> {
        v.as_object()
            .ok_or_else(|| self.err(path, format!("expected an object, found {}", describe(v))))
    }

    fn required<'v>(
        &self,
        obj: &'v Map<String, Value>,
        key: &str,
        path: &JsonPath,
    ) -> Result<&'v Value, YarnError> {
        Self::get(obj, key).ok_or_else(|| self.err(path, format!("`{key}` is missing")))
    }

    fn int(
        &self,
        obj: &Map<String, Value>,
        key: &str,
        path: &JsonPath,
        range: (i128, i128),
        default: Option<i128>,
    ) -> Result<i128, YarnError> {
        match (Self::get(obj, key), default) {
            (None, Some(d)) => Ok(d),
            (None, None) => Err(self.err(path, format!("`{key}` is missing"))),
            (Some(v), _) => integer(v, range).map_err(|e| self.err(&path.key(key), e)),
        }
    }

    fn string(
        &self,
        obj: &Map<String, Value>,
        key: &str,
        path: &JsonPath,
    ) -> Result<Option<String>, YarnError> {
        match Self::get(obj, key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.err(
                &path.key(key),
                format!("expected a string, found {}", describe(v)),
            )),
        }
    }

    fn reservation(&self, v: &Value) -> Result<YarnReservation, YarnError> {
        let path = self.path;
        let top = self.object(v, path)?;
        let queue = self.string(top, "queue", path)?;
        let reservation_id = self.string(top, "reservation-id", path)?;
        let dpath = path.key("reservation-definition");
        let def = self.object(self.required(top, "reservation-definition", path)?, &dpath)?;
        self.string(def, "reservation-name", &dpath)?;
        let arrival = self.int(def, "arrival", &dpath, LONG, None)?;
        let deadline = self.int(def, "deadline", &dpath, LONG, None)?;
        if deadline <= arrival {
            return Err(self.err(
                &dpath.key("deadline"),
                format!("deadline {deadline} ms is not after arrival {arrival} ms"),
            ));
        }
        let priority = match Self::get(def, "priority") {
            None => None,
            Some(_) => Some(self.int(def, "priority", &dpath, INT, None)? as i64),
        };
        let rpath = dpath.key("recurrence-expression");
        let recurrence = match Self::get(def, "recurrence-expression") {
            None => 0,
            Some(Value::String(s)) if s.trim().is_empty() => 0,
            Some(v) => integer(v, LONG).map_err(|e| self.err(&rpath, e))?,
        };
        if recurrence < 0 {
            return Err(self.err(
                &rpath,
                format!("negative period {recurrence} ms (0 or absent: a one-off)"),
            ));
        }
        if recurrence > 0 && deadline - arrival > recurrence {
            return Err(self.err(
                &rpath,
                format!(
                    "the window (deadline − arrival = {} ms) is longer than the period {recurrence} ms",
                    deadline - arrival
                ),
            ));
        }
        let qpath = dpath.key("reservation-requests");
        let reqs = self.object(self.required(def, "reservation-requests", &dpath)?, &qpath)?;
        let interpreter = match Self::get(reqs, "reservation-request-interpreter") {
            None => Interpreter::RAny,
            Some(v) => interpreter(v)
                .map_err(|e| self.err(&qpath.key("reservation-request-interpreter"), e))?,
        };
        let spath = qpath.key("reservation-request");
        let items = list(self.required(reqs, "reservation-request", &qpath)?);
        let mut stages = Vec::with_capacity(items.len());
        let mut container: Option<(ContainerSize, JsonPath)> = None;
        for (i, item) in items {
            let p = match i {
                Some(i) => spath.index(i),
                None => spath.clone(),
            };
            let s = self.object(item, &p)?;
            let cpath = p.key("capability");
            let cap = self.object(self.required(s, "capability", &p)?, &cpath)?;
            let memory = self.int(cap, "memory", &cpath, (1, LONG.1), None)?;
            let vcores = self.int(cap, "vCores", &cpath, (1, INT.1), None)?;
            let size = ContainerSize {
                cores: vcores as f64,
                memory_mb: memory as f64,
            };
            match &container {
                None => container = Some((size, cpath)),
                Some((first, at)) if *first != size => {
                    return Err(self.err(
                        &cpath,
                        format!(
                            "<{memory} MB, {vcores} vCores> differs from <{} MB, {} vCores> at {at}: the agenda counts all stages of a reservation in one container size",
                            first.memory_mb, first.cores
                        ),
                    ))
                }
                Some(_) => {}
            }
            let n = self.int(s, "num-containers", &p, (1, INT.1), None)?;
            let gang = self.int(s, "min-concurrency", &p, (0, INT.1), Some(1))?;
            if gang > n {
                return Err(self.err(
                    &p.key("min-concurrency"),
                    format!("{gang} is more than num-containers {n}"),
                ));
            }
            let duration = self.int(s, "duration", &p, (1, LONG.1), None)?;
            stages.push(YarnStage {
                num_containers: n as i64,
                min_concurrency: gang as i64,
                duration_ms: duration as i64,
            });
        }
        let Some((container, _)) = container else {
            return Err(self.err(&spath, "the list of reservation requests is empty"));
        };
        Ok(YarnReservation {
            queue,
            reservation_id,
            name: self.name.clone(),
            arrival_ms: arrival as i64,
            deadline_ms: deadline as i64,
            priority,
            recurrence_ms: recurrence as i64,
            interpreter,
            container,
            stages,
        })
    }
}

/// The name a reservation is known by, read leniently (errors come later).
fn name_of(v: &Value, index: usize) -> String {
    let def_name = v
        .get("reservation-definition")
        .and_then(|d| d.get("reservation-name"))
        .and_then(Value::as_str);
    let id = v.get("reservation-id").and_then(Value::as_str);
    def_name
        .or(id)
        .map(str::to_string)
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| format!("reservation-{index}"))
}

/// Reads YARN reservation JSON (see the module docs for the shapes). Every
/// error leads with the 1-based `line:column` where the fault is in `text`
/// (for a missing key, the `{` of the object it is missing from).
pub fn parse_yarn(text: &str) -> Result<Vec<YarnReservation>, YarnError> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        let (line, column) = (e.line(), e.column());
        let full = e.to_string();
        let suffix = format!(" at line {line} column {column}");
        YarnError::Json {
            line: line.max(1),
            // serde_json says column 0 at the very start (an empty input).
            column: column.max(1),
            reason: full.strip_suffix(&suffix).unwrap_or(&full).to_string(),
        }
    })?;
    let shape = |path: &JsonPath, reason: String| {
        let (line, column) = position(text, path);
        YarnError::Shape {
            line,
            column,
            path: path.to_string(),
            reason,
        }
    };
    let root_path = JsonPath::root();
    let items: Vec<(JsonPath, &Value)> = match &root {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (root_path.index(i), v))
            .collect(),
        Value::Object(o) if o.contains_key("reservation-definition") => vec![(root_path, &root)],
        Value::Object(o) if o.contains_key("reservations") => {
            let list_path = root_path.key("reservations");
            match &o["reservations"] {
                Value::Null => Vec::new(),
                v @ (Value::Array(_) | Value::Object(_)) => list(v)
                    .into_iter()
                    .map(|(i, x)| (i.map_or_else(|| list_path.clone(), |i| list_path.index(i)), x))
                    .collect(),
                other => {
                    return Err(shape(
                        &list_path,
                        format!("expected an array or an object, found {}", describe(other)),
                    ))
                }
            }
        }
        other => {
            return Err(shape(
                &root_path,
                format!(
                    "expected a reservation submission (an object with `reservation-definition`), an array of them, or a reservation list (an object with `reservations`); found {}",
                    describe(other)
                ),
            ))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(index, (path, v))| {
            Reader {
                text,
                index,
                name: name_of(v, index),
                path,
            }
            .reservation(v)
        })
        .collect()
}

/// Agenda requests for YARN reservations on a plan starting at `origin`
/// (epoch seconds) with `params`' period and step; the reservations that
/// fall outside the plan come back as `(name, reason)`.
pub fn yarn_requests(
    reservations: &[YarnReservation],
    origin: Timestamp,
    params: &AgendaParams,
) -> (Vec<ReservationRequest>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let origin_ms = i128::from(origin) * 1000;
    for r in reservations {
        let stages: Vec<Stage> = r
            .stages
            .iter()
            .map(|s| Stage {
                demand: s.num_containers as f64 * s.duration_ms as f64 / 1000.0,
                max_parallelism: s.num_containers as f64,
                gang: s.min_concurrency as f64,
            })
            .collect();
        let request = |name: String, recurrence, window: (i128, i128)| {
            let (arrival_secs, deadline_secs) = to_secs(window, 1000);
            ReservationRequest {
                name,
                recurrence,
                arrival_secs,
                deadline_secs,
                container: r.container,
                stages: stages.clone(),
                interpreter: r.interpreter,
                problematic: false,
            }
        };
        let window = (
            i128::from(r.arrival_ms) - origin_ms,
            i128::from(r.deadline_ms) - origin_ms,
        );
        let period = (r.recurrence_ms > 0).then_some(i128::from(r.recurrence_ms));
        let plan_ms = i128::from(params.period_secs) * 1000;
        let step_ms = i128::from(params.step_secs) * 1000;
        match land(window, period, plan_ms, step_ms, true) {
            Landing::Periodic { period, window } => {
                let period_secs = (period / 1000) as i64;
                out.push(request(
                    r.name.clone(),
                    Recurrence::Periodic { period_secs },
                    window,
                ));
            }
            Landing::Instances(v) => {
                for (i, w) in v {
                    let name = if period.is_some() {
                        format!("{}#{i}", r.name)
                    } else {
                        r.name.clone()
                    };
                    out.push(request(name, Recurrence::OneOff, w));
                }
            }
            Landing::Outside(why) => skipped.push((
                r.name.clone(),
                format!(
                    "{why} (window {} → {}, plan {} → {})",
                    format_timestamp(r.arrival_ms.div_euclid(1000)),
                    format_timestamp(r.deadline_ms.div_euclid(1000)),
                    format_timestamp(origin),
                    format_timestamp(origin.saturating_add(params.period_secs))
                ),
            )),
        }
    }
    (out, skipped)
}

/// [`parse_yarn`] then [`yarn_requests`].
#[allow(clippy::type_complexity)]
pub fn read_yarn(
    text: &str,
    origin: Timestamp,
    params: &AgendaParams,
) -> Result<(Vec<ReservationRequest>, Vec<(String, String)>), YarnError> {
    Ok(yarn_requests(&parse_yarn(text)?, origin, params))
}

#[derive(Serialize)]
struct SubmitOut<'a> {
    queue: &'a str,
    #[serde(rename = "reservation-id")]
    reservation_id: String,
    #[serde(rename = "reservation-definition")]
    definition: DefinitionOut,
}

#[derive(Serialize)]
struct DefinitionOut {
    arrival: i64,
    deadline: i64,
    #[serde(rename = "reservation-name")]
    name: String,
    priority: i32,
    #[serde(rename = "recurrence-expression")]
    recurrence: String,
    #[serde(rename = "reservation-requests")]
    requests: RequestsOut,
}

#[derive(Serialize)]
struct RequestsOut {
    #[serde(rename = "reservation-request-interpreter")]
    interpreter: u8,
    #[serde(rename = "reservation-request")]
    stages: Vec<StageOut>,
}

#[derive(Serialize)]
struct StageOut {
    duration: i64,
    #[serde(rename = "num-containers")]
    num_containers: i64,
    #[serde(rename = "min-concurrency")]
    min_concurrency: i64,
    capability: CapabilityOut,
}

#[derive(Serialize, Clone, Copy)]
struct CapabilityOut {
    memory: i64,
    #[serde(rename = "vCores")]
    vcores: i64,
}

/// The stages describing a placed allocation: one per run of steps holding
/// the same number of containers. YARN counts whole containers, so a
/// fractional count `c` is written as `⌈c⌉` containers for `c/⌈c⌉` of the
/// run (the work, container-seconds, is kept to the millisecond). Returns
/// whether the allocation has gaps (then the stages are `R_ORDER`).
fn stages_of(r: &Reservation, step_secs: i64, cap: CapabilityOut) -> (bool, Vec<StageOut>) {
    const EPS: f64 = 1e-9;
    // Runs of equal counts; a run of zeros is a gap.
    let mut runs: Vec<(f64, i64)> = Vec::new();
    for &c in &r.alloc {
        let c = if c > EPS { c } else { 0.0 };
        match runs.last_mut() {
            Some((v, n)) if (*v - c).abs() <= EPS => *n += 1,
            _ => runs.push((c, 1)),
        }
    }
    let gaps = runs.iter().any(|&(c, _)| c == 0.0);
    let step_ms = step_secs as f64 * 1000.0;
    let stages = runs
        .into_iter()
        .filter(|&(c, _)| c > 0.0)
        .map(|(c, len)| {
            let whole = (c - c.round()).abs() <= EPS;
            let n = if whole { c.round() } else { c.ceil() };
            let n = n.clamp(1.0, f64::from(i32::MAX));
            let duration = (len as f64 * step_ms * c / n).round().max(1.0);
            StageOut {
                duration: duration as i64,
                num_containers: n as i64,
                min_concurrency: n as i64,
                capability: cap,
            }
        })
        .collect();
    (gaps, stages)
}

/// Writes every reservation placed on `plan` (whose step 0 is `origin`,
/// epoch seconds) as a YARN submission to `queue`, as a pretty-printed JSON
/// array (one `POST /ws/v1/cluster/reservation/submit` body each). Each
/// reservation's requests describe its placed allocation in order with no
/// gap (`R_ORDER_NO_GAP`, 3; `R_ORDER`, 2, when the allocation has empty
/// steps), one request per run of steps with the same container count;
/// `arrival`/`deadline` are its window in epoch milliseconds;
/// `recurrence-expression` is its period in milliseconds for periodic ones
/// and `"0"` otherwise. Container sizes are rounded up to whole MB and
/// vCores. The `reservation-id`s are placeholders in YARN's format
/// (`reservation_<origin ms>_<id>`): a ResourceManager issues real ones
/// through `POST /ws/v1/cluster/reservation/new-reservation`.
pub fn plan_to_yarn(plan: &Plan, origin: Timestamp, queue: &str) -> String {
    let step = plan.params().step_secs;
    let origin_ms = i128::from(origin) * 1000;
    let abs_ms = |s: usize| {
        let v = origin_ms + s as i128 * i128::from(step) * 1000;
        v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    };
    let out: Vec<SubmitOut<'_>> = plan
        .reservations()
        .iter()
        .map(|r| {
            let c = r.request.container;
            let cap = CapabilityOut {
                memory: c.memory_mb.ceil().clamp(1.0, 9e18) as i64,
                vcores: c.cores.ceil().clamp(1.0, f64::from(i32::MAX)) as i64,
            };
            let (gaps, stages) = stages_of(r, step, cap);
            let recurrence = match r.request.recurrence {
                Recurrence::Periodic { period_secs } => {
                    (i128::from(period_secs) * 1000).to_string()
                }
                Recurrence::OneOff => "0".into(),
            };
            SubmitOut {
                queue,
                reservation_id: format!("reservation_{origin_ms}_{:04}", r.id),
                definition: DefinitionOut {
                    arrival: abs_ms(r.window.0),
                    deadline: abs_ms(r.window.1),
                    name: r.request.name.clone(),
                    priority: 0,
                    recurrence,
                    requests: RequestsOut {
                        interpreter: if gaps { 2 } else { 3 },
                        stages,
                    },
                },
            }
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&out).unwrap_or_else(|_| "[]".into());
    text.push('\n');
    text
}
