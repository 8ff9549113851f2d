//! Agenda tests: LowCost's properties (contiguity, gangs, windows, work
//! conservation, multi-instance costs, incrementality), each interpreter,
//! the baselines on hand-checked cases (YARN's own in `greedy_tests`),
//! bounds, moves and rejections.

use super::*;
use crate::model::ContainerSize;

const ONE: ContainerSize = ContainerSize {
    cores: 1.0,
    memory_mb: 1024.0,
};

fn plan(cores: f64) -> Plan {
    Plan::new(
        AgendaParams {
            period_secs: 86_400,
            step_secs: 60,
            ..AgendaParams::default()
        },
        vec![Capacity {
            cores,
            memory_mb: cores * 4096.0,
        }],
    )
    .unwrap()
}

fn job(name: &str, rec: Recurrence, window_min: (i64, i64), sky: &[f64]) -> ReservationRequest {
    ReservationRequest::from_skyline(
        name,
        rec,
        (window_min.0 * 60, window_min.1 * 60),
        ONE,
        sky,
        60,
        1.0,
    )
}

const DAILY: Recurrence = Recurrence::Periodic {
    period_secs: 86_400,
};
const HOURLY: Recurrence = Recurrence::Periodic { period_secs: 3_600 };

fn work(r: &Reservation) -> f64 {
    r.alloc.iter().sum()
}

#[test]
fn lowcost_keeps_work_window_contiguity_and_parallelism() {
    let mut p = plan(100.0);
    let req = job("etl", DAILY, (60, 180), &[10.0, 40.0, 40.0, 20.0, 5.0]);
    let (id, _) = p.admit(req.clone(), Method::LowCost).unwrap();
    let r = p.reservation(id).unwrap();
    assert!((work(r) - 115.0).abs() < 1e-9, "work {}", work(r));
    assert!(
        r.start >= 60 && r.start + r.alloc.len() <= 180,
        "{} {}",
        r.start,
        r.alloc.len()
    );
    assert!(
        r.alloc.iter().all(|&c| c > 0.0),
        "contiguous: {:?}",
        r.alloc
    );
    assert!(r.alloc.iter().all(|&c| c <= 40.0 + 1e-9));
    // Alone on an empty plan the work is spread thin: the peak is below the
    // skyline's own peak of 40 containers.
    assert!(p.peak() < 0.4, "{} {:?}", p.peak(), r.alloc);
}

#[test]
fn lowcost_balances_where_greedy_stacks() {
    let reqs: Vec<ReservationRequest> = (0..4)
        .map(|i| job(&format!("j{i}"), DAILY, (0, 120), &[30.0, 30.0]))
        .collect();
    let mut low = plan(100.0);
    let mut greedy = plan(100.0);
    for r in &reqs {
        low.admit(r.clone(), Method::LowCost).unwrap();
        greedy.admit(r.clone(), Method::Greedy).unwrap();
    }
    // Greedy (YARN's agent): every job as late as possible, stacked until
    // capacity forces the rest left, container by container: the fourth
    // job's last stage fills steps 118–119 to capacity and puts its last 10
    // containers at 117, its first stage goes to 116.
    let g = greedy.reservations();
    assert_eq!((g[0].start, g[0].alloc.clone()), (118, vec![30.0, 30.0]));
    assert_eq!(
        (g[3].start, g[3].alloc.clone()),
        (116, vec![30.0, 10.0, 10.0, 10.0])
    );
    assert!((greedy.peak() - 1.0).abs() < 1e-9);
    // LowCost spreads 240 container-steps over the window.
    assert!(low.peak() < 0.35, "LowCost peak {}", low.peak());
    let b = lower_bounds(&low, &reqs, 10_000);
    assert!(low.peak() >= b.best - 1e-9);
    assert!((b.lp.unwrap() - 0.02).abs() < 1e-6, "{:?}", b);
}

#[test]
fn earliest_first_and_greedy_by_hand() {
    let mut p = plan(10.0);
    let req = job("x", DAILY, (0, 10), &[2.0, 2.0, 2.0]);
    let (id, _) = p.admit(req.clone(), Method::EarliestFirst).unwrap();
    assert_eq!(p.reservation(id).unwrap().start, 0);
    let (id, _) = p.admit(req, Method::Greedy).unwrap();
    assert_eq!(p.reservation(id).unwrap().start, 7);
    // A full step pushes greedy left.
    let mut p = plan(10.0);
    p.admit(job("wall", DAILY, (9, 10), &[10.0]), Method::Greedy)
        .unwrap();
    let (id, _) = p
        .admit(job("y", DAILY, (0, 10), &[2.0, 2.0]), Method::Greedy)
        .unwrap();
    assert_eq!(p.reservation(id).unwrap().start, 7);
}

