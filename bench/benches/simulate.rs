//! MRM §6.3's simulation natively: wall time and peak memory of one
//! `pricing::simulate` (MRM, FCFS and priority on the same jobs) at the
//! paper's 500,000 jobs, then the figures BENCHMARKS.md sets next to the
//! paper's Tables 5–8 (α ∈ {2, 1.5, 1.1}, κ = 2, 50/100/200 s) and
//! Figure 9 (α = κ = 2, 40/44/50/100/200 s) and Figure 10's purchasing
//! powers at 40 s.
//!
//! `cargo bench -p skyplan-bench --bench simulate [-- --jobs N --seed S
//! --timing-only]` prints markdown tables. Peak memory is the process's
//! `VmHWM` (Linux), read after each run.

use skyplan_engine::pricing::{
    simulate, Arrivals, ByClass, Policy, PolicyReport, SimParams, SimReport, Summary,
};
use std::time::Instant;

mod common;

fn params(jobs: usize, seed: u64, gap: f64, alpha: f64) -> SimParams {
    with_kappa(jobs, seed, gap, alpha, 2.0)
}

fn with_kappa(jobs: usize, seed: u64, gap: f64, alpha: f64, kappa: f64) -> SimParams {
    SimParams {
        jobs,
        seed,
        alpha,
        kappa,
        arrivals: Arrivals::Poisson {
            mean_interarrival_secs: gap,
        },
        ..SimParams::default()
    }
}

fn policy(r: &SimReport, p: Policy) -> &PolicyReport {
    r.policies.iter().find(|x| x.policy == p).expect("policy")
}

fn f(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |v| format!("{v:.digits$}"))
}

fn med_p95(s: &ByClass<Option<Summary>>, ds: bool, digits: usize) -> (String, String) {
    let s = if ds { s.ds } else { s.dt };
    (f(s.map(|s| s.p50), digits), f(s.map(|s| s.p95), digits))
}

