//! `skyplan`: the command-line front end over the engine, for batch use.
//!
//! Every command reads its files here (the engine does no I/O), hands bytes
//! and parameters to the engine, and prints plain text or, with `--json`,
//! machine-readable output. Bad input gives a clear message and exit code 1;
//! bad usage exit code 2.
//!
//! Each command's module exposes its `run` function and its `HELP` text;
//! [`COMMANDS`] lists them, and drives both dispatch and help, so adding a
//! command is one line there.

mod commands;
mod common;
mod input;
mod sweep_run;
mod workspace_bundle;

use commands::{
    agenda, forecast, harvest, pricing, report, runway, shaping, slos, sweep, tuning, workspace,
};
use common::Failure;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::process::ExitCode;

/// One command: its name, a one-line summary for the global help, its own
/// help text and what runs it.
struct Command {
    name: &'static str,
    summary: &'static str,
    help: &'static str,
    run: fn(&mut lexopt::Parser) -> Result<(), Failure>,
}

/// Every command, in the order the global help lists them.
const COMMANDS: &[Command] = &[
    Command {
        name: "runway",
        summary: "when the cluster runs out, what to add and when, what each lever buys",
        help: runway::HELP,
        run: runway::run,
    },
    Command {
        name: "import",
        summary: "read traces and print what was loaded, or every bad line",
        help: workspace::import::HELP,
        run: workspace::import::run,
    },
    Command {
        name: "fixtures",
        summary: "write the deterministic demo workspace",
        help: workspace::fixtures::HELP,
        run: workspace::fixtures::run,
    },
    Command {
        name: "bundle",
        summary: "write a workspace bundle (.skyplan) the studio opens",
        help: workspace::bundle::HELP,
        run: workspace::bundle::run,
    },
    Command {
        name: "slo",
        summary: "recurring jobs and their inferred SLOs (Morpheus §4)",
        help: slos::slo::SLO_HELP,
        run: slos::slo::slo,
    },
    Command {
        name: "skyline",
        summary: "the LP reservation skyline R* of one job (Morpheus §5)",
        help: slos::slo::SKYLINE_HELP,
        run: slos::slo::skyline,
    },
    Command {
        name: "replay",
        summary: "SLO misses and cluster size, users against Morpheus (§9)",
        help: slos::replay::HELP,
        run: slos::replay::run,
    },
    Command {
        name: "plan",
        summary: "place reservations and SLOs on the cluster (Morpheus §6)",
        help: agenda::plan::HELP,
        run: agenda::plan::run,
    },
    Command {
        name: "estimate",
        summary: "processing-time estimates of a job's phases (MRM §3.2)",
        help: pricing::estimate::HELP,
        run: pricing::estimate::run,
    },
    Command {
        name: "quote",
        summary: "the price–deadline curve of a new job (MRM §4.2, §5)",
        help: pricing::quote::HELP,
        run: pricing::quote::run,
    },
    Command {
        name: "simulate-pricing",
        summary: "MRM §6.3: priced deadlines against FCFS and priority",
        help: pricing::simulate::HELP,
        run: pricing::simulate::run,
    },
    Command {
        name: "forecast",
        summary: "forecasts of a utilization series with prediction intervals",
        help: forecast::HELP,
        run: forecast::run,
    },
    Command {
        name: "tune",
        summary: "tune YARN Capacity/Fair scheduler configurations (AdaptiveConfig)",
        help: tuning::HELP,
        run: tuning::run,
    },
    Command {
        name: "harvest",
        summary: "primary tenants' patterns, classes, Algorithm 1, scheduling simulation",
        help: harvest::cycles::HELP,
        run: harvest::cycles::run,
    },
    Command {
        name: "shape",
        summary: "dynamic resource shaping: the §IV simulation and the K1 × K2 grid",
        help: shaping::shape::HELP,
        run: shaping::shape::run,
    },
    Command {
        name: "sweep",
        summary: "a lever's benefit against its regime: a grid of runs, on every core or as cells to merge",
        help: sweep::HELP,
        run: sweep::run,
    },
    Command {
        name: "report",
        summary: "a workspace bundle as one self-contained HTML plan report",
        help: report::HELP,
        run: report::run,
    },
];

/// `skyplan --version`.
const VERSION: &str = concat!("skyplan ", env!("CARGO_PKG_VERSION"), "\n");

/// `skyplan --help`: the commands, one line each.
fn global_help() -> String {
    let width = COMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut out = String::from(
        "\
skyplan — capacity planning from cluster traces

USAGE:
    skyplan COMMAND [ARGS...]
    skyplan help COMMAND      a command's usage, options and defaults
    skyplan COMMAND --help    the same (also -h)
    skyplan --help | -h       this help
    skyplan --version | -V    the version

COMMANDS:
",
    );
    for c in COMMANDS {
        let _ = writeln!(out, "    {:<width$}  {}", c.name, c.summary);
    }
    let _ = writeln!(out, "    {:<width$}  this help, or a command's", "help");
    out.push_str(
        "
Run 'skyplan help COMMAND' for more about a command.
Commands print plain text, or JSON with --json. Exit codes: 0 success,
1 bad input (with the file, line and column when there is one), 2 bad usage.
",
    );
    out
}

fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// A usage failure outside any command (exit 2, pointing at the global help).
fn global_usage(message: impl Into<String>) -> Failure {
    Failure::usage(format!("{}\ntry 'skyplan --help'", message.into()))
}

fn is_help(arg: &OsString) -> bool {
    arg == "--help" || arg == "-h"
}

/// Whether a command's arguments ask for its help: `--help` or `-h` anywhere
/// before a `--` (after which everything is a file name).
fn asks_for_help(args: &[OsString]) -> bool {
    args.iter().take_while(|a| *a != "--").any(is_help)
}

fn run(args: Vec<OsString>) -> Result<(), Failure> {
    let Some(first) = args.first() else {
        common::emit(&global_help());
        return Ok(());
    };
    if is_help(first) {
        common::emit(&global_help());
        return Ok(());
    }
    if first == "--version" || first == "-V" {
        common::emit(VERSION);
        return Ok(());
    }
    let Some(name) = first.to_str() else {
        return Err(global_usage(format!(
            "unknown command {}",
            first.to_string_lossy()
        )));
    };
    if name == "help" {
        return match &args[1..] {
            [] => {
                common::emit(&global_help());
                Ok(())
            }
            [topic] if topic == "help" => {
                common::emit(&global_help());
                Ok(())
            }
            [topic] => match topic.to_str().and_then(find) {
                Some(c) => {
                    common::emit(c.help);
                    Ok(())
                }
                None => Err(global_usage(format!(
                    "unknown command `{}`",
                    topic.to_string_lossy()
                ))),
            },
            _ => Err(global_usage("help takes one COMMAND")),
        };
    }
    if name.starts_with('-') {
        return Err(global_usage(format!("invalid option '{name}'")));
    }
    let Some(command) = find(name) else {
        return Err(global_usage(format!("unknown command `{name}`")));
    };
    let rest = &args[1..];
    if asks_for_help(rest) {
        common::emit(command.help);
        return Ok(());
    }
    let mut parser = lexopt::Parser::from_args(rest.iter().cloned());
    (command.run)(&mut parser).map_err(|mut f| {
        if f.is_usage() {
            let _ = write!(f.message, "\ntry 'skyplan {} --help'", command.name);
        }
        f
    })
}

fn main() -> ExitCode {
    match run(std::env::args_os().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("skyplan: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