#[test]
fn multiple_instances_see_the_max_cost_over_instances() {
    let mut p = plan(100.0);
    // A daily job busy 10:00–10:29 at 80 cores.
    p.admit(job("daily", DAILY, (600, 630), &[80.0; 30]), Method::Greedy)
        .unwrap();
    // An hourly job (30 container-minutes, window the whole hour) must avoid
    // minutes 0–29 of every hour, since its 10:00 instance would collide.
    let (id, _) = p
        .admit(
            job("hourly", HOURLY, (0, 60), &[10.0, 10.0, 10.0]),
            Method::LowCost,
        )
        .unwrap();
    let r = p.reservation(id).unwrap();
    assert_eq!(r.instances, 24);
    assert!(r.start >= 30, "start {}", r.start);
    assert!((work(r) - 30.0).abs() < 1e-9);
    // All 24 instances are in the plan's load.
    let load = p.load();
    assert!((load[r.start + 600][0] - r.alloc[0]).abs() < 1e-9);
    assert!(p.peak() <= 0.8 + 1e-9);
}

#[test]
fn gangs_are_respected() {
    let mut p = plan(100.0);
    let req = ReservationRequest {
        stages: vec![Stage {
            demand: 8.0 * 60.0 * 3.0,
            max_parallelism: 8.0,
            gang: 4.0,
        }],
        ..job("g", DAILY, (0, 100), &[1.0])
    };
    let (id, _) = p.admit(req, Method::LowCost).unwrap();
    let r = p.reservation(id).unwrap();
    assert!(
        r.alloc
            .iter()
            .all(|&c| (4.0 - 1e-9..=8.0 + 1e-9).contains(&c)),
        "{:?}",
        r.alloc
    );
    assert!((work(r) - 24.0).abs() < 1e-9);
}

#[test]
fn rejections_name_the_step_and_resource() {
    let mut p = plan(10.0);
    let too_big = ReservationRequest {
        stages: vec![Stage {
            demand: 12.0 * 60.0,
            max_parallelism: 12.0,
            gang: 12.0,
        }],
        ..job("big", DAILY, (0, 100), &[1.0])
    };
    let rej = p.admit(too_big, Method::LowCost).unwrap_err();
    assert_eq!(rej.resource.as_deref(), Some("cores"));
    assert!(rej.step.is_some(), "{rej:?}");
    let narrow = job("narrow", DAILY, (0, 2), &[5.0, 5.0, 5.0]);
    let rej = p.admit(narrow, Method::LowCost).unwrap_err();
    assert!(rej.reason.contains("window has 2 steps"), "{}", rej.reason);
    let odd = job(
        "odd",
        Recurrence::Periodic {
            period_secs: 7 * 60,
        },
        (0, 5),
        &[1.0],
    );
    let rej = p.admit(odd, Method::LowCost).unwrap_err();
    assert!(rej.reason.contains("does not divide"), "{}", rej.reason);
}

#[test]
fn admitted_reservations_never_move() {
    let mut p = plan(50.0);
    for i in 0..6 {
        p.admit(
            job(
                &format!("a{i}"),
                DAILY,
                (i * 30, i * 30 + 200),
                &[20.0, 30.0, 10.0],
            ),
            Method::LowCost,
        )
        .unwrap();
    }
    let before: Vec<Reservation> = p.reservations().to_vec();
    p.admit(job("late", DAILY, (0, 400), &[25.0; 6]), Method::LowCost)
        .unwrap();
    assert_eq!(&p.reservations()[..6], &before[..]);
    let load = p.load();
    assert!(load.iter().all(|l| l[0] <= 50.0 + 1e-9));
}

#[test]
fn interpreters() {
    // R_ANY: only the cheaper stage is placed.
    let mut p = plan(100.0);
    let any = ReservationRequest {
        interpreter: Interpreter::RAny,
        stages: vec![
            Stage {
                demand: 50.0 * 60.0,
                max_parallelism: 50.0,
                gang: 50.0,
            },
            Stage {
                demand: 5.0 * 60.0,
                max_parallelism: 5.0,
                gang: 1.0,
            },
        ],
        ..job("any", DAILY, (0, 60), &[1.0])
    };
    let (id, _) = p.admit(any, Method::LowCost).unwrap();
    assert!((work(p.reservation(id).unwrap()) - 5.0).abs() < 1e-9);
    // R_ALL: both stages, possibly at the same steps.
    let all = ReservationRequest {
        interpreter: Interpreter::RAll,
        stages: vec![
            Stage {
                demand: 10.0 * 60.0,
                max_parallelism: 10.0,
                gang: 10.0,
            },
            Stage {
                demand: 10.0 * 60.0,
                max_parallelism: 10.0,
                gang: 10.0,
            },
        ],
        ..job("all", DAILY, (100, 102), &[1.0])
    };
    let (id, _) = p.admit(all, Method::LowCost).unwrap();
    assert!((work(p.reservation(id).unwrap()) - 20.0).abs() < 1e-9);
    // R_ORDER: stage 1 after stage 0, a gap allowed; R_ORDER_NO_GAP: none.
    let mut q = plan(100.0);
    q.admit(job("wall", DAILY, (205, 206), &[95.0]), Method::Greedy)
        .unwrap();
    let two = |interp| ReservationRequest {
        interpreter: interp,
        stages: vec![
            Stage {
                demand: 20.0 * 60.0,
                max_parallelism: 20.0,
                gang: 20.0,
            },
            Stage {
                demand: 20.0 * 60.0,
                max_parallelism: 20.0,
                gang: 20.0,
            },
        ],
        ..job("two", DAILY, (200, 210), &[1.0])
    };
    let (id, _) = q.admit(two(Interpreter::ROrder), Method::LowCost).unwrap();
    let r = q.reservation(id).unwrap();
    assert!((work(r) - 40.0).abs() < 1e-9);
    assert!(r.alloc.iter().all(|&c| c == 0.0 || c >= 20.0 - 1e-9));
    let (id, _) = q
        .admit(two(Interpreter::ROrderNoGap), Method::LowCost)
        .unwrap();
    let r = q.reservation(id).unwrap();
    assert!(r.alloc.iter().all(|&c| c > 0.0), "no gap: {:?}", r.alloc);
}

