//! The plan: one LCM period of cluster capacity, the reservations placed on
//! it, and their load. Admission hands the request, as a [`View`] of the
//! plan, to the placement algorithm of its [`Method`] (`lowcost`,
//! `baseline`), which sees nothing else of the plan.

use super::baseline::{self, Direction};
use super::error::AgendaError;
use super::lowcost;
use super::params::AgendaParams;
use super::placement::Rejection;
use super::request::{Capacity, Recurrence, ReservationRequest};
use super::view::{size_of, View};
use serde::{Deserialize, Serialize};

/// How a reservation was placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Morpheus' LowCost (§6.3).
    LowCost,
    /// YARN's greedy reservation agent planning right to left: stages from
    /// the last, each stage's gangs as late as possible where capacity
    /// remains (`baseline`).
    Greedy,
    /// The same agent left to right (YARN's default,
    /// `favor-early-allocation`): stages from the first, gangs as early as
    /// possible.
    EarliestFirst,
    /// Re-placed by the batch optimizer (`optimize`): the plan's unlocked
    /// reservations together, minimizing the peak. A single admission with
    /// this method is placed as LowCost places it.
    Optimized,
}

impl Method {
    /// The method in words, as the Agenda panel and the report name it.
    pub fn label(self) -> &'static str {
        match self {
            Method::LowCost => "LowCost",
            Method::Greedy => "Greedy (YARN)",
            Method::EarliestFirst => "Earliest first",
            Method::Optimized => "Optimized (batch)",
        }
    }
}

/// A placed reservation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reservation {
    /// Plan-assigned id.
    pub id: u32,
    /// What was asked.
    pub request: ReservationRequest,
    /// How it was placed.
    pub method: Method,
    /// Where the first instance's allocation starts, plan step.
    pub start: usize,
    /// Containers per step from `start`.
    pub alloc: Vec<f64>,
    /// The first instance's window `[a, d)`, plan steps.
    pub window: (usize, usize),
    /// Steps between instances (the plan length for one-offs).
    pub period_steps: usize,
    /// Instances per plan period.
    pub instances: usize,
}

impl Reservation {
    /// Whether it repeats.
    pub fn periodic(&self) -> bool {
        matches!(self.request.recurrence, Recurrence::Periodic { .. })
    }

    /// `(plan step, containers)` of every instance's allocation.
    pub fn occupied(&self, steps: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        (0..self.instances).flat_map(move |i| {
            self.alloc
                .iter()
                .enumerate()
                .map(move |(j, &c)| ((self.start + i * self.period_steps + j) % steps, c))
        })
    }
}

/// The outcome of trying a move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovePreview {
    /// Whether the move keeps the window and the capacity.
    pub feasible: bool,
    /// Why not, when not.
    pub reason: Option<String>,
    /// Peak cost of the plan after the move.
    pub peak: f64,
    /// Cost per step after the move.
    pub cost: Vec<f64>,
}

/// A plan over one LCM period.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    params: AgendaParams,
    steps: usize,
    capacity: Vec<Capacity>,
    periodic_load: Vec<[f64; 2]>,
    oneoff_load: Vec<[f64; 2]>,
    reservations: Vec<Reservation>,
    next_id: u32,
}

