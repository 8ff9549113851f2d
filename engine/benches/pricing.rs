//! Price–deadline curve against a queue of 1,000 jobs (MRM §4.2, eq. 13):
//! 40 deadlines; the lazy schedule is built once and indexed by prefix sums.

use skyplan_engine::fixtures::Rng;
use skyplan_engine::pricing::{quote, PriceFunction, PriceParams, QueuedJob, Slots};
use std::time::Instant;

fn main() {
    let slots = Slots {
        map: 64.0,
        reduce: 32.0,
    };
    let mut rng = Rng::new(5);
    let mut t = 0.0;
    let queue: Vec<QueuedJob> = (0..1000)
        .map(|i| {
            let (m, r) = (rng.uniform(200.0, 6000.0), rng.uniform(50.0, 2000.0));
            t += (m / slots.map + r / slots.reduce) * 1.3;
            QueuedJob {
                name: format!("j{i}"),
                map_work: m,
                reduce_work: r,
                deadline: t.ceil(),
            }
        })
        .collect();
    let mean = queue
        .iter()
        .map(|q| q.map_work / slots.map + q.reduce_work / slots.reduce)
        .sum::<f64>()
        / 1000.0;
    println!("| price function | queue | points | curve (ms) |");
    println!("| --- | --- | --- | --- |");
    for (name, f) in [
        ("eq. 13", PriceFunction::Mrm { kappa: 1.0 }),
        ("eq. 14", PriceFunction::Exponential { kappa: 2.0 }),
        ("eq. 16", PriceFunction::LoadAware),
    ] {
        let params = PriceParams {
            function: f,
            mean_job_secs: mean,
            ..PriceParams::default()
        };
        let mut times = Vec::new();
        for _ in 0..5 {
            let s = Instant::now();
            let q = quote(&queue, slots, 3000.0, 800.0, &params).expect("quote");
            times.push(s.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(q.curve.len(), 40);
        }
        times.sort_by(f64::total_cmp);
        println!("| {name} | 1,000 jobs | 40 | {:.1} |", times[2]);
    }
}
