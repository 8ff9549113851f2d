//! Harvesting (the harvesting paper): `skyplan harvest`, one command whose
//! compute subcommands (classify, capacity, select, simulate) live in
//! `cycles` (Figures 13–14 on ten generated datacenters in `figures`, the
//! grid over size, level and scaling — `skyplan sweep harvest` — in `sweep`) and whose storage
//! subcommands (reimages, place, simulate-durability,
//! simulate-availability) live in `storage`.

pub mod cycles;
pub mod figures;
pub mod storage;
pub mod sweep;
