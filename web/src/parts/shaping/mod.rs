//! The Shaping part: dynamic resource shaping (the resource-shaping paper,
//! §III-B, §IV) on a generated workload or one read from files — the
//! reservation baseline against the shaped run, an application's and a
//! host's timelines side by side, Figure 2's policies as box plots, the
//! K1 × K2 heat maps with the recommended cell, and exports.

pub mod protocol;
page_side! {
    pub mod charts;
    pub mod desk;
    pub mod panel;
}
worker_side! {
    pub mod host;
    pub mod saved;
    pub mod views;
}
