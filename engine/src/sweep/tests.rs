//! The sweep engine on small shaping grids: cells cover the grid once,
//! a cell is the run it names, pieces merge into the whole whatever ran
//! them, and a stopped run keeps what it finished.

use super::*;
use crate::shaping::{
    generate_for, simulate, Arrivals, Config, LoadSweep, Params, Policy, Predictor,
};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A small cluster and workload: 60 applications on 4 hosts.
fn base() -> Params {
    let mut p = Params {
        hosts: 4,
        predictor: Predictor::Oracle,
        ..Params::default()
    };
    p.workload.apps = 60;
    p
}

fn sweep() -> SweepSpec {
    let mut s = LoadSweep::over_loads(base(), vec![0.6, 1.3, 2.0]);
    s.arrivals = vec![Arrivals::Model, Arrivals::Spread];
    s.configs = vec![
        Config::of(&base()),
        Config {
            policy: Policy::Optimistic,
            ..Config::of(&base())
        },
    ];
    SweepSpec::Shaping(s)
}

fn quiet() -> impl FnMut(&CellRow, usize, usize) {
    |_, _, _| {}
}

#[test]
fn cells_cover_the_grid_once_loads_outermost() {
    let SweepSpec::Shaping(s) = sweep() else {
        unreachable!("a shaping sweep")
    };
    assert_eq!(s.cells(), 12);
    let points: Vec<_> = (0..12).map(|k| s.point(k).unwrap()).collect();
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            assert_ne!(a, b);
        }
    }
    assert_eq!(points[0].load, 0.6);
    assert_eq!(points[4].load, 1.3);
    assert_eq!(points[2].arrivals, Arrivals::Spread);
    assert_eq!(points[1].config.policy, Policy::Optimistic);
    assert!(s.point(12).is_none());
}

#[test]
fn a_cell_is_the_simulation_of_its_settings() {
    let spec = sweep();
    let SweepSpec::Shaping(s) = &spec else {
        unreachable!("a shaping sweep")
    };
    for k in [0, 7, 11] {
        let row = spec.run_cell(k);
        let params = s.params_at(k).unwrap();
        let report = simulate(&generate_for(&params).unwrap(), &params, |_, _| {}).unwrap();
        let CellOutcome::Shaping(got) = row.outcome else {
            panic!("cell {k} failed: {:?}", row.outcome)
        };
        assert_eq!(
            got.turnaround_speedup, report.turnaround_speedup,
            "cell {k}"
        );
        assert_eq!(got.load, params.workload.load);
        assert_eq!(got.failed_apps_pct, report.shaped.summary.failed_apps_pct);
    }
}

#[test]
fn pieces_merge_into_the_single_run_on_any_thread_count() {
    let spec = sweep();
    let whole = run(&spec, 1, &mut quiet(), &|| false).unwrap();
    assert!(whole.is_complete());
    let two = run(&spec, 2, &mut quiet(), &|| false).unwrap();
    assert_eq!(two, whole);
    // One task per cell, as a batch engine's array would run them, merged
    // in a shuffled order.
    let mut pieces: Vec<SweepResult> = (0..spec.cells())
        .map(|k| run_cells(&spec, &[k], 1, &mut quiet(), &|| false).unwrap())
        .collect();
    pieces.reverse();
    pieces.swap(2, 7);
    let merged = merge_complete(pieces).unwrap();
    assert_eq!(merged, whole);
    // And through JSON, as files written by separate processes.
    let text: Vec<String> = (0..spec.cells())
        .map(|k| {
            serde_json::to_string(&run_cells(&spec, &[k], 1, &mut quiet(), &|| false).unwrap())
                .unwrap()
        })
        .collect();
    let read: Vec<SweepResult> = text
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    assert_eq!(
        serde_json::to_string(&merge_complete(read).unwrap()).unwrap(),
        serde_json::to_string(&whole).unwrap()
    );
}

#[test]
fn a_stopped_sweep_keeps_its_finished_cells() {
    let spec = sweep();
    let whole = run(&spec, 1, &mut quiet(), &|| false).unwrap();
    for threads in [1, 2] {
        let ended = AtomicUsize::new(0);
        let mut seen = Vec::new();
        let part = run(
            &spec,
            threads,
            &mut |row, done, total| {
                ended.fetch_add(1, Ordering::SeqCst);
                seen.push((row.cell, done, total));
            },
            &|| ended.load(Ordering::SeqCst) >= 4,
        )
        .unwrap();
        assert!(!part.is_complete());
        assert!(part.rows.len() >= 4 && part.rows.len() < 4 + threads + 1);
        for row in &part.rows {
            assert_eq!(row, &whole.rows[row.cell], "a kept cell is the full run's");
        }
        assert_eq!(seen.len(), part.rows.len());
        // The rest run later and merge into the whole.
        let rest = run_cells(&spec, &part.missing(), threads, &mut quiet(), &|| false).unwrap();
        assert_eq!(merge_complete(vec![part, rest]).unwrap(), whole);
    }
}

