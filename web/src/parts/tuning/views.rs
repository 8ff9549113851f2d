//! What the Tuning part computes in the worker and sends: the window's jobs
//! cut into groups, one tuning pass ([`skyplan_engine::tuning::tune`]), the
//! engine's advice per group (the current configuration estimated and
//! simulated next to the best, and the verdict), and a candidate's schedule
//! by Algorithm 1.

use super::protocol::{
    Bar, CandidateView, GroupView, QueueMix, ScheduleView, SplitView, TuningSettings, TuningView,
};
use skyplan_engine::tuning::{
    advise_group, compare, hidden_differences, panel_params, tune, window_groups, Cluster, GroupConfig, RuleSet, TuneJob,
    TuneParams, TuneReport,
};
use skyplan_engine::{WorkloadJob, Workspace};

/// What the worker keeps of the last run, for schedules of other
/// candidates.
pub struct LastRun {
    /// The run's ticket.
    pub ticket: u32,
    /// Its groups' jobs.
    pub groups: Vec<(String, Vec<TuneJob>)>,
    /// Its parameters.
    pub params: TuneParams,
    /// Its report.
    pub report: TuneReport,
}

/// One tuning pass on the window, with the engine's advice on each group
/// (the current configuration estimated, both simulated, the verdict). `progress(done, total)` counts searches.
pub fn run(
    workspace: &Workspace,
    ticket: u32,
    settings: &TuningSettings,
    current: &GroupConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(TuningView, LastRun), String> {
    current.validate().map_err(|e| e.to_string())?;
    let params = panel_params(settings, current);
    let history: Vec<&WorkloadJob> = workspace.workload().collect();
    let groups =
        window_groups(&history, settings, current.queues.len()).map_err(|e| e.to_string())?;
    // The windows at their recorded arrivals, for their mix load (where the
    // loaded workload sits on "where it pays"'s axis): a run that submits
    // every job at once has no span of its own.
    let arrived = if settings.arrivals {
        None
    } else {
        let recorded = TuningSettings {
            arrivals: true,
            ..*settings
        };
        Some(window_groups(&history, &recorded, current.queues.len()).map_err(|e| e.to_string())?)
    };
    let report = tune(&groups, &params, progress).map_err(|e| e.to_string())?;
    let names: Vec<String> = current.queues.iter().map(|q| q.name.clone()).collect();
    let mut views = Vec::with_capacity(groups.len());
    for (k, ((name, jobs), g)) in groups.iter().zip(&report.groups).enumerate() {
        let cluster = Cluster::of(g.containers, params.per_machine);
        let rules = |c: &GroupConfig| RuleSet::for_config(c, params.constraint, params.exec);
        let best = g.search.best();
        let advice =
            advise_group(jobs, g, current, &params, settings.seed).map_err(|e| e.to_string())?;
        let schedule = schedule_of(
            jobs,
            &cluster,
            &best.config,
            rules(&best.config),
            (ticket, k, g.search.best),
        )?;
        let curve_lower = if g.curve.is_empty() { g.containers } else { 1 };
        views.push(GroupView {
            name: name.clone(),
            jobs: jobs.len(),
            span_secs: span(jobs),
            mix_load: mix_load(
                arrived.as_ref().and_then(|a| a.get(k)).map_or(jobs, |(_, a)| a),
                g.containers,
            ),
            mix: mix(jobs, &names),
            containers: g.containers,
            candidates: g
                .search
                .candidates
                .iter()
                .map(|c| CandidateView {
                    label: c.config.label(),
                    latency_secs: c.latency_secs,
                    config: c.config.clone(),
                })
                .collect(),
            best: g.search.best,
            samples: g.search.samples,
            rounds: g.search.rounds,
            current_label: current.label(),
            hidden: hidden_differences(&best.config, current),
            advice,
            tied: g.search.tied.len(),
            no_contention: g.search.no_contention,
            kept_current: g.search.kept_current,
            curve: g.curve.clone(),
            curve_lower,
            schedule,
        });
    }
    let split = (groups.len() > 1).then(|| SplitView {
        total: report.split.total,
        r_alloc: report.split.r_alloc,
        r_sum: report.split.r_sum,
        containers: report.split.containers.clone(),
        ratios: report.split.ratios.clone(),
        reduction: report.split.reduction,
    });
    let view = TuningView {
        ticket,
        scheduler: current.scheduler,
        queues: names,
        groups: views,
        split,
        history_jobs: workspace.workload().count(),
        millis: 0.0,
    };
    let last = LastRun {
        ticket,
        groups,
        params,
        report,
    };
    Ok((view, last))
}

/// The schedule of candidate `candidate` of group `group` of the last run.
pub fn candidate_schedule(
    last: &LastRun,
    group: usize,
    candidate: usize,
) -> Result<ScheduleView, String> {
    let (jobs, g) = last
        .groups
        .get(group)
        .map(|(_, jobs)| jobs)
        .zip(last.report.groups.get(group))
        .ok_or_else(|| format!("no group {group} in the last run"))?;
    let c = g
        .search
        .candidates
        .get(candidate)
        .ok_or_else(|| format!("no candidate {candidate} in group {group}"))?;
    let cluster = Cluster::of(g.containers, last.params.per_machine);
    let rules = RuleSet::for_config(&c.config, last.params.constraint, last.params.exec);
    schedule_of(
        jobs,
        &cluster,
        &c.config,
        rules,
        (last.ticket, group, candidate),
    )
}

/// Algorithm 1's schedule of `jobs` under `config`, as bars by queue.
fn schedule_of(
    jobs: &[TuneJob],
    cluster: &Cluster,
    config: &GroupConfig,
    rules: RuleSet,
    (ticket, group, candidate): (u32, usize, usize),
) -> Result<ScheduleView, String> {
    let report = compare(jobs, cluster, config, rules).map_err(|e| e.to_string())?;
    let mut bars: Vec<Bar> = jobs
        .iter()
        .zip(&report.jobs)
        .map(|(j, l)| Bar {
            job: j.name.clone(),
            queue: j.queue,
            submit: j.submit,
            start: j.submit + l.wait_secs,
            finish: j.submit + l.latency_secs,
            containers: l.allocations.iter().map(|a| a.containers).sum(),
        })
        .collect();
    bars.sort_by(|a, b| a.queue.cmp(&b.queue).then(a.start.total_cmp(&b.start)));
    Ok(ScheduleView {
        ticket,
        group,
        candidate,
        label: config.label(),
        queues: config.queues.iter().map(|q| q.name.clone()).collect(),
        bars,
        mean_latency_secs: report.mean_latency_secs,
        containers: cluster.containers(),
    })
}

/// Seconds from the first to the last submission.
fn span(jobs: &[TuneJob]) -> f64 {
    let (lo, hi) = jobs.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), j| {
        (lo.min(j.submit), hi.max(j.submit))
    });
    if lo.is_finite() {
        hi - lo
    } else {
        0.0
    }
}

/// Task work over the submission span, as a multiple of `containers`: the
/// load the contention sweep's mixes are set to (`EvalParams::mix_load`),
/// so the window can be placed on its axis.
fn mix_load(jobs: &[TuneJob], containers: u32) -> Option<f64> {
    let span = span(jobs);
    let work: f64 = jobs.iter().map(TuneJob::work).sum();
    (span > 0.0 && containers > 0).then(|| work / (span * f64::from(containers)))
}

/// Jobs, tasks and work per queue.
fn mix(jobs: &[TuneJob], names: &[String]) -> Vec<QueueMix> {
    names
        .iter()
        .enumerate()
        .map(|(q, name)| {
            let of: Vec<&TuneJob> = jobs.iter().filter(|j| j.queue == q).collect();
            QueueMix {
                queue: name.clone(),
                jobs: of.len(),
                tasks: of.iter().map(|j| j.tasks.len()).sum(),
                work_secs: of.iter().map(|j| j.work()).sum(),
            }
        })
        .collect()
}