#[test]
fn moves_are_previewed_and_checked() {
    let mut p = plan(40.0);
    let (a, _) = p
        .admit(
            job("a", DAILY, (0, 100), &[30.0, 30.0]),
            Method::EarliestFirst,
        )
        .unwrap();
    let (b, _) = p
        .admit(job("b", DAILY, (0, 100), &[30.0, 30.0]), Method::Greedy)
        .unwrap();
    assert!((p.peak() - 0.75).abs() < 1e-9);
    let rb = p.reservation(b).unwrap().clone();
    // Onto `a`: over capacity.
    let pv = p.preview_move(b, 0).unwrap();
    assert!(
        !pv.feasible && pv.reason.as_ref().unwrap().contains("cores over capacity"),
        "{pv:?}"
    );
    // Outside the window.
    let pv = p.preview_move(b, 99).unwrap();
    assert!(
        !pv.feasible && pv.reason.as_ref().unwrap().contains("window"),
        "{pv:?}"
    );
    // A valid move keeps the peak and is committed.
    assert_eq!(rb.start, 98);
    let target = 50;
    let pv = p.move_to(b, target).unwrap();
    assert!(pv.feasible);
    assert_eq!(p.reservation(b).unwrap().start, target);
    assert!((p.peak() - 0.75).abs() < 1e-9);
    assert_eq!(p.reservation(a).unwrap().start, 0);
    assert_eq!(
        p.preview_move(999, 0),
        Err(AgendaError::NoSuchReservation(999))
    );
}

#[test]
fn one_offs_yield_to_periodic_reservations() {
    let mut p = plan(10.0);
    let (o, _) = p
        .admit(
            job("adhoc", Recurrence::OneOff, (0, 5), &[8.0, 8.0]),
            Method::EarliestFirst,
        )
        .unwrap();
    assert_eq!(p.reservation(o).unwrap().start, 0);
    // A periodic job takes steps 0–1 at full capacity: the one-off moves.
    let (_, displaced) = p
        .admit(job("prod", DAILY, (0, 2), &[10.0, 10.0]), Method::Greedy)
        .unwrap();
    assert!(displaced.is_empty());
    let r = p.reservation(o).unwrap();
    assert!(r.start >= 2, "{r:?}");
    // Another fills the rest of the one-off's window: it is displaced.
    let (_, displaced) = p
        .admit(
            job("prod2", DAILY, (2, 5), &[10.0, 10.0, 10.0]),
            Method::Greedy,
        )
        .unwrap();
    assert_eq!(displaced.len(), 1);
    assert!(
        displaced[0].reason.contains("displaced"),
        "{:?}",
        displaced[0]
    );
    assert!(p.reservation(o).is_none());
}

#[test]
fn parameters_are_validated() {
    let cap = vec![Capacity {
        cores: 1.0,
        memory_mb: 1.0,
    }];
    for bad in [
        AgendaParams {
            step_secs: 0,
            ..AgendaParams::default()
        },
        AgendaParams {
            period_secs: 1000,
            step_secs: 60,
            ..AgendaParams::default()
        },
        AgendaParams {
            end_points: 0,
            ..AgendaParams::default()
        },
        AgendaParams {
            alignment_weight: f64::NAN,
            ..AgendaParams::default()
        },
    ] {
        assert!(Plan::new(bad, cap.clone()).is_err());
    }
    assert!(Plan::new(
        AgendaParams::default(),
        vec![Capacity {
            cores: 0.0,
            memory_mb: 1.0
        }]
    )
    .is_err());
    assert!(Plan::new(AgendaParams::default(), vec![]).is_err());
}
