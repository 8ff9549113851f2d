//! AdaptiveConfig's search natively: the group-level search of one group
//! (Fair, 4 queues, the 27-point grid; exhaustive and RRS with p = 0.99,
//! γ = 0.5, 488 draws) and Algorithm 3 against m and r_sum up to §4.5's
//! 500 groups on 12,000 nodes × 4 containers, as written (`O(m·r_sum²)`)
//! and bounded (`O(m·r_sum·span)`).
//!
//! `cargo bench -p skyplan-engine --bench tuning [-- --quick]` prints
//! markdown tables (`--quick` skips Algorithm 3 as written at m ≥ 250).

use skyplan_engine::bench_data::{median_ms, tuning_curves, tuning_group};
use skyplan_engine::tuning::{
    cluster_dp, exhaustive, rrs, Cluster, ConstraintRule, DpVariant, ExecRule, RrsParams, RuleSet,
    SchedulerKind, SearchSpace,
};
use std::time::Instant;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let start = Instant::now();
    let mut now = || start.elapsed().as_secs_f64() * 1000.0;

    println!("| group search (Fair, 4 queues, 27 points) | jobs | containers | evaluations | ms (median of 5) |");
    println!("| --- | --- | --- | --- | --- |");
    let space = SearchSpace::paper(SchedulerKind::Fair, 4).expect("grid");
    let rules = RuleSet::for_config(
        &space.config(&space.grid()[0]),
        ConstraintRule::LimitsAndPlacement,
        ExecRule::Algorithm2,
    );
    let mut group_ms = 0.0;
    for (jobs, containers) in [(20, 8), (50, 16), (200, 48)] {
        let group = tuning_group(jobs, 11);
        let cluster = Cluster::of(containers, 4);
        let mut evals = 0;
        let ex = median_ms(5, &mut now, &mut || {
            evals = exhaustive(&group, &cluster, &space, rules, &mut |_, _| {})
                .expect("search")
                .candidates
                .len();
        });
        println!("| exhaustive | {jobs} | {containers} | {evals} | {ex:.2} |");
        let r = median_ms(5, &mut now, &mut || {
            evals = rrs(
                &group,
                &cluster,
                &space,
                rules,
                &RrsParams::default(),
                &mut |_, _| {},
            )
            .expect("search")
            .candidates
            .len();
        });
        println!("| RRS (488 draws) | {jobs} | {containers} | {evals} | {r:.2} |");
        if jobs == 50 {
            group_ms = r;
        }
    }

    println!();
    println!(
        "| Algorithm 3 | m | nodes × 4 | R | r_Alloc = r_sum | as written (ms) | bounded (ms) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let (lower, span) = (80u32, 16u32);
    let mut dp500 = 0.0;
    for m in [10usize, 50, 100, 250, 500] {
        let curves = tuning_curves(m, lower, span, 3);
        let total = m as u32 * (lower + span);
        let mut r_sum = 0;
        let written = if quick && m >= 250 {
            None
        } else {
            Some(median_ms(
                if m >= 250 { 1 } else { 3 },
                &mut now,
                &mut || {
                    r_sum = cluster_dp(&curves, total, DpVariant::AsWritten, false)
                        .expect("dp")
                        .r_sum;
                },
            ))
        };
        let bounded = median_ms(5, &mut now, &mut || {
            r_sum = cluster_dp(&curves, total, DpVariant::Bounded, false)
                .expect("dp")
                .r_sum;
        });
        if m == 500 {
            dp500 = bounded;
        }
        println!(
            "| | {m} | {} | {total} | {r_sum} | {} | {bounded:.2} |",
            total / 4,
            written.map_or("–".into(), |w| format!("{w:.1}"))
        );
    }
    println!();
    println!(
        "group search (50 jobs, RRS) + Algorithm 3 bounded at 500 groups: {:.1} ms (goal < 500 ms in the browser)",
        group_ms + dp500
    );
}
