//! The runway of a workspace bundle, native: the first plan (the demand
//! gathered; its outlook, growth fitted and each limit re-planned at
//! today's size; then the agenda re-planned at each size the purchases
//! reach), a drag of the CPU headroom target and of the growth
//! by hand answered from the kept planner (what the Runway panel does
//! while a slider is held), and each lever at the grown load; then the
//! growth slider's sizes planned ahead on a fresh planner (`Planner::warm`
//! to the slider's 30 % a month, a size a call, as the panel's worker does
//! while idle) and a drag over values not seen after it.
//! `tests/e2e/runway-bench.mjs` times the same in headless Chrome.
//!
//! `target/debug/skyplan bundle -o target/demo.skyplan` (the demo), then
//! `cargo bench -p skyplan-bench --bench runway -- target/demo.skyplan`.

use skyplan_engine::bundle::decode;
use skyplan_engine::runway::{Growth, LeverKind, RunwayParams};
use std::time::Instant;

/// Milliseconds `f` takes, and its answer.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed().as_secs_f64() * 1e3)
}

/// Median, 90th percentile and largest of `ms`.
fn spread(ms: &mut [f64]) -> (f64, f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.9), ms[ms.len() - 1])
}

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .expect("give a bundle: target/demo.skyplan (skyplan bundle -o target/demo.skyplan)");
    let bytes = std::fs::read(&path).expect("the bundle is readable");
    let mut bundle = decode(&path, &bytes).expect("a skyplan bundle");
    bundle.runway = None;
    let params = RunwayParams::default();
    let (mut planner, gather_ms) = timed(|| skyplan_report::runway::planner(&bundle));
    // What the panel shows first (the dates at today's size), then the
    // rest of the first plan on the same planner, as the studio's worker
    // answers a run.
    let (outlook, outlook_ms) = timed(|| planner.outlook(&params));
    outlook.expect("the bundle has a runway");
    let (first, plan_ms) = timed(|| planner.answer(&params));
    let first = first.expect("the bundle has a runway");
    println!("| step | answers | median ms | p90 ms | max ms |");
    println!("|---|---:|---:|---:|---:|");
    println!("| demand gathered | 1 | {gather_ms:.1} | | |");
    println!(
        "| outlook (each limit's dates at today's size, the chart) | 1 | {outlook_ms:.1} | | |"
    );
    println!(
        "| first plan after it ({} machines, binding {}) | 1 | {plan_ms:.1} | | |",
        first.cluster.machines,
        first.binding.as_deref().unwrap_or("none")
    );
    // A drag: every setting answered in turn by the kept planner.
    let mut drag = |name: &str, settings: Vec<RunwayParams>| {
        let mut ms: Vec<f64> = settings
            .iter()
            .map(|p| timed(|| planner.answer(p)).1)
            .collect();
        let (m, p90, max) = spread(&mut ms);
        println!("| {name} | {} | {m:.3} | {p90:.3} | {max:.3} |", ms.len());
    };
    // CPU target 80 → 40 % by 1 %, as a slider dragged.
    let cpu = (0..=40)
        .map(|i| RunwayParams {
            target: 0.8 - 0.01 * f64::from(i),
            ..params.clone()
        })
        .collect();
    drag("CPU target dragged 80 → 40 %", cpu);
    // Growth by hand 0 → 10 % a month by 0.5 %, twice: the first pass
    // re-plans the sizes a higher growth's purchases reach, the second
    // finds them kept.
    let growth: Vec<RunwayParams> = (0..=20)
        .map(|i| RunwayParams {
            growth: Growth::Monthly {
                percent: 0.5 * f64::from(i),
            },
            ..params.clone()
        })
        .collect();
    drag(
        "growth dragged 0 → 10 % a month (first pass)",
        growth.clone(),
    );
    drag("growth dragged over the same values again", growth);
    for kind in LeverKind::ALL {
        let (lever, ms) =
            timed(|| skyplan_report::runway::lever(&bundle, &mut planner, &params, kind));
        let pays = match lever {
            Ok(l) => if l.pays { "pays" } else { "does not pay" }.to_string(),
            Err(e) => e,
        };
        println!("| lever {} ({pays}) | 1 | {ms:.1} | | |", kind.name());
    }
    // A fresh planner, its first plan, then warmed to the growth slider's
    // largest value a call at a time.
    let mut fresh = skyplan_report::runway::planner(&bundle);
    fresh.answer(&params).expect("the bundle has a runway");
    let mut steps: Vec<f64> = Vec::new();
    let mut computed = 0;
    loop {
        let (step, ms) = timed(|| fresh.warm(&params, 30.0));
        let step = step.expect("warmed");
        steps.push(ms);
        computed += step.computed;
        if step.done {
            break;
        }
    }
    let total: f64 = steps.iter().sum();
    let calls = steps.len();
    let (m, p90, max) = spread(&mut steps);
    println!(
        "| warm-up to 30 % a month after the first plan: {computed} sizes, {total:.1} ms in all | {calls} | {m:.3} | {p90:.3} | {max:.3} |"
    );
    let warmed: Vec<RunwayParams> = (0..=19)
        .map(|i| RunwayParams {
            growth: Growth::Monthly {
                percent: 10.5 + 0.5 * f64::from(i),
            },
            ..params.clone()
        })
        .collect();
    let mut ms: Vec<f64> = warmed.iter().map(|p| timed(|| fresh.answer(p)).1).collect();
    let (m, p90, max) = spread(&mut ms);
    println!(
        "| growth dragged 10.5 → 20 % a month (first pass, after the warm-up) | {} | {m:.3} | {p90:.3} | {max:.3} |",
        ms.len()
    );
}
