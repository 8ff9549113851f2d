//! `runway`: the demo built into the binary from outside the repository, a
//! hand growth checked against its closed form, the fitted growth on a
//! growing cluster, the backtest's JSON, and bad input refused with a line.

use crate::common::{skyplan, skyplan_ok, temp_file};
use serde_json::Value;
use std::process::Command;

/// 2026-11-01 00:00 UTC, the first sample of the generated series.
const T0: i64 = 1_793_577_600;

/// A utilization CSV of `days` days at 15-minute samples on `servers`,
/// each sample `level(day, quarter)` per cent.
fn series(name: &str, days: i64, servers: &[&str], level: impl Fn(i64, i64) -> f64) -> String {
    let mut text = String::from("timestamp,series,resource,value\n");
    for d in 0..days {
        for q in 0..96 {
            for s in servers {
                let t = T0 + d * 86_400 + q * 900;
                text.push_str(&format!("{t},{s},cpu,{:.3}\n", level(d, q)));
            }
        }
    }
    temp_file(name, &text)
}

/// Days from `a` to `b`, both `YYYY-MM-DD`.
fn days_between(a: &str, b: &str) -> i64 {
    let t = |s: &str| skyplan_engine::time::parse_timestamp(s).unwrap();
    (t(b) - t(a)) / 86_400
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&skyplan_ok(args)).unwrap()
}

