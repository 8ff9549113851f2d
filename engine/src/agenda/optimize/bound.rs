//! The certified lower bound, and the exact integer program for small
//! plans, both on one time-indexed model solved by `microlp`:
//! minimize `z` subject to, per step (or time bucket) and resource,
//! `locked + Σ placed load ≤ z · capacity`.
//!
//! A request with a fixed shape ([`Rigid`](super::item::Rigid)) gets one
//! variable per start (per stage under `R_ORDER`, with precedence rows):
//! the LP relaxation of this formulation is far tighter than spreading its
//! work. Any other
//! request gets its work spread fractionally within its window under its
//! parallelism (order and gangs dropped): a relaxation of every placement
//! LowCost or the search could make. When the per-step LP would be too
//! large the rows are summed over time buckets (every constraint of the
//! bucketed LP is a sum of valid ones, so its optimum is still a bound).
//! With binary start variables and nothing but fixed shapes, the same model
//! is the exact problem; branch and bound runs on it, warm-started from the
//! search's plan, under a node budget.

use super::item::{Board, Item};
use super::params::{BoundKind, OptimizeParams};
use crate::numerics::lp::integer::{
    ComparisonOp, OptimizationDirection, Problem, SolutionStatus, SolveOptions, SolveOutcome,
    Variable,
};

/// The bound, and the integer program's plan when it is better than the
/// search's.
pub(super) struct Certified {
    /// Lower bound on the optimal peak.
    pub value: f64,
    /// Where it comes from.
    pub kind: BoundKind,
    /// The integer program's placements (per item: start, allocation), when
    /// its peak is below the incumbent's.
    pub better: Option<(f64, Placements)>,
}

/// Per item: first step and containers per step.
pub(super) type Placements = Vec<(usize, Vec<f64>)>;

/// The variables of one item.
enum Vars {
    /// Start variables of a fixed shape, as `(start, var)`.
    Chain(Vec<(usize, Variable)>),
    /// Start variables per stage.
    Order(Vec<Vec<(usize, Variable)>>),
    /// Work spread over buckets.
    Spread,
}

struct Model {
    problem: Problem,
    z: Variable,
    /// `z` is the peak times this (1, or the cores when peaks are whole).
    scale: f64,
    vars: Vec<Vars>,
}

/// Which resources need rows: memory only when its ratio to cores is not
/// the same everywhere (then both give the same cost).
fn resources(board: &Board, items: &[Item]) -> Vec<usize> {
    let rho = board.cap[0].memory_mb / board.cap[0].cores;
    let same = |x: f64, y: f64| (x - rho * y).abs() <= 1e-9 * x.abs().max(1.0);
    let proportional = board.cap.iter().all(|c| same(c.memory_mb, c.cores))
        && board.locked.iter().all(|l| same(l[1], l[0]))
        && items.iter().all(|i| same(i.size[1], i.size[0]));
    if proportional {
        vec![0]
    } else {
        vec![0, 1]
    }
}

fn cap_of(board: &Board, t: usize, r: usize) -> f64 {
    if r == 0 {
        board.cap[t].cores
    } else {
        board.cap[t].memory_mb
    }
}

/// Variables the model needs with buckets of `b` steps.
fn var_count(items: &[Item], b: usize) -> usize {
    items
        .iter()
        .map(|i| {
            let (a, d) = i.window;
            match (&i.rigid, b) {
                (Some(r), 1) if r.chain => d - a - r.total_len() + 1,
                (Some(r), 1) => (0..r.stages.len())
                    .map(|k| {
                        let (lo, hi) = r.range(k, (a, d));
                        hi + 1 - lo
                    })
                    .sum(),
                _ => (d - 1) / b - a / b + 1,
            }
        })
        .sum()
}

