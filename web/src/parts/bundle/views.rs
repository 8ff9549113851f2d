//! What a workspace bundle holds, in words, for the page's status line
//! and the notice after opening one.

use skyplan_engine::bundle::Bundle;

/// `n thing(s)` with the plural when `n` is not 1.
fn many(n: usize, one: &str, more: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { more })
}

/// What `bundle` holds: `3 files, 12 SLO decisions, a plan of 12
/// reservations (1 locked), 5 queued jobs, …` — every panel it carries.
pub fn contents(bundle: &Bundle) -> String {
    let kept = bundle.files.iter().filter(|f| f.kept.is_some()).count();
    let files = many(bundle.files.len(), "file", "files");
    let mut parts = vec![
        if kept > 0 {
            format!("{files} ({kept} large import(s) kept as their records, not their bytes)")
        } else {
            files
        },
        many(bundle.decisions.len(), "SLO decision", "SLO decisions"),
    ];
    if let Some(plan) = bundle.agenda.as_ref().and_then(|a| a.plan.as_ref()) {
        let locked = bundle.agenda.as_ref().map_or(0, |a| a.locked.len());
        let reservations = many(plan.reservations().len(), "reservation", "reservations");
        parts.push(if locked > 0 {
            format!("a plan of {reservations} ({locked} locked)")
        } else {
            format!("a plan of {reservations}")
        });
    }
    if let Some(p) = &bundle.pricing {
        parts.push(many(p.queue.len(), "queued job", "queued jobs"));
    }
    if let Some(h) = &bundle.harvest {
        let files = [
            h.tenants.as_ref().map(|_| "tenants"),
            h.reimages.as_ref().map(|_| "reimages"),
            h.machines.as_ref().map(|_| "machine tables"),
        ];
        let named: Vec<&str> = files.into_iter().flatten().collect();
        if !named.is_empty() {
            parts.push(format!("harvest {}", named.join(" + ")));
        }
    }
    if let Some(s) = &bundle.shaping {
        if let Some(f) = &s.files {
            parts.push(many(f.files.len(), "shaping file", "shaping files"));
        }
        if s.settings.is_some() {
            parts.push("shaping settings".into());
        }
    }
    if let Some(t) = &bundle.tuning {
        parts.push(match &t.xml {
            Some((name, _)) => format!("tuning settings with {name}"),
            None => "tuning settings".into(),
        });
    }
    if bundle.forecast.is_some() {
        parts.push("forecast settings".into());
    }
    if bundle.runway.is_some() {
        parts.push("runway settings".into());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use skyplan_engine::bundle::{BundleFile, ForecastState, TuningState};

    #[test]
    fn says_what_each_panel_brings() {
        let mut bundle = Bundle::default();
        assert_eq!(contents(&bundle), "0 files, 0 SLO decisions");
        bundle.files.push(BundleFile {
            name: "a.csv".into(),
            format: None,
            lenient: false,
            bytes: b"x".to_vec(),
            kept: None,
        });
        bundle.tuning = Some(TuningState {
            xml: Some(("capacity-scheduler.xml".into(), String::new())),
            ..TuningState::default()
        });
        bundle.forecast = Some(ForecastState::default());
        assert_eq!(
            contents(&bundle),
            "1 file, 0 SLO decisions, tuning settings with capacity-scheduler.xml, forecast settings"
        );
    }
}
