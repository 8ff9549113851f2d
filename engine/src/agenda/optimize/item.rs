//! What the optimizer moves (one unlocked request with its current
//! placement, and its shape when it has only one) and the board it moves
//! it on (the load and cost per step of the whole plan).

use crate::agenda::request::{Capacity, Interpreter, ReservationRequest};

const EPS: f64 = 1e-9;

/// A request whose every placement is a translation of its stages: each
/// stage runs at its full parallelism (gang = max parallelism) for a whole
/// number of steps. Such a request has a finite set of placements, which
/// the DP best response and the integer program enumerate.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Rigid {
    /// `(steps, containers)` per stage, in order.
    pub stages: Vec<(usize, f64)>,
    /// Stages back to back (`R_ORDER_NO_GAP`, or one stage); otherwise in
    /// order with gaps allowed (`R_ORDER`).
    pub chain: bool,
}

impl Rigid {
    /// Stage starts of the shape placed back to back from step `a`.
    pub fn back_to_back(&self, a: usize) -> Vec<usize> {
        let mut s = a;
        self.stages
            .iter()
            .map(|st| {
                let at = s;
                s += st.0;
                at
            })
            .collect()
    }

    /// The shape of `req` if it is rigid.
    pub fn of(req: &ReservationRequest, step_secs: f64) -> Option<Rigid> {
        let chain = match req.interpreter {
            Interpreter::ROrderNoGap => true,
            Interpreter::ROrder => false,
            Interpreter::RAll | Interpreter::RAny => {
                if req.stages.len() != 1 {
                    return None;
                }
                true
            }
        };
        let mut stages = Vec::with_capacity(req.stages.len());
        for s in &req.stages {
            let q = s.demand / step_secs / s.max_parallelism;
            let len = q.round();
            if s.gang + EPS < s.max_parallelism || (q - len).abs() > 1e-9 || len < 1.0 {
                return None;
            }
            stages.push((len as usize, s.max_parallelism));
        }
        Some(Rigid {
            chain: chain || stages.len() == 1,
            stages,
        })
    }

    /// Steps the stages take back to back.
    pub fn total_len(&self) -> usize {
        self.stages.iter().map(|s| s.0).sum()
    }

    /// The earliest and latest start of stage `k` in window `[a, d)`.
    pub fn range(&self, k: usize, (a, d): (usize, usize)) -> (usize, usize) {
        let before: usize = self.stages[..k].iter().map(|s| s.0).sum();
        let from_k: usize = self.stages[k..].iter().map(|s| s.0).sum();
        (a + before, d - from_k)
    }

    /// The allocation `(start, containers per step)` of stage starts.
    pub fn layout(&self, starts: &[usize]) -> (usize, Vec<f64>) {
        let first = starts[0];
        let end = starts
            .iter()
            .zip(&self.stages)
            .map(|(s, st)| s + st.0)
            .max()
            .unwrap_or(first);
        let mut alloc = vec![0.0; end - first];
        for (s, &(len, h)) in starts.iter().zip(&self.stages) {
            for c in &mut alloc[s - first..s - first + len] {
                *c += h;
            }
        }
        (first, alloc)
    }

    /// Stage starts of an allocation of this shape (each stage's steps in
    /// order, skipping empty steps between stages), if it is one.
    pub fn starts_of(&self, start: usize, alloc: &[f64]) -> Option<Vec<usize>> {
        let mut starts = Vec::with_capacity(self.stages.len());
        let mut j = 0;
        for &(len, h) in &self.stages {
            while j < alloc.len() && alloc[j] <= EPS {
                j += 1;
            }
            if j + len > alloc.len() || alloc[j..j + len].iter().any(|&c| (c - h).abs() > 1e-6) {
                return None;
            }
            starts.push(start + j);
            j += len;
        }
        (alloc[j..].iter().all(|&c| c <= EPS)).then_some(starts)
    }
}

/// One request the optimizer may move.
#[derive(Clone, Debug)]
pub(super) struct Item {
    /// The reservation's id, when it is already in the plan.
    pub id: Option<u32>,
    /// What was asked.
    pub req: ReservationRequest,
    /// The first instance's window `[a, d)`.
    pub window: (usize, usize),
    /// Steps between instances.
    pub period: usize,
    /// Instances per plan.
    pub instances: usize,
    /// Container `[cores, memory]`.
    pub size: [f64; 2],
    /// Its fixed shape, when it has one.
    pub rigid: Option<Rigid>,
    /// Current placement: first step and containers per step.
    pub start: usize,
    /// Containers per step from `start`.
    pub alloc: Vec<f64>,
    /// Whether it is placed on the board.
    pub placed: bool,
}

