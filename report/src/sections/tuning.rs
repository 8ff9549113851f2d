//! The tuning recommendation: the Tuning panel's pass redone with its
//! settings on the workspace's job history — per group, the recommended
//! queue configuration, Algorithm 1's estimate of its latency and of the
//! current configuration's, and the simulated confirmation of both (the
//! mean of the engine's seeded runs). Ties are said as ties.

use crate::chart::bars;
use crate::context::Context;
use crate::fmt::{count, fixed, pct, secs};
use crate::html::{Html, Table};
use crate::progress::{Progress, Stage};
use skyplan_engine::model::WorkloadJob;
use skyplan_engine::tuning::{
    advise_group, equal_queues, panel_params, tune, window_groups, GroupConfig, SchedulerKind,
    SearchMethod, TuneError, Verdict, SIM_RUNS, TIE_TOLERANCE,
};

/// One group's recommendation, as the panel computes it.
pub struct GroupOutcome {
    /// The group's name (its window of jobs).
    pub name: String,
    /// Containers it got.
    pub containers: u32,
    /// The recommended configuration.
    pub best: GroupConfig,
    /// Algorithm 1's estimate of the recommended configuration, seconds.
    pub estimated_best: f64,
    /// The same of the current configuration.
    pub estimated_current: f64,
    /// The simulated mean latency of the recommended configuration.
    pub simulated_best: f64,
    /// The same of the current configuration.
    pub simulated_current: f64,
    /// Candidates tied with the lowest estimate.
    pub tied: usize,
    /// Every candidate ties: no contention.
    pub no_contention: bool,
    /// The recommendation is the current configuration.
    pub kept_current: bool,
    /// Configurations evaluated.
    pub samples: usize,
    /// The engine's verdict: change only when the simulation confirms.
    pub verdict: Verdict,
}