fn main() {
    let args = common::Args::from_env();
    let jobs: usize = args.value("--jobs").unwrap_or(500_000);
    let seed: u64 = args.value("--seed").unwrap_or(1);

    println!("| jobs | inter-arrival (s) | load | simulate, 3 policies (s) | peak RSS (MiB) |");
    println!("| ---: | ---: | ---: | ---: | ---: |");
    let mut cache = Vec::new();
    for gap in [40.0, 50.0, 100.0, 200.0] {
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..3 {
            let t = Instant::now();
            let r = simulate(&params(jobs, seed, gap, 2.0)).expect("simulate");
            times.push(t.elapsed().as_secs_f64());
            last = Some(r);
        }
        times.sort_by(f64::total_cmp);
        let r = last.expect("ran");
        println!(
            "| {} | {gap:.0} | {} | {:.2} | {} |",
            r.jobs,
            f(r.load, 3),
            times[1],
            common::peak_rss_mib().map_or("–".into(), |m| format!("{m:.0}"))
        );
        cache.push((gap, 2.0, r));
    }
    if args.flag("--timing-only") {
        return;
    }

    let mut get = |gap: f64, alpha: f64| -> SimReport {
        if let Some((_, _, r)) = cache.iter().find(|(g, a, _)| *g == gap && *a == alpha) {
            return r.clone();
        }
        let r = simulate(&params(jobs, seed, gap, alpha)).expect("simulate");
        cache.push((gap, alpha, r.clone()));
        r
    };

    println!();
    println!("MRM, κ = 2: tardy %, slack (s) and premium by class (median / 95th)");
    println!();
    println!("| α | load (s) | tardy % | DS slack | DT slack | DS premium | DT premium | DS jumped ahead % | of those that saw a DT job % |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for alpha in [2.0, 1.5, 1.1] {
        for gap in [50.0, 100.0, 200.0] {
            let r = get(gap, alpha);
            let m = policy(&r, Policy::Mrm);
            let pr = m.pricing.expect("MRM prices");
            let (dss, dss95) = med_p95(&pr.slack, true, 1);
            let (dts, dts95) = med_p95(&pr.slack, false, 1);
            let (dsp, dsp95) = med_p95(&pr.premium, true, 2);
            let (dtp, dtp95) = med_p95(&pr.premium, false, 2);
            println!(
                "| {alpha} | {gap:.0} | {} | {dss} / {dss95} | {dts} / {dts95} | {dsp} / {dsp95} | {dtp} / {dtp95} | {} | {} |",
                f(m.tardy_percent.all, 2),
                f(m.jumped_ahead_percent, 1),
                f(m.jumped_ahead_of_those_percent, 1),
            );
        }
    }

    println!();
    println!("Figure 9, α = κ = 2: DS waiting (s) mean [p5, p95], tardy % (DS / DT), median earliness (s)");
    println!();
    println!("| inter-arrival (s) | load | policy | DS wait mean [p5, p95] | tardy % DS / DT / all | earliness median | DS jumped ahead % | of those that saw a DT job % |");
    println!("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    for gap in [40.0, 44.0, 50.0, 100.0, 200.0] {
        let r = get(gap, 2.0);
        for p in Policy::ALL {
            let m = policy(&r, p);
            let w = m.waiting.ds.expect("DS jobs");
            println!(
                "| {gap:.0} | {} | {} | {:.1} [{:.1}, {:.1}] | {} / {} / {} | {} | {} | {} |",
                f(r.load, 3),
                p.name(),
                w.mean,
                w.p5,
                w.p95,
                f(m.tardy_percent.ds, 2),
                f(m.tardy_percent.dt, 2),
                f(m.tardy_percent.all, 2),
                f(m.earliness.all.map(|s| s.p50), 1),
                f(m.jumped_ahead_percent, 1),
                f(m.jumped_ahead_of_those_percent, 1),
            );
        }
    }

    println!();
    println!("Purchasing power at 40 s (Fig. 10): MRM against FCFS's DS waiting");
    println!();
    println!("| α | κ | MRM DS wait mean (s) | FCFS DS wait mean (s) | MRM tardy % | MRM earliness median (s) | DS slack median (s) | DT slack median (s) | DS jumped ahead % | of those that saw a DT job % |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (alpha, kappa) in [(2.0, 2.0), (5.0, 2.0), (10.0, 2.0), (5.0, 4.0)] {
        let r = simulate(&with_kappa(jobs, seed, 40.0, alpha, kappa)).expect("simulate");
        let m = policy(&r, Policy::Mrm);
        let fc = policy(&r, Policy::Fcfs);
        let pr = m.pricing.expect("MRM prices");
        println!(
            "| {alpha} | {kappa} | {:.1} | {:.1} | {} | {} | {} | {} | {} | {} |",
            m.waiting.ds.expect("DS").mean,
            fc.waiting.ds.expect("DS").mean,
            f(m.tardy_percent.all, 2),
            f(m.earliness.all.map(|s| s.p50), 1),
            f(pr.slack.ds.map(|s| s.p50), 1),
            f(pr.slack.dt.map(|s| s.p50), 1),
            f(m.jumped_ahead_percent, 1),
            f(m.jumped_ahead_of_those_percent, 1),
        );
    }

    variant(
        "Eq. (13) charging the job in service too (`charge_in_service`), α = κ = 2",
        jobs,
        seed,
        |p| SimParams {
            charge_in_service: true,
            ..p
        },
    );
    let gamma = simulate(&params(1000, seed, 50.0, 2.0))
        .expect("simulate")
        .mean_job_secs;
    variant(
        &format!("Eq. (13)'s charge weighted 1/γ (`charge_weight` = 1/{gamma:.1}), α = κ = 2"),
        jobs,
        seed,
        |p| SimParams {
            charge_weight: 1.0 / gamma,
            ..p
        },
    );
}

/// One MRM variant at α = κ = 2 across the loads, against FCFS.
fn variant(title: &str, jobs: usize, seed: u64, change: impl Fn(SimParams) -> SimParams) {
    println!();
    println!("{title}");
    println!();
    println!("| load (s) | tardy % | DS slack | DT slack | DS wait mean (s) | FCFS DS wait mean (s) | DS jumped ahead % | of those that saw a DT job % |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for gap in [40.0, 44.0, 50.0, 100.0, 200.0] {
        let r = simulate(&change(params(jobs, seed, gap, 2.0))).expect("simulate");
        let m = policy(&r, Policy::Mrm);
        let pr = m.pricing.expect("MRM prices");
        let (dss, dss95) = med_p95(&pr.slack, true, 1);
        let (dts, dts95) = med_p95(&pr.slack, false, 1);
        println!(
            "| {gap:.0} | {} | {dss} / {dss95} | {dts} / {dts95} | {:.1} | {:.1} | {} | {} |",
            f(m.tardy_percent.all, 2),
            m.waiting.ds.expect("DS").mean,
            policy(&r, Policy::Fcfs).waiting.ds.expect("DS").mean,
            f(m.jumped_ahead_percent, 1),
            f(m.jumped_ahead_of_those_percent, 1),
        );
    }
}