impl Item {
    /// `(plan step, containers)` of every instance of a placement.
    pub fn occupied<'a>(
        &'a self,
        start: usize,
        alloc: &'a [f64],
        steps: usize,
    ) -> impl Iterator<Item = (usize, f64)> + 'a {
        (0..self.instances).flat_map(move |i| {
            alloc
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > EPS)
                .map(move |(j, &c)| ((start + i * self.period + j) % steps, c))
        })
    }

    /// Work per instance, container-steps.
    pub fn work(&self, step_secs: f64) -> f64 {
        match self.req.interpreter {
            Interpreter::RAny => self
                .req
                .stages
                .iter()
                .map(|s| s.demand / step_secs)
                .fold(f64::INFINITY, f64::min),
            _ => self.req.total_demand() / step_secs,
        }
    }

    /// Most containers it can hold at one step.
    pub fn max_parallelism(&self) -> f64 {
        match self.req.interpreter {
            Interpreter::RAll => self.req.stages.iter().map(|s| s.max_parallelism).sum(),
            _ => self
                .req
                .stages
                .iter()
                .map(|s| s.max_parallelism)
                .fold(0.0, f64::max),
        }
    }

    /// The gang any placement must hold at some step.
    pub fn gang(&self, step_secs: f64) -> f64 {
        let g = |s: &crate::agenda::request::Stage| s.gang.min(s.demand / step_secs);
        match self.req.interpreter {
            Interpreter::RAny => self.req.stages.iter().map(g).fold(f64::INFINITY, f64::min),
            _ => self.req.stages.iter().map(g).fold(0.0, f64::max),
        }
    }
}

/// The plan's load and cost per step, with the requests being moved on it.
#[derive(Clone, Debug)]
pub(super) struct Board {
    /// Steps in the plan.
    pub steps: usize,
    /// Capacity per step.
    pub cap: Vec<Capacity>,
    /// Load `[cores, memory]` per step of locked reservations.
    pub locked: Vec<[f64; 2]>,
    /// Load `[cores, memory]` per step of everything placed.
    pub load: Vec<[f64; 2]>,
    /// `max over resources of load / capacity` per step.
    pub cost: Vec<f64>,
    /// Items (indices) holding something at each step.
    pub touching: Vec<Vec<u32>>,
}

impl Board {
    /// A board holding only the locked load.
    pub fn new(cap: Vec<Capacity>, locked: Vec<[f64; 2]>) -> Board {
        let steps = cap.len();
        let mut b = Board {
            steps,
            cost: vec![0.0; steps],
            load: locked.clone(),
            locked,
            cap,
            touching: vec![Vec::new(); steps],
        };
        for t in 0..steps {
            b.cost[t] = b.cost_with(t, 0.0, [0.0, 0.0]);
        }
        b
    }

    /// Cost at `t` with `y` more containers of `size` there.
    pub fn cost_with(&self, t: usize, y: f64, size: [f64; 2]) -> f64 {
        let l = self.load[t];
        let c = self.cap[t];
        ((l[0] + y * size[0]) / c.cores).max((l[1] + y * size[1]) / c.memory_mb)
    }

    /// The largest cost.
    pub fn peak(&self) -> f64 {
        self.cost.iter().copied().fold(0.0, f64::max)
    }

    /// Adds (`sign` 1) or takes away (−1) item `k` at its placement.
    pub fn apply(&mut self, k: usize, item: &Item, sign: f64) {
        let steps = self.steps;
        let mut last = usize::MAX;
        for (t, c) in item.occupied(item.start, &item.alloc, steps) {
            self.load[t][0] += sign * c * item.size[0];
            self.load[t][1] += sign * c * item.size[1];
            if self.load[t][0].abs() < 1e-9 {
                self.load[t][0] = self.load[t][0].max(0.0);
            }
            self.cost[t] = self.cost_with(t, 0.0, [0.0, 0.0]);
            if t == last {
                continue;
            }
            last = t;
            let list = &mut self.touching[t];
            if sign > 0.0 {
                if !list.contains(&(k as u32)) {
                    list.push(k as u32);
                }
            } else if let Some(i) = list.iter().position(|&x| x == k as u32) {
                list.swap_remove(i);
            }
        }
    }
}
