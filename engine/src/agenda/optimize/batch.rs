//! The optimizer's entry points: a plan's unlocked reservations, or a new
//! batch of requests, placed together to minimize the peak cost, with a
//! certified lower bound. The start is LowCost's plan (and, for a batch,
//! the requests inserted largest first at their best positions, whichever
//! is lower); the search improves it; the integer program finishes small
//! plans of fixed-shape requests.

use super::bound::{certify, relaxation};
use super::item::{Board, Item, Rigid};
use super::params::{
    BoundKind, OptimizeError, OptimizeParams, OptimizeProgress, OptimizeReport, OptimizeStage,
};
use super::search::Search;
use crate::agenda::placement::Rejection;
use crate::agenda::plan::{Method, Plan, Reservation};
use crate::agenda::request::ReservationRequest;
use crate::agenda::view::{size_of, RESOURCES};

/// An optimized plan and how good it is.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Optimized {
    /// The plan: locked reservations as they were, the others re-placed
    /// (method [`Method::Optimized`], ids kept).
    pub plan: Plan,
    /// Peak, bound and gap.
    pub report: OptimizeReport,
}

fn load_of(plan: &Plan, reservations: &[&Reservation]) -> Vec<[f64; 2]> {
    let steps = plan.steps();
    let mut load = vec![[0.0; 2]; steps];
    for r in reservations {
        let size = size_of(&r.request);
        for (t, c) in r.occupied(steps) {
            load[t][0] += c * size[0];
            load[t][1] += c * size[1];
        }
    }
    load
}

fn item_of(r: &Reservation, step_secs: f64) -> Item {
    Item {
        id: Some(r.id),
        req: r.request.clone(),
        window: r.window,
        period: r.period_steps,
        instances: r.instances,
        size: size_of(&r.request),
        rigid: Rigid::of(&r.request, step_secs),
        start: r.start,
        alloc: r.alloc.clone(),
        placed: true,
    }
}

/// Re-places the reservations of `plan` not in `locked` together, to
/// minimize the plan's peak cost; locked reservations never move. The
/// result is never worse than the plan given.
pub fn optimize_plan(
    plan: &Plan,
    locked: &[u32],
    params: &OptimizeParams,
) -> Result<Optimized, OptimizeError> {
    optimize_plan_with_progress(plan, locked, params, &mut |_| {})
}

/// [`optimize_plan`], reporting its stages and moves to `progress` (the
/// studio's worker forwards them to a progress bar).
pub fn optimize_plan_with_progress(
    plan: &Plan,
    locked: &[u32],
    params: &OptimizeParams,
    progress: &mut dyn FnMut(OptimizeProgress),
) -> Result<Optimized, OptimizeError> {
    params.validate()?;
    tell(progress, params, OptimizeStage::Start, 0);
    if let Some(&id) = locked.iter().find(|&&id| plan.reservation(id).is_none()) {
        return Err(OptimizeError::NoSuchReservation(id));
    }
    let step = plan.params().step_secs as f64;
    let (fixed, free): (Vec<&Reservation>, Vec<&Reservation>) = plan
        .reservations()
        .iter()
        .partition(|r| locked.contains(&r.id));
    let items: Vec<Item> = free.iter().map(|r| item_of(r, step)).collect();
    let mut board = Board::new(plan.capacity().to_vec(), load_of(plan, &fixed));
    for (k, item) in items.iter().enumerate() {
        board.apply(k, item, 1.0);
    }
    let start_peak = plan.peak();
    let before: Vec<(usize, Vec<f64>)> = items.iter().map(|i| (i.start, i.alloc.clone())).collect();
    let search = Search::new(board, items, plan.params(), params.seed);
    let (search, report) = finish(search, params, step, start_peak, progress, Goal::Lowest)?;
    let mut out = plan.clone();
    for item in &search.items {
        out.remove(item.id.expect("from the plan"));
    }
    let mut moved = 0;
    for (item, (s, a)) in search.items.iter().zip(before) {
        moved += usize::from(item.start != s || item.alloc != a);
        let method = if item.start == s && item.alloc == a {
            plan.reservation(item.id.expect("from the plan"))
                .map_or(Method::Optimized, |r| r.method)
        } else {
            Method::Optimized
        };
        out.insert_placed(
            item.req.clone(),
            method,
            (item.start, item.alloc.clone()),
            item.id,
        )
        .map_err(|e| OptimizeError::Request(e.to_string()))?;
    }
    Ok(Optimized {
        plan: out,
        report: OptimizeReport {
            moved,
            locked: fixed.len(),
            ..report
        },
    })
}

