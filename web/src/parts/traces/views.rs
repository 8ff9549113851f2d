//! What the worker sends the Traces panel, built from the engine's workspace:
//! the summary with its chartable jobs and series, and chart data reduced to
//! what a canvas a few thousand pixels wide can show.
//!
//! Runs in the worker only; the page draws what it gets.

use super::protocol::{
    JobChart, JobInfo, RunLine, SeriesChart, SeriesInfo, WorkspaceView, MAX_CHART_POINTS,
};
use skyplan_engine::{JobRun, Workspace};

/// Points of all runs of one job chart together, spread over its runs
/// (each run keeps at least [`MIN_RUN_POINTS`] and at most [`MAX_CHART_POINTS`]).
const JOB_CHART_BUDGET: usize = 40_000;
/// Fewest points a run is reduced to in a job chart.
const MIN_RUN_POINTS: usize = 100;

/// The workspace summary plus the lists the chart selector offers.
pub fn workspace_view(ws: &Workspace) -> WorkspaceView {
    let jobs = ws
        .runs_by_job()
        .into_iter()
        .map(|(name, runs)| JobInfo {
            name: name.to_owned(),
            runs: runs.len(),
            peak: runs.iter().map(|r| r.skyline.peak()).fold(0.0, f64::max),
        })
        .collect();
    let series = ws
        .series()
        .enumerate()
        .map(|(index, s)| SeriesInfo {
            index,
            server: s.server.clone(),
            resource: s.resource.name().to_owned(),
            points: s.len(),
        })
        .collect();
    WorkspaceView {
        summary: ws.summary(),
        jobs,
        series,
    }
}

/// Skylines of every run of `job`, in start order, as minutes from each run's
/// start; empty when the workspace has no such job.
pub fn job_chart(ws: &Workspace, job: &str) -> JobChart {
    runs_chart(job, ws.runs().filter(|r| r.job == job).collect())
}

/// Skylines of `runs`, in start order, under the name `job`.
pub(crate) fn runs_chart(job: &str, mut runs: Vec<&JobRun>) -> JobChart {
    runs.sort_by_key(|r| (r.start, r.instance.clone()));
    let budget = (JOB_CHART_BUDGET / runs.len().max(1)).clamp(MIN_RUN_POINTS, MAX_CHART_POINTS);
    JobChart {
        job: job.to_owned(),
        runs: runs.iter().map(|r| run_line(r, budget)).collect(),
    }
}

/// One run's skyline as step-start points plus the point where it ends,
/// reduced to at most `max_points`.
fn run_line(run: &JobRun, max_points: usize) -> RunLine {
    let sky = &run.skyline;
    let step_min = f64::from(sky.step_secs) / 60.0;
    let mut minutes: Vec<f64> = (0..=sky.len()).map(|i| i as f64 * step_min).collect();
    let mut containers = sky.containers.clone();
    match containers.last() {
        Some(&last) => containers.push(last),
        None => minutes.clear(),
    }
    let keep = decimate(&containers, max_points);
    RunLine {
        instance: run.instance.clone(),
        start: run.start,
        minutes: pick(&minutes, &keep),
        containers: pick(&containers, &keep),
    }
}

/// The utilization series at `index` (workspace order), reduced to at most
/// [`MAX_CHART_POINTS`]; `None` when there is no such series.
pub fn series_chart(ws: &Workspace, index: usize) -> Option<SeriesChart> {
    let s = ws.series().nth(index)?;
    let keep = decimate(&s.values, MAX_CHART_POINTS);
    Some(SeriesChart {
        index,
        server: s.server.clone(),
        resource: s.resource.name().to_owned(),
        total_points: s.len(),
        times: pick(&s.timestamps, &keep),
        values: pick(&s.values, &keep),
    })
}

/// The elements of `items` at the (ascending) positions `keep`.
fn pick<T: Copy>(items: &[T], keep: &[usize]) -> Vec<T> {
    keep.iter().map(|&i| items[i]).collect()
}

