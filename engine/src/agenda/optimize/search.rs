//! The improvement search: lower a target peak step by step; at each
//! target, remove a reservation that holds something on a step above it and
//! put it back at its best position against the rest (min-conflicts with a
//! little noise), until no step is above the target or the level's moves run
//! out. A request with a fixed shape gets its exact best position (every
//! start, or a DP over its stages' starts under `R_ORDER`); any other gets
//! the best of LowCost's placement against the rest and every shift of its
//! current allocation inside its window. Shifting a valid allocation keeps
//! its stages, gangs and order, and the window test keeps it valid.

use super::item::{Board, Item};
use super::params::OptimizeParams;
use crate::agenda::lowcost;
use crate::agenda::params::AgendaParams;
use crate::agenda::request::Capacity;
use crate::agenda::view::View;
use crate::numerics::Rng;

/// Moves between two progress reports of the search.
const PROGRESS_EVERY: usize = 256;

/// How good a position is for one request: the change in violations of
/// the target (steps above it, plus their relative excess), then the change
/// in the sum of squared costs (flatter is better).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Score {
    v: f64,
    sq: f64,
}

impl Score {
    const ZERO: Score = Score { v: 0.0, sq: 0.0 };

    fn plus(self, o: Score) -> Score {
        Score {
            v: self.v + o.v,
            sq: self.sq + o.sq,
        }
    }

    /// Lower violations, then a flatter plan; `sq_tol` is the round-off of
    /// squared costs at the plan's scale (costs may be tiny on a huge
    /// cluster).
    fn better(self, o: Score, sq_tol: f64) -> bool {
        self.v < o.v - 1e-9 || (self.v <= o.v + 1e-9 && self.sq < o.sq - sq_tol)
    }
}

/// Violation of `target` at cost `c` (relative tolerance: costs are
/// loads over capacity and may be tiny).
fn violation(c: f64, target: f64) -> f64 {
    if c > target * (1.0 + 1e-12) {
        1.0 + (c - target) / target.max(1e-9)
    } else {
        0.0
    }
}

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// No step is above the target.
    Reached,
    /// A step above the target holds only locked load.
    Stuck,
    /// A reservation was re-placed (possibly where it was).
    Moved,
}

/// The search state: the board and the requests on it.
pub(super) struct Search<'a> {
    /// Load and cost per step.
    pub board: Board,
    /// The requests being placed.
    pub items: Vec<Item>,
    /// The agenda's settings (LowCost's end points, the step).
    pub agenda: &'a AgendaParams,
    /// Steps above this are violations.
    pub target: f64,
    /// Moves made.
    pub moves: usize,
    /// Round-off of squared costs at the plan's scale.
    sq_tol: f64,
    rng: Rng,
}

type Candidate = (Score, usize, Vec<f64>);

impl<'a> Search<'a> {
    /// A search over `items` on `board` (items marked placed are on it).
    pub fn new(board: Board, items: Vec<Item>, agenda: &'a AgendaParams, seed: u64) -> Self {
        Search {
            board,
            items,
            agenda,
            target: f64::INFINITY,
            moves: 0,
            sq_tol: 1e-24,
            rng: Rng::new(seed),
        }
    }

    fn score(&self, k: usize, start: usize, alloc: &[f64]) -> Score {
        let item = &self.items[k];
        let mut s = Score::ZERO;
        for (t, c) in item.occupied(start, alloc, self.board.steps) {
            let c0 = self.board.cost[t];
            let c1 = self.board.cost_with(t, c, item.size);
            s.v += violation(c1, self.target) - violation(c0, self.target);
            s.sq += c1 * c1 - c0 * c0;
        }
        s
    }

    fn block_score(&self, k: usize, start: usize, len: usize, h: f64) -> Score {
        let item = &self.items[k];
        let steps = self.board.steps;
        let mut s = Score::ZERO;
        for i in 0..item.instances {
            for j in 0..len {
                let t = (start + j + i * item.period) % steps;
                let c0 = self.board.cost[t];
                let c1 = self.board.cost_with(t, h, item.size);
                s.v += violation(c1, self.target) - violation(c0, self.target);
                s.sq += c1 * c1 - c0 * c0;
            }
        }
        s
    }