impl Plan {
    /// An empty plan. `capacity` is one value for every step, or one per step.
    pub fn new(params: AgendaParams, capacity: Vec<Capacity>) -> Result<Plan, AgendaError> {
        let bad = |name: &'static str, why: &str| {
            Err(AgendaError::Param {
                name,
                why: why.into(),
            })
        };
        if params.step_secs <= 0 {
            return bad("step_secs", "must be positive");
        }
        if params.period_secs <= 0 || params.period_secs % params.step_secs != 0 {
            return bad("period_secs", "must be a positive multiple of step_secs");
        }
        let steps = (params.period_secs / params.step_secs) as usize;
        if steps > 1_000_000 {
            return bad("period_secs", "gives more than a million steps");
        }
        if params.end_points == 0 {
            return bad("end_points", "must be at least 1");
        }
        if !(params.alignment_weight.is_finite() && params.alignment_weight >= 0.0) {
            return bad("alignment_weight", "must be a finite number ≥ 0");
        }
        if capacity.len() != 1 && capacity.len() != steps {
            return bad("capacity", "needs one value, or one per step");
        }
        if capacity.iter().any(|c| {
            !(c.cores.is_finite() && c.cores > 0.0 && c.memory_mb.is_finite() && c.memory_mb > 0.0)
        }) {
            return bad("capacity", "cores and memory must be positive and finite");
        }
        let capacity = if capacity.len() == 1 {
            vec![capacity[0]; steps]
        } else {
            capacity
        };
        Ok(Plan {
            params,
            steps,
            capacity,
            periodic_load: vec![[0.0; 2]; steps],
            oneoff_load: vec![[0.0; 2]; steps],
            reservations: Vec::new(),
            next_id: 0,
        })
    }

    /// The settings.
    pub fn params(&self) -> &AgendaParams {
        &self.params
    }

    /// Number of steps in the plan.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Capacity per step.
    pub fn capacity(&self) -> &[Capacity] {
        &self.capacity
    }

    /// Changes the capacity (one value, or one per step) keeping every
    /// reservation where it is; refused if the current load would not fit.
    pub fn set_capacity(&mut self, capacity: Vec<Capacity>) -> Result<(), AgendaError> {
        let checked = Plan::new(self.params.clone(), capacity)?;
        for (t, (l, c)) in self.load().iter().zip(&checked.capacity).enumerate() {
            if l[0] > c.cores * (1.0 + 1e-9) || l[1] > c.memory_mb * (1.0 + 1e-9) {
                return Err(AgendaError::Param {
                    name: "capacity",
                    why: format!("the reservations need more than that at step {t}"),
                });
            }
        }
        self.capacity = checked.capacity;
        Ok(())
    }

    /// The placed reservations, in admission order.
    pub fn reservations(&self) -> &[Reservation] {
        &self.reservations
    }

    /// A reservation by id.
    pub fn reservation(&self, id: u32) -> Option<&Reservation> {
        self.reservations.iter().find(|r| r.id == id)
    }

    /// Load `[cores, memory]` per step: periodic and one-off together.
    pub fn load(&self) -> Vec<[f64; 2]> {
        self.periodic_load
            .iter()
            .zip(&self.oneoff_load)
            .map(|(p, o)| [p[0] + o[0], p[1] + o[1]])
            .collect()
    }

    /// Load of periodic reservations only.
    pub fn periodic_load(&self) -> &[[f64; 2]] {
        &self.periodic_load
    }

    fn cost_of(&self, load: &[[f64; 2]]) -> Vec<f64> {
        load.iter()
            .zip(&self.capacity)
            .map(|(l, c)| (l[0] / c.cores).max(l[1] / c.memory_mb))
            .collect()
    }

    /// `c(t) = max over resources of load/capacity`, per step (§6.3).
    pub fn cost_curve(&self) -> Vec<f64> {
        self.cost_of(&self.load())
    }

    /// The largest cost over the plan.
    pub fn peak(&self) -> f64 {
        self.cost_curve().into_iter().fold(0.0, f64::max)
    }

    /// The first instance's window in plan steps, the period in steps and
    /// the number of instances, after checking the request.
    pub fn frame(
        &self,
        req: &ReservationRequest,
    ) -> Result<(usize, usize, usize, usize), AgendaError> {
        let bad = |why: String| {
            Err(AgendaError::Request {
                name: req.name.clone(),
                why,
            })
        };
        if req.stages.is_empty() {
            return bad("has no stages".into());
        }
        for (k, s) in req.stages.iter().enumerate() {
            if !(s.demand.is_finite() && s.demand > 0.0) {
                return bad(format!("stage {k}: demand must be positive"));
            }
            if !(s.max_parallelism.is_finite() && s.max_parallelism > 0.0) {
                return bad(format!("stage {k}: max parallelism must be positive"));
            }
            if !(s.gang.is_finite() && s.gang >= 0.0 && s.gang <= s.max_parallelism) {
                return bad(format!(
                    "stage {k}: gang must be between 0 and the max parallelism"
                ));
            }
        }
        let c = req.container;
        if !(c.cores.is_finite() && c.cores > 0.0 && c.memory_mb.is_finite() && c.memory_mb > 0.0) {
            return bad("container size must be positive".into());
        }
        let step = self.params.step_secs;
        let (period_steps, instances) = match req.recurrence {
            Recurrence::Periodic { period_secs } => {
                if period_secs <= 0
                    || period_secs % step != 0
                    || self.params.period_secs % period_secs != 0
                {
                    return bad(format!(
                        "period {period_secs} s does not divide the plan's {} s (place it as one-off reservations)",
                        self.params.period_secs
                    ));
                }
                let p = (period_secs / step) as usize;
                (p, self.steps / p)
            }
            Recurrence::OneOff => (self.steps, 1),
        };
        if req.arrival_secs < 0 || req.deadline_secs <= req.arrival_secs {
            return bad(format!(
                "window [{}, {}] s must start at or after 0 and end after it starts",
                req.arrival_secs, req.deadline_secs
            ));
        }
        let a = ((req.arrival_secs + step - 1) / step) as usize;
        let d = (req.deadline_secs / step) as usize;
        if d <= a {
            return bad("window is shorter than one step".into());
        }
        if d - a > period_steps {
            return bad("window is longer than the period".into());
        }
        if !matches!(req.recurrence, Recurrence::Periodic { .. }) && d > self.steps {
            return bad("a one-off window must end within the plan".into());
        }
        if matches!(req.recurrence, Recurrence::Periodic { .. }) && a >= period_steps {
            return bad("the first instance's window must start within its first period".into());
        }
        Ok((a, d, period_steps, instances))
    }

    fn apply(&mut self, r: &Reservation, sign: f64) {
        let size = size_of(&r.request);
        let periodic = r.periodic();
        let steps = self.steps;
        let layer = if periodic {
            &mut self.periodic_load
        } else {
            &mut self.oneoff_load
        };
        for (t, c) in r.occupied(steps) {
            layer[t][0] += sign * c * size[0];
            layer[t][1] += sign * c * size[1];
        }
    }

    /// The load a request of this kind is placed against: periodic jobs
    /// see only periodic load (they take precedence), one-offs everything.
    pub(crate) fn base_load(&self, periodic: bool) -> Vec<[f64; 2]> {
        if periodic {
            self.periodic_load.clone()
        } else {
            self.load()
        }
    }

    /// Places a request with `method`; admitted reservations never move.
    /// A periodic admission may push one-off reservations out of capacity:
    /// those are re-placed by LowCost on the residual, and the ones that no
    /// longer fit are removed and returned with the reason.
    pub fn admit(
        &mut self,
        req: ReservationRequest,
        method: Method,
    ) -> Result<(u32, Vec<Rejection>), Rejection> {
        let (a, d, p, n) = self
            .frame(&req)
            .map_err(|e| Rejection::new(&req.name, e.to_string()))?;
        let periodic = matches!(req.recurrence, Recurrence::Periodic { .. });
        let base = self.base_load(periodic);
        let view = View {
            base: &base,
            cap: &self.capacity,
            steps: self.steps,
            period: p,
            instances: n,
            size: size_of(&req),
        };
        let step = self.params.step_secs;
        let placement = match method {
            Method::LowCost | Method::Optimized => {
                lowcost::place(&view, &req, (a, d), &self.params)?
            }
            Method::Greedy => baseline::place(&view, &req, (a, d), step, Direction::Latest)?,
            Method::EarliestFirst => {
                baseline::place(&view, &req, (a, d), step, Direction::Earliest)?
            }
        };
        self.next_id += 1;
        let r = Reservation {
            id: self.next_id,
            request: req,
            method,
            start: placement.start,
            alloc: placement.alloc,
            window: (a, d),
            period_steps: p,
            instances: n,
        };
        self.apply(&r, 1.0);
        let id = r.id;
        self.reservations.push(r);
        let displaced = if periodic {
            self.refit_oneoffs()
        } else {
            Vec::new()
        };
        Ok((id, displaced))
    }

    /// Re-places one-off reservations that no longer fit after a periodic
    /// admission; returns those that cannot be placed at all (removed).
    fn refit_oneoffs(&mut self) -> Vec<Rejection> {
        let mut out = Vec::new();
        loop {
            let load = self.load();
            let over: Vec<bool> = load
                .iter()
                .zip(&self.capacity)
                .map(|(l, c)| l[0] > c.cores + 1e-9 || l[1] > c.memory_mb + 1e-9)
                .collect();
            let victim = self
                .reservations
                .iter()
                .filter(|r| !r.periodic())
                .find(|r| r.occupied(self.steps).any(|(t, c)| c > 0.0 && over[t]))
                .map(|r| r.id);
            let Some(id) = victim else { return out };
            let old = self.remove(id).expect("victim exists");
            match self.admit(old.request.clone(), Method::LowCost) {
                Ok((new_id, _)) => {
                    // Keep the reservation's identity.
                    if let Some(r) = self.reservations.iter_mut().find(|r| r.id == new_id) {
                        r.id = id;
                    }
                }
                Err(mut rej) => {
                    rej.reason = format!("displaced by a periodic reservation: {}", rej.reason);
                    out.push(rej);
                }
            }
        }
    }

    /// Removes a reservation.
    pub fn remove(&mut self, id: u32) -> Option<Reservation> {
        let i = self.reservations.iter().position(|r| r.id == id)?;
        let r = self.reservations.remove(i);
        self.apply(&r, -1.0);
        Some(r)
    }

    /// What moving reservation `id` to start at `new_start` would give:
    /// the window and capacity checks, and the cost curve after the move.
    pub fn preview_move(&self, id: u32, new_start: usize) -> Result<MovePreview, AgendaError> {
        let r = self
            .reservation(id)
            .ok_or(AgendaError::NoSuchReservation(id))?;
        let mut load = self.load();
        let size = size_of(&r.request);
        for (t, c) in r.occupied(self.steps) {
            load[t][0] -= c * size[0];
            load[t][1] -= c * size[1];
        }
        let moved = Reservation {
            start: new_start,
            ..r.clone()
        };
        let mut reason = None;
        if new_start < r.window.0 || new_start + r.alloc.len() > r.window.1 {
            reason = Some(format!(
                "outside the window: the allocation must lie within steps [{}, {})",
                r.window.0, r.window.1
            ));
        }
        for (t, c) in moved.occupied(self.steps) {
            load[t][0] += c * size[0];
            load[t][1] += c * size[1];
            if reason.is_none() {
                let cap = self.capacity[t];
                if load[t][0] > cap.cores + 1e-9 {
                    reason = Some(format!(
                        "cores over capacity at step {t}: {:.0} > {:.0}",
                        load[t][0], cap.cores
                    ));
                } else if load[t][1] > cap.memory_mb + 1e-9 {
                    reason = Some(format!(
                        "memory over capacity at step {t}: {:.0} MB > {:.0} MB",
                        load[t][1], cap.memory_mb
                    ));
                }
            }
        }
        let cost = self.cost_of(&load);
        Ok(MovePreview {
            feasible: reason.is_none(),
            reason,
            peak: cost.iter().copied().fold(0.0, f64::max),
            cost,
        })
    }

    /// Moves reservation `id` if [`Plan::preview_move`] says it is feasible.
    pub fn move_to(&mut self, id: u32, new_start: usize) -> Result<MovePreview, AgendaError> {
        let preview = self.preview_move(id, new_start)?;
        if preview.feasible {
            let r = self.remove(id).ok_or(AgendaError::NoSuchReservation(id))?;
            let r = Reservation {
                start: new_start,
                ..r
            };
            self.apply(&r, 1.0);
            self.reservations.push(r);
        }
        Ok(preview)
    }

    /// Puts a request at a placement the caller has checked (the batch
    /// optimizer), under `id` when given (keeping a reservation's identity)
    /// or a fresh one. Returns the id.
    pub(crate) fn insert_placed(
        &mut self,
        req: ReservationRequest,
        method: Method,
        (start, alloc): (usize, Vec<f64>),
        id: Option<u32>,
    ) -> Result<u32, AgendaError> {
        let (a, d, p, n) = self.frame(&req)?;
        let id = match id {
            Some(id) => {
                self.next_id = self.next_id.max(id);
                id
            }
            None => {
                self.next_id += 1;
                self.next_id
            }
        };
        let r = Reservation {
            id,
            request: req,
            method,
            start,
            alloc,
            window: (a, d),
            period_steps: p,
            instances: n,
        };
        self.apply(&r, 1.0);
        self.reservations.push(r);
        Ok(id)
    }
}
