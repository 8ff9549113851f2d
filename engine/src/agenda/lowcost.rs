//! LowCost (Morpheus §6.3): stages in reverse order, each in an interval
//! proportional to its share of the remaining demand, grown one gang at a
//! time at the cheapest eligible step next to what is already placed (so the
//! allocation stays contiguous), for several end points; the cheapest
//! allocation is kept. A job with several instances per LCM sees, at each
//! offset, the largest cost over its instances.

use super::params::AgendaParams;
use super::placement::{Placement, Rejection};
use super::request::{Interpreter, ReservationRequest, Stage};
use super::view::View;

const EPS: f64 = 1e-9;

/// Why one attempt failed: where, and on what.
struct Fail {
    reason: String,
    step: Option<usize>,
    resource: Option<&'static str>,
}

/// The job's tentative allocation over its window `[a, d)`.
struct Draft {
    a: usize,
    x: Vec<f64>,
}

impl Draft {
    fn at(&self, t: usize) -> f64 {
        self.x[t - self.a]
    }
}

/// Places one stage's work, growing a contiguous run of steps from the right
/// end `r` leftwards (or, with `anywhere`, from the cheapest step of
/// `[lo, r]`), never left of `floor`. Returns the stage's first and last step.
fn place_stage(
    view: &View<'_>,
    draft: &mut Draft,
    stage: &Stage,
    step_secs: f64,
    (mut lo, r, floor): (usize, usize, usize),
    anywhere: bool,
) -> Result<(usize, usize), Fail> {
    let mut left = stage.demand / step_secs;
    let mp = stage.max_parallelism;
    // Work is placed one gang at a time (a container when the gang is
    // fractional or zero), so every iteration makes real progress.
    let unit = if stage.gang >= 1.0 { stage.gang } else { 1.0 };
    let mut own = vec![0.0f64; r + 1 - floor];
    // Per step of [floor, r], what the scan below asks the view, kept:
    // the containers the step holds at cost 1 (the view does not change
    // while a stage is placed), and the cost of one more gang there with
    // the (draft, gang) it was computed for — only the step just placed
    // and a last, smaller gang change it. Each is the view's own answer to
    // the same question, so the placement is the same, bit for bit; the
    // scan is then comparisons instead of a pass over every instance per
    // step and iteration (most of a runway's first plan).
    let mut at_cost_one: Vec<Option<f64>> = vec![None; r + 1 - floor];
    let mut next_cost: Vec<Option<(f64, f64, f64)>> = vec![None; r + 1 - floor];
    let (mut first, mut last) = (usize::MAX, 0usize);
    while left > EPS {
        let (from, to) = if first == usize::MAX {
            if anywhere {
                (lo, r)
            } else {
                (r, r)
            }
        } else {
            (first.saturating_sub(1).max(lo), (last + 1).min(r))
        };
        let mut best: Option<(usize, f64, f64, f64)> = None; // (t, cost, need, max_add)
        let mut second = f64::INFINITY;
        for t in (from..=to).rev() {
            let i = t - floor;
            let mine = own[i];
            let need = unit.min(left);
            let held = draft.at(t);
            let room = *at_cost_one[i].get_or_insert_with(|| view.limit(t, 1.0)) - held;
            let max_add = (mp - mine).min(room).min(left);
            if max_add + 1e-12 < need {
                continue;
            }
            let c = match next_cost[i] {
                Some((h, n, c)) if h == held && n == need => c,
                _ => {
                    let c = view.eff(t, held + need);
                    next_cost[i] = Some((held, need, c));
                    c
                }
            };
            match best {
                Some((_, bc, _, _)) if c >= bc - 1e-12 => second = second.min(c),
                _ => {
                    if let Some((_, bc, _, _)) = best {
                        second = second.min(bc);
                    }
                    best = Some((t, c, need, max_add));
                }
            }
        }
        let Some((t, _, need, max_add)) = best else {
            // Nothing fits next to the stage: widen its interval by a step,
            // down to the floor, before giving up.
            if first != usize::MAX && first > floor && first.saturating_sub(1) < lo {
                lo -= 1;
                continue;
            }
            if first == usize::MAX && lo > floor && anywhere {
                lo -= 1;
                continue;
            }
            let at = if first == usize::MAX {
                r
            } else {
                first.saturating_sub(1).max(floor)
            };
            let (tau, res) = view.binding(at);
            return Err(Fail {
                reason: format!("no room for the stage: {res} full at step {tau}"),
                step: Some(tau),
                resource: Some(res),
            });
        };
        // Batch gangs at `t` while it stays the cheapest; with no other
        // candidate yet, place one gang so the next step becomes eligible.
        let to_second = if second.is_finite() {
            view.limit(t, second) - draft.at(t)
        } else {
            need
        };
        let amount = to_second.max(need).min(max_add);
        draft.x[t - draft.a] += amount;
        own[t - floor] += amount;
        left -= amount;
        first = first.min(t);
        last = last.max(t);
    }
    Ok((first, last))
}

