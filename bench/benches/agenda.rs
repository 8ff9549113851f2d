//! Agenda benchmarks (Morpheus §6): placing 1,000 periodic jobs (10–60-step
//! skylines, hourly and daily) on a one-day LCM at one-minute resolution
//! with LowCost and the baselines (YARN's greedy agent both ways), what each
//! admits on clusters too small for all of them, and the live update while
//! dragging (a move preview on the full plan).

use skyplan_bench::data::{agenda_capacity, agenda_requests};
use skyplan_engine::agenda::{lower_bounds, AgendaParams, Capacity, Method, Plan, Recurrence};
use std::time::Instant;

fn main() {
    let requests = agenda_requests(1000, 7);
    let capacity = agenda_capacity();
    println!("| method | 1,000 jobs placed (ms) | admitted | peak cost | bound | peak / bound |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut low_plan = None;
    for method in [Method::LowCost, Method::Greedy, Method::EarliestFirst] {
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..3 {
            let mut plan = Plan::new(AgendaParams::default(), capacity.clone()).expect("plan");
            let t = Instant::now();
            let mut admitted = 0;
            for r in &requests {
                if plan.admit(r.clone(), method).is_ok() {
                    admitted += 1;
                }
            }
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            last = Some((plan, admitted));
        }
        times.sort_by(f64::total_cmp);
        let (plan, admitted) = last.expect("ran");
        let b = lower_bounds(&plan, &requests, 0);
        println!(
            "| {method:?} | {:.0} | {admitted} | {:.4} | {:.4} | {:.2} |",
            times[1],
            plan.peak(),
            b.best,
            plan.peak() / b.best
        );
        if method == Method::LowCost {
            low_plan = Some(plan);
        }
    }
    // The same requests on clusters too small for all of them: what each
    // method admits, in order, and the share of the day's work that is.
    let day_work = |rs: &[&skyplan_engine::agenda::ReservationRequest]| -> f64 {
        rs.iter()
            .map(|r| {
                let per_day = match r.recurrence {
                    Recurrence::Periodic { period_secs } => 86_400 / period_secs,
                    Recurrence::OneOff => 1,
                };
                r.total_demand() * per_day as f64
            })
            .sum()
    };
    let all: Vec<_> = requests.iter().collect();
    println!("\n| cores | method | admitted | work admitted | peak cost |");
    println!("| --- | --- | --- | --- | --- |");
    for cores in [2000.0, 1500.0, 1250.0] {
        for method in [Method::LowCost, Method::Greedy, Method::EarliestFirst] {
            let cap = vec![Capacity {
                cores,
                memory_mb: cores * 4096.0,
            }];
            let mut plan = Plan::new(AgendaParams::default(), cap).expect("plan");
            let mut placed = Vec::new();
            for r in &requests {
                if plan.admit(r.clone(), method).is_ok() {
                    placed.push(r);
                }
            }
            println!(
                "| {cores:.0} | {method:?} | {} | {:.1} % | {:.4} |",
                placed.len(),
                100.0 * day_work(&placed) / day_work(&all),
                plan.peak()
            );
        }
    }

    let plan = low_plan.expect("LowCost plan");
    let ids: Vec<(u32, usize, usize)> = plan
        .reservations()
        .iter()
        .map(|r| (r.id, r.window.0, r.window.1 - r.alloc.len()))
        .collect();
    let t = Instant::now();
    let mut n = 0;
    for &(id, lo, hi) in ids.iter().take(200) {
        for s in [lo, (lo + hi) / 2, hi] {
            let _ = plan.preview_move(id, s).expect("preview");
            n += 1;
        }
    }
    println!(
        "\nmove preview on a plan of {} reservations: {:.3} ms each ({n} previews)",
        ids.len(),
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
}
