//! The runway against brute force on small cases: grow the demand day by
//! day, re-plan from scratch (a plan built here, not through the limit's
//! own check), find the first failing day; and the purchase schedule
//! against an exhaustive search over every schedule on small clusters.

use super::*;
use crate::agenda::{AgendaParams, Capacity, Method, Plan, Recurrence, ReservationRequest};
use crate::model::{ContainerSize, Resource};
use crate::pricing::{LazySchedule, QueuedJob, Slots};

const DAY: i64 = 86_400;

fn request(name: &str, window: (i64, i64), skyline: &[f64]) -> ReservationRequest {
    ReservationRequest::from_skyline(
        name,
        Recurrence::Periodic { period_secs: DAY },
        window,
        ContainerSize::default(),
        skyline,
        60,
        1.0,
    )
}

/// Three daily jobs on 24 cores, two of them competing for one window.
fn agenda_demand(cores: f64) -> AgendaDemand {
    AgendaDemand {
        params: AgendaParams::default(),
        capacity: Capacity {
            cores,
            memory_mb: cores * 4096.0,
        },
        recurring: vec![
            request("a", (0, 3_600), &[8.0; 30]),
            request("b", (0, 3_600), &[6.0; 40]),
            request("c", (7_200, 9_000), &[10.0; 20]),
        ],
        recurring_one_offs: Vec::new(),
        fixed: Vec::new(),
    }
}

fn demand_with(agenda: Option<AgendaDemand>, queue: Option<QueueDemand>) -> Demand {
    Demand {
        today: 100 * DAY,
        utilization: Vec::new(),
        agenda,
        queue,
    }
}

fn monthly(percent: f64, horizon: u32, machines: u32) -> RunwayParams {
    RunwayParams {
        growth: Growth::Monthly { percent },
        horizon_days: horizon,
        purchase_days: horizon,
        machines: Some(machines),
        ..RunwayParams::default()
    }
}

fn factor(percent: f64, d: usize) -> f64 {
    (1.0 + percent / 100.0).powf(d as f64 / params::DAYS_PER_MONTH)
}

/// Brute force: the agenda re-planned from scratch with every skyline ×
/// `g` on `cores` × `k`, all placed?
fn agenda_brute(a: &AgendaDemand, g: f64, k: f64) -> bool {
    let cap = Capacity {
        cores: a.capacity.cores * k,
        memory_mb: a.capacity.memory_mb * k,
    };
    let mut plan = Plan::new(a.params.clone(), vec![cap]).unwrap();
    a.recurring.iter().all(|r| {
        let mut r = r.clone();
        for s in &mut r.stages {
            s.demand *= g;
            s.max_parallelism = (s.max_parallelism * g - 1e-9).ceil().max(1.0);
            s.gang = s.gang.min(s.max_parallelism);
        }
        plan.admit(r, Method::LowCost).is_ok()
    })
}

fn first_failing_day(horizon: usize, fails: impl Fn(usize) -> bool) -> Option<usize> {
    (0..=horizon).find(|&d| fails(d))
}

#[test]
fn the_agenda_runway_is_the_first_day_a_regrown_replan_fails() {
    for (cores, percent) in [(24.0, 15.0), (30.0, 8.0), (20.0, 40.0), (60.0, 5.0)] {
        let a = agenda_demand(cores);
        let demand = demand_with(Some(a.clone()), None);
        let horizon = 120;
        let r = runway(&demand, &monthly(percent, horizon, 3)).unwrap();
        let brute = first_failing_day(horizon as usize, |d| {
            !agenda_brute(&a, factor(percent, d), 1.0)
        });
        let got = r.limits[0].p50.map(|t| ((t - demand.today) / DAY) as usize);
        assert_eq!(got, brute, "{cores} cores, {percent} % a month");
        // Growth by hand has no interval.
        assert_eq!(r.limits[0].p10, r.limits[0].p90);
    }
}

