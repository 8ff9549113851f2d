//! `skyplan tune evaluate`: placeholder until the simulation lands.

use crate::common::Failure;

/// Runs `skyplan tune evaluate`.
pub fn run(_parser: &mut lexopt::Parser) -> Result<(), Failure> {
    Err(Failure::usage("tune evaluate is not implemented yet"))
}
