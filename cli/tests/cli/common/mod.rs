//! Helpers shared by the CLI's integration tests (one file per part of the
//! CLI under `cli/tests/`): the `skyplan` runner, temporary input files,
//! the real traces' paths and the readers of a command's help.
//!
//! Every test runs the binary from the workspace root, so fixture paths such
//! as `fixtures/demo/runs.csv` and `fixtures/real/...` are relative to it.
//! Not every test file uses every helper, hence the `allow(dead_code)`s.

use std::process::Command;

/// Runs `skyplan ARGS` from the workspace root: `(exit code, stdout, stderr)`.
pub fn skyplan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skyplan"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run skyplan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `skyplan ARGS`, which must succeed (exit 0; its stderr shown
/// otherwise): its stdout.
#[allow(dead_code)]
pub fn skyplan_ok(args: &[&str]) -> String {
    let (code, out, err) = skyplan(args);
    assert_eq!(code, 0, "{err}");
    out
}

/// Writes `content` to `name` in this test process's temporary directory
/// (`skyplan-cli-PID`) and returns its path.
#[allow(dead_code)]
pub fn temp_file(name: &str, content: &str) -> String {
    temp_bytes(name, content.as_bytes())
}

/// [`temp_file`] with bytes (a compressed file).
#[allow(dead_code)]
pub fn temp_bytes(name: &str, content: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("skyplan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p.to_string_lossy().into_owned()
}

/// The SWIM Facebook 2009 sample trace (`estimate`, `tune`).
#[allow(dead_code)]
pub const SWIM: &str = "fixtures/real/swim/FB-2009_samples_24_times_1hr_0.tsv";

/// The text of `opt`'s entry in a help's option list: its line (starting
/// with four spaces and the option) and the continuation lines after it,
/// whitespace collapsed.
#[allow(dead_code)]
pub fn option_text(help: &str, opt: &str) -> String {
    let mut lines = help
        .lines()
        .skip_while(|l| !(l.starts_with("    --") && l.split_whitespace().next() == Some(opt)));
    let Some(first) = lines.next() else {
        panic!("no entry for {opt} in\n{help}");
    };
    let mut text = first.to_owned();
    for l in lines {
        let t = l.trim_start();
        if l.len() - t.len() <= 4 || t.starts_with("--") || t.is_empty() {
            break;
        }
        text.push(' ');
        text.push_str(t);
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The default `opt`'s entry states: what follows `(default ` up to the
/// closing parenthesis.
#[allow(dead_code)]
pub fn default_of(help: &str, opt: &str) -> String {
    let text = option_text(help, opt);
    let Some(at) = text.find("(default") else {
        panic!("{opt} states no default: {text}");
    };
    let rest = &text[at + "(default".len()..];
    let end = rest.find(')').expect("closing parenthesis");
    rest[..end].trim().to_owned()
}