#[test]
fn a_hand_growth_crosses_the_target_when_its_closed_form_says() {
    // Two machines flat at 50 %, 10 % a month: the peak reaches 80 % after
    // 30.436875 × ln 1.6 / ln 1.1 = 150.1 days, and 180 days of that growth
    // need 2 × 0.5 × 1.1^(180/30.436875) / 0.8 = 2.2 machines: one more.
    let f = series("flat.csv", 20, &["a", "b"], |_, _| 50.0);
    let v = json(&["runway", &f, "--growth", "10%", "--json"]);
    let closed = 30.436_875 * 1.6f64.ln() / 1.1f64.ln();
    let today = v["today"].as_str().unwrap();
    assert_eq!(today, "2026-11-21");
    assert_eq!(v["binding"], "cpu utilization");
    let cpu = &v["limits"][0];
    assert_eq!(cpu["name"], "cpu utilization");
    let p50 = cpu["p50"].as_str().unwrap();
    let d = days_between(today, p50) as f64;
    assert!((d - closed).abs() <= 1.0, "{d} days against {closed}");
    let purchases = v["purchases"].as_array().unwrap();
    assert_eq!(purchases.len(), 1, "{v}");
    assert_eq!(purchases[0]["machines"], 1);
    assert!(days_between(purchases[0]["date"].as_str().unwrap(), p50) >= 0);
    let levers: Vec<&str> = v["levers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(levers, ["reservations", "shaping", "harvesting", "tuning"]);
    // Without the workspace's parts, no lever is claimed to pay.
    assert!(v["levers"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["pays"] == false));
    // 3 % a month does not reach 80 % within the 180 days: null, and no
    // limit binds.
    let slow = json(&["runway", &f, "--growth", "3%", "--json"]);
    assert_eq!(slow["binding"], Value::Null);
    assert_eq!(slow["limits"][0]["p50"], Value::Null);
    assert!(slow["purchases"].as_array().unwrap().is_empty());
    // A lower headroom target brings the date forward.
    let tight = json(&[
        "runway", &f, "--growth", "10%", "--target", "cpu=0.6", "--json",
    ]);
    let early = tight["limits"][0]["p50"].as_str().unwrap();
    let closed = 30.436_875 * 1.2f64.ln() / 1.1f64.ln();
    let d = days_between(today, early) as f64;
    assert!((d - closed).abs() <= 1.0, "{d} days against {closed}");
}

#[test]
fn a_fitted_growth_orders_its_dates_and_says_what_it_saw() {
    // Daily peaks growing 2 % a day from 30 %: the fit crosses 80 % within
    // weeks, P10 ≤ P50 ≤ P90.
    let f = series("grow.csv", 30, &["a", "b"], |d, q| {
        let day = std::f64::consts::TAU * q as f64 / 96.0;
        30.0 * 1.02f64.powi(d as i32) * (0.6 + 0.4 * day.sin())
    });
    let v = json(&["runway", &f, "--json"]);
    assert_eq!(v["binding"], "cpu utilization");
    assert_eq!(v["evidence"]["days"], 30, "{}", v["evidence"]);
    let l = &v["limits"][0];
    let (p10, p50, p90) = (
        l["p10"].as_str().unwrap(),
        l["p50"].as_str().unwrap(),
        l["p90"].as_str().unwrap(),
    );
    assert!(days_between(p10, p50) >= 0 && days_between(p50, p90) >= 0);
    // The true crossing: 30 × 1.02^d = 80 after 49.5 days of the series,
    // 19.5 after today.
    let d = days_between(v["today"].as_str().unwrap(), p50);
    assert!((15..=25).contains(&d), "{d}");
    assert!(!v["purchases"].as_array().unwrap().is_empty());
}

#[test]
fn the_demo_is_built_in_and_planned_from_any_directory() {
    let dir = std::env::temp_dir().join(format!("skyplan-cli-runway-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skyplan"))
        .args(["runway", "--json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["limits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "cpu utilization",
            "memory utilization",
            "agenda",
            "pricing queue"
        ]
    );
    // The demo's agenda already refuses signed-off jobs: it binds today,
    // and the schedule adds machines then.
    assert_eq!(v["binding"], "agenda");
    assert_eq!(v["limits"][2]["p50"], v["today"]);
    assert_eq!(v["purchases"][0]["date"], v["today"]);
    let p50: u64 = v["purchases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["machines"].as_u64().unwrap())
        .sum();
    let p90: u64 = v["purchases_p90"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["machines"].as_u64().unwrap())
        .sum();
    assert!(p50 >= 1 && p90 >= p50, "{p50} {p90}");
    // Every lever measured from the demo's parts: a detail, and machines
    // or days only where it pays.
    for l in v["levers"].as_array().unwrap() {
        assert!(
            !l["detail"].as_str().unwrap().starts_with("not measured"),
            "{l}"
        );
        if l["pays"] == false {
            assert_eq!(l["machines"], Value::Null, "{l}");
        }
    }
}

#[test]
fn the_backtest_reports_coverage_and_error_beside_the_linear_rule() {
    let f = series("bt.csv", 40, &["a"], |d, q| {
        let day = std::f64::consts::TAU * q as f64 / 96.0;
        20.0 + 0.8 * d as f64 + 5.0 * day.sin()
    });
    let v = json(&["runway", "backtest", &f, "--json"]);
    assert!(v["cases"].as_u64().unwrap() > 0, "{v}");
    for r in [&v, &v["baseline"]] {
        let c = r["coverage"].as_f64().unwrap();
        let e = r["median_error"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&c) && e >= 0.0, "{r}");
    }
    // A straight line is what the planners' rule fits: it errs little.
    assert!(v["baseline"]["median_error"].as_f64().unwrap() < 0.2, "{v}");
    let (code, _, err) = skyplan(&["runway", "backtest"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bad_input_is_refused_with_a_line_not_a_panic() {
    let short = series("short.csv", 3, &["a"], |_, _| 40.0);
    let (code, _, err) = skyplan(&["runway", &short]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("3 whole day(s) of history"), "{err}");
    let f = series("ok.csv", 10, &["a"], |_, _| 40.0);
    for (growth, says) in [
        ("NaN%", "not a number"),
        ("-150%", "above −100 %"),
        ("1e9%", "absurd"),
    ] {
        let (code, _, err) = skyplan(&["runway", &f, "--growth", growth]);
        assert_eq!(code, 1, "{growth}: {err}");
        assert!(err.contains(says), "{growth}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    for (opt, value) in [("--target", "0"), ("--target", "1.5"), ("--horizon", "0")] {
        let (code, _, err) = skyplan(&["runway", &f, "--growth", "2%", opt, value]);
        assert_eq!(code, 1, "{opt} {value}: {err}");
    }
    // A falling trend never reaches the target: beyond the horizon.
    let falling = series("falling.csv", 30, &["a"], |d, _| 60.0 - d as f64);
    let v = json(&["runway", &falling, "--json"]);
    assert_eq!(v["binding"], Value::Null);
    assert_eq!(v["limits"][0]["p50"], Value::Null);
}

#[test]
fn the_backtest_per_sample_counts_periods_of_a_weekly_series() {
    // A weekly series rising 1 a week: per sample, each week is a period,
    // so the line's crossings are exact and the true times are in weeks;
    // per day, the same file has one peak a week and six days left out.
    let mut text = String::from("timestamp,series,resource,value\n");
    for w in 0..60i64 {
        let t = T0 + w * 7 * 86_400;
        text.push_str(&format!("{t},a,cpu,{}\n", 20.0 + w as f64));
    }
    let f = temp_file("weekly.csv", &text);
    let v = json(&["runway", "backtest", &f, "--per", "sample", "--json"]);
    assert!(v["cases"].as_u64().unwrap() > 0, "{v}");
    assert!(
        v["baseline"]["median_error"].as_f64().unwrap() < 1e-9,
        "{v}"
    );
    assert!(v["median_true_days"].as_f64().unwrap() < 60.0, "{v}");
    let daily = json(&["runway", "backtest", &f, "--json"]);
    assert!(
        daily["median_true_days"].as_f64().unwrap() > v["median_true_days"].as_f64().unwrap(),
        "{daily} {v}"
    );
    let every = json(&[
        "runway",
        "backtest",
        &f,
        "--per",
        "sample",
        "--cut-every",
        "5",
        "--json",
    ]);
    assert!(
        every["cuts"].as_u64().unwrap() < v["cuts"].as_u64().unwrap(),
        "{every} {v}"
    );
    let (code, _, err) = skyplan(&["runway", "backtest", &f, "--per", "week"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--per"), "{err}");
}

#[test]
fn the_backtest_finds_a_yearly_season_in_monthly_samples_or_takes_none() {
    // Six years of monthly samples: a trend, a yearly cycle of ±5 and a
    // ripple of ±0.3. Per sample, the calendar's year is 12 samples, and
    // the fitted model says it used that season on its cuts; `--season
    // none` uses none; a period of one month is refused with a line.
    let mut text = String::from("timestamp,series,resource,value\n");
    for m in 0..72i64 {
        let t = T0 + m * 30 * 86_400;
        let cycle = 5.0 * (2.0 * std::f64::consts::PI * m as f64 / 12.0).sin();
        let ripple = 0.3 * (((m * 7_919) % 11) as f64 - 5.0) / 5.0;
        text.push_str(&format!(
            "{t},a,cpu,{}\n",
            20.0 + 0.5 * m as f64 + cycle + ripple
        ));
    }
    let f = temp_file("monthly.csv", &text);
    let args = |season: &'static str| {
        [
            "runway",
            "backtest",
            "--per",
            "sample",
            "--min-history",
            "36",
            "--cut-every",
            "6",
            "--horizon",
            "24",
            "--season",
            season,
            "--json",
        ]
    };
    let mut auto = args("auto").to_vec();
    auto.push(&f);
    let v = json(&auto);
    assert_eq!(v["seasons"][0][0].as_u64(), Some(12), "{v}");
    assert_eq!(v["seasons"][0][1], v["cuts"], "{v}");
    let mut none = args("none").to_vec();
    none.push(&f);
    let off = json(&none);
    assert_eq!(off["seasons"].as_array().map(Vec::len), Some(0), "{off}");
    assert_eq!(off["cases"], v["cases"], "the same cuts: {off} {v}");
    let (code, _, err) = skyplan(&["runway", "backtest", &f, "--season", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--season"), "{err}");
    let (code, _, err) = skyplan(&["runway", "--season", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--season"), "{err}");
}

#[test]
fn the_backtest_takes_a_scale_and_refuses_a_bad_one() {
    // Three years of monthly samples growing 3 % a sample compounded:
    // `--scale log` fits every cut on the log scale, `--scale level` none
    // of them, and the default is `auto`, on the same cuts; a bad scale is refused
    // with a usage line, and the log scale of a series with a zero is
    // refused with the step named.
    let mut text = String::from("timestamp,series,resource,value\n");
    for m in 0..36i64 {
        let t = T0 + m * 30 * 86_400;
        let ripple = 1.0 + 0.01 * (((m * 7_919) % 11) as f64 - 5.0) / 5.0;
        text.push_str(&format!(
            "{t},a,cpu,{}\n",
            10.0 * 1.03f64.powi(m as i32) * ripple
        ));
    }
    let f = temp_file("compound.csv", &text);
    // The command with `--scale S`, or with no `--scale` for `None`.
    let run = |scale: Option<&str>| {
        let mut args = vec![
            "runway",
            "backtest",
            f.as_str(),
            "--per",
            "sample",
            "--min-history",
            "12",
            "--cut-every",
            "4",
            "--horizon",
            "24",
            "--json",
        ];
        if let Some(scale) = scale {
            args.extend(["--scale", scale]);
        }
        json(&args)
    };
    let log = run(Some("log"));
    let level = run(Some("level"));
    assert_eq!(log["log_scale_cuts"], log["cuts"], "{log}");
    assert_eq!(level["log_scale_cuts"].as_u64(), Some(0), "{level}");
    assert_eq!(log["cases"], level["cases"], "the same cuts: {log} {level}");
    assert_eq!(run(None), run(Some("auto")));
    let (code, _, err) = skyplan(&["runway", "backtest", &f, "--scale", "sqrt"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--scale"), "{err}");
    let zero = temp_file(
        "zero.csv",
        &format!(
            "timestamp,series,resource,value\n{},a,cpu,0\n{},a,cpu,1\n",
            T0,
            T0 + 86_400
        ),
    );
    let (code, _, err) = skyplan(&["runway", "backtest", &zero, "--scale", "log"]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("scale"), "{err}");
}

/// The text of `s` between `before` and the next `after`.
fn between<'a>(s: &'a str, before: &str, after: &str) -> &'a str {
    let start = s
        .find(before)
        .unwrap_or_else(|| panic!("`{before}` in {s}"))
        + before.len();
    let len = s[start..]
        .find(after)
        .unwrap_or_else(|| panic!("`{after}` in {s}"));
    &s[start..start + len]
}

#[test]
fn the_harvesting_and_tuning_levers_read_their_parts_sweeps() {
    // With no growth the grown load is today's: the harvesting lever's
    // kills are those of `sweep harvest`'s cell at the demo tenants'
    // servers and level (the Harvest panel's "where it pays" point), and
    // the tuning lever's contention figures those of `sweep tuning`'s
    // cell at the mix load and queue count, on the demo's job history.
    let v = json(&["runway", "--growth", "0%", "--json"]);
    let lever = |name: &str| {
        v["levers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .unwrap()
            .clone()
    };
    let harvest = lever("harvesting");
    let cost = harvest["cost"].as_str().unwrap();
    assert!(
        cost.starts_with("at 1.00× the batch work (0.21 of the cores)"),
        "{cost}"
    );
    let servers = between(cost, "cores), ", " servers");
    let level = between(cost, "servers at ", " % primary");
    let sweep = json(&[
        "sweep",
        "harvest",
        "--servers",
        servers,
        "--levels",
        level,
        "--days",
        "2",
        "--scaling",
        "linear",
        "--json",
    ]);
    let row = &sweep["rows"][0];
    assert_eq!(
        between(cost, "YARN-H killed ", " containers"),
        row["h_kills"].to_string(),
        "{cost} {row}"
    );
    assert_eq!(
        between(cost, "(YARN-PT ", ")"),
        row["pt_kills"].to_string(),
        "{cost} {row}"
    );

    let tuning = lever("tuning");
    let detail = tuning["detail"].as_str().unwrap();
    let queues = between(detail, " on ", " queue(s)");
    let history = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/demo/history.csv");
    let sweep = json(&[
        "sweep", "tuning", history, "--loads", "1.5", "--queues", queues, "--json",
    ]);
    let row = &sweep["rows"][0];
    let pct = |k: &str| format!("{:.1} %", 100.0 * row[k].as_f64().unwrap());
    assert_eq!(
        between(detail, "non-best configurations ", " slower"),
        pct("nonbest_increase"),
        "{detail} {row}"
    );
    assert!(
        detail.ends_with(&format!("its regret {}", pct("regret"))),
        "{detail} {row}"
    );

    // Grown, the batch work of the harvest cell grows with it.
    let grown = json(&["runway", "--growth", "5%", "--json"]);
    let cost = grown["levers"][2]["cost"].as_str().unwrap();
    let share: f64 = between(cost, "batch work (", " of the cores")
        .parse()
        .unwrap();
    assert!(share > 0.21, "{cost}");
}
