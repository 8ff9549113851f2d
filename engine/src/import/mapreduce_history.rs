//! The MapReduce JobHistory server: the answers of
//! `GET http://<jhs>:19888/ws/v1/history/mapreduce/jobs` (`{"jobs":{"job":
//! […]}}`), of one job (`{"job":{…}}`) and of a job's tasks
//! (`…/jobs/{jobid}/tasks`: `{"tasks":{"task":[…]}}`), alone or saved one
//! after another in one file. Tasks are matched to their job by their id
//! (`task_1326381300833_0002_m_000000` is a task of
//! `job_1326381300833_0002`).
//!
//! Each finished job gives
//! - a **run** (SLO inference): `submitTime`, `startTime`, `finishTime`
//!   (ms since the epoch); its skyline is its tasks running, one container
//!   each, when the file has its tasks; else, from a single job's answer,
//!   the average task times spread over the run (`mapsTotal × avgMapTime +
//!   reducesTotal × (avgShuffleTime + avgMergeTime + avgReduceTime)`); else
//!   one container, its application master (said in the notes);
//! - a **workload job** (pricing history, tuning): `mapsTotal`,
//!   `reducesTotal`, and the phases from its tasks — map from the first map's
//!   start to the last map's end, reduce from there to the last reduce's end.
//!   These answers carry no byte counters, so sizes are 0.
//!
//! Jobs not finished (`finishTime` 0) are left out and counted.

use super::concurrency::Concurrency;
use super::json::Fault;
use super::json_record::{Record, RecordAt, RecordSink};
use super::recurring::recurring_job;
use super::yarn_apps::{epoch_ms, run_secs};
use crate::model::{ContainerSize, Dataset, JobFeatures, JobRun, WorkloadJob};
use std::collections::BTreeMap;

/// Where jobs and tasks are in the answers.
pub(crate) const RECORDS: RecordAt = RecordAt::Under(&["job", "task"]);

/// What one job's answer says.
#[derive(Clone, Debug, Default)]
struct JobInfo {
    name: String,
    submit_ms: f64,
    start_ms: f64,
    finish_ms: f64,
    maps: u32,
    reduces: u32,
    /// Task-time total from the averages of a single job's answer, ms.
    avg_work_ms: Option<f64>,
}

/// One task: start and finish (ms) and whether it is a map.
type Task = (f64, f64, bool);

/// Jobs and tasks read so far, by job id.
#[derive(Default)]
pub(crate) struct JobHistory {
    jobs: BTreeMap<String, JobInfo>,
    tasks: BTreeMap<String, Vec<Task>>,
    unfinished: u64,
}

/// The job id of a task id: `task_<cluster>_<job>_<m|r>_<n>` →
/// `job_<cluster>_<job>`.
fn job_of_task(task: &str) -> Option<String> {
    let rest = task.strip_prefix("task_")?;
    let mut parts: Vec<&str> = rest.split('_').collect();
    if parts.len() < 4 {
        return None;
    }
    parts.truncate(parts.len() - 2);
    Some(format!("job_{}", parts.join("_")))
}

fn count(r: &Record, key: &str) -> Result<u32, Fault> {
    match r.number(key)? {
        None => Ok(0),
        Some(v) if v >= 0.0 && v <= f64::from(u32::MAX) => Ok(v as u32),
        Some(v) => Err(Fault::at(
            r.at_field(key),
            format!("`{key}` {v} is not a task count"),
        )),
    }
}

impl JobHistory {
    fn job(&mut self, r: &Record) -> Result<(), Fault> {
        let id = r.need_text("id", "a job")?.to_string();
        let finish_ms = r.number("finishTime")?.unwrap_or(0.0);
        if finish_ms <= 0.0 {
            self.unfinished += 1;
            return Ok(());
        }
        let start_ms = r.need_number("startTime", "a job")?;
        let submit_ms = r.number("submitTime")?.unwrap_or(start_ms).min(start_ms);
        run_secs(r, "finishTime", start_ms, finish_ms)?;
        epoch_ms(r, "submitTime", submit_ms)?;
        let (maps, reduces) = (count(r, "mapsTotal")?, count(r, "reducesTotal")?);
        let avg = |k: &str| r.number(k);
        let avg_work_ms = match avg("avgMapTime")? {
            Some(map) => {
                let reduce = avg("avgShuffleTime")?.unwrap_or(0.0)
                    + avg("avgMergeTime")?.unwrap_or(0.0)
                    + avg("avgReduceTime")?.unwrap_or(0.0);
                Some(f64::from(maps) * map.max(0.0) + f64::from(reduces) * reduce.max(0.0))
            }
            None => None,
        };
        self.jobs.insert(
            id.clone(),
            JobInfo {
                name: r.text("name")?.unwrap_or(&id).to_string(),
                submit_ms,
                start_ms,
                finish_ms,
                maps,
                reduces,
                avg_work_ms,
            },
        );
        Ok(())
    }

