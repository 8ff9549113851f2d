//! The baselines LowCost is compared with, planned the way YARN's own
//! `GreedyReservationAgent` plans: Hadoop's `IterativePlanner` with
//! `StageExecutionIntervalUnconstrained` and `StageAllocatorGreedyRLE`
//! (`hadoop-yarn-server-resourcemanager`, package `reservation.planning`).
//! The behaviour is YARN's; the code is ours.
//!
//! - **Order.** [`Direction::Latest`] (`Method::Greedy`, YARN with
//!   `yarn.resourcemanager.reservation-system.favor-early-allocation` off)
//!   takes the stages from the last to the first; [`Direction::Earliest`]
//!   (`Method::EarliestFirst`, that setting on, YARN's default) from the
//!   first to the last, the mirror image of everything below.
//! - **Interval.** Each stage is placed in the whole window for `R_ALL` and
//!   `R_ANY`; for `R_ORDER` and `R_ORDER_NO_GAP`, in the window up to the
//!   start of the stages already placed (right to left) or from their end
//!   (left to right).
//! - **Gangs.** A stage is YARN's `ReservationRequest`: `num-containers` =
//!   its maximum parallelism, gangs of `min-concurrency` = its gang (at
//!   least one container), each gang holding its containers for `duration`
//!   = work / parallelism, rounded up to whole steps as YARN rounds it to
//!   the plan step. The allocator looks at the last `duration` steps of the
//!   interval, places there as many gangs as every one of those steps has
//!   room for (at most those left; a last, smaller remainder counts as one
//!   gang), moves the interval's end to the earliest of those steps that
//!   allowed the fewest (it is now full) and repeats until every gang is
//!   placed or the interval is shorter than a gang's duration. So a stage's
//!   gangs are split over steps where capacity remains, not necessarily
//!   contiguous. Capacity is what the plan has left at every instance of
//!   the request, for both resources.
//! - **`R_ANY`** places the first stage that fits, in that order (from the
//!   last right to left); any other stage that cannot be placed rejects the
//!   request, with the stage, how much of it was placed and where the
//!   capacity ran out.
//! - **`R_ORDER_NO_GAP`** is planned as `R_ORDER`, then refused when a stage
//!   ends before the next one starts or when its gangs' intervals do not
//!   chain into one (`IterativePlanner.validateOrderNoGap` and
//!   `isNonPreemptiveAllocation`): YARN's agent does not look for a place
//!   where the stages fit back to back.
//!
//! We scan the interval step by step where YARN walks the runs of equal
//! free capacity of its run-length encoded plan; YARN's sharing policy
//! (`CapacityOverTimePolicy`) is not modelled, the plan's capacity is the
//! only limit.

use super::placement::{Placement, Rejection};
use super::request::{Interpreter, ReservationRequest, Stage};
use super::view::View;

const EPS: f64 = 1e-9;

/// Which way the agent works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Right to left, stages from the last, gangs as late as possible.
    Latest,
    /// Left to right, stages from the first, gangs as early as possible.
    Earliest,
}

/// One stage as YARN's allocator counts it.
struct Gangs {
    /// Steps each gang holds its containers.
    dur: usize,
    /// Containers per gang.
    size: f64,
    /// Containers to place.
    total: f64,
}

impl Gangs {
    fn of(stage: &Stage, step_secs: f64) -> Gangs {
        let steps = stage.demand / stage.max_parallelism / step_secs;
        Gangs {
            // `as` saturates: a duration longer than any window is refused
            // when the interval is found too short.
            dur: (steps - EPS).ceil().max(1.0) as usize,
            size: stage.gang.max(1.0),
            total: stage.max_parallelism,
        }
    }

    /// Containers that fit in `room` with `left` still to place: whole
    /// gangs, or all that is left.
    fn fit(&self, room: f64, left: f64) -> f64 {
        if room + EPS >= left {
            left
        } else {
            ((room + EPS) / self.size).floor().max(0.0) * self.size
        }
    }
}

