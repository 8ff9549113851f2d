//! Every command, one folder per part of the product (the same parts as the
//! engine's modules and the studio's panels). A command imports `common`,
//! `input` and its own folder's shared files, never another command.

pub mod agenda;
pub mod forecast;
pub mod harvest;
pub mod pricing;
pub mod report;
pub mod runway;
pub mod shaping;
pub mod slos;
pub mod sweep;
pub mod tuning;
pub mod workspace;
