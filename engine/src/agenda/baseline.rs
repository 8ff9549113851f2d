//! Baselines for comparison with LowCost: the request's stages at full
//! parallelism, back to back (a rigid skyline), placed as late as possible
//! (YARN's greedy reservation agent works right to left from the deadline)
//! or as early as possible.

use super::placement::{Placement, Rejection};
use super::request::{Interpreter, ReservationRequest};
use super::view::View;

/// Which way the baseline looks for a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// The latest start that fits.
    Latest,
    /// The earliest start that fits.
    Earliest,
}

/// The rigid shape: each stage at its maximum parallelism for as many steps
/// as its demand needs (the last step takes the remainder). `R_ANY` uses its
/// smallest stage; the others run their stages back to back.
fn shape(req: &ReservationRequest, step_secs: f64) -> Vec<f64> {
    let stages: Vec<_> = if req.interpreter == Interpreter::RAny {
        let s = req
            .stages
            .iter()
            .min_by(|a, b| a.demand.total_cmp(&b.demand));
        s.into_iter().copied().collect()
    } else {
        req.stages.clone()
    };
    let mut out = Vec::new();
    for s in stages {
        let mut left = s.demand / step_secs;
        while left > 1e-9 {
            let c = left.min(s.max_parallelism);
            out.push(c);
            left -= c;
        }
    }
    out
}

/// Places the rigid shape at the latest or earliest start in the window
/// `[a, d)` where every step fits the capacity.
pub(crate) fn place(
    view: &View<'_>,
    req: &ReservationRequest,
    (a, d): (usize, usize),
    step_secs: i64,
    dir: Direction,
) -> Result<Placement, Rejection> {
    let latest = dir == Direction::Latest;
    let sh = shape(req, step_secs as f64);
    if sh.len() > d - a {
        return Err(Rejection::new(
            &req.name,
            format!(
                "the window has {} steps but the skyline needs {}",
                d - a,
                sh.len()
            ),
        ));
    }
    let fits = |start: usize| -> Result<(), usize> {
        for (j, &c) in sh.iter().enumerate() {
            if view.limit(start + j, 1.0) + 1e-9 < c {
                return Err(start + j);
            }
        }
        Ok(())
    };
    let starts: Vec<usize> = (a..=d - sh.len()).collect();
    let order: Box<dyn Iterator<Item = &usize>> = if latest {
        Box::new(starts.iter().rev())
    } else {
        Box::new(starts.iter())
    };
    let mut blocked = None;
    for &s in order {
        match fits(s) {
            Ok(()) => {
                return Ok(Placement {
                    start: s,
                    alloc: sh,
                })
            }
            Err(t) => blocked = blocked.or(Some(t)),
        }
    }
    let t = blocked.unwrap_or(a);
    let (tau, res) = view.binding(t);
    Err(Rejection {
        name: req.name.clone(),
        reason: format!("no start in the window fits: {res} full at step {tau}"),
        step: Some(tau),
        resource: Some(res.to_string()),
    })
}
