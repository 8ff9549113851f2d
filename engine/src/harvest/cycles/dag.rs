//! Batch jobs as DAGs of vertices (stages) of parallel tasks, and the
//! maximum number of concurrent containers a job needs (Algorithm 1, line
//! 4) by a breadth-first walk.
//!
//! The walk is Kahn's breadth-first topological order: a vertex's wave is
//! one past the latest wave of its predecessors (it can start only when
//! all of them are done), and the job's concurrency is the largest total
//! of tasks in one wave. A vertex that is never reached lies on a cycle:
//! the DAG is refused.
//!
//! Three sources: a **DAG JSON** file (one job object or `{"jobs": […]}`,
//! each `{"name", "last_run_secs"?, "vertices": [{"name", "tasks",
//! "task_secs"}], "edges": [["from", "to"], …]}`); the **two-vertex DAG**
//! of a map/reduce job from a job history (maps → reduces); and the
//! Alibaba v2018 **`batch_task.csv`** (task_name, instance_num, job_name,
//! task_type, status, start_time, end_time, plan_cpu, plan_mem; headerless),
//! whose `task_name`s encode dependencies: `R3_1_2` is task 3, which
//! depends on tasks 1 and 2 of the same job; names without that shape
//! (`task_…`, `MergeTask`) are independent vertices.

use crate::harvest::error::HarvestError;
use crate::import::fields::{column_of, shorten, split, FieldError};
use crate::import::ParseError;
use crate::model::WorkloadJob;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A vertex: a stage of `tasks` parallel tasks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vertex {
    /// Name, unique in its job.
    pub name: String,
    /// Parallel tasks (containers).
    pub tasks: u32,
    /// Seconds each task runs (default 60).
    #[serde(default = "default_task_secs")]
    pub task_secs: f64,
}

fn default_task_secs() -> f64 {
    60.0
}

/// A job's DAG.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobDag {
    /// Job name.
    pub name: String,
    /// Its last run's length, seconds (`None`: never ran, a medium job).
    #[serde(default)]
    pub last_run_secs: Option<f64>,
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// Edges `[from, to]` by vertex name.
    #[serde(default)]
    pub edges: Vec<[String; 2]>,
}

/// The breadth-first walk's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Concurrency {
    /// Each vertex's wave (0 for sources).
    pub waves: Vec<usize>,
    /// Tasks per wave.
    pub tasks_per_wave: Vec<u64>,
    /// The maximum of `tasks_per_wave`: concurrent containers needed.
    pub max: u64,
}

impl JobDag {
    /// Edges as vertex indices, checked (unknown vertex, self-loop,
    /// duplicate vertex names, no vertex, bad task counts and times).
    pub fn edge_indices(&self) -> Result<Vec<(usize, usize)>, HarvestError> {
        let bad = |why: String| HarvestError::BadDag {
            job: self.name.clone(),
            why,
        };
        if self.vertices.is_empty() {
            return Err(bad("has no vertex".into()));
        }
        let mut index = HashMap::new();
        for (i, v) in self.vertices.iter().enumerate() {
            if index.insert(v.name.as_str(), i).is_some() {
                return Err(bad(format!("vertex `{}` appears twice", v.name)));
            }
            if !(v.task_secs.is_finite() && v.task_secs >= 0.0) {
                return Err(bad(format!(
                    "vertex `{}`: task_secs must be a non-negative number",
                    v.name
                )));
            }
        }
        if let Some(s) = self.last_run_secs {
            if !(s.is_finite() && s >= 0.0) {
                return Err(bad("last_run_secs must be a non-negative number".into()));
            }
        }
        self.edges
            .iter()
            .map(|[a, b]| {
                let ia = *index
                    .get(a.as_str())
                    .ok_or_else(|| bad(format!("edge from unknown vertex `{a}`")))?;
                let ib = *index
                    .get(b.as_str())
                    .ok_or_else(|| bad(format!("edge to unknown vertex `{b}`")))?;
                if ia == ib {
                    return Err(HarvestError::CyclicDag {
                        job: self.name.clone(),
                        vertex: a.clone(),
                    });
                }
                Ok((ia, ib))
            })
            .collect()
    }

