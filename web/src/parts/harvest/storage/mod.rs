//! The Harvest part's storage half (§3's reimages, §4.2, §6): the reimage
//! × peak grid, Algorithm 2's placement explained, durability and
//! availability against stock HDFS.

pub mod protocol;
page_side! {
    pub mod charts;
    pub mod desk;
    pub mod panel;
}
worker_side! {
    pub mod host;
    pub mod views;
}