/// Where one stage went: runs of `dur` steps from their first step, each
/// with its containers.
struct Placed {
    runs: Vec<(usize, f64)>,
    dur: usize,
}

impl Placed {
    fn first(&self) -> usize {
        self.runs.iter().map(|r| r.0).min().unwrap_or(0)
    }

    fn end(&self) -> usize {
        self.runs.iter().map(|r| r.0 + self.dur).max().unwrap_or(0)
    }

    /// YARN's `isNonPreemptiveAllocation`: the runs chain into one interval
    /// (exactly two of their end points are not shared by two runs). The
    /// runs start at distinct steps and all last `dur` steps, so that is:
    /// in order of start, each ends where the next begins.
    fn chained(&self) -> bool {
        let mut starts: Vec<usize> = self.runs.iter().map(|r| r.0).collect();
        starts.sort_unstable();
        starts.windows(2).all(|w| w[1] == w[0] + self.dur)
    }
}

/// Why a stage could not be placed: containers left, and the step that
/// stopped the last try, if one did.
struct Miss {
    left: f64,
    at: Option<usize>,
}

/// The containers the request may still add at `t`.
fn room(view: &View<'_>, own: &[f64], a: usize, t: usize) -> f64 {
    (view.limit(t, 1.0) - own[t - a]).max(0.0)
}

/// Places one stage's gangs in `[lo, hi)` as YARN's greedy run-length
/// allocator does, adding them to `own` (the request's allocation over its
/// window from `a`). On failure `own` is left as it was.
fn place_stage(
    view: &View<'_>,
    own: &mut [f64],
    a: usize,
    g: &Gangs,
    (mut lo, mut hi): (usize, usize),
    dir: Direction,
) -> Result<Placed, Miss> {
    let mut left = g.total;
    let mut runs = Vec::new();
    let mut at = None;
    while left > EPS && hi - lo >= g.dur {
        let (s, e) = match dir {
            Direction::Latest => (hi - g.dur, hi),
            Direction::Earliest => (lo, lo + g.dur),
        };
        // The fewest containers a step of the run allows, at the step
        // farthest along the way the agent moves.
        let (mut least, mut bind) = (f64::INFINITY, s);
        for i in 0..g.dur {
            let t = match dir {
                Direction::Latest => e - 1 - i,
                Direction::Earliest => s + i,
            };
            let c = g.fit(room(view, own, a, t), left);
            if c <= least {
                (least, bind) = (c, t);
            }
        }
        if least > EPS {
            for x in &mut own[s - a..e - a] {
                *x += least;
            }
            runs.push((s, least));
            left -= least;
        }
        at = Some(bind);
        // No later run that holds `bind` can take another gang.
        match dir {
            Direction::Latest => hi = bind,
            Direction::Earliest => lo = bind + 1,
        }
    }
    if left > EPS {
        for &(s, c) in &runs {
            for x in &mut own[s - a..s - a + g.dur] {
                *x -= c;
            }
        }
        return Err(Miss { left, at });
    }
    Ok(Placed { runs, dur: g.dur })
}

/// `n` steps, in words.
fn steps(n: usize) -> String {
    if n == 1 {
        "1 step".into()
    } else {
        format!("{n} steps")
    }
}

fn refuse(req: &ReservationRequest, reason: String, at: Option<(usize, &str)>) -> Rejection {
    Rejection {
        name: req.name.clone(),
        reason,
        step: at.map(|a| a.0),
        resource: at.map(|a| a.1.to_string()),
    }
}