/// Places a batch of requests on `plan` (its reservations stay where they
/// are) minimizing the peak cost. Fails, naming a request, when no
/// placement found fits them all within capacity.
pub fn optimize_batch(
    plan: &Plan,
    requests: &[ReservationRequest],
    params: &OptimizeParams,
) -> Result<Optimized, OptimizeError> {
    optimize_batch_with_progress(plan, requests, params, &mut |_| {})
}

/// [`optimize_batch`], reporting its stages and moves to `progress`.
pub fn optimize_batch_with_progress(
    plan: &Plan,
    requests: &[ReservationRequest],
    params: &OptimizeParams,
    progress: &mut dyn FnMut(OptimizeProgress),
) -> Result<Optimized, OptimizeError> {
    batch_toward(plan, requests, params, progress, Goal::Lowest)
}

/// Whether the batch optimizer fits `requests` on `plan` within capacity:
/// `optimize_batch(plan, requests, params).is_ok()`, sooner. Its search
/// lowers the peak one target at a time from capacity, keeping the last
/// plan that met a target, so whether it fits is decided by the first
/// target (capacity itself); this stops there instead of searching on
/// toward the lower bound — the same moves up to that point, so the same
/// answer. For questions that ask only whether a batch fits (the
/// runway's optimized-agenda lever re-plans the agenda at many sizes).
pub fn batch_fits(plan: &Plan, requests: &[ReservationRequest], params: &OptimizeParams) -> bool {
    batch_toward(plan, requests, params, &mut |_| {}, Goal::Fits).is_ok()
}

/// How far the search goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// Down to the lower bound: the lowest peak it can find.
    Lowest,
    /// Down to capacity: any plan that fits.
    Fits,
}

/// [`optimize_batch_with_progress`] searching toward `goal`.
fn batch_toward(
    plan: &Plan,
    requests: &[ReservationRequest],
    params: &OptimizeParams,
    progress: &mut dyn FnMut(OptimizeProgress),
    goal: Goal,
) -> Result<Optimized, OptimizeError> {
    params.validate()?;
    tell(progress, params, OptimizeStage::Start, 0);
    let step = plan.params().step_secs as f64;
    let mut blank = Vec::with_capacity(requests.len());
    for req in requests {
        let (a, d, p, n) = plan
            .frame(req)
            .map_err(|e| OptimizeError::Request(e.to_string()))?;
        blank.push(Item {
            id: None,
            req: req.clone(),
            window: (a, d),
            period: p,
            instances: n,
            size: size_of(req),
            rigid: Rigid::of(req, step),
            start: a,
            alloc: Vec::new(),
            placed: false,
        });
    }
    let locked = plan.load();
    // Start 1: LowCost in the order given (what admission would do).
    let mut low = plan.clone();
    let mut rejected: Vec<Option<Rejection>> = Vec::with_capacity(requests.len());
    let mut items = blank.clone();
    for item in &mut items {
        match low.admit(item.req.clone(), Method::LowCost) {
            Ok((id, _)) => {
                let r = low.remove(id).expect("just admitted");
                low.insert_placed(
                    r.request.clone(),
                    r.method,
                    (r.start, r.alloc.clone()),
                    Some(id),
                )
                .map_err(|e| OptimizeError::Request(e.to_string()))?;
                item.start = r.start;
                item.alloc = r.alloc;
                item.placed = true;
                rejected.push(None);
            }
            Err(rej) => rejected.push(Some(rej)),
        }
    }
    let start_peak = low.peak();
    let mut board = Board::new(plan.capacity().to_vec(), locked.clone());
    for (k, item) in items.iter().enumerate() {
        if item.placed {
            board.apply(k, item, 1.0);
        }
    }
    let mut first = Search::new(board, items, plan.params(), params.seed);
    first.target = 1.0;
    for (k, rej) in rejected.iter().enumerate() {
        if !first.items[k].placed && !first.insert(k) {
            return Err(infeasible(&first.items[k].req, rej.clone()));
        }
    }
    // Start 2: largest first, each at its best position.
    let mut order: Vec<usize> = (0..blank.len()).collect();
    let area = |i: &Item| {
        let cap = plan.capacity()[0];
        i.work(step) * i.instances as f64 * (i.size[0] / cap.cores).max(i.size[1] / cap.memory_mb)
    };
    order.sort_by(|&x, &y| area(&blank[y]).total_cmp(&area(&blank[x])));
    let mut second = Search::new(
        Board::new(plan.capacity().to_vec(), locked),
        blank,
        plan.params(),
        params.seed,
    );
    second.target = 1.0;
    let mut complete = true;
    for &k in &order {
        complete &= second.insert(k);
    }
    let search = if complete && second.board.peak() < first.board.peak() {
        second
    } else {
        first
    };
    let (search, report) = match finish(search, params, step, start_peak, progress, goal) {
        Err(OptimizeError::Infeasible { name, reason }) => {
            // Prefer naming a request LowCost itself could not place.
            let named = requests
                .iter()
                .zip(&rejected)
                .find_map(|(r, rej)| rej.as_ref().map(|j| (r.name.clone(), j.reason.clone())));
            let (name, reason) = named.unwrap_or((name, reason));
            return Err(OptimizeError::Infeasible { name, reason });
        }
        other => other?,
    };
    let mut out = plan.clone();
    for item in &search.items {
        out.insert_placed(
            item.req.clone(),
            Method::Optimized,
            (item.start, item.alloc.clone()),
            None,
        )
        .map_err(|e| OptimizeError::Request(e.to_string()))?;
    }
    Ok(Optimized {
        plan: out,
        report: OptimizeReport {
            moved: search.items.len(),
            locked: plan.reservations().len(),
            ..report
        },
    })
}

