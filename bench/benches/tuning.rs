//! AdaptiveConfig's search natively: the group-level search of one group
//! (Fair, 4 queues, the 27-point grid; exhaustive and RRS with p = 0.99,
//! γ = 0.5, 488 draws) and Algorithm 3 against m and r_sum up to §4.5's
//! 500 groups on 12,000 nodes × 4 containers, as written (`O(m·r_sum²)`)
//! and bounded (`O(m·r_sum·span)`).
//!
//! `cargo bench -p skyplan-bench --bench tuning [-- --quick]` prints
//! markdown tables (`--quick` skips Algorithm 3 as written at m ≥ 250).

use skyplan_bench::data::{measure_cluster_dp, GroupSearch, GROUP_SEARCH_SIZES};

mod common;

fn main() {
    let quick = common::Args::from_env().flag("--quick");
    let mut now = common::clock();

    println!("| group search (Fair, 4 queues, 27 points) | jobs | containers | evaluations | ms (median of 5) |");
    println!("| --- | --- | --- | --- | --- |");
    let search = GroupSearch::paper();
    let mut group_ms = 0.0;
    for (jobs, containers) in GROUP_SEARCH_SIZES {
        let t = search.measure(jobs, containers, &mut now);
        println!(
            "| exhaustive | {jobs} | {containers} | {} | {:.2} |",
            t.exhaustive_evaluations, t.exhaustive_ms
        );
        println!(
            "| RRS (488 draws) | {jobs} | {containers} | {} | {:.2} |",
            t.rrs_evaluations, t.rrs_ms
        );
        if jobs == 50 {
            group_ms = t.rrs_ms;
        }
    }

    println!();
    println!(
        "| Algorithm 3 | m | nodes × 4 | R | r_Alloc = r_sum | as written (ms) | bounded (ms) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let mut dp500 = 0.0;
    for m in [10usize, 50, 100, 250, 500] {
        let written_reps = if quick && m >= 250 {
            None
        } else {
            Some(if m >= 250 { 1 } else { 3 })
        };
        let t = measure_cluster_dp(m, written_reps, &mut now);
        if m == 500 {
            dp500 = t.bounded_ms;
        }
        println!(
            "| | {m} | {} | {} | {} | {} | {:.2} |",
            t.total / 4,
            t.total,
            t.r_sum,
            t.written_ms.map_or("–".into(), |w| format!("{w:.1}")),
            t.bounded_ms
        );
    }
    println!();
    println!(
        "group search (50 jobs, RRS) + Algorithm 3 bounded at 500 groups: {:.1} ms (goal < 500 ms in the browser)",
        group_ms + dp500
    );
}
