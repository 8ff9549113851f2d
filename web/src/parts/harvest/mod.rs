//! The Harvest part: spare cycles of primary tenants for batch work (the
//! harvesting paper, §3–§6) — tenants and their patterns by FFT, classes by
//! K-Means, the harvestable capacity per class and hour, Algorithm 1's
//! class selection for a job, and the task-scheduling simulation of YARN-PT
//! against YARN-H; and the storage view (§3's reimages, §4.2, §6): the
//! reimage × peak grid, Algorithm 2's placement explained, durability and
//! availability against stock HDFS.

pub mod charts;
pub mod desk;
pub mod host;
pub mod panel;
pub mod protocol;
pub mod storage_charts;
pub mod storage_desk;
pub mod storage_host;
pub mod storage_panel;
pub mod storage_protocol;
pub mod storage_views;
pub mod views;
