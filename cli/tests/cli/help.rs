//! Help, version and usage errors: the global help, every command's own
//! help and its options with the engine's defaults, `--help` anywhere, and
//! unknown commands and options exiting 2 with a pointer to the help.

use crate::common::{default_of, option_text, skyplan};

/// Every command, as `skyplan help` lists them.
const COMMANDS: [&str; 13] = [
    "import",
    "fixtures",
    "bundle",
    "slo",
    "skyline",
    "replay",
    "plan",
    "estimate",
    "quote",
    "simulate-pricing",
    "tune",
    "shape",
    "report",
];

#[test]
fn global_help_and_version_exit_0_on_stdout() {
    let mut first: Option<String> = None;
    for args in [&["--help"][..], &["-h"], &["help"], &[]] {
        let (code, out, err) = skyplan(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
        assert!(out.contains("skyplan help COMMAND"), "{out}");
        for c in COMMANDS {
            assert!(
                out.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{c} "))),
                "{c} not listed with a summary:\n{out}"
            );
        }
        // One line per command: the global help is not the options list.
        assert!(!out.contains("--capacity-cores"), "{out}");
        match &first {
            Some(f) => assert_eq!(&out, f, "{args:?}"),
            None => first = Some(out),
        }
    }
    let expected = format!("skyplan {}\n", env!("CARGO_PKG_VERSION"));
    for flag in ["--version", "-V"] {
        let (code, out, err) = skyplan(&[flag]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, expected);
    }
}

#[test]
fn every_command_has_its_own_help() {
    let (_, global, _) = skyplan(&["--help"]);
    for c in COMMANDS {
        let (code, out, err) = skyplan(&["help", c]);
        assert_eq!(code, 0, "help {c}: {err}");
        assert!(err.is_empty(), "{err}");
        assert!(out.starts_with(&format!("skyplan {c} — ")), "{out}");
        assert!(out.contains("USAGE:"), "{out}");
        assert!(out.contains(&format!("    skyplan {c} ")), "{out}");
        assert!(out.contains("-h, --help"), "{out}");
        assert_ne!(out, global);
        for other in COMMANDS.iter().filter(|o| **o != c) {
            assert!(
                !out.contains(&format!("skyplan {other} —")),
                "{c}'s help holds {other}'s"
            );
        }
        for flag in ["--help", "-h"] {
            let (code, same, err) = skyplan(&[c, flag]);
            assert_eq!(code, 0, "{c} {flag}: {err}");
            assert_eq!(same, out, "{c} {flag}");
        }
    }
}

#[test]
fn help_anywhere_in_a_commands_args_wins_over_missing_ones() {
    for args in [
        &["plan", "x.json", "--help"][..],
        &["plan", "--capacity-cores", "8", "-h"],
        &["estimate", "--json", "--help"],
        &["quote", "--map-work", "5", "--help"],
        &["skyline", "--variant", "nonsense", "--help"],
        &["simulate-pricing", "--bogus", "-h"],
    ] {
        let (code, out, err) = skyplan(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            out.starts_with(&format!("skyplan {} — ", args[0])),
            "{args:?}: {out}"
        );
    }
    // After `--` everything is a file name.
    let (code, out, err) = skyplan(&["import", "--", "--help"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("--help"), "{err}");
}

#[test]
fn command_help_lists_its_options_with_the_engines_defaults() {
    use skyplan_engine::agenda::{AgendaParams, EvalParams};
    use skyplan_engine::estimate::{EvaluateParams, HistoryParams};
    use skyplan_engine::fixtures::FixtureParams;
    use skyplan_engine::pricing::{Durations, PriceParams, SimParams};
    use skyplan_engine::resource_model::ModelParams;
    use skyplan_engine::slo::SloParams;
    let help = |c: &str| skyplan(&["help", c]).1;

    let h = help("import");
    for opt in ["--format", "--lenient", "--json"] {
        option_text(&h, opt);
    }
    assert!(default_of(&h, "--format").contains("detected"));

    let h = help("fixtures");
    let p = FixtureParams::default();
    for (opt, v) in [
        ("--seed", p.seed.to_string()),
        ("--days", p.days.to_string()),
        ("--daily", p.daily_jobs.to_string()),
        ("--hourly", p.hourly_jobs.to_string()),
        ("--adhoc", p.adhoc_jobs.to_string()),
        ("--servers", p.servers.to_string()),
        ("--out", "fixtures/demo".into()),
        (
            "--swim",
            "fixtures/real/swim/FB-2009_samples_24_times_1hr_0.tsv".into(),
        ),
        ("--history-jobs", "300".into()),
    ] {
        assert_eq!(default_of(&h, opt), v, "fixtures {opt}");
    }

    let h = help("shape");
    let p = skyplan_engine::shaping::Params::default();
    let g = skyplan_engine::shaping::GridParams::default();
    for (opt, v) in [
        ("--apps", p.workload.apps.to_string()),
        ("--hosts", p.hosts.to_string()),
        ("--host-cpu", p.host_cpu.to_string()),
        ("--host-mem", p.host_mem.to_string()),
        ("--load", p.workload.load.to_string()),
        ("--seed", p.workload.seed.to_string()),
        ("--predictor", p.predictor.name().to_string()),
        ("--policy", p.policy.name().to_string()),
        ("--k1", p.k1.to_string()),
        ("--k2", p.k2.to_string()),
        ("--grace", p.grace_minutes.to_string()),
        ("--history", p.history.to_string()),
        ("--refit-every", p.refit_every.to_string()),
        ("--max-crashes", p.max_crashes.to_string()),
        ("--seeds", g.seeds.to_string()),
        ("--target", g.target_failed_pct.to_string()),
    ] {
        assert_eq!(default_of(&h, opt), v, "shape {opt}");
    }
    assert_eq!(default_of(&h, "--spread"), "std");

    let h = help("slo");
    let p = SloParams::default();
    for (opt, v) in [
        ("--start-percentile", p.start_percentile),
        ("--deadline-percentile", p.deadline_percentile),
        ("--max-read-cv", p.max_read_cv),
        ("--min-slack", p.min_slack_ratio),
    ] {
        assert_eq!(default_of(&h, opt), v.to_string(), "slo {opt}");
    }
    option_text(&h, "--json");

    let h = help("skyline");
    let (paper, hadoop) = (ModelParams::paper(), ModelParams::hadoop());
    for (opt, a, b) in [
        ("--alpha", paper.alpha, hadoop.alpha),
        ("--step", paper.step_secs.into(), hadoop.step_secs.into()),
        (
            "--min-parallelism",
            paper.min_parallelism,
            hadoop.min_parallelism,
        ),
    ] {
        assert_eq!(
            default_of(&h, opt),
            format!(": the variant's, {a} or {b}"),
            "skyline {opt}"
        );
    }
    assert_eq!(default_of(&h, "--variant"), "paper");
    assert_eq!(default_of(&h, "--solver"), "flow");
    assert!(default_of(&h, "--job").contains("the only one"));

    let h = help("replay");
    let p = EvalParams::default();
    for (opt, v) in [
        ("--train-share", p.train_share),
        ("--user-factor", p.user_factor),
        ("--user-spread", p.user_spread),
        ("--rho", p.reprovision.rho),
        ("--alpha", p.model.alpha),
    ] {
        assert_eq!(default_of(&h, opt), v.to_string(), "replay {opt}");
    }
    assert_eq!(default_of(&h, "--seed"), p.seed.to_string());

    let h = help("plan");
    let p = AgendaParams::default();
    assert_eq!(default_of(&h, "--period"), p.period_secs.to_string());
    assert_eq!(default_of(&h, "--step"), p.step_secs.to_string());
    assert_eq!(default_of(&h, "--capacity-memory-mb"), "N × 4096");
    assert_eq!(default_of(&h, "--method"), "lowcost");
    assert_eq!(default_of(&h, "--min-parallelism"), "1");
    let o = skyplan_engine::agenda::OptimizeParams::default();
    assert_eq!(default_of(&h, "--moves"), o.max_moves.to_string());
    assert_eq!(default_of(&h, "--seed"), o.seed.to_string());
    assert_eq!(default_of(&h, "--queue"), "`default`");
    assert!(option_text(&h, "--capacity-cores").contains("required"));
    for opt in ["--origin", "--export-yarn", "--json"] {
        option_text(&h, opt);
    }

    let h = help("estimate");
    let e = EvaluateParams::default();
    let g = HistoryParams::default();
    for (opt, v) in [
        ("--level", e.estimate.level.to_string()),
        ("--restarts", e.estimate.gp.restarts.to_string()),
        ("--hyper-subset", e.estimate.gp.hyper_subset.to_string()),
        ("--polish-subset", e.estimate.gp.polish_subset.to_string()),
        ("--min-runs", e.estimate.min_runs.to_string()),
        ("--train-share", e.train_share.to_string()),
        ("--jobs", g.jobs.to_string()),
        ("--features", "log".into()),
        ("--targets", "log".into()),
        ("--seed", g.seed.to_string()),
    ] {
        assert_eq!(default_of(&h, opt), v, "estimate {opt}");
    }
    assert!(option_text(&h, "--seed").contains(&format!("split (default {})", e.split_seed)));
    for opt in [
        "--job",
        "--map-tasks",
        "--name",
        "--evaluate",
        "--write-history",
        "--lenient",
        "--json",
    ] {
        option_text(&h, opt);
    }

    let h = help("quote");
    let p = PriceParams::default();
    let est = EvaluateParams::default().estimate;
    for (opt, v) in [
        ("--reserve", p.reserve.to_string()),
        ("--span", p.span_jobs.to_string()),
        ("--quantum", p.quantum.to_string()),
        ("--level", est.level.to_string()),
        ("--restarts", est.gp.restarts.to_string()),
        ("--points", "20".into()),
        ("--map-slots", "80".into()),
        ("--reduce-slots", "80".into()),
        ("--kappa", "1".into()),
        ("--z", "2".into()),
        ("--method", "gp".into()),
        ("--function", "mrm".into()),
        ("--reduce-work", "0".into()),
    ] {
        assert_eq!(default_of(&h, opt), v, "quote {opt}");
    }
    for opt in [
        "--map-tasks",
        "--name",
        "--map-work",
        "--queue",
        "--mean-job-secs",
        "--deadline",
        "--lenient",
        "--json",
    ] {
        option_text(&h, opt);
    }

    let h = help("simulate-pricing");
    let p = SimParams::default();
    let Durations::Table1 { mean_secs } = p.durations else {
        panic!("the default durations are Table 1's");
    };
    for (opt, v) in [
        ("--jobs", p.jobs.to_string()),
        ("--alpha", p.alpha.to_string()),
        ("--kappa", p.kappa.to_string()),
        ("--ds-share", p.ds_share.to_string()),
        ("--pi-level", p.pi_level.to_string()),
        ("--charge-weight", p.charge_weight.to_string()),
        ("--seed", p.seed.to_string()),
        ("--mean-secs", mean_secs.to_string()),
        (
            "--interarrival",
            "50,100,200: high, medium, low load".into(),
        ),
    ] {
        assert_eq!(default_of(&h, opt), v, "simulate-pricing {opt}");
    }
    assert!(default_of(&h, "--error-share").starts_with(&format!("{:.3}", p.error_share)));
    for opt in ["--gamma", "--durations", "--charge-in-service", "--json"] {
        option_text(&h, opt);
    }
}

#[test]
fn unknown_commands_and_options_exit_2_with_a_pointer_to_help() {
    for (args, reason, pointer) in [
        (
            &["frobnicate"][..],
            "unknown command `frobnicate`",
            "skyplan --help",
        ),
        (
            &["--frobnicate"],
            "invalid option '--frobnicate'",
            "skyplan --help",
        ),
        (
            &["help", "frobnicate"],
            "unknown command `frobnicate`",
            "skyplan --help",
        ),
        (
            &["plan", "--bogus"],
            "invalid option '--bogus'",
            "skyplan plan --help",
        ),
        (
            &["plan"],
            "plan needs at least one FILE",
            "skyplan plan --help",
        ),
        (
            &["skyline", "--variant", "x"],
            "--variant",
            "skyplan skyline --help",
        ),
    ] {
        let (code, out, err) = skyplan(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(
            lines[0].starts_with("skyplan: ") && lines[0].contains(reason),
            "{err}"
        );
        assert_eq!(lines[1], format!("try '{pointer}'"));
    }
    // Every command refuses an unknown option the same way.
    for c in COMMANDS {
        let (code, out, err) = skyplan(&[c, "--bogus"]);
        assert_eq!(code, 2, "{c}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("--bogus"), "{err}");
        assert!(
            err.ends_with(&format!("try 'skyplan {c} --help'\n")),
            "{err}"
        );
    }
    // Bad input (exit 1) carries no pointer to the help.
    let (code, _, err) = skyplan(&["import", "/nonexistent/file.csv"]);
    assert_eq!(code, 1);
    assert!(!err.contains("--help"), "{err}");
}
