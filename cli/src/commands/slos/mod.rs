//! The SLOs part (Morpheus §4–§5, §9): `skyplan slo`, `skyplan skyline`
//! and `skyplan replay`.

pub mod replay;
pub mod slo;
