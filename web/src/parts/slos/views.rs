//! What the worker sends the SLOs panel: the SLO table and a job's fitted
//! skyline with its quality figures.
//!
//! Runs in the worker only; the page draws what it gets.

use super::protocol::{FitView, QualityFigures, SloRow, SloTable, SIMPLEX_MAX_CELLS};
use crate::parts::traces::views::runs_chart;
use skyplan_engine::resource_model::{
    fit, flat_percentile, peak_reservation, quality, ModelParams, SolverKind,
};
use skyplan_engine::slo::{infer_slos, template_name, Slo, SloError, SloParams};
use skyplan_engine::{JobRun, Workspace};

/// The SLOs of the recurring jobs among the loaded runs, as table rows.
///
/// # Errors
/// The engine's: bad settings, or no runs loaded.
pub fn slo_table(ws: &Workspace, params: &SloParams) -> Result<SloTable, SloError> {
    let runs: Vec<JobRun> = ws.runs().cloned().collect();
    let report = infer_slos(&runs, params)?;
    Ok(SloTable {
        rows: report.slos.iter().map(slo_row).collect(),
        non_periodic: report.non_periodic,
    })
}

fn slo_row(s: &Slo) -> SloRow {
    let e = &s.evidence;
    SloRow {
        job: s.job.clone(),
        period_secs: s.period_secs,
        reference: s.reference,
        runs: e.runs,
        earliest_start_secs: s.earliest_start_secs,
        deadline_secs: s.deadline_secs,
        first_window: s
            .earliest_start_secs
            .zip(s.deadline_secs)
            .map(|(a, d)| (s.reference + a, s.reference + d)),
        actionable: s.actionable,
        reason: s.reason.clone(),
        deadline_forced: s.deadline_forced,
        interarrival_cv: e.interarrival_cv,
        read_cv: e.read_cv,
        slack_ratio: e.slack_ratio,
        median_runtime_secs: e.median_runtime_secs,
    }
}

/// Fits `R*` to the runs of the recurring job `job` (runs whose templated
/// name is `job`) and rates it against the peak and flat-p90 reservations.
/// A simplex fit of a history larger than [`SIMPLEX_MAX_CELLS`] is done by
/// the flow solver instead, with a note.
///
/// # Errors
/// No such runs, or the engine's message (bad settings, unusable history).
pub fn fit_view(
    ws: &Workspace,
    ticket: u32,
    job: &str,
    params: &ModelParams,
) -> Result<FitView, String> {
    let history: Vec<&JobRun> = ws.runs().filter(|r| template_name(&r.job) == job).collect();
    if history.is_empty() {
        return Err(format!("no runs of `{job}` are loaded"));
    }
    let mut params = params.clone();
    let mut note = None;
    let (runs, steps) = history_size(&history, params.step_secs);
    if params.solver == SolverKind::Simplex && runs * steps > SIMPLEX_MAX_CELLS {
        params.solver = SolverKind::Flow;
        note = Some(format!(
            "{runs} runs × {steps} steps is more than the {SIMPLEX_MAX_CELLS} the simplex solver is offered for: solved with flow, which finds the same optimum."
        ));
    }
    let model = fit(&history, &params).map_err(|e| e.to_string())?;
    let step = model.skyline.step_secs;
    let figures = QualityFigures {
        lp: quality(&model.skyline, &history),
        peak: quality(&peak_reservation(&history, step), &history),
        flat_p90: quality(&flat_percentile(&history, step, 90.0), &history),
    };
    Ok(FitView {
        ticket,
        job: job.to_owned(),
        history: runs_chart(job, history),
        gap: model.lower_bound.map(|lb| model.objective.total - lb),
        model,
        quality: figures,
        note,
    })
}

