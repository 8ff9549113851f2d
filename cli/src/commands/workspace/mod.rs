//! Commands on the workspace itself: `skyplan import` (read traces, list
//! what loaded or every bad line), `skyplan fixtures` (write the demo) and
//! `skyplan bundle` (the workspace as one file the studio opens).

pub mod bundle;
pub mod fixtures;
pub mod import;
