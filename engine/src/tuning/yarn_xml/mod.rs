//! YARN's scheduler files, in and out: `capacity-scheduler.xml` (Hadoop
//! configuration properties `yarn.scheduler.capacity.<queue path>.…`) and
//! the Fair Scheduler allocation file (`<allocations>` with nested
//! `<queue name="…">` elements), as in Hadoop's CapacityScheduler.md and
//! FairScheduler.md.
//!
//! A tuning group is one parent queue (by default `root`); its children
//! are the group's priority queues. Reading gives the group's
//! [`GroupConfig`](crate::tuning::GroupConfig); writing either produces a fresh file or, better,
//! [`update_capacity_xml`] / [`update_fair_xml`] rewrite only the tuned
//! values in the user's own file, leaving every other property, comment
//! and queue as it was, so the tuned file can go straight back to the
//! cluster.
//!
//! Errors carry the line and column of the offending element or value:
//! malformed XML, properties or elements YARN does not define, values that
//! do not parse, and a parent whose children's capacities do not sum to
//! 100.
//!
//! One file per scheduler, [`capacity`] and [`fair`], over `xml` (the
//! located errors and the in-place writing both share); this file only
//! declares them and re-exports their public names.

pub mod capacity;
pub mod fair;
#[cfg(test)]
mod tests;
mod xml;

pub use capacity::{
    read_capacity_xml, read_capacity_xml_with_warnings, update_capacity_xml, write_capacity_xml,
};
pub use fair::{
    read_fair_xml, read_fair_xml_with_warnings, update_fair_xml, write_fair_xml, FairContext,
};
pub use xml::XmlError;