/// Runs and steps of the history matrix on `step` seconds (no steps for a
/// 0 step).
pub fn history_size(runs: &[&JobRun], step: u32) -> (usize, usize) {
    if step == 0 {
        return (runs.len(), 0);
    }
    let step = i64::from(step);
    let steps = runs
        .iter()
        .map(|r| (r.skyline.duration_secs() + step - 1) / step)
        .max()
        .unwrap_or(0);
    (runs.len(), steps.max(0) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::{import, ImportOptions};

    fn demo() -> Workspace {
        let mut ws = Workspace::new();
        let (name, text) = crate::demo::DEMO_FILES[0];
        ws.add(import(name, text.as_bytes(), ImportOptions::default()).unwrap());
        ws
    }

    #[test]
    fn slo_table_of_the_demo() {
        let table = slo_table(&demo(), &SloParams::default()).unwrap();
        assert_eq!(table.rows.len(), 12);
        assert_eq!(table.non_periodic.len(), 2);
        let row = |job: &str| table.rows.iter().find(|r| r.job == job).unwrap();
        let revenue = row("revenue_rollup");
        assert!(revenue.actionable);
        assert_eq!(revenue.period_secs, 86_400);
        let (a, d) = (
            revenue.earliest_start_secs.unwrap(),
            revenue.deadline_secs.unwrap(),
        );
        assert_eq!(
            revenue.first_window,
            Some((revenue.reference + a, revenue.reference + d))
        );
        let billing = row("billing_export");
        assert!(!billing.actionable);
        assert!(billing.reason.as_deref().unwrap().contains("slack"));
        assert_eq!(billing.first_window, None);
        let empty = slo_table(&Workspace::new(), &SloParams::default());
        assert_eq!(empty.unwrap_err().to_string(), "no job runs are loaded");
        let bad = SloParams {
            start_percentile: 120.0,
            ..SloParams::default()
        };
        assert!(slo_table(&demo(), &bad)
            .unwrap_err()
            .to_string()
            .contains("start_percentile"));
    }

    #[test]
    fn fit_view_rates_r_star_against_peak_and_p90() {
        let ws = demo();
        let view = fit_view(&ws, 7, "revenue_rollup", &ModelParams::paper()).unwrap();
        assert_eq!((view.ticket, view.job.as_str()), (7, "revenue_rollup"));
        assert_eq!(view.history.runs.len(), 14);
        assert_eq!(view.model.runs, 14);
        assert_eq!(view.model.skyline.step_secs, 60);
        assert!(view.gap.unwrap().abs() < 1e-6, "flow is optimal");
        let q = &view.quality;
        assert!(q.lp.area_ch < q.flat_p90.area_ch && q.flat_p90.area_ch < q.peak.area_ch);
        assert_eq!(q.peak.completion_share, 1.0);
        assert!(view.note.is_none());
        let bad = ModelParams {
            alpha: 2.0,
            ..ModelParams::paper()
        };
        assert!(fit_view(&ws, 8, "revenue_rollup", &bad)
            .unwrap_err()
            .contains("alpha"));
        assert!(fit_view(&ws, 9, "nope", &ModelParams::paper())
            .unwrap_err()
            .contains("no runs"));
    }

    #[test]
    fn simplex_is_kept_to_small_histories() {
        let ws = demo();
        let simplex = ModelParams {
            solver: SolverKind::Simplex,
            ..ModelParams::paper()
        };
        let small = fit_view(&ws, 1, "revenue_rollup", &simplex).unwrap();
        assert_eq!(small.model.params.solver, SolverKind::Simplex);
        assert!(small.model.runs * small.model.steps <= SIMPLEX_MAX_CELLS);
        // 336 hourly runs × 27 one-minute steps: solved with flow instead.
        let large = fit_view(&ws, 2, "clickstream_agg", &simplex).unwrap();
        assert_eq!(large.model.params.solver, SolverKind::Flow);
        assert_eq!(
            large.note.as_deref(),
            Some("336 runs × 27 steps is more than the 5000 the simplex solver is offered for: solved with flow, which finds the same optimum.")
        );
        let runs: Vec<&JobRun> = ws.runs().filter(|r| r.job == "clickstream_agg").collect();
        assert_eq!(
            history_size(&runs, 60),
            (large.model.runs, large.model.steps)
        );
        assert_eq!(history_size(&runs, 0), (336, 0));
    }
}
