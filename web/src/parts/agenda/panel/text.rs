//! Plan times and reservations in words, as the Agenda panel's cards
//! show them.

use crate::parts::agenda::protocol::{AgendaView, ReservationView};
use crate::parts::agenda::timeline::clock;
use skyplan_engine::time::format_duration;

/// `HH:MM` of a step of the plan.
pub fn at(view: &AgendaView, step: usize) -> String {
    clock(step as f64, view.step_secs)
}

/// A reservation's recurrence in words.
pub fn kind(r: &ReservationView) -> String {
    match r.period_secs {
        Some(p) if r.instances > 1 => {
            format!("every {} ×{}", format_duration(p), r.instances)
        }
        Some(p) => format!("every {}", format_duration(p)),
        None => "one-off".into(),
    }
}
