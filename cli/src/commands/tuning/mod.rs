//! Scheduler configuration tuning (AdaptiveConfig): `skyplan tune` and
//! `skyplan tune evaluate`, routed here by the first argument so neither
//! command imports the other.

pub mod evaluate;
pub mod sweep;
pub mod tune;

use crate::common::Failure;

/// `skyplan tune --help`.
pub const HELP: &str = tune::HELP;

/// Runs `skyplan tune evaluate` when the first argument is `evaluate`, and
/// `skyplan tune` otherwise.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let evaluate = match parser.try_raw_args() {
        Some(mut raw) if raw.peek().is_some_and(|a| a == "evaluate") => {
            raw.next();
            true
        }
        _ => false,
    };
    if evaluate {
        evaluate::run(parser)
    } else {
        tune::run(parser)
    }
}
