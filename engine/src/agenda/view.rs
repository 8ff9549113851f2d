//! The plan as one request sees it: the load it is placed against, the
//! capacity, and its instances folded onto one period. Shared by the
//! placement algorithms (LowCost and the YARN baselines), which see the
//! plan only through it.

use super::request::{Capacity, ReservationRequest};

/// Resource names, in the order of the load arrays.
pub(crate) const RESOURCES: [&str; 2] = ["cores", "memory"];

/// A request's container as `[cores, memory]`, the order of the load arrays.
pub(crate) fn size_of(req: &ReservationRequest) -> [f64; 2] {
    [req.container.cores, req.container.memory_mb]
}

/// The plan as one request sees it: the load it is placed against, with its
/// instances folded onto one period.
pub(crate) struct View<'a> {
    /// Load `[cores, memory]` per plan step the request is placed against.
    pub base: &'a [[f64; 2]],
    /// Capacity per plan step.
    pub cap: &'a [Capacity],
    /// Steps in the plan.
    pub steps: usize,
    /// Steps between the request's instances.
    pub period: usize,
    /// Instances per plan.
    pub instances: usize,
    /// The request's container, `[cores, memory]`.
    pub size: [f64; 2],
}

impl View<'_> {
    fn cap_of(&self, tau: usize, r: usize) -> f64 {
        if r == 0 {
            self.cap[tau].cores
        } else {
            self.cap[tau].memory_mb
        }
    }

    fn taus(&self, t: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.instances).map(move |i| (t + i * self.period) % self.steps)
    }

    /// Cost at offset `t` (max over instances and resources) when the job
    /// holds `y` containers there.
    pub fn eff(&self, t: usize, y: f64) -> f64 {
        let mut c = 0.0f64;
        for tau in self.taus(t) {
            for r in 0..2 {
                c = c.max((self.base[tau][r] + y * self.size[r]) / self.cap_of(tau, r));
            }
        }
        c
    }

    /// Most containers the job may hold at `t` with every instance's cost at
    /// most `theta`.
    pub fn limit(&self, t: usize, theta: f64) -> f64 {
        let mut y = f64::INFINITY;
        for tau in self.taus(t) {
            for r in 0..2 {
                y = y.min((theta * self.cap_of(tau, r) - self.base[tau][r]) / self.size[r]);
            }
        }
        y
    }

    /// The instance step and resource that bind first at `t`.
    pub fn binding(&self, t: usize) -> (usize, &'static str) {
        let mut best = (t % self.steps, RESOURCES[0], f64::INFINITY);
        for tau in self.taus(t) {
            for (r, name) in RESOURCES.iter().enumerate() {
                let room = (self.cap_of(tau, r) - self.base[tau][r]) / self.size[r];
                if room < best.2 {
                    best = (tau, name, room);
                }
            }
        }
        (best.0, best.1)
    }
}