    /// Waves and the maximum concurrent containers (see the module notes).
    pub fn concurrency(&self) -> Result<Concurrency, HarvestError> {
        let edges = self.edge_indices()?;
        let n = self.vertices.len();
        let mut indeg = vec![0usize; n];
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in &edges {
            indeg[b] += 1;
            out[a].push(b);
        }
        let mut waves = vec![0usize; n];
        let mut queue: std::collections::VecDeque<usize> =
            (0..n).filter(|&i| indeg[i] == 0).collect();
        let mut seen = 0;
        while let Some(v) = queue.pop_front() {
            seen += 1;
            for &w in &out[v] {
                waves[w] = waves[w].max(waves[v] + 1);
                indeg[w] -= 1;
                if indeg[w] == 0 {
                    queue.push_back(w);
                }
            }
        }
        if seen < n {
            let v = (0..n).find(|&i| indeg[i] > 0).expect("unreached vertex");
            return Err(HarvestError::CyclicDag {
                job: self.name.clone(),
                vertex: self.vertices[v].name.clone(),
            });
        }
        let depth = waves.iter().max().map_or(0, |m| m + 1);
        let mut tasks_per_wave = vec![0u64; depth];
        for (v, &w) in self.vertices.iter().zip(&waves) {
            tasks_per_wave[w] += u64::from(v.tasks);
        }
        let max = tasks_per_wave.iter().copied().max().unwrap_or(0);
        Ok(Concurrency {
            waves,
            tasks_per_wave,
            max,
        })
    }

    /// The job's length when every task gets its container at once: the
    /// longest chain of vertex task times through the DAG. It is what a job
    /// that fits its class takes, so Algorithm 1's thresholds can be derived
    /// for jobs that never ran ([`super::thresholds`]).
    pub fn critical_path_secs(&self) -> Result<f64, HarvestError> {
        let edges = self.edge_indices()?;
        let c = self.concurrency()?;
        // Vertices in wave order are in a topological order.
        let mut order: Vec<usize> = (0..self.vertices.len()).collect();
        order.sort_by_key(|&v| c.waves[v]);
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); self.vertices.len()];
        for &(a, b) in &edges {
            preds[b].push(a);
        }
        let mut finish = vec![0.0f64; self.vertices.len()];
        for &v in &order {
            let start = preds[v].iter().map(|&u| finish[u]).fold(0.0, f64::max);
            finish[v] = start + self.vertices[v].task_secs;
        }
        Ok(finish.into_iter().fold(0.0, f64::max))
    }

    /// Total task-seconds of the job.
    pub fn work_secs(&self) -> f64 {
        self.vertices
            .iter()
            .map(|v| f64::from(v.tasks) * v.task_secs)
            .sum()
    }
}

#[derive(Deserialize)]
struct DagFile {
    jobs: Vec<JobDag>,
}

/// Reads a DAG JSON file (`file` names it in errors): syntax errors with
/// their line and column, then each job checked (cycles refused).
pub fn read_dag_json(file: &str, text: &str) -> Result<Vec<JobDag>, HarvestError> {
    let located = |e: serde_json::Error| {
        HarvestError::Parse(vec![ParseError {
            file: file.into(),
            line: e.line() as u64,
            column: e.column() as u32,
            reason: format!("not a DAG JSON file: {e}"),
        }])
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(located)?;
    let many = value.get("jobs").is_some();
    let jobs = match if many {
        serde_json::from_str::<DagFile>(text).map(|f| f.jobs)
    } else {
        serde_json::from_str::<JobDag>(text).map(|j| vec![j])
    } {
        Ok(jobs) => jobs,
        Err(e) => {
            return Err(HarvestError::Parse(vec![ParseError {
                file: file.into(),
                line: e.line() as u64,
                column: e.column() as u32,
                reason: format!("not a DAG JSON file: {e}"),
            }]))
        }
    };
    for j in &jobs {
        j.concurrency()?;
    }
    Ok(jobs)
}

/// The two-vertex DAG of a map/reduce job of a job history: `map_tasks`
/// maps (at least 1) then `reduce_tasks` reduces (none: a map-only job),
/// each task running its phase's traced seconds (one wave), the last run
/// the two phases' sum (`None` when the history has no durations).
pub fn dag_from_history(job: &WorkloadJob) -> JobDag {
    let maps = job.features.map_tasks.unwrap_or(1).max(1);
    let reduces = job.features.reduce_tasks.unwrap_or(0);
    let mut vertices = vec![Vertex {
        name: "map".into(),
        tasks: maps,
        task_secs: job.map_secs.unwrap_or(60.0).max(0.0),
    }];
    let mut edges = Vec::new();
    if reduces > 0 {
        vertices.push(Vertex {
            name: "reduce".into(),
            tasks: reduces,
            task_secs: job.reduce_secs.unwrap_or(60.0).max(0.0),
        });
        edges.push(["map".to_string(), "reduce".to_string()]);
    }
    let last_run_secs = match (job.map_secs, job.reduce_secs) {
        (Some(m), r) => Some(m + r.unwrap_or(0.0)),
        _ => None,
    };
    JobDag {
        name: job.name.clone(),
        last_run_secs,
        vertices,
        edges,
    }
}

/// `R3_1_2` → (3, [1, 2]); `None` for names without that shape.
pub fn parse_task_name(name: &str) -> Option<(u32, Vec<u32>)> {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    if digits.len() == name.len() || digits.is_empty() || name.len() - digits.len() > 2 {
        return None;
    }
    let mut parts = digits.split('_');
    let id = parts.next()?.parse().ok()?;
    let deps: Option<Vec<u32>> = parts.map(|p| p.parse().ok()).collect();
    Some((id, deps?))
}

/// The DAGs of `batch_task.csv`, and how many dependencies named a task the
/// file does not have (left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchTasks {
    /// One DAG per job, by job name.
    pub jobs: Vec<JobDag>,
    /// Dependencies on absent tasks, dropped.
    pub dangling: usize,
}