    fn task(&mut self, r: &Record) -> Result<(), Fault> {
        let id = r.need_text("id", "a task")?;
        let job = job_of_task(id).ok_or_else(|| {
            Fault::at(
                r.at_field("id"),
                format!("`{id}` is not a task id (task_<cluster>_<job>_m_<n>)"),
            )
        })?;
        let kind = r.text("type")?.unwrap_or("");
        let is_map = match kind.to_ascii_uppercase().as_str() {
            "MAP" => true,
            "REDUCE" => false,
            _ => {
                return Err(Fault::at(
                    r.at_field("type"),
                    format!("task type `{kind}` is neither MAP nor REDUCE"),
                ))
            }
        };
        let start = r.need_number("startTime", "a task")?;
        let finish = r.number("finishTime")?.unwrap_or(0.0);
        if start <= 0.0 || finish <= 0.0 {
            // Never started, or still running: no interval to count.
            return Ok(());
        }
        run_secs(r, "finishTime", start, finish)?;
        self.tasks
            .entry(job)
            .or_default()
            .push((start, finish, is_map));
        Ok(())
    }

    /// The runs and workload jobs, with notes.
    pub(crate) fn finish(mut self) -> Dataset {
        let mut data = Dataset::default();
        let mut guessed = 0u64;
        let mut tasks_only = 0u64;
        for (id, tasks) in &self.tasks {
            if !self.jobs.contains_key(id) {
                // A tasks answer alone: the job's span is its tasks'.
                tasks_only += 1;
                let start = tasks.iter().map(|t| t.0).fold(f64::INFINITY, f64::min);
                let finish = tasks.iter().map(|t| t.1).fold(0.0, f64::max);
                let maps = tasks.iter().filter(|t| t.2).count() as u32;
                self.jobs.insert(
                    id.clone(),
                    JobInfo {
                        name: id.clone(),
                        submit_ms: start,
                        start_ms: start,
                        finish_ms: finish,
                        maps,
                        reduces: tasks.len() as u32 - maps,
                        ..JobInfo::default()
                    },
                );
            }
        }
        for (id, job) in self.jobs {
            let secs = (job.finish_ms - job.start_ms) / 1000.0;
            let mut usage = Concurrency::new();
            let tasks = self.tasks.get(&id);
            let (mut map_secs, mut reduce_secs) = (None, None);
            match (tasks, job.avg_work_ms) {
                (Some(tasks), _) => {
                    for &(a, b, _) in tasks {
                        usage.add(
                            (a - job.start_ms) / 1000.0,
                            (b - job.start_ms) / 1000.0,
                            1.0,
                        );
                    }
                    let maps = tasks.iter().filter(|t| t.2);
                    let first = maps.clone().map(|t| t.0).fold(f64::INFINITY, f64::min);
                    let last_map = maps.map(|t| t.1).fold(f64::NEG_INFINITY, f64::max);
                    let last = tasks.iter().map(|t| t.1).fold(f64::NEG_INFINITY, f64::max);
                    if last_map.is_finite() {
                        map_secs = Some((last_map - first) / 1000.0);
                        reduce_secs = Some(((last - last_map) / 1000.0).max(0.0));
                    }
                }
                (None, Some(work)) if secs > 0.0 => usage.add(0.0, secs, work / 1000.0 / secs),
                _ => {
                    guessed += 1;
                    usage.add(0.0, secs, 1.0);
                }
            }
            let name = recurring_job(&job.name, "");
            let secs_of = |ms: f64| (ms / 1000.0).floor() as i64;
            data.workload.push(WorkloadJob {
                name: name.clone(),
                submit: secs_of(job.submit_ms),
                features: JobFeatures {
                    map_tasks: Some(job.maps),
                    reduce_tasks: Some(job.reduces),
                    ..JobFeatures::default()
                },
                map_secs,
                reduce_secs,
            });
            data.runs.push(JobRun {
                job: name,
                instance: id,
                submit: secs_of(job.submit_ms),
                start: secs_of(job.start_ms),
                end: secs_of(job.finish_ms),
                input_available: None,
                output_first_read: None,
                container: ContainerSize::default(),
                skyline: usage.skyline(secs),
            });
        }
        if self.unfinished > 0 {
            data.notes
                .push(format!("{} job(s) not finished left out", self.unfinished));
        }
        if guessed > 0 {
            data.notes.push(format!(
                "{guessed} job(s) without tasks or average task times: skyline of one container (load their tasks answer for the real one)"
            ));
        }
        if tasks_only > 0 {
            data.notes.push(format!(
                "{tasks_only} job(s) known only from their tasks: named by id, spanning their tasks"
            ));
        }
        data
    }
}

impl RecordSink for JobHistory {
    fn record(&mut self, kind: usize, r: &Record) -> Result<(), Fault> {
        if kind == 0 {
            self.job(r)
        } else {
            self.task(r)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_name_their_job() {
        assert_eq!(
            job_of_task("task_1326381300833_2_2_m_0").as_deref(),
            Some("job_1326381300833_2_2")
        );
        assert_eq!(
            job_of_task("task_1452812315327_0001_r_000003").as_deref(),
            Some("job_1452812315327_0001")
        );
        assert_eq!(job_of_task("attempt_1_2"), None);
    }
}
