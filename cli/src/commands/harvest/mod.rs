//! Harvesting (the harvesting paper): `skyplan harvest`, one command whose
//! compute subcommands (classify, capacity, select, simulate) live in
//! `cycles` and whose storage subcommands (reimages, place,
//! simulate-durability, simulate-availability) live in `storage`.

pub mod cycles;
pub mod storage;
