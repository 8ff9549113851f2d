//! Lower bounds on the peak cost any placement of a set of requests can
//! reach, to judge LowCost and the baselines against.

use super::plan::Plan;
use super::request::{Interpreter, ReservationRequest, Stage};
use super::view::size_of;
use crate::numerics::lp::{ComparisonOp, OptimizationDirection, Problem};
use serde::{Deserialize, Serialize};

/// Lower bounds on the peak cost `max_t c(t)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LowerBounds {
    /// Total reserved area over total capacity, per resource, maximum.
    pub area: f64,
    /// The tightest single request: its area over the capacity inside its
    /// window(s), or its largest gang over the largest capacity.
    pub single: f64,
    /// The LP relaxation (work spread fractionally anywhere in each window,
    /// parallelism limits kept; order and contiguity dropped), when small
    /// enough to solve.
    pub lp: Option<f64>,
    /// The best of the above.
    pub best: f64,
}

/// The work (container-steps per instance) and the largest gang any
/// placement of `req` must hold: `R_ANY` needs only one of its stages, so
/// the least of them; a stage whose work is less than one step of its gang
/// may run below the gang.
fn needs(req: &ReservationRequest, step: f64) -> (f64, f64) {
    let gang = |s: &Stage| s.gang.min(s.demand / step);
    if req.interpreter == Interpreter::RAny {
        (
            req.stages
                .iter()
                .map(|s| s.demand / step)
                .fold(f64::INFINITY, f64::min),
            req.stages.iter().map(gang).fold(f64::INFINITY, f64::min),
        )
    } else {
        (
            req.total_demand() / step,
            req.stages.iter().map(gang).fold(0.0, f64::max),
        )
    }
}

/// Lower bounds for placing `requests` on an empty copy of `plan`'s
/// capacity. Requests that do not fit the plan's frame are skipped.
pub fn lower_bounds(
    plan: &Plan,
    requests: &[ReservationRequest],
    lp_max_vars: usize,
) -> LowerBounds {
    let steps = plan.steps();
    let step = plan.params().step_secs as f64;
    let cap = plan.capacity();
    let total_cap = [
        cap.iter().map(|c| c.cores).sum::<f64>(),
        cap.iter().map(|c| c.memory_mb).sum::<f64>(),
    ];
    let max_cap = [
        cap.iter().map(|c| c.cores).fold(0.0, f64::max),
        cap.iter().map(|c| c.memory_mb).fold(0.0, f64::max),
    ];
    let mut area = [0.0f64; 2];
    let mut single = 0.0f64;
    let mut frames = Vec::new();
    for req in requests {
        let Ok((a, d, p, n)) = plan.frame(req) else {
            continue;
        };
        let size = size_of(req);
        let (work, gang) = needs(req, step); // container-steps per instance
        for r in 0..2 {
            area[r] += work * size[r] * n as f64;
            // Capacity available inside the windows of all instances.
            let mut inside = 0.0;
            for i in 0..n {
                for t in a..d {
                    let c = cap[(t + i * p) % steps];
                    inside += if r == 0 { c.cores } else { c.memory_mb };
                }
            }
            single = single.max(work * size[r] * n as f64 / inside);
            single = single.max(gang * size[r] / max_cap[r]);
        }
        frames.push((req, a, d, p, n));
    }
    let area = (area[0] / total_cap[0]).max(area[1] / total_cap[1]);
    let vars: usize = frames.iter().map(|f| f.2 - f.1).sum();
    let lp = (vars > 0 && vars <= lp_max_vars)
        .then(|| lp_bound(plan, &frames, true))
        .flatten();
    let best = area.max(single).max(lp.unwrap_or(0.0));
    LowerBounds {
        area,
        single,
        lp,
        best,
    }
}

/// The LP relaxation's optimum; with `prune`, each step's row the other
/// implies left out ([`dominated`]: the same optimum, a smaller LP — on
/// the demo's requests, 1 core and 1 GB a container on 4 GB a core, a
/// fifth of the time).
#[allow(clippy::type_complexity)]
fn lp_bound(
    plan: &Plan,
    frames: &[(&ReservationRequest, usize, usize, usize, usize)],
    prune: bool,
) -> Option<f64> {
    let steps = plan.steps();
    let step = plan.params().step_secs as f64;
    let cap = plan.capacity();
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let z = p.add_var(1.0, (0.0, f64::INFINITY));
    let mut per_step: Vec<[Vec<(crate::numerics::lp::Variable, f64)>; 2]> =
        (0..steps).map(|_| [Vec::new(), Vec::new()]).collect();
    for (req, a, d, period, n) in frames {
        let size = size_of(req);
        let max_par = req
            .stages
            .iter()
            .map(|s| s.max_parallelism)
            .fold(0.0, f64::max);
        let (work, _) = needs(req, step);
        let xs: Vec<_> = (*a..*d).map(|_| p.add_var(0.0, (0.0, max_par))).collect();
        let sum: Vec<_> = xs.iter().map(|&x| (x, 1.0)).collect();
        p.add_constraint(sum.as_slice(), ComparisonOp::Eq, work);
        for (j, &x) in xs.iter().enumerate() {
            for i in 0..*n {
                let tau = (a + j + i * period) % steps;
                for r in 0..2 {
                    per_step[tau][r].push((x, size[r]));
                }
            }
        }
    }
    for (tau, terms) in per_step.into_iter().enumerate() {
        let dropped = if prune {
            dominated(&terms, &cap[tau])
        } else {
            None
        };
        for (r, mut t) in terms.into_iter().enumerate() {
            if t.is_empty() || dropped == Some(r) {
                continue;
            }
            let c = if r == 0 {
                cap[tau].cores
            } else {
                cap[tau].memory_mb
            };
            t.push((z, -c));
            p.add_constraint(t.as_slice(), ComparisonOp::Le, 0.0);
        }
    }
    p.solve().ok().map(|s| s.objective())
}