fn build(board: &Board, items: &[Item], b: usize, integer: bool, step_secs: f64) -> Option<Model> {
    let steps = board.steps;
    let nb = steps / b;
    let res = resources(board, items);
    let floor = board
        .locked
        .iter()
        .zip(&board.cap)
        .map(|(l, c)| (l[0] / c.cores).max(l[1] / c.memory_mb))
        .fold(0.0, f64::max);
    let mut p = Problem::new(OptimizationDirection::Minimize);
    // When every peak is a whole number of cores over one capacity, the
    // integer program counts the peak in cores (an integer variable), so
    // that branch and bound can close the gap below the next whole core.
    let scale = if integer && whole_peaks(board, items) {
        board.cap[0].cores
    } else {
        1.0
    };
    let z = if scale > 1.0 {
        p.add_integer_var(
            1.0 / scale,
            ((floor * scale - 1e-7).ceil() as i32, i32::MAX),
        )
    } else {
        p.add_var(1.0, (floor, f64::INFINITY))
    };
    let mut rows: Vec<[Vec<(Variable, f64)>; 2]> =
        (0..nb).map(|_| [Vec::new(), Vec::new()]).collect();
    let mut all = Vec::with_capacity(items.len());
    let new_start = |p: &mut Problem| {
        if integer {
            p.add_binary_var(0.0)
        } else {
            p.add_var(0.0, (0.0, 1.0))
        }
    };
    for item in items {
        let (a, d) = item.window;
        let (period, n) = (item.period, item.instances);
        let push = |rows: &mut Vec<[Vec<(Variable, f64)>; 2]>, x: Variable, t: usize, c: f64| {
            for i in 0..n {
                let tau = (t + i * period) % steps;
                for &r in &res {
                    rows[tau / b][r].push((x, c * item.size[r]));
                }
            }
        };
        let vars = match (&item.rigid, b) {
            (Some(r), 1) if r.chain => {
                let starts = r.back_to_back(a);
                let (_, shape) = r.layout(&starts);
                let mut xs = Vec::new();
                for s in a..=d - shape.len() {
                    let x = new_start(&mut p);
                    for (j, &c) in shape.iter().enumerate() {
                        if c > 0.0 {
                            push(&mut rows, x, s + j, c);
                        }
                    }
                    xs.push((s, x));
                }
                let one: Vec<_> = xs.iter().map(|&(_, x)| (x, 1.0)).collect();
                p.add_constraint(one.as_slice(), ComparisonOp::Eq, 1.0);
                Vars::Chain(xs)
            }
            (Some(r), 1) => {
                let mut per_stage: Vec<Vec<(usize, Variable)>> = Vec::new();
                for (k, &(len, h)) in r.stages.iter().enumerate() {
                    let (lo, hi) = r.range(k, (a, d));
                    let mut xs = Vec::new();
                    for s in lo..=hi {
                        let x = new_start(&mut p);
                        for j in 0..len {
                            push(&mut rows, x, s + j, h);
                        }
                        xs.push((s, x));
                    }
                    let one: Vec<_> = xs.iter().map(|&(_, x)| (x, 1.0)).collect();
                    p.add_constraint(one.as_slice(), ComparisonOp::Eq, 1.0);
                    per_stage.push(xs);
                }
                // Stage k+1 starts after stage k ends: for every s, stage
                // k+1 started by s implies stage k started by s − len_k.
                for k in 0..r.stages.len() - 1 {
                    let len = r.stages[k].0;
                    for &(s, _) in &per_stage[k + 1] {
                        let mut row: Vec<(Variable, f64)> = per_stage[k + 1]
                            .iter()
                            .filter(|(s1, _)| *s1 <= s)
                            .map(|&(_, x)| (x, 1.0))
                            .collect();
                        row.extend(
                            per_stage[k]
                                .iter()
                                .filter(|(s0, _)| s0 + len <= s)
                                .map(|&(_, x)| (x, -1.0)),
                        );
                        p.add_constraint(row.as_slice(), ComparisonOp::Le, 0.0);
                    }
                }
                Vars::Order(per_stage)
            }
            _ => {
                let mp = item.max_parallelism();
                let mut sum = Vec::new();
                for bucket in a / b..=(d - 1) / b {
                    let inside = (d.min((bucket + 1) * b) - a.max(bucket * b)) as f64;
                    let w = p.add_var(0.0, (0.0, mp * inside));
                    push(&mut rows, w, bucket * b, 1.0);
                    sum.push((w, 1.0));
                }
                p.add_constraint(sum.as_slice(), ComparisonOp::Eq, item.work(step_secs));
                Vars::Spread
            }
        };
        all.push(vars);
    }
    for (bucket, per_res) in rows.into_iter().enumerate() {
        for (r, mut terms) in per_res.into_iter().enumerate() {
            if terms.is_empty() {
                continue;
            }
            let ts = bucket * b..(bucket + 1) * b;
            let cap: f64 = ts.clone().map(|t| cap_of(board, t, r)).sum();
            let locked: f64 = ts.map(|t| board.locked[t][r]).sum();
            terms.push((z, -cap / scale));
            p.add_constraint(terms.as_slice(), ComparisonOp::Le, -locked);
        }
    }
    Some(Model {
        problem: p,
        z,
        scale,
        vars: all,
    })
}

