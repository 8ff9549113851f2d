//! Runway (issue 36): with this cluster and this growth, when each limit is
//! reached (P10/P50/P90), the binding one, the purchase schedules and what
//! each lever buys at the grown load — `skyplan runway` and the report's
//! first section, computed in the worker from the same bundle the report
//! and Save build from the studio's state (`skyplan_report::runway`).

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
