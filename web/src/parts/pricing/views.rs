//! What the Pricing part computes in the worker and sends: the loaded job
//! history the estimators learn from, and the queue with its lazy schedule
//! (every job as late as its deadline allows, the free capacity in bands).

use crate::parts::pricing::protocol::{
    HistoryJob, HistoryView, PricingSettings, QueueRow, QueueView,
};
use skyplan_engine::model::WorkloadJob;
use skyplan_engine::pricing::{LazySchedule, QueuedJob};
use skyplan_engine::Workspace;

/// Seconds per quantum of the lazy schedule.
pub const QUANTUM: f64 = 1.0;

/// Bands the free capacity of the lazy schedule is sent in, at most.
pub const FREE_BANDS: usize = 400;

/// The jobs with durations of the workspace's job histories, the ids of
/// their files and the files' names.
pub fn history(workspace: &Workspace) -> (Vec<u32>, Vec<String>, Vec<WorkloadJob>) {
    let (mut ids, mut names, mut jobs) = (Vec::new(), Vec::new(), Vec::new());
    for f in workspace.files() {
        if !f.format.job_history() {
            continue;
        }
        ids.push(f.id);
        names.push(f.name.clone());
        jobs.extend(
            f.data
                .workload
                .iter()
                .filter(|j| j.map_secs.is_some())
                .cloned(),
        );
    }
    (ids, names, jobs)
}

/// The history's jobs and files, to pick a job from.
pub fn history_view(workspace: &Workspace) -> HistoryView {
    let (_, files, jobs) = history(workspace);
    HistoryView {
        files,
        jobs: jobs
            .into_iter()
            .map(|j| HistoryJob {
                name: j.name,
                features: j.features,
                map_secs: j.map_secs.unwrap_or(0.0),
                reduce_secs: j.reduce_secs.unwrap_or(0.0),
            })
            .collect(),
    }
}

/// The queue of `rows` (in admission order) with its lazy schedule on the
/// cluster of `settings` (the defaults' without), or why it has none.
pub fn queue_view(
    revision: u64,
    settings: Option<PricingSettings>,
    rows: Vec<QueueRow>,
) -> QueueView {
    let queue: Vec<QueuedJob> = rows
        .iter()
        .map(|r| QueuedJob {
            name: r.name.clone(),
            map_work: r.map_work,
            reduce_work: r.reduce_work,
            deadline: r.deadline,
        })
        .collect();
    let mut view = QueueView {
        revision,
        settings,
        revenue: rows.iter().filter_map(|r| r.price).sum(),
        rows,
        ..QueueView::default()
    };
    match LazySchedule::build(&queue, settings.unwrap_or_default().slots, QUANTUM) {
        Ok(s) => schedule_into(&s, &queue, &mut view),
        Err(e) => view.problem = Some(e.to_string()),
    }
    view
}

/// Fills `view` with the schedule `s` of `queue`: each row's lazily placed
/// phases in seconds and the free capacity in at most [`FREE_BANDS`] bands.
pub fn schedule_into(s: &LazySchedule, queue: &[QueuedJob], view: &mut QueueView) {
    let q = s.quantum;
    for (row, job) in view.rows.iter_mut().zip(queue) {
        let Some((_, [map, reduce])) = s.placements.iter().find(|(n, _)| *n == job.name) else {
            continue;
        };
        let span = |(first, last): (usize, usize), work: f64| {
            (work > 1e-12).then(|| (first as f64 * q, (last + 1) as f64 * q))
        };
        row.map = span(*map, job.map_work);
        row.reduce = span(*reduce, job.reduce_work);
    }
    let n = s.used.len();
    view.horizon = n as f64 * q;
    if n == 0 {
        return;
    }
    let per = n.div_ceil(FREE_BANDS);
    view.band_secs = per as f64 * q;
    let free = |p: usize| -> Vec<f64> {
        s.used
            .chunks(per)
            .map(|c| {
                let used: f64 = c.iter().map(|u| u[p]).sum();
                (1.0 - used / (s.capacity[p] * c.len() as f64)).clamp(0.0, 1.0)
            })
            .collect()
    };
    view.free_map = free(0);
    view.free_reduce = free(1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::estimate::Method;
    use skyplan_engine::pricing::Slots;

    fn job(name: &str, map_work: f64, reduce_work: f64, deadline: f64) -> QueuedJob {
        QueuedJob {
            name: name.into(),
            map_work,
            reduce_work,
            deadline,
        }
    }

    /// Figure 7 on one slot: A (10 s) due 70 lies in [60, 70), B (20 s)
    /// due 110 in [90, 110); the free bands say where the slack is.
    #[test]
    fn schedule_of_figure_7() {
        let queue = [job("A", 10.0, 0.0, 70.0), job("B", 20.0, 0.0, 110.0)];
        let one = Slots {
            map: 1.0,
            reduce: 1.0,
        };
        let s = LazySchedule::build(&queue, one, 1.0).unwrap();
        let mut view = QueueView {
            rows: queue
                .iter()
                .map(|j| QueueRow {
                    name: j.name.clone(),
                    map_work: j.map_work,
                    reduce_work: j.reduce_work,
                    deadline: j.deadline,
                    price: Some(1.0),
                    method: Some(Method::Gp),
                    map: None,
                    reduce: None,
                })
                .collect(),
            ..QueueView::default()
        };
        schedule_into(&s, &queue, &mut view);
        assert_eq!(view.rows[0].map, Some((60.0, 70.0)));
        assert_eq!(view.rows[1].map, Some((90.0, 110.0)));
        assert_eq!(view.rows[0].reduce, None);
        assert_eq!(view.horizon, 110.0);
        assert_eq!(view.band_secs, 1.0);
        assert_eq!(view.free_map.len(), 110);
        assert_eq!(view.free_map[0], 1.0);
        assert_eq!(view.free_map[65], 0.0);
        assert!(view.free_reduce.iter().all(|&f| f == 1.0));
    }

    #[test]
    fn long_horizons_are_banded() {
        let queue = [job("A", 1000.0, 0.0, 4000.0)];
        let one = Slots {
            map: 1.0,
            reduce: 1.0,
        };
        let s = LazySchedule::build(&queue, one, 1.0).unwrap();
        let mut view = QueueView::default();
        schedule_into(&s, &queue, &mut view);
        assert!(view.free_map.len() <= FREE_BANDS);
        assert_eq!(view.band_secs, 10.0);
        let free: f64 = view.free_map.iter().sum::<f64>() * view.band_secs;
        assert!((free - 3000.0).abs() < 1e-9, "{free}");
    }
}