/// Positions of the points to keep so that at most `max` remain (at least 4
/// are always allowed): all of them when they fit; otherwise the first and
/// the last, and within each of `(max − 2) / 2` equal buckets of the rest its
/// smallest and largest value, in order — so every peak and trough a pixel
/// column could show survives.
pub fn decimate(values: &[f64], max: usize) -> Vec<usize> {
    let n = values.len();
    let max = max.max(4);
    if n <= max {
        return (0..n).collect();
    }
    let inner = n - 2;
    let buckets = (max - 2) / 2;
    let mut keep = Vec::with_capacity(max);
    keep.push(0);
    for b in 0..buckets {
        let lo = 1 + b * inner / buckets;
        let hi = 1 + (b + 1) * inner / buckets;
        if lo == hi {
            continue;
        }
        let bucket = &values[lo..hi];
        let (mut min_i, mut max_i) = (0, 0);
        for (i, &v) in bucket.iter().enumerate() {
            if v < bucket[min_i] {
                min_i = i;
            }
            if v > bucket[max_i] {
                max_i = i;
            }
        }
        keep.push(lo + min_i.min(max_i));
        if min_i != max_i {
            keep.push(lo + min_i.max(max_i));
        }
    }
    keep.push(n - 1);
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::{import, ImportOptions};

    #[test]
    fn decimate_keeps_everything_that_fits() {
        let v = [1.0, 5.0, 2.0];
        assert_eq!(decimate(&v, 10), vec![0, 1, 2]);
        assert!(decimate(&[], 10).is_empty());
    }

    #[test]
    fn decimate_bounds_count_and_preserves_extremes() {
        let n = 100_003;
        let mut v: Vec<f64> = (0..n).map(|i| ((i as f64) * 0.01).sin()).collect();
        v[4_242] = 50.0;
        v[77_777] = -50.0;
        let keep = decimate(&v, MAX_CHART_POINTS);
        assert!(keep.len() <= MAX_CHART_POINTS);
        assert!(
            keep.windows(2).all(|w| w[0] < w[1]),
            "ascending, no repeats"
        );
        assert_eq!(keep.first(), Some(&0));
        assert_eq!(keep.last(), Some(&(n - 1)));
        assert!(keep.contains(&4_242) && keep.contains(&77_777));
        let picked = pick(&v, &keep);
        let max = picked.iter().copied().fold(f64::MIN, f64::max);
        let min = picked.iter().copied().fold(f64::MAX, f64::min);
        assert_eq!((min, max), (-50.0, 50.0));
    }

    #[test]
    fn decimate_tiny_budgets() {
        let v: Vec<f64> = (0..50).map(f64::from).collect();
        let keep = decimate(&v, 0);
        assert!(keep.len() <= 4);
        assert_eq!((keep[0], *keep.last().unwrap()), (0, 49));
    }

    fn workspace() -> Workspace {
        let runs = "job,instance,submit,start,end,step_secs,skyline\n\
                    etl,etl-2,100,200,500,60,1;4;2\n\
                    etl,etl-1,0,10,200,60,3;3\n\
                    adhoc,a-1,0,0,60,60,7\n";
        let util = "timestamp,series,resource,value\n\
                    0,web1,cpu,10\n60,web1,cpu,30\n0,db1,memory,55\n";
        let mut ws = Workspace::new();
        for (name, text) in [("runs.csv", runs), ("util.csv", util)] {
            ws.add(import(name, text.as_bytes(), ImportOptions::default()).unwrap());
        }
        ws
    }

    #[test]
    fn view_lists_jobs_and_series() {
        let view = workspace_view(&workspace());
        let jobs: Vec<(&str, usize, f64)> = view
            .jobs
            .iter()
            .map(|j| (j.name.as_str(), j.runs, j.peak))
            .collect();
        assert_eq!(jobs, vec![("adhoc", 1, 7.0), ("etl", 2, 4.0)]);
        assert_eq!(view.series.len(), 2);
        assert_eq!(view.summary.files.len(), 2);
        for (i, s) in view.series.iter().enumerate() {
            assert_eq!(s.index, i);
        }
    }

    #[test]
    fn job_chart_is_in_start_order_with_end_point() {
        let chart = job_chart(&workspace(), "etl");
        let names: Vec<&str> = chart.runs.iter().map(|r| r.instance.as_str()).collect();
        assert_eq!(names, vec!["etl-1", "etl-2"]);
        assert_eq!(chart.runs[1].minutes, vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(chart.runs[1].containers, vec![1.0, 4.0, 2.0, 2.0]);
        assert!(job_chart(&workspace(), "nope").runs.is_empty());
    }

    #[test]
    fn series_chart_by_index() {
        let ws = workspace();
        let view = workspace_view(&ws);
        let web = view.series.iter().find(|s| s.server == "web1").unwrap();
        let chart = series_chart(&ws, web.index).unwrap();
        assert_eq!(chart.times, vec![0, 60]);
        assert_eq!(chart.values, vec![10.0, 30.0]);
        assert_eq!(chart.resource, "cpu");
        assert!(series_chart(&ws, 99).is_none());
    }
}
