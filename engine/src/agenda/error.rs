//! Why a plan could not be set up, a request is malformed or a reservation
//! is missing. The lowest layer of the agenda: it imports nothing of it.

/// Why a plan could not be set up or a request is malformed.
#[derive(Clone, Debug, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum AgendaError {
    /// A setting is out of range.
    #[error("agenda parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A request is malformed.
    #[error("request `{name}`: {why}")]
    Request {
        /// The request.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// No reservation has that id.
    #[error("no reservation with id {0}")]
    NoSuchReservation(u32),
}
