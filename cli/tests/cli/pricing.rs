//! Pricing: `estimate` (job durations from SWIM or a job history, with
//! evaluation), `simulate-pricing` (MRM against FCFS and Priority) and
//! `quote` (the earliest feasible finish and the price curve).

use crate::common::{skyplan, temp_file, SWIM};

#[test]
fn estimate_from_swim_evaluates_and_writes_a_history() {
    let history = temp_file("history.csv", "");
    let (code, out, err) = skyplan(&[
        "estimate",
        SWIM,
        "--jobs",
        "60",
        "--restarts",
        "0",
        "--evaluate",
        "--write-history",
        &history,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("5894 SWIM samples → 60 history jobs"), "{out}");
    assert!(
        out.contains("evaluation: 30 training jobs, 30 test jobs, 95% PIs"),
        "{out}"
    );
    for method in ["GP", "OLS", "same-job"] {
        assert!(out.contains(&format!("map     {method}")), "{out}");
    }
    assert!(out.contains("R²") && out.contains("PI error %"), "{out}");
    // The history written reads back as a job-history CSV.
    let (code, out, _) = skyplan(&["import", &history]);
    assert_eq!(code, 0);
    assert!(
        out.contains("job-history-csv") && out.contains("60 workload jobs"),
        "{out}"
    );
}

#[test]
fn estimate_a_job_from_a_history_csv() {
    let mut csv = String::from(
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n",
    );
    // Six recurring jobs, etl_k with k + 1 maps of 64 MB each, four runs.
    for i in 0..24u32 {
        let maps = 1 + i % 6;
        let input = f64::from(maps) * 6.4e7;
        let map_secs = 3.0 + 2.0 * f64::from(maps) + 0.1 * f64::from(i % 4);
        let reduce_secs = 5.0 + 0.5 * f64::from(maps) + 0.2 * f64::from(i % 2);
        csv.push_str(&format!(
            "etl_{},{},{maps},2,{input},{},{},{map_secs},{reduce_secs}\n",
            i % 6,
            100 * i,
            input / 2.0,
            input / 10.0
        ));
    }
    let f = temp_file("jobs.csv", &csv);
    let job = [
        "--job",
        "--map-tasks",
        "4",
        "--reduce-tasks",
        "2",
        "--input-bytes",
        "2.56e8",
        "--shuffle-bytes",
        "1.28e8",
        "--output-bytes",
        "2.56e7",
        "--name",
        "etl_3",
    ];
    let mut args = vec!["estimate", &f, "--restarts", "0"];
    args.extend(job);
    let (code, out, err) = skyplan(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("24 finished jobs"), "{out}");
    assert!(out.contains("95% PI (s)"), "{out}");
    assert!(out.contains("4 past runs"), "{out}");
    assert!(out.contains("GP map: ℓ = ["), "{out}");
    args.push("--json");
    let (code, json, _) = skyplan(&args);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let map = &v["estimate"]["phases"][0]["methods"];
    for m in 0..3 {
        let p = &map[m]["prediction"];
        let (lo, mean, hi) = (
            p["lower"].as_f64().unwrap(),
            p["mean"].as_f64().unwrap(),
            p["upper"].as_f64().unwrap(),
        );
        // Map time is 3 + 2·maps = 11 s for 4 maps (+ 0.1 or 0.3).
        assert!(lo <= mean && mean <= hi && (mean - 11.2).abs() < 1.0, "{p}");
    }
    assert_eq!(map[2]["method"], "same-job");
    // Unseen job: the same-job method says why it has no estimate.
    let n = args.len();
    args[n - 2] = "new_job";
    let (code, out, _) = skyplan(&args[..n - 1]);
    assert_eq!(code, 0);
    assert!(
        out.contains("too few past runs of `new_job`: 0 (needs 2)"),
        "{out}"
    );
}

#[test]
fn estimate_errors() {
    let bad = temp_file(
        "bad-history.csv",
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n\
         a,1,2,1,10,5,1,3,4\n\
         b,1,2,1,10,5,1,-3,4\n",
    );
    let (code, _, err) = skyplan(&["estimate", &bad, "--evaluate"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad-history.csv:3:16: map_secs must not be negative"),
        "{err}"
    );
    let (code, _, err) = skyplan(&["estimate", SWIM, "--map-tasks", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --reduce-tasks, --input-bytes"), "{err}");
    let (code, _, err) = skyplan(&["estimate", SWIM]);
    assert_eq!(code, 2);
    assert!(err.contains("--evaluate"), "{err}");
    let (code, _, err) = skyplan(&["estimate", "--evaluate"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skyplan(&["estimate", SWIM, "--evaluate", "--level", "1.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("level"), "{err}");
    let (code, _, err) = skyplan(&["estimate", "fixtures/demo/runs.csv", "--evaluate"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs a job history"), "{err}");
}

#[test]
fn simulate_pricing_compares_the_three_policies() {
    let (code, out, err) = skyplan(&[
        "simulate-pricing",
        "--jobs",
        "3000",
        "--interarrival",
        "50,200",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Table 1 workload"), "{out}");
    assert!(out.contains("inter-arrival 50 s: 3000 jobs"), "{out}");
    assert!(out.contains("inter-arrival 200 s"), "{out}");
    for p in ["MRM", "FCFS", "Priority"] {
        assert_eq!(out.matches(&format!("\n{p} ")).count(), 2, "{p}: {out}");
    }

    // Exact estimates: neither MRM nor FCFS is ever late.
    let (code, out, err) = skyplan(&[
        "simulate-pricing",
        "--jobs",
        "3000",
        "--interarrival",
        "45",
        "--error-share",
        "0",
        "--alpha",
        "1.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let policies = runs[0]["report"]["policies"].as_array().unwrap();
    assert_eq!(policies.len(), 3);
    assert_eq!(policies[0]["policy"], "mrm");
    assert_eq!(policies[0]["tardy_percent"]["all"], 0.0);
    assert_eq!(policies[1]["tardy_percent"]["all"], 0.0);
    assert!(
        policies[0]["pricing"]["slack"]["ds"]["p50"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert_eq!(v["params"]["alpha"], 1.5);
}

#[test]
fn simulate_pricing_reads_durations_from_a_job_history() {
    let f = temp_file(
        "sim-history.csv",
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n\
         a,0,1,0,100,0,10,20,0\n\
         b,10,4,1,400,40,10,30,10\n\
         c,20,1,0,100,0,10,0,0\n",
    );
    let (code, out, err) = skyplan(&[
        "simulate-pricing",
        "--durations",
        &f,
        "--jobs",
        "500",
        "--interarrival",
        "100",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("2 jobs' map + reduce times, mean 30.0 s, 1 without any time left out"),
        "{out}"
    );
    assert!(out.contains("mean processing 3"), "{out}");
}

#[test]
fn simulate_pricing_errors() {
    let (code, _, err) = skyplan(&["simulate-pricing", "--kappa", "0.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("kappa: must be ≥ 1"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--interarrival", "50,x"]);
    assert_eq!(code, 2);
    assert!(err.contains("`x` is not a number"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--interarrival", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("mean_interarrival_secs"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--ds-share", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("ds_share"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--jobs", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("jobs"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--bogus"]);
    assert_eq!(code, 2);
    assert!(err.contains("--bogus"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--durations", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs a job history"), "{err}");
    let (code, _, _) = skyplan(&["simulate-pricing", "--durations", "/nonexistent.csv"]);
    assert_eq!(code, 1);
}

const HISTORY: &str = "fixtures/demo/history.csv";

/// The job of the quote tests: 40 maps, 4 reduces, 2.6 GB in.
const NEW_JOB: [&str; 10] = [
    "--map-tasks",
    "40",
    "--reduce-tasks",
    "4",
    "--input-bytes",
    "2.6e9",
    "--shuffle-bytes",
    "4e9",
    "--output-bytes",
    "1e8",
];

#[test]
fn quote_figure_7_with_given_work() {
    // MRM Figure 7 on one slot: A (10 s) due 70, B (20 s) due 110; C of 80 s
    // finishes at 90, C of 100 s at 130.
    let queue = temp_file(
        "fig7-queue.csv",
        "name,map_work,reduce_work,deadline\nA,10,0,70\nB,20,0,110\n",
    );
    let run = |work: &str| {
        skyplan(&[
            "quote",
            "--map-work",
            work,
            "--map-slots",
            "1",
            "--reduce-slots",
            "1",
            "--queue",
            &queue,
            "--mean-job-secs",
            "60",
            "--points",
            "3",
        ])
    };
    let (code, out, err) = run("80");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("earliest feasible finish: 90.00 s from now"),
        "{out}"
    );
    assert!(out.contains("queue: 2 admitted job(s)"), "{out}");
    assert!(
        out.contains("deadline (s)") && out.contains("price"),
        "{out}"
    );
    let (code, out, _) = run("100");
    assert_eq!(code, 0);
    assert!(
        out.contains("earliest feasible finish: 130 s from now"),
        "{out}"
    );
}

#[test]
fn quote_a_job_from_the_demo_history() {
    let queue = temp_file(
        "demo-queue.csv",
        "name,map_work,reduce_work,deadline\nnightly,40000,8000,1200\nadhoc,2000,0,300\n",
    );
    let mut args = vec![
        "quote",
        HISTORY,
        "--queue",
        &queue,
        "--restarts",
        "0",
        "--points",
        "5",
    ];
    args.extend(NEW_JOB);
    let (code, out, err) = skyplan(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("300 finished jobs"), "{out}");
    assert!(out.contains("map     GP*"), "{out}");
    assert!(out.contains("work (GP at the 95% PI upper bound)"), "{out}");
    assert!(out.contains("earliest feasible finish"), "{out}");
    args.extend(["--json", "--method", "ols", "--deadline", "900"]);
    let (code, json, err) = skyplan(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["work"]["method"], "ols");
    // Work is the OLS upper bound × 80 slots per phase.
    let upper = v["estimate"]["phases"][0]["methods"][1]["prediction"]["upper"]
        .as_f64()
        .unwrap();
    assert!((v["map_work"].as_f64().unwrap() - upper * 80.0).abs() < 1e-6);
    let q = &v["quote"];
    let f = q["earliest_finish"].as_f64().unwrap();
    assert!(f >= q["processing_secs"].as_f64().unwrap() - 1.0, "{q}");
    let curve = q["curve"].as_array().unwrap();
    assert_eq!(curve.len(), 5);
    assert_eq!(curve[0]["deadline"].as_f64().unwrap(), f);
    for w in curve.windows(2) {
        assert!(w[1]["price"].as_f64().unwrap() <= w[0]["price"].as_f64().unwrap() + 1e-12);
    }
    assert_eq!(v["chosen"]["deadline"].as_f64().unwrap(), 900.0);
}

#[test]
fn quote_errors() {
    let run = |extra: &[&str]| {
        let mut args = vec!["quote", HISTORY, "--restarts", "0"];
        args.extend(NEW_JOB);
        args.extend(extra);
        skyplan(&args)
    };
    let (code, _, err) = run(&["--kappa", "0.5"]);
    assert_eq!(code, 1);
    assert!(err.contains("κ must be ≥ 1"), "{err}");
    let (code, _, err) = run(&["--function", "linear"]);
    assert_eq!(code, 2);
    assert!(err.contains("not mrm, exponential"), "{err}");
    let (code, _, err) = run(&["--deadline", "1"]);
    assert_eq!(code, 1);
    assert!(err.contains("before the earliest feasible finish"), "{err}");
    // A queue whose jobs cannot all meet their deadlines.
    let infeasible = temp_file(
        "infeasible-queue.csv",
        "name,map_work,reduce_work,deadline\nbig,1000000,0,10\n",
    );
    let (code, _, err) = run(&["--queue", &infeasible]);
    assert_eq!(code, 1);
    assert!(err.contains("job `big` cannot meet its deadline"), "{err}");
    let bad_queue = temp_file(
        "bad-queue.csv",
        "name,map_work,reduce_work,deadline\nx,1,-2,5\n",
    );
    let (code, _, err) = run(&["--queue", &bad_queue]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad-queue.csv:2:5: reduce_work must not be negative"),
        "{err}"
    );
    // An empty history.
    let empty = temp_file(
        "empty-history.csv",
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n",
    );
    let mut args = vec!["quote", &empty];
    args.extend(NEW_JOB);
    let (code, _, err) = skyplan(&args);
    assert_eq!(code, 1, "{err}");
    assert!(!err.is_empty());
    // Neither features nor work; both.
    let (code, _, err) = skyplan(&["quote", HISTORY]);
    assert_eq!(code, 2);
    assert!(err.contains("quote needs a HISTORY"), "{err}");
    let (code, _, _) = run(&["--map-work", "5"]);
    assert_eq!(code, 2);
    let (code, _, err) = skyplan(&["quote", "--map-work", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("--mean-job-secs"), "{err}");
}