    fn keep(&self, best: &mut Option<Candidate>, c: Candidate) {
        if best.as_ref().is_none_or(|b| c.0.better(b.0, self.sq_tol)) {
            *best = Some(c);
        }
    }

    /// Every shift of `alloc` inside item `k`'s window.
    fn shifts(&self, k: usize, alloc: &[f64], best: &mut Option<Candidate>) {
        let (a, d) = self.items[k].window;
        if alloc.len() > d - a {
            return;
        }
        let mut top: Option<(Score, usize)> = None;
        for s in a..=d - alloc.len() {
            let sc = self.score(k, s, alloc);
            if top.is_none_or(|t| sc.better(t.0, self.sq_tol)) {
                top = Some((sc, s));
            }
        }
        if let Some((sc, s)) = top {
            self.keep(best, (sc, s, alloc.to_vec()));
        }
    }

    /// LowCost's placement of item `k` against the board (off it), on the
    /// real capacity or, when nothing fits there, on a far larger one.
    fn lowcost(&self, k: usize, unbounded: bool) -> Option<(usize, Vec<f64>)> {
        let item = &self.items[k];
        let scaled: Vec<Capacity>;
        let cap = if unbounded {
            scaled = self
                .board
                .cap
                .iter()
                .map(|c| Capacity {
                    cores: c.cores * 1e6,
                    memory_mb: c.memory_mb * 1e6,
                })
                .collect();
            &scaled
        } else {
            &self.board.cap
        };
        let view = View {
            base: &self.board.load,
            cap,
            steps: self.board.steps,
            period: item.period,
            instances: item.instances,
            size: item.size,
        };
        lowcost::place(&view, &item.req, item.window, self.agenda)
            .ok()
            .map(|p| (p.start, p.alloc))
    }

    /// The best position of item `k` (off the board).
    fn best(&self, k: usize) -> Option<Candidate> {
        let item = &self.items[k];
        let (a, d) = item.window;
        let mut best = None;
        match &item.rigid {
            Some(r) if r.chain => {
                let (_, shape) = r.layout(&r.back_to_back(a));
                self.shifts(k, &shape, &mut best);
            }
            Some(r) => {
                // R_ORDER with fixed stages: f_k(s) = score of stage k at s
                // plus the best of the later stages starting after it ends.
                let n = r.stages.len();
                let ranges: Vec<(usize, usize)> = (0..n).map(|j| r.range(j, (a, d))).collect();
                let mut f: Vec<Vec<Score>> = vec![Vec::new(); n];
                // suffix[j][i]: best f_j over starts ≥ lo_j + i, and where.
                let mut suffix: Vec<Vec<(Score, usize)>> = vec![Vec::new(); n];
                for j in (0..n).rev() {
                    let (lo, hi) = ranges[j];
                    let (len, h) = r.stages[j];
                    f[j] = (lo..=hi)
                        .map(|s| {
                            let mut sc = self.block_score(k, s, len, h);
                            if j + 1 < n {
                                let (lo1, _) = ranges[j + 1];
                                sc = sc.plus(suffix[j + 1][s + len - lo1].0);
                            }
                            sc
                        })
                        .collect();
                    let mut suf = vec![(Score::ZERO, 0usize); hi + 1 - lo];
                    for i in (0..=hi - lo).rev() {
                        suf[i] = if i == hi - lo || !f[j][i].better(suf[i + 1].0, self.sq_tol) {
                            if i == hi - lo {
                                (f[j][i], lo + i)
                            } else {
                                suf[i + 1]
                            }
                        } else {
                            (f[j][i], lo + i)
                        };
                    }
                    suffix[j] = suf;
                }
                let (total, s0) = suffix[0][0];
                let mut starts = vec![s0];
                for j in 1..n {
                    let prev = starts[j - 1] + r.stages[j - 1].0;
                    starts.push(suffix[j][prev - ranges[j].0].1);
                }
                let (start, alloc) = r.layout(&starts);
                best = Some((total, start, alloc));
            }
            None => {
                if item.placed || !item.alloc.is_empty() {
                    self.shifts(k, &item.alloc.clone(), &mut best);
                }
                let lc = self
                    .lowcost(k, false)
                    .or_else(|| best.is_none().then(|| self.lowcost(k, true)).flatten());
                if let Some((_, alloc)) = lc {
                    self.shifts(k, &alloc, &mut best);
                }
            }
        }
        best
    }

