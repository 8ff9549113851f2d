//! `skyplan sweep merge`: pieces of one sweep (files `--cell K --json`
//! wrote, on one machine or many) into the whole sweep's result.

use crate::common::{emit, json, Failure};
use crate::sweep_run::{write, SweepArgs};
use skyplan_engine::sweep::{merge, SweepResult};

/// `skyplan sweep merge FILE… [--json | --csv] [-o FILE] [--partial]`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut files = Vec::new();
    let mut a = SweepArgs::default();
    let mut partial = false;
    while let Some(arg) = parser.next()? {
        match arg {
            Value(v) => files.push(v.string()?),
            Long("json") => a.json = true,
            Long("csv") => a.csv = true,
            Short('o') | Long("out") => a.out = Some(parser.value()?.string()?),
            Long("partial") => partial = true,
            _ => return Err(arg.unexpected().into()),
        }
    }
    if files.is_empty() {
        return Err(Failure::usage("sweep merge: give the files to merge"));
    }
    let mut pieces = Vec::with_capacity(files.len());
    for f in &files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Failure::input(format!("{f}: could not read the file ({e})")))?;
        let piece: SweepResult = serde_json::from_str(&text).map_err(|e| {
            Failure::input(format!(
                "{f}:{}:{}: not a sweep result ({e})",
                e.line(),
                e.column()
            ))
        })?;
        pieces.push(piece);
    }
    let whole = merge(pieces).map_err(|e| Failure::input(e.to_string()))?;
    let missing = whole.missing();
    if !missing.is_empty() {
        let e = skyplan_engine::sweep::SweepError::Incomplete {
            cells: whole.cells,
            missing,
        };
        if partial {
            eprintln!("sweep merge: {e}");
        } else {
            return Err(Failure::input(format!(
                "{e} (--partial prints what is here)"
            )));
        }
    }
    write(&whole, &a)?;
    emit(&if a.csv {
        whole.to_csv()
    } else if a.json {
        json(&whole)
    } else {
        format!(
            "{} sweep: {} of {} cells\n",
            whole.sweep.part(),
            whole.rows.len(),
            whole.cells
        )
    });
    Ok(())
}