/// The gang and area bounds, and the locked load's own peak.
fn simple(board: &Board, items: &[Item], step_secs: f64) -> f64 {
    let steps = board.steps;
    let mut best = board
        .locked
        .iter()
        .zip(&board.cap)
        .map(|(l, c)| (l[0] / c.cores).max(l[1] / c.memory_mb))
        .fold(0.0, f64::max);
    for item in items {
        // Some step of its window holds at least its gang (every instance).
        let g = item.gang(step_secs);
        let (a, d) = item.window;
        let mut low = f64::INFINITY;
        for t in a..d {
            let mut c = 0.0f64;
            for i in 0..item.instances {
                let tau = (t + i * item.period) % steps;
                let l = board.locked[tau];
                let cap = board.cap[tau];
                c = c.max(
                    ((l[0] + g * item.size[0]) / cap.cores)
                        .max((l[1] + g * item.size[1]) / cap.memory_mb),
                );
            }
            low = low.min(c);
        }
        if low.is_finite() {
            best = best.max(low);
        }
    }
    for r in 0..2 {
        let cap: f64 = (0..steps).map(|t| cap_of(board, t, r)).sum();
        let load: f64 = board.locked.iter().map(|l| l[r]).sum::<f64>()
            + items
                .iter()
                .map(|i| i.work(step_secs) * i.instances as f64 * i.size[r])
                .sum::<f64>();
        best = best.max(load / cap);
    }
    best
}

/// Rounds a bound up to the next value a plan's peak can take, when every
/// load is a whole number of cores and memory units on a constant capacity
/// (fixed shapes of whole containers of whole sizes, whole locked load):
/// then the peak is `k / capacity` for a whole `k` of some resource.
fn round_up(board: &Board, items: &[Item], value: f64) -> f64 {
    let cap0 = board.cap[0];
    if !integral(board, items) {
        return value;
    }
    if whole_peaks(board, items) {
        return ((value * cap0.cores - 1e-7).ceil() / cap0.cores).max(value);
    }
    [cap0.cores, cap0.memory_mb]
        .iter()
        .map(|&c| (value * c - 1e-7).ceil() / c)
        .fold(f64::INFINITY, f64::min)
        .max(value)
}

/// Peaks are whole cores over one capacity: loads are integral and memory
/// is proportional to cores (so cores decide every cost).
fn whole_peaks(board: &Board, items: &[Item]) -> bool {
    integral(board, items) && resources(board, items) == [0]
}

/// Every load is a whole number of cores and memory units on a constant
/// capacity.
fn integral(board: &Board, items: &[Item]) -> bool {
    let whole = |x: f64| (x - x.round()).abs() < 1e-9;
    let cap0 = board.cap[0];
    board
        .cap
        .iter()
        .all(|c| c.cores == cap0.cores && c.memory_mb == cap0.memory_mb)
        && board.locked.iter().all(|l| whole(l[0]) && whole(l[1]))
        && items.iter().all(|i| {
            whole(i.size[0])
                && whole(i.size[1])
                && i.rigid
                    .as_ref()
                    .is_some_and(|r| r.stages.iter().all(|s| whole(s.1)))
        })
}

/// Smallest bucket (a divisor of the plan's steps and of every periodic
/// request's period) that keeps the LP within `max_vars`; 1 when per-step
/// fits.
fn bucket(board: &Board, items: &[Item], max_vars: usize) -> Option<usize> {
    let steps = board.steps;
    (1..=steps).find(|&b| {
        steps.is_multiple_of(b)
            && items
                .iter()
                .all(|i| i.instances <= 1 || i.period.is_multiple_of(b))
            && var_count(items, b) <= max_vars
    })
}

/// The relaxation's bound for placing `items` around `board`'s locked
/// load (placements do not matter), rounded up to a reachable peak.
pub(super) fn relaxation(
    board: &Board,
    items: &[Item],
    step_secs: f64,
    params: &OptimizeParams,
) -> Certified {
    let mut out = Certified {
        value: simple(board, items, step_secs),
        kind: BoundKind::Simple,
        better: None,
    };
    if let Some(b) = bucket(board, items, params.lp_max_vars) {
        if let Some(m) = build(board, items, b, false, step_secs) {
            if let Ok(SolveOutcome::Solution(sol)) = m.problem.solve() {
                let v = sol.objective();
                if v >= out.value {
                    out.value = v;
                    out.kind = if b == 1 {
                        BoundKind::Lp
                    } else {
                        BoundKind::BucketLp
                    };
                }
            }
        }
    }
    out.value = round_up(board, items, out.value);
    out
}

