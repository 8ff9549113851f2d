//! What every `skyplan sweep <part>` shares: the options that say which
//! cells to run and where the result goes, and running a spec with them.
//! Below the commands, beside `common` and `input`.

use crate::common::{emit, json, Failure};
use skyplan_engine::sweep::{self, CellOutcome, SweepResult, SweepSpec};
use std::fmt::Write as _;
use std::io::IsTerminal as _;

/// Which cells to run and where the result goes.
#[derive(Default)]
pub struct SweepArgs {
    /// `--threads`.
    pub threads: usize,
    /// `--cells`.
    pub list: bool,
    /// `--cell`.
    pub cells: Option<Vec<usize>>,
    /// `--json`.
    pub json: bool,
    /// `--csv`.
    pub csv: bool,
    /// `--out`.
    pub out: Option<String>,
}

/// The long options [`sweep_option`] reads.
const SWEEP_FLAGS: &[&str] = &["threads", "cells", "cell", "json", "csv", "out"];

/// Whether `--name` is a sweep option.
pub fn is_sweep_flag(name: &str) -> bool {
    SWEEP_FLAGS.contains(&name)
}

/// Reads `--name` (a [`is_sweep_flag`] option) into `a`.
pub fn sweep_option(
    name: &str,
    parser: &mut lexopt::Parser,
    a: &mut SweepArgs,
) -> Result<(), Failure> {
    use lexopt::prelude::*;
    match name {
        "threads" => a.threads = parser.value()?.parse()?,
        "cells" => a.list = true,
        "cell" => a.cells = Some(list(&parser.value()?.string()?, "--cell")?),
        "json" => a.json = true,
        "csv" => a.csv = true,
        "out" => a.out = Some(parser.value()?.string()?),
        _ => return Err(Failure::usage(format!("--{name} is not a sweep option"))),
    }
    Ok(())
}

/// A comma-separated list of values, each parsed as `T`.
pub fn list<T: std::str::FromStr>(text: &str, what: &str) -> Result<Vec<T>, Failure> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|_| Failure::usage(format!("{what}: `{}` is not a valid value", s.trim())))
        })
        .collect()
}

/// Runs `spec` as `a` says — every cell or the `--cell` ones, or only
/// lists them with `--cells` — prints the result (a table by `text`, or
/// JSON or CSV) and writes `--out`. `describe(k)` is cell `k`'s settings in
/// one line. Progress goes to stderr when it is a terminal.
pub fn run_and_emit(
    spec: &SweepSpec,
    a: &SweepArgs,
    describe: impl Fn(usize) -> String,
    text: impl FnOnce(&SweepResult) -> String,
) -> Result<(), Failure> {
    spec.validate().map_err(|e| Failure::usage(e.to_string()))?;
    if a.list {
        let mut out = String::new();
        for k in 0..spec.cells() {
            out.push_str(&format!("{k}: {}\n", describe(k)));
        }
        out.push_str(&format!("{}\n", spec.cells()));
        emit(&out);
        return Ok(());
    }
    let cells: Vec<usize> = match &a.cells {
        Some(c) => c.clone(),
        None => (0..spec.cells()).collect(),
    };
    let tty = std::io::stderr().is_terminal();
    let result = sweep::run_cells(
        spec,
        &cells,
        a.threads,
        &mut |row, done, total| {
            if tty {
                eprint!("\rsweep: {done}/{total} cells (cell {} done)   ", row.cell);
                if done == total {
                    eprintln!();
                }
            }
        },
        &|| false,
    )
    .map_err(|e| Failure::usage(e.to_string()))?;
    write(&result, a)?;
    emit(&if a.json {
        json(&result)
    } else if a.csv {
        result.to_csv()
    } else {
        text(&result)
    });
    Ok(())
}

/// Writes `result` to `--out`, if given.
pub fn write(result: &SweepResult, a: &SweepArgs) -> Result<(), Failure> {
    if let Some(path) = &a.out {
        let body = if path.ends_with(".csv") {
            result.to_csv()
        } else {
            json(result)
        };
        std::fs::write(path, body)
            .map_err(|e| Failure::input(format!("{path}: could not write ({e})")))?;
    }
    Ok(())
}

/// A sweep table's body: a line per cell — its number, then `line(outcome)`
/// for a part's row, or the cell's failure — and how many cells ran when
/// some did not.
pub fn table_rows(
    out: &mut String,
    r: &SweepResult,
    line: impl Fn(&CellOutcome) -> Option<String>,
) {
    for row in &r.rows {
        let _ = match line(&row.outcome) {
            Some(l) => writeln!(out, "{:>4} {l}", row.cell),
            None => writeln!(
                out,
                "{:>4} failed: {}",
                row.cell,
                row.outcome.error().unwrap_or("")
            ),
        };
    }
    if !r.is_complete() {
        let _ = writeln!(out, "{} of {} cells run", r.rows.len(), r.cells);
    }
}
