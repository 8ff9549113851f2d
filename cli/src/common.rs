//! What every command shares: its failure (message and exit code) and the
//! one-shot writer of its output. Below `main.rs` (which dispatches to the
//! commands) and the commands, so no command imports the dispatcher.

/// Writes a command's whole output to stdout at once. A closed pipe (as in
/// `skyplan skyline … | head`) is not an error.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// `v` as every command prints JSON: pretty, with a final newline.
pub fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

/// Writes `v` as JSON ([`json`]) to stdout.
pub fn emit_json<T: serde::Serialize + ?Sized>(v: &T) {
    emit(&json(v));
}

/// Writes a command's report: as JSON ([`emit_json`]) with `--json`,
/// otherwise as `text` renders it.
pub fn emit_report<T: serde::Serialize + ?Sized>(
    json: bool,
    report: &T,
    text: impl FnOnce(&T) -> String,
) {
    if json {
        emit_json(report);
    } else {
        emit(&text(report));
    }
}

/// A command's failure: the message and the exit code.
pub struct Failure {
    /// What went wrong, one line (located input errors may list more).
    pub message: String,
    /// 1 for bad input, 2 for bad usage.
    pub code: u8,
}

impl Failure {
    /// Bad input (exit 1).
    pub fn input(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 1,
        }
    }

    /// Bad input (exit 1) the engine refused: its error's message.
    pub fn refused(e: impl std::fmt::Display) -> Self {
        Failure::input(e.to_string())
    }

    /// Bad usage (exit 2). The dispatcher adds a pointer to the command's
    /// help.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// Whether this is bad usage.
    pub fn is_usage(&self) -> bool {
        self.code == 2
    }
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Self {
        Failure::usage(e.to_string())
    }
}

/// Located input errors as one failure, the way `skyplan import` lists
/// them: the first ten, then how many more.
pub fn located<E: std::fmt::Display>(errors: impl IntoIterator<Item = E>) -> Failure {
    use std::fmt::Write as _;
    let errors: Vec<String> = errors.into_iter().map(|e| e.to_string()).collect();
    let mut msg = errors.first().cloned().unwrap_or_default();
    for e in errors.iter().skip(1).take(9) {
        let _ = write!(msg, "\n  {e}");
    }
    if errors.len() > 10 {
        let _ = write!(msg, "\n  … and {} more", errors.len() - 10);
    }
    Failure::input(msg)
}
