//! Dynamic resource shaping (the resource-shaping paper §III-B, §IV):
//! `skyplan shape`.

pub mod shape;
