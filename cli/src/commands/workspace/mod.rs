//! Commands on the workspace itself: `skyplan import` (read traces, list
//! what loaded or every bad line) and `skyplan fixtures` (write the demo).

pub mod fixtures;
pub mod import;
