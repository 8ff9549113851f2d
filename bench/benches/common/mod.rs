//! What the native benchmarks share: their command-line options, their
//! clock and the process's own meters (peak memory, CPU time) from `/proc`.
//! The inputs and the timed work are `skyplan_bench::data`, shared
//! with the headless-Chrome benchmarks of `bench/tests/wasm`; this module is
//! what only a native process has. Each benchmark declares `mod common;`
//! and uses what it needs.
#![allow(dead_code)]

use std::time::Instant;

/// The benchmark's command line (`cargo bench … -- ARGS`).
pub struct Args(Vec<String>);

impl Args {
    /// This process's arguments.
    pub fn from_env() -> Self {
        Args(std::env::args().collect())
    }

    /// Whether `--name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.0.iter().any(|a| a == name)
    }

    /// The word after `name`, as given.
    pub fn text(&self, name: &str) -> Option<&str> {
        let i = self.0.iter().position(|a| a == name)?;
        self.0.get(i + 1).map(String::as_str)
    }

    /// The word after `name`, parsed (`None` when missing or not a `T`).
    pub fn value<T: std::str::FromStr>(&self, name: &str) -> Option<T> {
        self.text(name)?.parse().ok()
    }
}

/// Milliseconds since this call: the clock `skyplan_bench::data`'s timing loops take.
pub fn clock() -> impl FnMut() -> f64 {
    let start = Instant::now();
    move || start.elapsed().as_secs_f64() * 1000.0
}

/// Peak resident memory of this process, MiB (Linux `VmHWM`; `None`
/// elsewhere).
pub fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// CPU time of this process (user + system, s), from `/proc/self/stat`
/// (clock ticks at 100 Hz): the machine is shared, wall time is not
/// enough.
pub fn cpu_s() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The load average over 1, 5 and 15 minutes (`/proc/loadavg`), or `?`:
/// timings on a shared machine are read beside it.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}
