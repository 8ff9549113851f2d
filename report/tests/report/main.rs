//! The plan report on the demo bundle, on absent inputs and on hostile names
//! (`common`: the bundle builders and checks). One test binary for the crate.

mod common;

mod absent;
mod demo;
mod escaping;