/// Places `req` in its first instance's window `[a, d)` as YARN's greedy
/// agent would, working `dir`.
pub(crate) fn place(
    view: &View<'_>,
    req: &ReservationRequest,
    (a, d): (usize, usize),
    step_secs: i64,
    dir: Direction,
) -> Result<Placement, Rejection> {
    let mut own = vec![0.0; d - a];
    let n = req.stages.len();
    let order: Vec<usize> = match dir {
        Direction::Latest => (0..n).rev().collect(),
        Direction::Earliest => (0..n).collect(),
    };
    let ordered = matches!(
        req.interpreter,
        Interpreter::ROrder | Interpreter::ROrderNoGap
    );
    // The first step and the end of what is placed so far.
    let mut span: Option<(usize, usize)> = None;
    let mut missed = None;
    for k in order {
        let g = Gangs::of(&req.stages[k], step_secs as f64);
        let (lo, hi) = match (ordered, span, dir) {
            (true, Some((first, _)), Direction::Latest) => (a, first),
            (true, Some((_, end)), Direction::Earliest) => (end, d),
            _ => (a, d),
        };
        let placed = match place_stage(view, &mut own, a, &g, (lo, hi), dir) {
            Ok(p) => p,
            Err(m) => {
                let rejection = if hi - lo < g.dur {
                    let room = match (ordered && span.is_some(), dir) {
                        (false, _) => format!("the window has {}", hi - lo),
                        (true, Direction::Latest) => format!(
                            "only {} are left before stage {} starts at step {hi}",
                            hi - lo,
                            k + 1
                        ),
                        (true, Direction::Earliest) => format!(
                            "only {} are left after stage {} ends at step {lo}",
                            hi - lo,
                            k - 1
                        ),
                    };
                    refuse(
                        req,
                        format!(
                            "stage {k}: a gang holds its containers {} but {room}",
                            steps(g.dur)
                        ),
                        None,
                    )
                } else {
                    let at = m.at.map(|t| view.binding(t));
                    let full = at.map_or(String::new(), |(tau, res)| {
                        format!(": {res} full at step {tau}")
                    });
                    refuse(
                        req,
                        format!(
                            "stage {k}: {:.0} of {:.0} containers placed in steps [{lo}, {hi}) (gangs of {:.0} for {}){full}",
                            g.total - m.left,
                            g.total,
                            g.size.min(g.total),
                            steps(g.dur)
                        ),
                        at,
                    )
                };
                if req.interpreter == Interpreter::RAny {
                    missed = Some(rejection);
                    continue;
                }
                return Err(rejection);
            }
        };
        if req.interpreter == Interpreter::ROrderNoGap {
            let gap = match (span, dir) {
                (Some((first, _)), Direction::Latest) if placed.end() < first => {
                    Some((placed.end(), first))
                }
                (Some((_, end)), Direction::Earliest) if placed.first() > end => {
                    Some((end, placed.first()))
                }
                _ => None,
            };
            if let Some((from, to)) = gap {
                let (before, after) = match dir {
                    Direction::Latest => (k, k + 1),
                    Direction::Earliest => (k - 1, k),
                };
                return Err(refuse(
                    req,
                    format!(
                        "R_ORDER_NO_GAP: YARN's greedy agent left steps [{from}, {to}) empty between stage {before} and stage {after}"
                    ),
                    None,
                ));
            }
            if !placed.chained() {
                return Err(refuse(
                    req,
                    format!(
                        "R_ORDER_NO_GAP: YARN's greedy agent split stage {k} into runs that are not back to back (from step {} to {})",
                        placed.first(),
                        placed.end()
                    ),
                    None,
                ));
            }
        }
        span = Some(match span {
            None => (placed.first(), placed.end()),
            Some((f, e)) => (f.min(placed.first()), e.max(placed.end())),
        });
        if req.interpreter == Interpreter::RAny {
            break;
        }
    }
    if span.is_none() {
        // `R_ANY` with no alternative that fits.
        return Err(match missed {
            Some(r) => Rejection {
                reason: format!(
                    "R_ANY: none of the {n} alternatives fits; the last tried, {}",
                    r.reason
                ),
                ..r
            },
            None => Rejection::new(&req.name, "no stage fits"),
        });
    }
    Ok(Placement::from_window(a, &own))
}
