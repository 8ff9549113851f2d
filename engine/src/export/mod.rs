//! Writers for skyplan's own text formats (the inverse of [`crate::import`]).
//! Every text cell goes through [`cell::text`], numbers through
//! [`cell::number`]: one CSV writer for the whole product.

use crate::model::{JobRun, UtilizationSeries, WorkloadJob};
use crate::slo::{DecisionKind, SloDecision};
use std::fmt::Write;

/// The one CSV cell rule ([`crate::csv_cell`]), where writers look for it.
pub use crate::csv_cell as cell;

use cell::{number as num, text as field};

/// Writes runs as skyplan's job-runs CSV (header included).
pub fn runs_csv(runs: &[JobRun]) -> String {
    let mut out = crate::import::runs_csv_columns().join(",");
    out.push('\n');
    for r in runs {
        let opt = |t: Option<i64>| t.map(|v| v.to_string()).unwrap_or_default();
        let sky: Vec<String> = r.skyline.containers.iter().map(|&c| num(c)).collect();
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{}",
            field(&r.job),
            field(&r.instance),
            r.submit,
            r.start,
            r.end,
            opt(r.input_available),
            opt(r.output_first_read),
            num(r.container.cores),
            num(r.container.memory_mb),
            r.skyline.step_secs,
            sky.join(";")
        );
    }
    out
}

/// Writes finished jobs as skyplan's job-history CSV (header included; the
/// format [`crate::Format::JobHistoryCsv`] reads). Unknown task counts or
/// durations are written empty, which that reader refuses: only complete
/// histories round-trip.
pub fn job_history_csv(jobs: &[WorkloadJob]) -> String {
    let mut out = crate::import::job_history_csv_columns().join(",");
    out.push('\n');
    for j in jobs {
        let count = |c: Option<u32>| c.map(|v| v.to_string()).unwrap_or_default();
        let secs = |s: Option<f64>| s.map(num).unwrap_or_default();
        let f = &j.features;
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            field(&j.name),
            j.submit,
            count(f.map_tasks),
            count(f.reduce_tasks),
            num(f.input_bytes),
            num(f.shuffle_bytes),
            num(f.output_bytes),
            secs(j.map_secs),
            secs(j.reduce_secs)
        );
    }
    out
}

/// Writes series as the long utilization CSV `timestamp,series,resource,value`.
pub fn utilization_long_csv(series: &[UtilizationSeries]) -> String {
    let mut out = String::from("timestamp,series,resource,value\n");
    for s in series {
        let name = field(&s.server);
        for (t, v) in s.timestamps.iter().zip(&s.values) {
            let _ = writeln!(
                out,
                "{t},{name},{},{}",
                s.resource,
                num((v * 100.0).round() / 100.0)
            );
        }
    }
    out
}

/// Writes runs in Hadoop ResourceEstimator's native log format (times in
/// milliseconds; one container = `<1 core, 1 GB>`, so memory usage is written
/// as 1024 MB per container). Fractional container counts are rounded, since
/// the format only carries integers. Job names with whitespace are joined
/// with `_`, as the format is whitespace-separated.
pub fn native_log(runs: &[JobRun]) -> String {
    let mut out = String::new();
    let clean = |s: &str| s.split_whitespace().collect::<Vec<_>>().join("_");
    let mut instances: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for r in runs {
        *instances.entry(r.job.as_str()).or_default() += 1;
    }
    for r in runs {
        let step = i64::from(r.skyline.step_secs);
        let mut mem = String::new();
        let mut cores = String::new();
        for (i, &c) in r.skyline.containers.iter().enumerate() {
            let n = c.round().max(0.0) as u64;
            let t = i as i64 * step;
            let _ = write!(mem, "{}:{t}|", n * 1024);
            let _ = write!(cores, "{n}:{t}|");
        }
        let _ = writeln!(
            out,
            "{} {} {} {} {} {} {} {}",
            clean(&r.job),
            instances[r.job.as_str()],
            r.submit * 1000,
            r.start * 1000,
            r.end * 1000,
            clean(&r.instance),
            mem,
            cores
        );
    }
    out
}

/// Writes SLO decisions as CSV: `job,decision,period_secs,reference,
/// earliest_start_secs,deadline_secs,step_secs,skyline,note` (the skyline's
/// containers `;`-separated; empty fields for rejected jobs).
pub fn decisions_csv(decisions: &[SloDecision]) -> String {
    let mut out = String::from(
        "job,decision,period_secs,reference,earliest_start_secs,deadline_secs,step_secs,skyline,note\n",
    );
    for d in decisions {
        let kind = match d.kind {
            DecisionKind::SignedOff => "signed-off",
            DecisionKind::Overridden => "overridden",
            DecisionKind::Rejected => "rejected",
        };
        let (a, dl) = d
            .window
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .unwrap_or_default();
        let (step, sky) = d
            .skyline
            .as_ref()
            .map(|s| {
                let v: Vec<String> = s.containers.iter().map(|&c| num(c)).collect();
                (s.step_secs.to_string(), v.join(";"))
            })
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{kind},{},{},{a},{dl},{step},{sky},{}",
            field(&d.job),
            d.period_secs,
            d.reference,
            field(d.note.as_deref().unwrap_or(""))
        );
    }
    out
}