#[test]
fn merging_refuses_other_sweeps_conflicts_and_missing_cells() {
    let spec = sweep();
    let a = run_cells(&spec, &[0, 1], 1, &mut quiet(), &|| false).unwrap();
    let SweepSpec::Shaping(mut other) = spec.clone() else {
        unreachable!("a shaping sweep")
    };
    other.loads[2] = 1.9;
    let b = run_cells(&SweepSpec::Shaping(other), &[2], 1, &mut quiet(), &|| false).unwrap();
    assert!(matches!(
        merge(vec![a.clone(), b]),
        Err(SweepError::OtherSweep { index: 1, .. })
    ));
    let mut c = a.clone();
    if let CellOutcome::Shaping(r) = &mut c.rows[0].outcome {
        r.turnaround_speedup += 1.0;
    }
    assert_eq!(
        merge(vec![a.clone(), c]),
        Err(SweepError::Conflict { cell: 0 })
    );
    assert_eq!(merge(vec![a.clone(), a.clone()]).unwrap(), a);
    let e = merge_complete(vec![a]).unwrap_err();
    assert_eq!(
        e,
        SweepError::Incomplete {
            cells: 12,
            missing: (2..12).collect()
        }
    );
    assert_eq!(merge(vec![]), Err(SweepError::NothingToMerge));
}

#[test]
fn bad_settings_are_refused_before_any_cell_runs() {
    for (loads, what) in [
        (vec![], "loads"),
        (vec![1.0, f64::NAN], "load"),
        (vec![-0.5], "load"),
    ] {
        let spec = SweepSpec::Shaping(LoadSweep::over_loads(base(), loads));
        let calls = AtomicUsize::new(0);
        let e = run(
            &spec,
            1,
            &mut |_, _, _| {
                calls.fetch_add(1, Ordering::SeqCst);
            },
            &|| false,
        )
        .unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
        assert_eq!(calls.load(Ordering::SeqCst), 0);
    }
    let spec = sweep();
    assert_eq!(
        run_cells(&spec, &[12], 1, &mut quiet(), &|| false),
        Err(SweepError::NoSuchCell {
            cell: 12,
            cells: 12
        })
    );
}

#[test]
fn the_csv_has_a_row_per_cell_and_numbers_that_read_back() {
    let spec = sweep();
    let r = run_cells(&spec, &[0, 5], 1, &mut quiet(), &|| false).unwrap();
    let csv = r.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(header.first(), Some(&"cell"));
    assert_eq!(header.last(), Some(&"error"));
    let speedup = header
        .iter()
        .position(|c| *c == "turnaround_speedup")
        .unwrap();
    let row: Vec<&str> = lines[2].split(',').collect();
    assert_eq!(row[0], "5");
    let CellOutcome::Shaping(want) = &r.rows[1].outcome else {
        panic!()
    };
    assert_eq!(
        row[speedup].parse::<f64>().unwrap(),
        want.turnaround_speedup
    );
    assert_eq!(row.len(), header.len());
}

#[test]
fn spread_arrivals_keep_the_applications_and_move_only_their_arrivals() {
    let mut p = base();
    let bursty = generate_for(&p).unwrap();
    p.workload.arrivals = Arrivals::Spread;
    let spread = generate_for(&p).unwrap();
    p.workload.arrivals = Arrivals::Bursty;
    assert_eq!(
        generate_for(&p).unwrap(),
        bursty,
        "the reference's own arrivals are bursty"
    );
    assert_eq!(bursty.applications.len(), spread.applications.len());
    let mut moved = 0;
    for (a, b) in bursty.applications.iter().zip(&spread.applications) {
        assert_eq!(
            (&a.name, &a.components, a.runtime),
            (&b.name, &b.components, b.runtime)
        );
        assert_eq!(a.usage, b.usage);
        moved += usize::from(a.arrival != b.arrival);
    }
    assert!(moved > 50, "{moved} arrivals moved");
    // Spread: arrivals over the whole span, not its first tenth.
    let last =
        |w: &crate::shaping::Workload| w.applications.iter().map(|a| a.arrival).fold(0.0, f64::max);
    assert!(last(&spread) > 3.0 * last(&bursty));
}

/// The tuning variant: its JSON names the part and reads back, its pieces
/// on two threads merge into the one-thread run, and a cell is its part's
/// row.
#[test]
fn a_tuning_sweep_runs_and_merges_like_any_part() {
    let base = crate::tuning::EvalParams {
        facebook_windows: 1,
        google_mixes: 1,
        jobs_per_mix: 6,
        repeats: 1,
        adapt_minutes: vec![2.0],
        adapt_jobs: 12,
        ..crate::tuning::EvalParams::default()
    };
    let s = crate::tuning::ContentionSweep::new(
        base,
        crate::fixtures::swim_like_jobs(30, 5),
        vec![1.0, 2.5],
        vec![2],
    );
    let spec = SweepSpec::Tuning(s.clone());
    assert_eq!(spec.part(), "tuning");
    let text = serde_json::to_string(&spec).unwrap();
    assert!(text.starts_with(r#"{"part":"tuning""#), "{text:.40}");
    assert_eq!(serde_json::from_str::<SweepSpec>(&text).unwrap(), spec);
    let whole = run(&spec, 1, &mut quiet(), &|| false).unwrap();
    let a = run_cells(&spec, &[1], 2, &mut quiet(), &|| false).unwrap();
    let b = run_cells(&spec, &[0], 2, &mut quiet(), &|| false).unwrap();
    assert_eq!(merge_complete(vec![a, b]).unwrap(), whole);
    for row in &whole.rows {
        let CellOutcome::Tuning(r) = &row.outcome else {
            panic!("cell {} failed: {:?}", row.cell, row.outcome.error());
        };
        assert_eq!(*r, s.run_cell(row.cell).unwrap());
        assert_eq!(row.outcome.cells().len(), spec.columns().len());
    }
}