#[test]
fn the_queue_runway_is_the_first_day_a_regrown_schedule_misses() {
    let jobs = vec![
        QueuedJob {
            name: "j1".into(),
            map_work: 2_000.0,
            reduce_work: 1_000.0,
            deadline: 400.0,
        },
        QueuedJob {
            name: "j2".into(),
            map_work: 4_000.0,
            reduce_work: 0.0,
            deadline: 900.0,
        },
    ];
    let q = QueueDemand {
        jobs: jobs.clone(),
        slots: Slots {
            map: 20.0,
            reduce: 10.0,
        },
        quantum: 1.0,
    };
    let demand = demand_with(None, Some(q));
    let percent = 12.0;
    let r = runway(&demand, &monthly(percent, 365, 4)).unwrap();
    // The mean job's earliest finish with the queue's work × g, from the
    // lazy schedule built here (None: a queued job misses its deadline).
    let finish = |g: f64| -> Option<f64> {
        let mut grown = jobs.clone();
        for j in &mut grown {
            j.map_work *= g;
            j.reduce_work *= g;
        }
        LazySchedule::build(
            &grown,
            Slots {
                map: 20.0,
                reduce: 10.0,
            },
            1.0,
        )
        .ok()
        .map(|s| s.earliest_finish(3_000.0 * g, 500.0 * g))
    };
    // The default limit: twice today's finish (the mean job, 3,000 map and
    // 500 reduce, fills the free map slots before j1's and j2's deferred
    // maps: 150 s, then its reduce: 200 s).
    let today = finish(1.0).unwrap();
    assert_eq!(today, 200.0);
    let brute = first_failing_day(365, |d| {
        finish(factor(percent, d)).is_none_or(|f| f > limit::QUEUE_SLOWDOWN * today)
    });
    assert!(brute.is_some());
    assert_eq!(
        r.limits[0].p50.map(|t| ((t - demand.today) / DAY) as usize),
        brute
    );
    assert_eq!(r.binding.as_deref(), Some("pricing queue"));
}

#[test]
fn the_utilization_runway_is_the_first_day_the_grown_peak_passes_the_target() {
    let peaks = DailyPeaks {
        resource: Resource::Cpu,
        first_day: 0,
        peaks: vec![0.5; 10],
        servers: 8,
    };
    let demand = Demand {
        today: 9 * DAY,
        utilization: vec![peaks],
        agenda: None,
        queue: None,
    };
    for (percent, target) in [(5.0, 0.8), (20.0, 0.6), (-3.0, 0.8), (0.0, 0.8)] {
        let p = RunwayParams {
            target,
            ..monthly(percent, 400, 8)
        };
        let r = runway(&demand, &p).unwrap();
        let brute = first_failing_day(400, |d| 0.5 * factor(percent, d) > target);
        assert_eq!(
            r.limits[0].p50.map(|t| ((t - demand.today) / DAY) as usize),
            brute,
            "{percent} {target}"
        );
        if brute.is_none() {
            assert_eq!(r.binding, None, "beyond the horizon is a valid answer");
            assert_eq!(r.purchases.total, 0);
        }
    }
}