fn infeasible(req: &ReservationRequest, rej: Option<Rejection>) -> OptimizeError {
    OptimizeError::Infeasible {
        name: req.name.clone(),
        reason: rej.map_or_else(
            || "its window is too short for its stages".to_string(),
            |r| r.reason,
        ),
    }
}

fn tell(
    progress: &mut dyn FnMut(OptimizeProgress),
    params: &OptimizeParams,
    stage: OptimizeStage,
    moves: usize,
) {
    progress(OptimizeProgress {
        stage,
        moves,
        max_moves: params.max_moves,
    });
}

/// The bound, the search down to it, the integer program, and the report.
fn finish<'a>(
    mut search: Search<'a>,
    params: &OptimizeParams,
    step: f64,
    start_peak: f64,
    progress: &mut dyn FnMut(OptimizeProgress),
    goal: Goal,
) -> Result<(Search<'a>, OptimizeReport), OptimizeError> {
    tell(progress, params, OptimizeStage::Bound, 0);
    let mut bound = relaxation(&search.board, &search.items, step, params);
    tell(progress, params, OptimizeStage::Search, 0);
    let floor = match goal {
        Goal::Lowest => bound.value,
        Goal::Fits => bound.value.max(1.0),
    };
    search.run(params, floor, &mut |moves| {
        tell(progress, params, OptimizeStage::Search, moves)
    });
    let peak = search.board.peak();
    if peak > 1.0 + 1e-9 {
        let t = (0..search.board.steps)
            .max_by(|&a, &b| search.board.cost[a].total_cmp(&search.board.cost[b]))
            .unwrap_or(0);
        let k = search.board.touching[t].first().copied().unwrap_or(0) as usize;
        let l = search.board.load[t];
        let c = search.board.cap[t];
        let r = if l[0] / c.cores >= l[1] / c.memory_mb {
            0
        } else {
            1
        };
        return Err(OptimizeError::Infeasible {
            name: search
                .items
                .get(k)
                .map_or_else(String::new, |i| i.req.name.clone()),
            reason: format!(
                "{} over capacity at step {t} in every placement found",
                RESOURCES[r]
            ),
        });
    }
    tell(
        progress,
        params,
        OptimizeStage::IntegerProgram,
        search.moves,
    );
    if goal == Goal::Lowest {
        certify(&search.board, &search.items, step, params, peak, &mut bound);
    }
    if let Some((_, placed)) = bound.better.take() {
        for (k, (start, alloc)) in placed.into_iter().enumerate() {
            search.replace(k, start, alloc);
        }
    }
    let peak = search.board.peak();
    let lower = bound.value.min(peak);
    let kind = if peak > 0.0 && lower >= peak * (1.0 - 1e-9) {
        BoundKind::Exact
    } else {
        bound.kind
    };
    let gap = if lower > 0.0 {
        (peak / lower - 1.0).max(0.0)
    } else {
        0.0
    };
    tell(progress, params, OptimizeStage::Done, search.moves);
    let report = OptimizeReport {
        peak,
        start_peak,
        lower_bound: lower,
        bound: kind,
        gap,
        unlocked: search.items.len(),
        locked: 0,
        moved: 0,
        moves: search.moves,
    };
    Ok((search, report))
}
