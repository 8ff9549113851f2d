//! Admission of SLO decisions into the kept plan: the demo's decisions
//! (fixtures/demo/decisions.csv, read by the importer's reader) on a
//! derived capacity and on one too small.

use super::*;
use crate::import::read_decisions_csv;
use crate::slo::SloDecision;

fn demo() -> Vec<SloDecision> {
    read_decisions_csv(
        "decisions.csv",
        include_str!("../../../fixtures/demo/decisions.csv"),
    )
    .expect("the demo's decisions read")
}

#[test]
fn the_demo_decisions_are_placed_or_refused_on_a_derived_capacity() {
    let decisions = demo();
    let params = AgendaParams::default();
    let mut state = AgendaState::default();
    let admitted = state
        .admit_decisions(&params, &decisions, Method::LowCost, 1.0)
        .expect("admitted");
    assert!(admitted.requested >= decisions.len());
    // What is not placed is refused, with its reason (on the demo's
    // derived capacity two requests do not fit, as the studio shows).
    assert_eq!(
        admitted.placed + state.refused.len(),
        admitted.requested,
        "{:?}",
        admitted.problems
    );
    let origin = state.origin.expect("an origin");
    assert_eq!(origin % 86_400, 0);
    assert!(origin <= decisions.iter().map(|d| d.reference).min().unwrap());
    assert!(state.capacity_note.is_some(), "the capacity was derived");
    // What is left to admit is exactly the refused jobs.
    let left: Vec<String> = state
        .admissible(&decisions)
        .into_iter()
        .map(|d| d.job)
        .collect();
    for (name, _) in &state.refused {
        assert!(
            left.iter().any(|job| of_job(name, job)),
            "{name} not admissible"
        );
    }
    assert!(left.len() <= state.refused.len());
    let n = state.plan.as_ref().unwrap().reservations().len();
    assert_eq!(n, admitted.placed);
}

#[test]
fn refusals_are_kept_with_their_reasons_until_placed() {
    let decisions = demo();
    let params = AgendaParams::default();
    let mut state = AgendaState {
        capacity: Some(Capacity {
            cores: 2.0,
            memory_mb: 8192.0,
        }),
        capacity_note: Some("Set by you.".into()),
        ..AgendaState::default()
    };
    let before = state.clone();
    let admitted = state
        .admit_decisions(&params, &decisions, Method::LowCost, 1.0)
        .expect("admitted");
    assert!(
        admitted.placed < admitted.requested,
        "2 cores hold everything?"
    );
    assert!(!state.refused.is_empty());
    for (name, why) in &state.refused {
        assert!(!why.is_empty(), "{name} refused without a reason");
        assert!(decisions.iter().any(|d| of_job(name, &d.job)), "{name}");
    }
    // Nothing refused is in the plan.
    let plan = state.plan.as_ref().unwrap();
    for (name, _) in &state.refused {
        assert!(plan.reservations().iter().all(|r| &r.request.name != name));
    }
    // An empty admission changes nothing.
    let mut again = before.clone();
    assert!(again
        .admit_decisions(&params, &[], Method::LowCost, 1.0)
        .is_err());
    assert_eq!(again, before);
}