/// One LowCost attempt with the allocation ending before `end`.
fn attempt(
    view: &View<'_>,
    req: &ReservationRequest,
    (a, d, end): (usize, usize, usize),
    step_secs: f64,
    compact: bool,
) -> Result<Draft, Fail> {
    let mut draft = Draft {
        a,
        x: vec![0.0; d - a],
    };
    match req.interpreter {
        Interpreter::ROrderNoGap | Interpreter::ROrder => {
            let anywhere = req.interpreter == Interpreter::ROrder;
            let mut remaining: f64 = req.total_demand();
            let mut r = end - 1;
            for (k, stage) in req.stages.iter().enumerate().rev() {
                let avail = (r + 1 - a) as f64;
                let share = (avail * stage.demand / remaining).ceil();
                let shortest = (stage.demand / step_secs / stage.max_parallelism).ceil();
                // Compact mode (the fallback when proportional intervals leave
                // earlier stages no room): each stage at its shortest.
                let len = if compact {
                    shortest.min(avail)
                } else {
                    share.max(shortest).min(avail)
                } as usize;
                let lo = r + 1 - len.max(1);
                let (first, _) =
                    place_stage(view, &mut draft, stage, step_secs, (lo, r, a), anywhere)?;
                remaining -= stage.demand;
                if k > 0 {
                    if first == a {
                        return Err(Fail {
                            reason: format!(
                                "no time left before the window start for stage {k}'s predecessors"
                            ),
                            step: Some(a),
                            resource: None,
                        });
                    }
                    r = first - 1;
                }
            }
        }
        Interpreter::RAll => {
            for stage in &req.stages {
                place_stage(view, &mut draft, stage, step_secs, (a, end - 1, a), true)?;
            }
        }
        Interpreter::RAny => unreachable!("RAny is placed stage by stage"),
    }
    Ok(draft)
}

/// Score of a draft: the highest cost it leaves on the steps it touches,
/// plus the alignment penalty, then the total cost as a tie-breaker.
fn score(
    view: &View<'_>,
    draft: &Draft,
    req: &ReservationRequest,
    a: usize,
    d: usize,
    weight: f64,
) -> (f64, f64) {
    let (mut peak, mut sum) = (0.0f64, 0.0);
    let (mut first, mut last) = (usize::MAX, 0);
    for (i, &x) in draft.x.iter().enumerate() {
        if x > EPS {
            let c = view.eff(a + i, x);
            peak = peak.max(c);
            sum += c * x;
            first = first.min(i);
            last = i;
        }
    }
    if req.problematic && first != usize::MAX {
        let mid = (first + last) as f64 / 2.0 + a as f64;
        let center = (a + d) as f64 / 2.0;
        let half = ((d - a) as f64 / 2.0).max(1.0);
        peak += weight * (mid - center).abs() / half;
    }
    (peak, sum)
}

/// Places `req` with LowCost in its first instance's window `[a, d)` as
/// `view` shows the plan.
pub(crate) fn place(
    view: &View<'_>,
    req: &ReservationRequest,
    (a, d): (usize, usize),
    params: &AgendaParams,
) -> Result<Placement, Rejection> {
    let step_secs = params.step_secs as f64;
    let weight = params.alignment_weight;
    let to_placement = |draft: Draft| Placement::from_window(draft.a, &draft.x);
    if req.interpreter == Interpreter::RAny {
        let mut best: Option<((f64, f64), Draft)> = None;
        let mut fail = None;
        for stage in &req.stages {
            let single = ReservationRequest {
                stages: vec![*stage],
                interpreter: Interpreter::RAll,
                ..req.clone()
            };
            match search(view, &single, a, d, step_secs, params.end_points, weight) {
                Ok((s, draft)) => {
                    if best.as_ref().is_none_or(|(b, _)| s < *b) {
                        best = Some((s, draft));
                    }
                }
                Err(f) => fail = Some(f),
            }
        }
        return match best {
            Some((_, draft)) => Ok(to_placement(draft)),
            None => Err(rejection(req, fail)),
        };
    }
    search(view, req, a, d, step_secs, params.end_points, weight)
        .map(|(_, draft)| to_placement(draft))
        .map_err(|f| rejection(req, Some(f)))
}

fn rejection(req: &ReservationRequest, fail: Option<Fail>) -> Rejection {
    match fail {
        Some(f) => Rejection {
            name: req.name.clone(),
            reason: f.reason,
            step: f.step,
            resource: f.resource.map(str::to_string),
        },
        None => Rejection::new(&req.name, "no stage fits"),
    }
}

/// Tries the end points and keeps the cheapest draft.
fn search(
    view: &View<'_>,
    req: &ReservationRequest,
    a: usize,
    d: usize,
    step_secs: f64,
    end_points: usize,
    weight: f64,
) -> Result<((f64, f64), Draft), Fail> {
    let shortest: usize = match req.interpreter {
        Interpreter::RAll | Interpreter::RAny => req
            .stages
            .iter()
            .map(|s| (s.demand / step_secs / s.max_parallelism).ceil() as usize)
            .max()
            .unwrap_or(1),
        _ => req
            .stages
            .iter()
            .map(|s| (s.demand / step_secs / s.max_parallelism).ceil() as usize)
            .sum(),
    };
    if shortest > d - a {
        return Err(Fail {
            reason: format!(
                "the window has {} steps but the stages need at least {shortest} at full parallelism",
                d - a
            ),
            step: None,
            resource: None,
        });
    }
    let slack = d - a - shortest;
    let mut ends: Vec<usize> = (0..end_points)
        .map(|j| d - (j as f64 * slack as f64 / end_points as f64).round() as usize)
        .collect();
    ends.dedup();
    let mut best: Option<((f64, f64), Draft)> = None;
    let mut last_fail = None;
    for compact in [false, true] {
        for &end in &ends {
            match attempt(view, req, (a, d, end), step_secs, compact) {
                Ok(draft) => {
                    let s = score(view, &draft, req, a, d, weight);
                    if best
                        .as_ref()
                        .is_none_or(|(b, _)| s.0 < b.0 - 1e-12 || (s.0 <= b.0 + 1e-12 && s.1 < b.1))
                    {
                        best = Some((s, draft));
                    }
                }
                Err(f) => last_fail = Some(f),
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.ok_or_else(|| {
        last_fail.unwrap_or(Fail {
            reason: "no end point works".into(),
            step: None,
            resource: None,
        })
    })
}