/// Writes a pricing queue as CSV: `name,map_work,reduce_work,deadline`
/// (slot-seconds and seconds from now; what [`crate::import::read_queue_csv`]
/// reads back).
pub fn queue_csv(jobs: &[crate::pricing::QueuedJob]) -> String {
    let mut out = crate::import::QUEUE_COLUMNS.join(",");
    out.push('\n');
    for j in jobs {
        let _ = writeln!(
            out,
            "{},{},{},{}",
            field(&j.name),
            num(j.map_work),
            num(j.reduce_work),
            num(j.deadline)
        );
    }
    out
}

/// Writes a reservation plan as CSV: `name,instance,method,start,end,
/// containers`, one row per run of equal, non-zero steps of each instance's
/// allocation, reservations by id and instances in order. Times are UTC
/// (`YYYY-MM-DD HH:MM:SS`) from `origin`, the time of the plan's step 0; an
/// instance that runs past the end of the plan's period is written at its
/// real time, in the next period.
pub fn plan_csv(plan: &crate::agenda::Plan, origin: crate::model::Timestamp) -> String {
    use crate::agenda::Method;
    use crate::time::format_timestamp;
    let mut out = String::from("name,instance,method,start,end,containers\n");
    let step = plan.params().step_secs;
    let at = |s: usize| origin.saturating_add((s as i64).saturating_mul(step));
    let mut reservations: Vec<_> = plan.reservations().iter().collect();
    reservations.sort_by_key(|r| r.id);
    for r in reservations {
        let method = match r.method {
            Method::LowCost => "low-cost",
            Method::Greedy => "greedy",
            Method::EarliestFirst => "earliest-first",
            Method::Optimized => "optimized",
        };
        for i in 0..r.instances {
            let base = r.start + i * r.period_steps;
            let mut j = 0;
            while j < r.alloc.len() {
                let c = r.alloc[j];
                let end = (j..r.alloc.len())
                    .find(|&k| r.alloc[k] != c)
                    .unwrap_or(r.alloc.len());
                if c > 0.0 {
                    let _ = writeln!(
                        out,
                        "{},{i},{method},{},{},{}",
                        field(&r.request.name),
                        format_timestamp(at(base + j)),
                        format_timestamp(at(base + end)),
                        num(c)
                    );
                }
                j = end;
            }
        }
    }
    out
}

#[cfg(test)]
mod plan_csv_tests {
    use super::plan_csv;
    use crate::agenda::{AgendaParams, Capacity, Method, Plan, Recurrence, ReservationRequest};
    use crate::model::ContainerSize;

    #[test]
    fn one_row_per_run_of_equal_steps_and_instance() {
        let mut plan = Plan::new(
            AgendaParams::default(),
            vec![Capacity {
                cores: 100.0,
                memory_mb: 409_600.0,
            }],
        )
        .unwrap();
        let req = |name: &str, recurrence, window, sky: &[f64]| {
            ReservationRequest::from_skyline(
                name,
                recurrence,
                window,
                ContainerSize::default(),
                sky,
                60,
                1.0,
            )
        };
        // Every 12 h, exactly its window: 00:10–00:13 and 12:10–12:13.
        plan.admit(
            req(
                "twice, daily",
                Recurrence::Periodic {
                    period_secs: 43_200,
                },
                (600, 780),
                &[4.0, 4.0, 2.0],
            ),
            Method::EarliestFirst,
        )
        .unwrap();
        plan.admit(
            req("once", Recurrence::OneOff, (3_600, 3_720), &[5.0, 5.0]),
            Method::Greedy,
        )
        .unwrap();
        let text = plan_csv(&plan, 1_793_577_600);
        assert_eq!(
            text,
            "name,instance,method,start,end,containers\n\
             \"twice, daily\",0,earliest-first,2026-11-02 00:10:00,2026-11-02 00:12:00,4\n\
             \"twice, daily\",0,earliest-first,2026-11-02 00:12:00,2026-11-02 00:13:00,2\n\
             \"twice, daily\",1,earliest-first,2026-11-02 12:10:00,2026-11-02 12:12:00,4\n\
             \"twice, daily\",1,earliest-first,2026-11-02 12:12:00,2026-11-02 12:13:00,2\n\
             once,0,greedy,2026-11-02 01:00:00,2026-11-02 01:02:00,5\n"
        );
    }
}

/// Writes a resource-shaping workload as skyplan's two shaping CSVs (the
/// files [`crate::shaping::read_applications_csv`] reads): the applications
/// (one row per component group) and the usage (one row per application
/// minute). Usage fractions are written in `f32`'s shortest exact form, so
/// a workload written and read back is equal.
pub fn shaping_workload_csv(w: &crate::shaping::Workload) -> (String, String) {
    use crate::import::{SHAPING_APP_COLUMNS, SHAPING_USAGE_COLUMNS};
    use crate::shaping::Kind;
    let mut apps = SHAPING_APP_COLUMNS.join(",");
    apps.push('\n');
    let mut usage = SHAPING_USAGE_COLUMNS.join(",");
    usage.push('\n');
    for a in &w.applications {
        let name = field(&a.name);
        for g in &a.components {
            let kind = match g.kind {
                Kind::Core => "core",
                Kind::Elastic => "elastic",
            };
            let _ = writeln!(
                apps,
                "{name},{},{},{kind},{},{},{}",
                num(a.arrival),
                num(a.runtime),
                g.count,
                num(g.cpu),
                num(g.mem)
            );
        }
        for (m, (c, mem)) in a.usage.cpu.iter().zip(&a.usage.mem).enumerate() {
            let _ = writeln!(usage, "{name},{m},{c},{mem}");
        }
    }
    (apps, usage)
}

#[cfg(test)]
mod tests;