    /// Puts item `k` (off the board) at its best position and on the board;
    /// false if it has none (a window too short for its stages).
    pub fn insert(&mut self, k: usize) -> bool {
        let Some((_, start, alloc)) = self.best(k) else {
            return false;
        };
        let item = &mut self.items[k];
        item.start = start;
        item.alloc = alloc;
        item.placed = true;
        let item = self.items[k].clone();
        self.board.apply(k, &item, 1.0);
        true
    }

    fn step(&mut self, noise: f64) -> Step {
        let target = self.target;
        let over: Vec<usize> = (0..self.board.steps)
            .filter(|&t| self.board.cost[t] > target * (1.0 + 1e-12))
            .collect();
        if over.is_empty() {
            return Step::Reached;
        }
        let t = over[self.rng.int(0, over.len() as i64 - 1) as usize];
        let list = &self.board.touching[t];
        if list.is_empty() {
            return Step::Stuck;
        }
        let k = list[self.rng.int(0, list.len() as i64 - 1) as usize] as usize;
        let item = self.items[k].clone();
        self.board.apply(k, &item, -1.0);
        let (a, d) = item.window;
        if self.rng.unit() < noise && item.alloc.len() < d - a {
            let s = self.rng.int(a as i64, (d - item.alloc.len()) as i64) as usize;
            self.items[k].start = s;
        } else if let Some((_, start, alloc)) = self.best(k) {
            self.items[k].start = start;
            self.items[k].alloc = alloc;
        }
        let item = self.items[k].clone();
        self.board.apply(k, &item, 1.0);
        self.moves += 1;
        Step::Moved
    }

    fn snapshot(&self) -> Vec<(usize, Vec<f64>)> {
        self.items
            .iter()
            .map(|i| (i.start, i.alloc.clone()))
            .collect()
    }

    /// Takes item `k` off the board and puts it back at `start` with
    /// `alloc`.
    pub fn replace(&mut self, k: usize, start: usize, alloc: Vec<f64>) {
        let item = self.items[k].clone();
        self.board.apply(k, &item, -1.0);
        self.items[k].start = start;
        self.items[k].alloc = alloc;
        let item = self.items[k].clone();
        self.board.apply(k, &item, 1.0);
    }

    fn restore(&mut self, snap: Vec<(usize, Vec<f64>)>) {
        for (k, (start, alloc)) in snap.into_iter().enumerate() {
            if self.items[k].start == start && self.items[k].alloc == alloc {
                continue;
            }
            self.replace(k, start, alloc);
        }
    }

    /// Lowers the peak until a level cannot be reached in its moves, the
    /// total runs out, or the peak meets `floor` (a lower bound). Starts by
    /// bringing every step within capacity if the board is over it; keeps
    /// the best board met.
    pub fn run(&mut self, params: &OptimizeParams, floor: f64, progress: &mut dyn FnMut(usize)) {
        let mut best = self.snapshot();
        let mut peak = self.board.peak();
        self.sq_tol = 1e-15 * peak.min(1.0).powi(2);
        self.target = if peak > 1.0 + 1e-9 {
            1.0
        } else {
            peak * (1.0 - 1e-9)
        };
        while self.target >= floor * (1.0 - 1e-9)
            && self.target > 0.0
            && self.moves < params.max_moves
        {
            let mut used = 0;
            let mut reached = false;
            while used < params.level_moves && self.moves < params.max_moves {
                match self.step(params.noise) {
                    Step::Reached => {
                        reached = true;
                        break;
                    }
                    Step::Stuck => break,
                    Step::Moved => {
                        used += 1;
                        if self.moves.is_multiple_of(PROGRESS_EVERY) {
                            progress(self.moves);
                        }
                    }
                }
            }
            if !reached {
                break;
            }
            best = self.snapshot();
            peak = self.board.peak();
            self.target = peak * (1.0 - 1e-9);
        }
        self.restore(best);
    }
}
