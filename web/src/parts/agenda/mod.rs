//! Agenda (Morpheus §6–§7): the reservation plan on its LCM timeline,
//! dragged with live previews, admissions, one-offs, comparison, exports.

pub mod protocol;
page_side! {
    pub mod desk;
    pub mod panel;
    pub mod timeline;
}
worker_side! {
    pub mod host;
    pub mod views;
}
