//! The pricing queue: the admitted jobs with their committed deadlines and
//! prices, and the queue's lazy schedule on the cluster (every job as late
//! as its deadline allows, MRM §4) as the Pricing panel lays it out.

use crate::chart::{xy_figure, Series, XyChart};
use crate::context::Context;
use crate::fmt::{count, fixed, secs};
use crate::html::{Html, Table};
use crate::progress::Progress;
use skyplan_engine::bundle::PricingSettings;
use skyplan_engine::pricing::{LazySchedule, QueuedJob};

/// Seconds per quantum of the lazy schedule (the panel's).
const QUANTUM: f64 = 1.0;
/// Points of the load chart, at most.
const BANDS: usize = 200;

/// Writes the section; present when the bundle holds a pricing queue.
pub fn write(ctx: &Context<'_>, h: &mut Html, _progress: &mut dyn FnMut(Progress)) -> bool {
    let Some(state) = &ctx.bundle.pricing else {
        h.absent("No pricing queue in this workspace.");
        return false;
    };
    let settings = state.settings.unwrap_or_default();
    let settings_note = if state.settings.is_some() {
        "the planner's"
    } else {
        "the panel's defaults"
    };
    if state.queue.is_empty() {
        h.absent("The pricing queue is empty: no job was admitted.");
        write_settings(h, &settings, settings_note);
        return true;
    }
    let queue: Vec<QueuedJob> = state.queue.iter().map(|a| a.job.clone()).collect();
    let revenue: f64 = state.queue.iter().filter_map(|a| a.price).sum();
    let priced = state.queue.iter().filter(|a| a.price.is_some()).count();
    let schedule = LazySchedule::build(&queue, settings.slots, QUANTUM);
    let horizon = schedule
        .as_ref()
        .map_or(f64::NAN, |s| s.used.len() as f64 * s.quantum);
    h.figures(&[
        ("jobs queued", count(queue.len())),
        ("priced at admission", count(priced)),
        ("revenue", fixed(revenue, 2)),
        (
            "last deadline",
            secs(queue.iter().map(|j| j.deadline).fold(0.0, f64::max)),
        ),
        ("schedule horizon", secs(horizon)),
    ]);
    let mut t = Table::new(
        "Admitted jobs, in admission order, with their lazy schedule",
        &[
            "job",
            "#map work (slot-s)",
            "#reduce work (slot-s)",
            "#deadline (s)",
            "#price",
            "method",
            "map phase (s)",
            "reduce phase (s)",
        ],
    );
    for a in &state.queue {
        let j = &a.job;
        let phases = schedule.as_ref().ok().and_then(|s| {
            s.placements
                .iter()
                .find(|(n, _)| *n == j.name)
                .map(|(_, p)| *p)
        });
        let span = |k: usize, work: f64| match phases {
            Some(p) if work > 1e-12 => format!(
                "{}–{}",
                fixed(p[k].0 as f64 * QUANTUM, 0),
                fixed((p[k].1 + 1) as f64 * QUANTUM, 0)
            ),
            _ => "—".to_string(),
        };
        t.row(vec![
            j.name.clone(),
            fixed(j.map_work, 1),
            fixed(j.reduce_work, 1),
            fixed(j.deadline, 0),
            a.price.map_or("imported".into(), |p| fixed(p, 2)),
            a.method.map_or("—".into(), |m| m.to_string()),
            span(0, j.map_work),
            span(1, j.reduce_work),
        ]);
    }
    h.table(&t);
    match &schedule {
        Ok(s) if !s.used.is_empty() => {
            let per = s.used.len().div_ceil(BANDS);
            let share = |p: usize| -> Vec<(f64, f64)> {
                s.used
                    .chunks(per)
                    .enumerate()
                    .map(|(i, c)| {
                        let used: f64 = c.iter().map(|u| u[p]).sum();
                        (
                            (i * per) as f64 * s.quantum,
                            100.0 * used / (s.capacity[p] * c.len() as f64),
                        )
                    })
                    .collect()
            };
            let chart = XyChart {
                x_label: "seconds from now".into(),
                y_label: "slots used, %".into(),
                series: vec![
                    Series {
                        name: "map".into(),
                        points: share(0),
                        step: true,
                    },
                    Series {
                        name: "reduce".into(),
                        points: share(1),
                        step: true,
                    },
                ],
                reference: None,
                x_tick: None,
            };
            xy_figure(
                h,
                &chart,
                "The queue's lazy schedule: share of the map and reduce slots its jobs hold",
            );
        }
        Ok(_) => {}
        Err(e) => h.para_in("problem", &format!("The queue has no schedule: {e}")),
    }
    write_settings(h, &settings, settings_note);
    true
}

fn write_settings(h: &mut Html, s: &PricingSettings, note: &str) {
    h.settings(&[
        ("settings", note.to_string()),
        (
            "estimation",
            format!(
                "{}, upper end of the {} % interval",
                s.method,
                fixed(s.level * 100.0, 0)
            ),
        ),
        (
            "cluster",
            format!(
                "{} map + {} reduce slots",
                fixed(s.slots.map, 0),
                fixed(s.slots.reduce, 0)
            ),
        ),
        ("price function", s.function.label()),
        (
            "schedule",
            format!("lazy (as late as each deadline allows), {QUANTUM}-second quanta"),
        ),
    ]);
}