/// Exhaustive: the fewest machines in any schedule (one count a day) that
/// keeps every day's brute-force re-plan feasible; then checks our plan
/// has that total, keeps every day, and buys nothing earlier than needed.
#[test]
fn the_purchase_schedule_is_the_fewest_machines_bought_as_late_as_possible() {
    for (cores, percent, machines) in [(24.0, 60.0, 3u32), (20.0, 80.0, 2), (30.0, 100.0, 4)] {
        let a = agenda_demand(cores);
        let demand = demand_with(Some(a.clone()), None);
        let days = 8usize;
        // Growth fast enough over 8 days to need machines: % a month
        // chosen large, horizon short.
        let p = RunwayParams {
            purchase_days: days as u32,
            ..monthly(percent, days as u32, machines)
        };
        let r = runway(&demand, &p).unwrap();
        let share = 1.0 / machines as f64;
        let max_m = 6u32;
        let ok: Vec<Vec<bool>> = (0..=days)
            .map(|d| {
                (0..=max_m)
                    .map(|m| agenda_brute(&a, factor(percent, d), 1.0 + m as f64 * share))
                    .collect()
            })
            .collect();
        // Every schedule: x_d ∈ 0..=max_m bought on day d, cumulative ≤ max_m.
        let mut best = u32::MAX;
        let mut stack = vec![(0usize, 0u32)];
        while let Some((d, cum)) = stack.pop() {
            if d > days {
                best = best.min(cum);
                continue;
            }
            for x in 0..=(max_m - cum) {
                if ok[d][(cum + x) as usize] {
                    stack.push((d + 1, cum + x));
                }
            }
        }
        assert!(best < u32::MAX, "no schedule within {max_m} machines");
        assert_eq!(r.purchases.total, best, "{cores} cores, {percent} %");
        let bought = |d: usize, shift: Option<usize>| -> u32 {
            r.purchases
                .purchases
                .iter()
                .enumerate()
                .filter(|(i, pu)| {
                    let day =
                        ((pu.date - demand.today) / DAY) as usize + usize::from(Some(*i) == shift);
                    day <= d
                })
                .map(|(_, pu)| pu.machines)
                .sum()
        };
        for d in 0..=days {
            assert!(ok[d][bought(d, None) as usize], "day {d} not kept");
        }
        // Deferring any purchase by a day breaks that day.
        for (i, pu) in r.purchases.purchases.iter().enumerate() {
            let d = ((pu.date - demand.today) / DAY) as usize;
            assert!(
                !ok[d][bought(d, Some(i)) as usize],
                "purchase {i} could wait"
            );
        }
    }
}

