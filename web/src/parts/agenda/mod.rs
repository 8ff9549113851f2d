//! Agenda (Morpheus §6–§7): the reservation plan on its LCM timeline,
//! dragged with live previews, admissions, one-offs, comparison, exports.

pub mod desk;
pub mod host;
pub mod panel;
pub mod protocol;
pub mod timeline;
pub mod views;
