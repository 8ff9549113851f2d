//! The agenda part (Morpheus §6–§7): `skyplan plan`.

pub mod plan;