#[test]
fn a_demand_with_nothing_to_plan_or_no_size_is_refused_in_a_line() {
    let empty = demand_with(None, None);
    let e = runway(&empty, &RunwayParams::default()).unwrap_err();
    assert_eq!(e, RunwayError::NoDemand);
    let a = demand_with(Some(agenda_demand(24.0)), None);
    let e = runway(
        &a,
        &RunwayParams {
            growth: Growth::Monthly { percent: 5.0 },
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--machines"), "{e}");
    let e = runway(
        &a,
        &RunwayParams {
            machines: Some(3),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("set it by hand"), "{e}");
}

#[test]
fn a_fitted_flat_or_falling_history_gives_no_date_not_an_invented_one() {
    for peaks in [
        vec![0.5; 20],
        (0..20).map(|d| 0.7 - 0.01 * d as f64).collect::<Vec<_>>(),
    ] {
        let p = DailyPeaks {
            resource: Resource::Cpu,
            first_day: 0,
            peaks,
            servers: 4,
        };
        let demand = Demand {
            today: 19 * DAY,
            utilization: vec![p],
            agenda: None,
            queue: None,
        };
        let r = runway(&demand, &RunwayParams::default()).unwrap();
        assert_eq!(r.limits[0].p50, None, "{:?}", r.limits[0]);
        assert_eq!(r.binding, None);
    }
}

#[test]
fn the_demo_workspace_runs_out_of_agenda_today_and_buys_machines() {
    use crate::import::{import, read_decisions_csv, ImportOptions};
    let util = include_bytes!("../../../fixtures/demo/utilization.csv");
    let loaded = import("utilization.csv", util, ImportOptions::default()).unwrap();
    let decisions = read_decisions_csv(
        "decisions.csv",
        include_str!("../../../fixtures/demo/decisions.csv"),
    )
    .unwrap();
    let demand = Demand::gather(loaded.data.series.iter(), &decisions, None, None);
    assert_eq!(demand.utilization.len(), 2, "cpu and memory");
    let r = runway(&demand, &RunwayParams::default()).unwrap();
    assert_eq!(r.binding.as_deref(), Some("agenda"));
    let agenda = r.limits.iter().find(|l| l.name == "agenda").unwrap();
    assert_eq!(agenda.p50, Some(r.today), "2 of 7 refused today");
    assert!(r.purchases.total >= 1 && r.purchases.purchases[0].date == r.today);
    assert!(r.purchases_p90.total >= r.purchases.total);
    assert_eq!(r.evidence.as_ref().map(|e| e.days), Some(7));
}

#[test]
fn the_optimizers_runway_bisected_on_days_is_the_first_day_a_replan_fails() {
    // The reservations lever asks the batch optimizer for the first day it
    // fails, days whose running maximum is unchanged skipped; against every
    // day re-planned in turn. The curves rise (20 cores: the optimizer
    // packs 1.6× but not 1.2×, so a bisection on the days misses the
    // failure), fall back (a day past the peak must still carry it) and
    // stay flat.
    let opt = Limit::Agenda {
        packing: Packing::Optimized,
    };
    for cores in [20.0, 24.0, 30.0] {
        let agenda = agenda_demand(cores);
        let demand = demand_with(Some(agenda.clone()), None);
        for curve in [
            (0..=40).map(|d| 0.8 + 0.02 * d as f64).collect::<Vec<_>>(),
            (0..=40)
                .map(|d| {
                    if d % 7 == 3 {
                        1.4
                    } else {
                        0.9 + 0.01 * d as f64
                    }
                })
                .collect(),
            vec![1.0; 41],
        ] {
            let mut highest = f64::NEG_INFINITY;
            let brute = curve.iter().position(|&g| {
                highest = highest.max(g);
                !opt.holds(&demand, highest, 1.0)
            });
            let mut kept = Vec::new();
            let mut asked = levers::Optimized {
                agenda: &agenda,
                kept: &mut kept,
                budget: usize::MAX,
            };
            assert_eq!(
                levers::first_failing_day(&mut asked, &curve).unwrap(),
                brute,
                "{cores} cores"
            );
        }
    }
}

#[test]
fn the_reservations_lever_asked_a_run_at_a_time_is_the_whole_lever() {
    // The studio's worker asks the lever with one optimizer run a call,
    // so other panels are answered between runs; asked until it answers,
    // it must be the row measured in one call, with each optimizer
    // question asked once.
    let mut stepwise = 0;
    for (cores, percent) in [
        (20.0, 15.0),
        (24.0, 8.0),
        (30.0, 40.0),
        (16.0, 40.0),
        (12.0, 60.0),
    ] {
        let demand = demand_with(Some(agenda_demand(cores)), None);
        let params = monthly(percent, 90, 3);
        let inputs = LeverInputs::default();
        let mut whole = Planner::new(demand.clone());
        let expected = whole
            .lever(LeverKind::Reservations, &params, &inputs)
            .unwrap();
        let mut stepped = Planner::new(demand);
        let mut calls = 0;
        let got = loop {
            calls += 1;
            assert!(calls < 200, "{cores} cores: no answer");
            if let Some(l) = stepped
                .lever_within(LeverKind::Reservations, &params, &inputs, 1)
                .unwrap()
            {
                break l;
            }
        };
        assert_eq!(got, expected, "{cores} cores, {percent} %");
        assert_eq!(stepped.optimized, whole.optimized, "the same questions");
        let runs = whole.optimized.len();
        assert!(calls <= runs + 1, "{calls} calls for {runs} answers");
        // No run left: the kept answers alone give the row again.
        let again = stepped
            .lever_within(LeverKind::Reservations, &params, &inputs, 0)
            .unwrap();
        assert_eq!(again, Some(expected));
        eprintln!("{cores} cores, {percent} %: {calls} calls, {runs} answers");
        if calls > 2 {
            stepwise += 1;
            // With no run allowed, a fresh planner has no answer.
            let mut fresh = Planner::new(demand_with(Some(agenda_demand(cores)), None));
            let none = fresh
                .lever_within(LeverKind::Reservations, &params, &inputs, 0)
                .unwrap();
            assert_eq!(none, None, "{cores} cores: no run allowed, not answered");
        }
    }
    assert!(stepwise > 0, "no case needed the optimizer twice");
}

/// A queue of one job with a deadline, on 20 map and 10 reduce slots.
fn one_job_queue() -> QueueDemand {
    QueueDemand {
        jobs: vec![QueuedJob {
            name: "j".into(),
            map_work: 2_000.0,
            reduce_work: 1_000.0,
            deadline: 600.0,
        }],
        slots: Slots {
            map: 20.0,
            reduce: 10.0,
        },
        quantum: 1.0,
    }
}

/// The warm-up against cold planners: warmed to the growth slider's
/// largest value, an answer at any growth of the slider's range re-plans
/// no size and equals a planner's that never warmed; one size a call.
/// Three times: plans under the cap; the growth passing the cap; and a
/// step in demand that puts the agenda past the cap in one day at the
/// largest growth — the queue, after the agenda in the plan's order, was
/// last asked for below the jump, and a lower growth whose plan lands
/// between asks for it there.
#[test]
fn a_warmed_planner_answers_every_growth_of_the_range_without_replanning() {
    let queue = one_job_queue();
    let demand = demand_with(Some(agenda_demand(16.0)), Some(queue.clone()));
    // A CPU at 5 % of its capacity (never binding), so a step in cores
    // has today's demand to be measured against: 0.8 of the agenda's 16
    // cores; 20 cores from day 300 add 25 × today's demand.
    let mut stepped = demand_with(Some(agenda_demand(16.0)), Some(queue));
    stepped.utilization = vec![DailyPeaks {
        resource: Resource::Cpu,
        first_day: stepped.today - 13 * DAY,
        peaks: vec![0.05; 14],
        servers: 1,
    }];
    let step_at_300 = RunwayParams {
        steps: vec![StepEvent {
            cores: 20.0,
            from: stepped.today + 300 * DAY,
        }],
        ..monthly(0.0, 400, 1)
    };
    // The panel's growth slider: −10…30 % a month by 0.5.
    let (lo, hi, step) = (-10.0, 30.0, 0.5);
    for (case, demand, base) in [
        ("under the cap", demand.clone(), monthly(0.0, 120, 3)),
        ("past the cap", demand, monthly(0.0, 1_000, 1)),
        ("a step past the cap", stepped, step_at_300),
    ] {
        let at = |g: f64| RunwayParams {
            growth: Growth::Monthly { percent: g },
            ..base.clone()
        };
        // The growth asked for is not read: the slider's is.
        let fitted = RunwayParams {
            growth: Growth::Fitted,
            ..base.clone()
        };
        let mut warm = Planner::new(demand.clone());
        let mut calls = 0;
        loop {
            let before = warm.sizes.count();
            let s = warm.warm(&fitted, hi).unwrap();
            calls += 1;
            assert_eq!(s.kept, before + s.computed, "{case}");
            assert!(s.computed <= 1);
            if s.done {
                break;
            }
            assert_eq!(s.computed, 1, "a call that is not the last re-plans a size");
            assert!(calls < 10_000, "the warm-up does not end");
        }
        let warmed = warm.sizes.clone();
        let rows: Vec<usize> = warmed.table.iter().map(|(_, r)| r.len()).collect();
        assert_eq!(rows.len(), 2, "agenda and queue");
        assert!(
            rows.iter().all(|&n| n > 2),
            "{rows:?}: the largest growth buys machines"
        );
        // Done: another call re-plans nothing.
        let again = warm.warm(&fitted, hi).unwrap();
        assert_eq!((again.computed, again.done), (0, true));
        let cold_max = Planner::new(demand.clone()).answer(&at(hi)).unwrap();
        if case != "under the cap" {
            assert!(
                cold_max.purchases_p90.unmet.is_some(),
                "{case}: the cap is reached"
            );
        }
        // Growth typed between the slider's values too (a tenth of its
        // step) against the warmed sizes; every fourth slider value (and
        // the ends) against a planner of its own that never warmed.
        let values = ((hi - lo) / step * 10.0).round() as usize;
        for i in 0..=values {
            let g = lo + i as f64 * step / 10.0;
            let got = warm.answer(&at(g)).unwrap();
            assert_eq!(
                warm.sizes, warmed,
                "{case}: {g} % a month re-planned a size"
            );
            if i % 40 == 0 || i == values {
                let cold = Planner::new(demand.clone()).answer(&at(g)).unwrap();
                assert_eq!(got, cold, "{case}: {g} % a month");
            }
        }
    }
}

#[test]
fn a_kept_planner_fits_again_when_the_scale_or_season_changes() {
    // Daily peaks growing about 2 % a day: the kept planner asked for the log
    // scale (then no season) after the level answers as a planner that
    // never saw the level — the studio's Redraw must not reuse the
    // level's curves.
    let p = DailyPeaks {
        resource: Resource::Cpu,
        first_day: 0,
        // A wiggle, so the log's differences are not a constant.
        peaks: (0..30)
            .map(|d| 0.3 * 1.02f64.powi(d) * (1.0 + 0.03 * (1.7 * d as f64).sin()))
            .collect(),
        servers: 4,
    };
    let demand = Demand {
        today: 29 * DAY,
        utilization: vec![p],
        agenda: None,
        queue: None,
    };
    let mut kept = Planner::new(demand.clone());
    let level = kept.answer(&RunwayParams::default()).unwrap();
    assert!(
        level.limits[0].model.contains("level scale"),
        "{}",
        level.limits[0].model
    );
    for asked in [
        RunwayParams {
            scale: crate::runway::ScaleChoice::Log,
            ..RunwayParams::default()
        },
        RunwayParams {
            scale: crate::runway::ScaleChoice::Log,
            season: crate::runway::SeasonChoice::Off,
            ..RunwayParams::default()
        },
    ] {
        let again = kept.answer(&asked).unwrap();
        let fresh = Planner::new(demand.clone()).answer(&asked).unwrap();
        assert!(
            again.limits[0].model.contains("log scale"),
            "{}",
            again.limits[0].model
        );
        assert_eq!(again, fresh);
    }
}

/// The outlook says what the answer under the same settings says before
/// its purchases — dates, binding limit, evidence, notes, the chart's
/// demand and today's capacity — re-planning only today's size of each
/// limit re-planned (the utilization is closed form), and the answer
/// after it is the one a planner that never looked ahead gives.
#[test]
fn the_outlook_is_the_answer_before_its_purchases_on_one_size_a_limit() {
    let queue = one_job_queue();
    let mut demand = demand_with(Some(agenda_demand(16.0)), Some(queue));
    demand.utilization = vec![DailyPeaks {
        resource: Resource::Cpu,
        first_day: demand.today - 13 * DAY,
        peaks: vec![0.5; 14],
        servers: 1,
    }];
    for percent in [0.0, 8.0, 40.0] {
        let params = monthly(percent, 200, 3);
        let mut planner = Planner::new(demand.clone());
        let outlook = planner.outlook(&params).unwrap();
        assert_eq!(
            planner.sizes.count(),
            2,
            "the agenda's and the queue's size 0"
        );
        let answer = planner.answer(&params).unwrap();
        assert_eq!(
            answer,
            Planner::new(demand.clone()).answer(&params).unwrap()
        );
        assert!(
            answer.purchases.total > 0 || percent == 0.0,
            "{percent} % buys machines"
        );
        let mut said = answer.outlook();
        assert_eq!(said.chart.len(), outlook.chart.len());
        for (day, ahead) in said.chart.iter_mut().zip(&outlook.chart) {
            assert_eq!(ahead.capacity_planned, None);
            day.capacity_planned = None;
        }
        assert_eq!(said, outlook, "{percent} % a month");
    }
}

#[test]
fn a_lever_that_does_not_pay_claims_no_machines() {
    // Shaping with K1 = 100 %: the shaped run is the baseline (the shaping
    // tests hold it to the baseline exactly), so nothing waits less and
    // the lever cannot pay; it must then claim no machines, whatever the
    // cell's allocation figures (the row's sentence keeps them).
    let shaping = crate::shaping::Params {
        hosts: 12,
        predictor: crate::shaping::Predictor::Oracle,
        k1: 1.0,
        k2: 0.0,
        workload: crate::shaping::GeneratorParams {
            apps: 120,
            ..crate::shaping::GeneratorParams::default()
        },
        ..crate::shaping::Params::default()
    };
    let inputs = LeverInputs {
        shaping: Some(shaping),
        ..LeverInputs::default()
    };
    let params = monthly(15.0, 90, 3);
    let mut planner = Planner::new(demand_with(Some(agenda_demand(20.0)), None));
    for kind in [LeverKind::Shaping, LeverKind::Reservations] {
        let lever = planner.lever(kind, &params, &inputs).unwrap();
        if kind == LeverKind::Shaping {
            assert!(!lever.pays, "{lever:?}");
        }
        if !lever.pays {
            assert_eq!(lever.machines, None, "{lever:?}");
        }
    }
}

#[test]
fn the_shaping_lever_asked_a_cell_at_a_time_is_the_whole_lever() {
    // The studio's worker asks the shaping lever a simulated cell a call,
    // like the reservations lever's optimizer runs: asked until it
    // answers, it is the row measured in one call, each cell run once,
    // and it pays only where every workload is faster and gives cores
    // back.
    let shaping = crate::shaping::Params {
        hosts: 12,
        predictor: crate::shaping::Predictor::Oracle,
        workload: crate::shaping::GeneratorParams {
            apps: 120,
            ..crate::shaping::GeneratorParams::default()
        },
        ..crate::shaping::Params::default()
    };
    let inputs = LeverInputs {
        shaping: Some(shaping.clone()),
        ..LeverInputs::default()
    };
    let params = monthly(15.0, 90, 3);
    let demand = demand_with(Some(agenda_demand(20.0)), None);
    let mut whole = Planner::new(demand.clone());
    let expected = whole.lever(LeverKind::Shaping, &params, &inputs).unwrap();
    let mut stepped = Planner::new(demand);
    let mut calls = 0;
    let got = loop {
        calls += 1;
        assert!(calls <= 10, "no answer");
        if let Some(l) = stepped
            .lever_within(LeverKind::Shaping, &params, &inputs, 1)
            .unwrap()
        {
            break l;
        }
    };
    assert_eq!(got, expected);
    assert_eq!(calls, SHAPING_SEEDS as usize, "one cell a call");
    assert_eq!(stepped.shaped, whole.shaped, "the same cells");
    let again = stepped
        .lever_within(LeverKind::Shaping, &params, &inputs, 0)
        .unwrap();
    assert_eq!(again, Some(expected.clone()), "kept cells, no run");
    let seeds: Vec<u64> = whole.shaped.iter().map(|(p, _)| p.workload.seed).collect();
    let s = shaping.workload.seed;
    assert_eq!(seeds, [s, s + 1, s + 2]);
    let every = whole
        .shaped
        .iter()
        .all(|(_, r)| r.turnaround_speedup > 1.0 && r.reclaimed_cpu_pct > 0.0);
    assert_eq!(expected.pays, every, "{expected:?}");
    assert_eq!(expected.machines.is_some(), every);
}
