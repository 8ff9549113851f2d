//! The loaders every command shares: trace files streamed from disk into the
//! engine's importer, and the job runs of several files. Commands import
//! this module (and `common`), never each other.

use crate::common::Failure;
use skyplan_engine::import::{ImportError, ImportOptions, Importer};
use skyplan_engine::model::JobRun;
use std::io::Read;

/// Bytes read per chunk: the importer never sees the whole file at once.
const CHUNK: usize = 4 << 20;

/// Streams one file from disk into the engine's importer.
pub fn import_file(
    path: &str,
    options: &ImportOptions,
) -> Result<Result<skyplan_engine::LoadedFile, ImportError>, Failure> {
    let mut file = std::fs::File::open(path).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    let mut importer = Importer::new(path, options.clone());
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file
            .read(&mut buf)
            .map_err(|e| Failure::input(format!("{path}: {e}")))?;
        if n == 0 {
            break;
        }
        importer.push(&buf[..n]);
    }
    Ok(importer.finish())
}

/// [`import_file`], with a file that does not load turned into an input
/// failure listing its first ten errors.
pub fn import_loaded(
    path: &str,
    options: &ImportOptions,
) -> Result<skyplan_engine::LoadedFile, Failure> {
    import_file(path, options)?.map_err(|e| {
        let mut msg = e.to_string();
        for line in e.errors().iter().skip(1).take(9) {
            msg.push_str(&format!("\n  {line}"));
        }
        Failure::input(msg)
    })
}

/// Loads every file (strict) and returns all runs.
pub fn load_runs(files: &[String]) -> Result<Vec<JobRun>, Failure> {
    if files.is_empty() {
        return Err(Failure::usage("at least one FILE is needed"));
    }
    let mut runs = Vec::new();
    for path in files {
        runs.extend(import_loaded(path, &ImportOptions::default())?.data.runs);
    }
    if runs.is_empty() {
        return Err(Failure::input("the files contain no job runs"));
    }
    Ok(runs)
}

/// Loads every file's runs ([`load_runs`]) and hands them to the engine,
/// whose error is bad input.
pub fn with_runs<T, E: std::fmt::Display>(
    files: &[String],
    engine: impl FnOnce(&[JobRun]) -> Result<T, E>,
) -> Result<T, Failure> {
    engine(&load_runs(files)?).map_err(Failure::refused)
}
