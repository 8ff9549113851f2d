//! Dynamic resource shaping (the resource-shaping paper §III-B, §IV):
//! `skyplan shape`, and `skyplan sweep shaping` (where shaping pays,
//! against offered load).

pub mod options;
pub mod shape;
pub mod sweep;