/// Runs the integer program when every request has a fixed shape and the
/// model is small, warm-started from the search's plan (the items as
/// placed, peak `incumbent`): raises the bound to its proof (or to the
/// optimum) and returns its plan when better. Then caps the bound at the
/// incumbent (a bound the plan meets is the optimum).
pub(super) fn certify(
    board: &Board,
    items: &[Item],
    step_secs: f64,
    params: &OptimizeParams,
    incumbent: f64,
    out: &mut Certified,
) {
    let all_rigid = items.iter().all(|i| i.rigid.is_some());
    if all_rigid
        && !items.is_empty()
        && params.ip_max_vars > 0
        && var_count(items, 1) <= params.ip_max_vars
        && out.value < incumbent * (1.0 - 1e-9)
    {
        if let Some(m) = build(board, items, 1, true, step_secs) {
            integer_program(m, board, items, params, incumbent, out);
        }
    }
    if out.value >= incumbent * (1.0 - 1e-9) && out.kind != BoundKind::Exact {
        out.value = out.value.min(incumbent);
    }
}

/// Solves the exact model `m` of `items` on `board` by branch and bound
/// under the node budget, warm-started from the items as placed (peak
/// `incumbent`), and records what it proves in `out`.
fn integer_program(
    m: Model,
    board: &Board,
    items: &[Item],
    params: &OptimizeParams,
    incumbent: f64,
    out: &mut Certified,
) {
    // Warm start: the search's plan.
    let mut hint = vec![(
        m.z,
        (incumbent * m.scale - 1e-7).ceil().max(incumbent * m.scale),
    )];
    if m.scale == 1.0 {
        hint[0].1 = incumbent;
    }
    for (item, vars) in items.iter().zip(&m.vars) {
        let Some(r) = &item.rigid else { return };
        let Some(starts) = r.starts_of(item.start, &item.alloc) else {
            continue;
        };
        match vars {
            Vars::Chain(xs) => hint.extend(
                xs.iter()
                    .map(|&(s, x)| (x, f64::from(u8::from(s == starts[0])))),
            ),
            Vars::Order(stages) => {
                for (xs, &s0) in stages.iter().zip(&starts) {
                    hint.extend(xs.iter().map(|&(s, x)| (x, f64::from(u8::from(s == s0)))));
                }
            }
            Vars::Spread => {}
        }
    }
    let mut options = SolveOptions::default();
    options.node_limit = Some(params.ip_node_limit);
    options.warm_start = Some(hint);
    let Ok(outcome) = m.problem.solve_with(options) else {
        return;
    };
    let (stats, sol) = match &outcome {
        SolveOutcome::Solution(sol) => (sol.stats(), Some(sol)),
        SolveOutcome::Interrupted(i) => (i.stats(), None),
    };
    if let Some(sol) = sol {
        let optimal = sol.status() == SolutionStatus::Optimal;
        let z = sol.objective().max(0.0);
        if optimal {
            out.value = z.min(incumbent);
            out.kind = BoundKind::Exact;
        }
        if z < incumbent * (1.0 - 1e-9) {
            let mut placed = Vec::with_capacity(items.len());
            for (item, vars) in items.iter().zip(&m.vars) {
                let r = item.rigid.as_ref().expect("all rigid");
                let pick = |xs: &[(usize, Variable)]| {
                    xs.iter()
                        .max_by(|a, b| sol.var_value(a.1).total_cmp(&sol.var_value(b.1)))
                        .map(|&(s, _)| s)
                        .unwrap_or(item.window.0)
                };
                let starts = match vars {
                    Vars::Chain(xs) => r.back_to_back(pick(xs)),
                    Vars::Order(stages) => stages.iter().map(|xs| pick(xs)).collect(),
                    Vars::Spread => return,
                };
                placed.push(r.layout(&starts));
            }
            out.better = Some((z, placed));
        }
    }
    if out.kind != BoundKind::Exact {
        if let Some(bb) = stats.best_bound {
            let bb = round_up(board, items, bb);
            if bb > out.value {
                out.value = bb;
                out.kind = BoundKind::IntegerProgram;
            }
        }
    }
}