/// The panel's run: tune the window's groups around `current`, estimate
/// and simulate the recommended and the current configuration.
pub fn outcomes(
    history: &[&WorkloadJob],
    settings: &skyplan_engine::tuning::TuningSettings,
    current: &GroupConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<GroupOutcome>, TuneError> {
    current.validate()?;
    let params = panel_params(settings, current);
    let groups = window_groups(history, settings, current.queues.len())?;
    let report = tune(&groups, &params, progress)?;
    let mut out = Vec::new();
    for ((name, jobs), g) in groups.iter().zip(&report.groups) {
        let best = g.search.best();
        let advice = advise_group(jobs, g, current, &params, settings.seed)?;
        out.push(GroupOutcome {
            name: name.clone(),
            containers: g.containers,
            best: best.config.clone(),
            estimated_best: advice.estimated_best_secs,
            estimated_current: advice.estimated_current_secs,
            simulated_best: advice.simulated_best_secs,
            simulated_current: advice.simulated_current_secs,
            tied: g.search.tied.len(),
            no_contention: g.search.no_contention,
            kept_current: g.search.kept_current,
            samples: g.search.samples,
            verdict: advice.verdict,
        });
    }
    Ok(out)
}

fn queues(h: &mut Html, caption: &str, c: &GroupConfig) {
    let share_head = match c.scheduler {
        SchedulerKind::Capacity => "#capacity",
        SchedulerKind::Fair => "#weight",
    };
    let mut t = Table::new(caption, &["queue", share_head, "#min", "#max", "policy"]);
    for q in &c.queues {
        t.row(vec![
            q.name.clone(),
            match c.scheduler {
                SchedulerKind::Capacity => pct(q.share * 100.0),
                SchedulerKind::Fair => fixed(q.share, 2),
            },
            pct(q.min_share * 100.0),
            pct(q.max_share * 100.0),
            q.policy.name().to_string(),
        ]);
    }
    h.table(&t);
}

/// Writes the section; present when the bundle holds the Tuning panel's
/// state.
pub fn write(ctx: &Context<'_>, h: &mut Html, progress: &mut dyn FnMut(Progress)) -> bool {
    let Some(state) = &ctx.bundle.tuning else {
        h.absent("No scheduler tuning in this workspace.");
        return false;
    };
    let settings = state.settings;
    let (current, current_note) = match &state.current {
        Some(c) => (c.clone(), "the planner's".to_string()),
        None => (
            equal_queues(SchedulerKind::Capacity, 2),
            "the panel's: two Capacity queues of equal share".to_string(),
        ),
    };
    let history: Vec<&WorkloadJob> = ctx.workspace.workload().collect();
    let mut tick = |d: usize, t: usize| progress(Progress::at(Stage::Tuning, d, t));
    match outcomes(&history, &settings, &current, &mut tick) {
        Ok(groups) => {
            for g in &groups {
                group(h, g, &current, groups.len() > 1);
            }
        }
        Err(e) => h.para_in("problem", &format!("The tuning pass was refused: {e}")),
    }
    h.settings(&[
        (
            "cluster",
            format!(
                "{} containers, {} a machine",
                settings.containers, settings.per_machine
            ),
        ),
        (
            "window",
            format!(
                "{} group(s) of {} jobs from job {} of {} in the history, {}",
                settings.groups,
                settings.jobs,
                settings.first_job.saturating_add(1),
                count(history.len()),
                if settings.arrivals {
                    "with their submission times"
                } else {
                    "all waiting at 0 (a tuning snapshot)"
                }
            ),
        ),
        (
            "search",
            format!(
                "{}, seed {}; ties within {} % of the lowest estimate",
                match settings.search {
                    SearchMethod::Rrs => "recursive random search",
                    SearchMethod::Exhaustive => "exhaustive grid",
                },
                settings.seed,
                fixed(TIE_TOLERANCE * 100.0, 0)
            ),
        ),
        (
            "current configuration",
            format!("{current_note} ({})", current.label()),
        ),
        (
            "confirmation",
            format!(
                "event-driven YARN simulation, mean of {SIM_RUNS} seeded runs (seeds {}…{})",
                settings.seed,
                settings.seed.wrapping_add(SIM_RUNS - 1)
            ),
        ),
    ]);
    true
}

/// `best` against `current` in words: `1.1 % lower`, `2.0 % higher`.
fn change(current: f64, best: f64) -> String {
    if !(current > 0.0 && best.is_finite()) {
        return "no comparison".into();
    }
    let d = 100.0 * (best - current) / current;
    if d.abs() < 0.05 {
        "the same".into()
    } else if d < 0.0 {
        format!("{} lower", pct(-d))
    } else {
        format!("{} higher", pct(d))
    }
}

fn group(h: &mut Html, g: &GroupOutcome, current: &GroupConfig, several: bool) {
    if several {
        h.heading(
            3,
            &format!("Group {} ({} containers)", g.name, g.containers),
        );
    }
    h.figures(&[
        ("recommended, estimated", secs(g.estimated_best)),
        ("current, estimated", secs(g.estimated_current)),
        ("recommended, simulated", secs(g.simulated_best)),
        ("current, simulated", secs(g.simulated_current)),
    ]);
    let verdict = if g.no_contention {
        format!(
            "Every configuration ties ({} evaluated): the jobs of {} do not contend for the split{}",
            count(g.samples),
            g.name,
            // The grid's queue limits (the user-limit factor) can still
            // beat the configuration in force: the verdict below decides.
            if g.verdict.change() {
                "; the grid's queue limits differ from the current ones, and the simulation confirms them (below)."
            } else {
                ", so the current configuration is kept."
            }
        )
    } else if g.kept_current {
        format!(
            "Keep the current configuration: it ties with the lowest estimate ({} configuration(s) within {} %), and the current one wins ties.",
            count(g.tied),
            fixed(TIE_TOLERANCE * 100.0, 0)
        )
    } else {
        let tie = if g.tied > 1 {
            format!(
                " {} configurations tie within {} % of it; this one is recommended among them.",
                count(g.tied),
                fixed(TIE_TOLERANCE * 100.0, 0)
            )
        } else {
            String::new()
        };
        format!(
            "The estimate recommends {}: mean latency {} against {} now ({}).{tie}",
            g.best.label(),
            secs(g.estimated_best),
            secs(g.estimated_current),
            change(g.estimated_current, g.estimated_best),
        )
    };
    h.para_in("verdict", &verdict);
    let confirmed = match g.verdict {
        Verdict::Confirmed => "confirmed: change to the recommendation",
        Verdict::Unconfirmed => {
            "not confirmed: keep the current configuration (a change is advised only when the simulation confirms a gain of more than 1 %)"
        }
        Verdict::Current => "the current configuration is kept",
    };
    h.para(&format!(
        "Simulated confirmation (mean of {SIM_RUNS} seeded runs): recommendation {} against current {} ({}) — {confirmed}.",
        secs(g.simulated_best),
        secs(g.simulated_current),
        change(g.simulated_current, g.simulated_best),
    ));
    let rows = vec![
        (
            "estimated (Algorithm 1)".to_string(),
            vec![g.estimated_current, g.estimated_best],
        ),
        (
            format!("simulated (mean of {SIM_RUNS} runs)"),
            vec![g.simulated_current, g.simulated_best],
        ),
    ];
    if let Some(svg) = bars(&rows, &["current", "recommended"], "s") {
        h.chart(
            &svg,
            &format!(
                "Mean job latency of {}, current against recommended",
                g.name
            ),
        );
    }
    h.keep(|h| {
        queues(
            h,
            if g.verdict == Verdict::Unconfirmed {
                "The estimate's recommendation (not confirmed: not advised)"
            } else {
                "Recommended configuration"
            },
            &g.best,
        );
        queues(h, "Current configuration", current);
    });
}
