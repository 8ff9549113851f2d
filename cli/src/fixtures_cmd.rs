//! `skyplan fixtures`: write the deterministic demo workspace.

use crate::Failure;
use skyplan_engine::fixtures::{generate, FixtureParams};
use std::path::PathBuf;

/// Runs `skyplan fixtures`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut params = FixtureParams::default();
    let mut out = PathBuf::from("fixtures/demo");
    while let Some(arg) = parser.next()? {
        match arg {
            Long("seed") => {
                let v: String = parser.value()?.string()?;
                params.seed = v.parse().map_err(|_| {
                    Failure::usage(format!("--seed: `{v}` is not a non-negative integer"))
                })?;
            }
            Long("out") => out = parser.value()?.into(),
            Long("days") => params.days = parser.value()?.parse()?,
            Long("daily") => params.daily_jobs = parser.value()?.parse()?,
            Long("hourly") => params.hourly_jobs = parser.value()?.parse()?,
            Long("adhoc") => params.adhoc_jobs = parser.value()?.parse()?,
            Long("servers") => params.servers = parser.value()?.parse()?,
            _ => return Err(arg.unexpected().into()),
        }
    }
    let fx = generate(&params).map_err(|e| Failure::input(e.to_string()))?;
    let files = fx.files();
    std::fs::create_dir_all(&out).map_err(|e| Failure::input(format!("{}: {e}", out.display())))?;
    for (name, content) in [
        ("runs.csv", &files.runs_csv),
        ("utilization.csv", &files.utilization_csv),
        ("native.log", &files.native_log),
    ] {
        let path = out.join(name);
        std::fs::write(&path, content)
            .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        println!("wrote {} ({} bytes)", path.display(), content.len());
    }
    Ok(())
}