/// Reads Alibaba v2018 `batch_task.csv` (headerless, 9 columns) into one
/// DAG per job: each task a vertex of `instance_num` tasks running
/// `end_time − start_time` seconds (60 when the times are missing), the
/// job's last run from its first start to its last end. Bad lines are
/// located; a cycle among a job's tasks refuses the file.
pub fn read_batch_task(file: &str, text: &str) -> Result<BatchTasks, HarvestError> {
    struct Row {
        task: String,
        instances: u32,
        start: Option<f64>,
        end: Option<f64>,
    }
    let mut by_job: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut buf = Vec::with_capacity(9);
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let row = (|| -> Result<(String, Row), FieldError> {
            split(line, b',', &mut buf)?;
            if buf.len() != 9 {
                return Err(FieldError::at(
                    1,
                    format!(
                        "expected 9 fields (the trace's schema), found {}",
                        buf.len()
                    ),
                ));
            }
            let task = buf[0].text.trim().to_string();
            if task.is_empty() {
                return Err(FieldError::at(1, "task_name is empty"));
            }
            let inst = buf[1].text.trim();
            let instances: u32 = match inst.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 1e9 => v as u32,
                _ => {
                    return Err(FieldError::at(
                        column_of(line, buf[1].offset),
                        format!(
                            "instance_num `{}` is not a non-negative integer",
                            shorten(inst)
                        ),
                    ))
                }
            };
            let job = buf[2].text.trim().to_string();
            if job.is_empty() {
                return Err(FieldError::at(
                    column_of(line, buf[2].offset),
                    "job_name is empty",
                ));
            }
            let time = |k: usize| -> Result<Option<f64>, FieldError> {
                let t = buf[k].text.trim();
                if t.is_empty() {
                    return Ok(None);
                }
                match t.parse::<f64>() {
                    Ok(v) if v.is_finite() => Ok((v > 0.0).then_some(v)),
                    _ => Err(FieldError::at(
                        column_of(line, buf[k].offset),
                        format!("time `{}` is not a number", shorten(t)),
                    )),
                }
            };
            Ok((
                job,
                Row {
                    task,
                    instances: instances.max(1),
                    start: time(5)?,
                    end: time(6)?,
                },
            ))
        })();
        match row {
            Ok((job, r)) => by_job.entry(job).or_default().push(r),
            Err(e) => errors.push(ParseError {
                file: file.into(),
                line: i as u64 + 1,
                column: e.column,
                reason: e.reason,
            }),
        }
    }
    if !errors.is_empty() {
        return Err(HarvestError::Parse(errors));
    }
    let mut jobs = Vec::new();
    let mut dangling = 0;
    for (name, rows) in by_job {
        let ids: HashMap<u32, &str> = rows
            .iter()
            .filter_map(|r| parse_task_name(&r.task).map(|(id, _)| (id, r.task.as_str())))
            .collect();
        let mut vertices = Vec::new();
        let mut edges = Vec::new();
        let (mut first, mut last) = (f64::INFINITY, f64::NEG_INFINITY);
        for r in &rows {
            let secs = match (r.start, r.end) {
                (Some(s), Some(e)) if e >= s => {
                    first = first.min(s);
                    last = last.max(e);
                    e - s
                }
                _ => 60.0,
            };
            vertices.push(Vertex {
                name: r.task.clone(),
                tasks: r.instances,
                task_secs: secs,
            });
            if let Some((_, deps)) = parse_task_name(&r.task) {
                for d in deps {
                    match ids.get(&d) {
                        Some(from) => edges.push([from.to_string(), r.task.clone()]),
                        None => dangling += 1,
                    }
                }
            }
        }
        let dag = JobDag {
            name,
            last_run_secs: (last >= first).then_some(last - first),
            vertices,
            edges,
        };
        dag.concurrency()?;
        jobs.push(dag);
    }
    Ok(BatchTasks { jobs, dangling })
}