/// Which of a step's two rows (0 cores, 1 memory) the other implies, if
/// either: row `r` asks, of every variable, at most the other row's
/// coefficient times the step's capacity ratio `cap_r / cap_other`, so
/// with `x ≥ 0` its load stays under `z · cap_r` whenever the other's is
/// under `z · cap_other` — a constraint the LP can leave out without a
/// change of its optimum. (Containers of 1 core and 1 GB on machines of
/// 4 GB a core: every memory row.) Both implying each other: memory.
fn dominated(
    terms: &[Vec<(crate::numerics::lp::Variable, f64)>; 2],
    cap: &super::Capacity,
) -> Option<usize> {
    let implied = |r: usize| {
        let o = 1 - r;
        let caps = [cap.cores, cap.memory_mb];
        let ratio = caps[r] / caps[o];
        ratio.is_finite()
            && ratio > 0.0
            && terms[r].len() == terms[o].len()
            && terms[r]
                .iter()
                .zip(&terms[o])
                .all(|((x, a), (y, b))| x == y && *a <= b * ratio)
    };
    [1, 0].into_iter().find(|&r| implied(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agenda::{AgendaParams, Capacity, Recurrence};
    use crate::model::ContainerSize;

    /// The LP with the implied rows left out has the optimum of the whole
    /// LP (both rows at every step), on requests whose memory per core is
    /// below, at and above the capacity's, mixed and alone, on capacities
    /// that change by the hour.
    #[test]
    fn leaving_out_implied_rows_keeps_the_lp_optimum() {
        let params = AgendaParams {
            period_secs: 86_400,
            step_secs: 600,
            ..AgendaParams::default()
        };
        let hourly = |cores: f64, gb: f64| -> Vec<Capacity> {
            (0..144)
                .map(|t| {
                    let wave = 1.0 + 0.5 * ((t / 6) % 4) as f64;
                    Capacity {
                        cores: cores * wave,
                        memory_mb: gb * 1024.0 * if t % 36 < 18 { wave } else { 1.0 },
                    }
                })
                .collect()
        };
        let request = |name: &str, cores: f64, gb: f64, window: (i64, i64), sky: &[f64]| {
            ReservationRequest::from_skyline(
                name,
                Recurrence::Periodic {
                    period_secs: 86_400,
                },
                window,
                ContainerSize {
                    cores,
                    memory_mb: gb * 1024.0,
                },
                sky,
                600,
                1.0,
            )
        };
        let light = request("light", 1.0, 1.0, (0, 20_000), &[10.0, 30.0, 20.0]);
        let even = request("even", 2.0, 8.0, (3_600, 30_000), &[15.0, 15.0]);
        let heavy = request("heavy", 1.0, 16.0, (10_000, 40_000), &[8.0, 12.0, 8.0, 4.0]);
        let mut checked = 0;
        for cap in [
            vec![Capacity {
                cores: 100.0,
                memory_mb: 400.0 * 1024.0,
            }],
            hourly(100.0, 400.0),
            hourly(60.0, 900.0),
        ] {
            let plan = Plan::new(params.clone(), cap).unwrap();
            for requests in [
                vec![light.clone()],
                vec![heavy.clone()],
                vec![light.clone(), even.clone()],
                vec![light.clone(), even.clone(), heavy.clone()],
            ] {
                let frames: Vec<_> = requests
                    .iter()
                    .map(|r| {
                        let (a, d, p, n) = plan.frame(r).unwrap();
                        (r, a, d, p, n)
                    })
                    .collect();
                let whole = lp_bound(&plan, &frames, false).unwrap();
                let pruned = lp_bound(&plan, &frames, true).unwrap();
                assert!(whole > 0.0);
                assert!(
                    (whole - pruned).abs() <= 1e-9 * whole,
                    "{} requests: {whole} against {pruned}",
                    requests.len()
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 12);
    }
}
