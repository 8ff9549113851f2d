//! The Agenda panel's plan as the studio keeps it and a workspace bundle
//! carries it, and the one way SLO decisions are admitted into it — the
//! studio's "Admit" and `skyplan bundle` call the same function, so a plan
//! built by either is the same plan.

use super::capacity::derived_capacity;
use super::from_slo::{of_job, requests_from_decisions};
use super::params::AgendaParams;
use super::plan::{Method, Plan};
use super::request::{Capacity, Recurrence};
use crate::model::Timestamp;
use crate::slo::{DecisionKind, SloDecision};
use serde::{Deserialize, Serialize};

/// The plan: what it packs, on what, from when, and what it could not
/// place.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgendaState {
    /// 00:00 UTC of the plan's first step.
    pub origin: Option<Timestamp>,
    /// The capacity, once known.
    pub capacity: Option<Capacity>,
    /// How the capacity was set (derived from the first requests, or the
    /// planner's).
    pub capacity_note: Option<String>,
    /// The plan — requests, placements (with locks), load — once something
    /// was admitted.
    pub plan: Option<Plan>,
    /// The reservations the planner locked (plan ids, ascending): the
    /// batch optimizer leaves them where they are. Absent in records saved
    /// before locks were kept.
    #[serde(default)]
    pub locked: Vec<u32>,
    /// Requests of the admissions so far that are not in the plan, each with
    /// why (latest reason per name); a request placed later leaves the list.
    /// Absent in records saved before it was kept.
    #[serde(default)]
    pub refused: Vec<(String, String)>,
}

/// What an admission did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Admission {
    /// Requests built from the decisions.
    pub requested: usize,
    /// Of those, placed.
    pub placed: usize,
    /// Decisions that gave no request, requests not placed and placed ones
    /// displaced, each with why.
    pub problems: Vec<(String, String)>,
}

/// 00:00 UTC of the day of `t`.
pub fn day_of(t: Timestamp) -> Timestamp {
    t - t.rem_euclid(86_400)
}

impl AgendaState {
    /// The decisions not yet in the plan and not rejected: what "Admit"
    /// places.
    pub fn admissible<'a>(
        &self,
        decisions: impl IntoIterator<Item = &'a SloDecision>,
    ) -> Vec<SloDecision> {
        let placed: Vec<&str> = self
            .plan
            .iter()
            .flat_map(|p| p.reservations())
            .map(|r| r.request.name.as_str())
            .collect();
        decisions
            .into_iter()
            .filter(|d| d.kind != DecisionKind::Rejected)
            .filter(|d| !placed.iter().any(|name| of_job(name, &d.job)))
            .cloned()
            .collect()
    }

    /// Makes sure there is a plan, deriving the capacity from `requests`
    /// (1.25 × the lower bound on their peak) when none is set.
    pub fn ensure_plan(
        &mut self,
        params: &AgendaParams,
        requests: &[super::request::ReservationRequest],
    ) -> Result<(), String> {
        if self.plan.is_some() {
            return Ok(());
        }
        let capacity = match self.capacity {
            Some(c) => c,
            None => {
                let (c, note) = derived_capacity(params, requests).map_err(|e| e.to_string())?;
                self.capacity_note = Some(note);
                c
            }
        };
        let plan = Plan::new(params.clone(), vec![capacity]).map_err(|e| e.to_string())?;
        self.capacity = Some(capacity);
        self.plan = Some(plan);
        Ok(())
    }

    /// Admits `decisions` by `method`, periodic requests first (they take
    /// precedence), then one-offs, each stage stretched down to
    /// `min_parallelism` containers (`f64::INFINITY`: as fitted). The
    /// plan's origin is 00:00 UTC of the day of the earliest reference
    /// when none is set. On an error nothing changes.
    pub fn admit_decisions(
        &mut self,
        params: &AgendaParams,
        decisions: &[SloDecision],
        method: Method,
        min_parallelism: f64,
    ) -> Result<Admission, String> {
        if decisions.is_empty() {
            return Err("no signed-off or overridden SLO to admit".into());
        }
        let origin = self
            .origin
            .unwrap_or_else(|| day_of(decisions.iter().map(|d| d.reference).min().unwrap_or(0)));
        let (requests, skipped) =
            requests_from_decisions(decisions, origin, params, min_parallelism);
        if requests.is_empty() {
            let why: Vec<String> = skipped.iter().map(|(j, w)| format!("{j}: {w}")).collect();
            return Err(format!("nothing to place. {}", why.join("; ")));
        }
        let (mut ordered, one_offs): (Vec<_>, Vec<_>) = requests
            .into_iter()
            .partition(|r| matches!(r.recurrence, Recurrence::Periodic { .. }));
        ordered.extend(one_offs);
        let before = self.clone();
        if let Err(why) = self.ensure_plan(params, &ordered) {
            *self = before;
            return Err(why);
        }
        self.origin = Some(origin);
        let mut problems = skipped;
        let mut placed = 0;
        let requested = ordered.len();
        if let Some(plan) = self.plan.as_mut() {
            for request in ordered {
                match plan.admit(request, method) {
                    Ok((_, displaced)) => {
                        placed += 1;
                        problems.extend(displaced.into_iter().map(|r| (r.name, r.reason)));
                    }
                    Err(r) => problems.push((r.name, r.reason)),
                }
            }
        }
        self.note_refused(&problems);
        Ok(Admission {
            requested,
            placed,
            problems,
        })
    }

    /// Records `problems` as refused (latest reason per name) and drops
    /// from the list whatever the plan now holds.
    pub fn note_refused(&mut self, problems: &[(String, String)]) {
        for (name, why) in problems {
            match self.refused.iter_mut().find(|(n, _)| n == name) {
                Some(entry) => entry.1 = why.clone(),
                None => self.refused.push((name.clone(), why.clone())),
            }
        }
        let placed: Vec<String> = self
            .plan
            .iter()
            .flat_map(|p| p.reservations())
            .map(|r| r.request.name.clone())
            .collect();
        self.refused.retain(|(n, _)| !placed.contains(n));
    }
}
