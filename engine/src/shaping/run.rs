//! One trace-driven discrete-event run (§IV-A): arrivals, completions and
//! the shaper's refresh every minute, under one policy and one forecaster.
//!
//! Events are processed in time order (completions before arrivals before
//! the minute tick at equal times). After every event the FIFO scheduler
//! admits what fits ([`super::scheduler`]). At every tick each running
//! application's minute `m` (since its latest start) advances; from the
//! grace period on, each component's target is forecast + β
//! ([`super::buffer::target`]) and the policy applies it — Algorithm 1
//! ([`super::pessimistic`]), the OS's OOM kills ([`super::optimistic`]) or
//! nothing (the reservation baseline). Then the minute's use is compared
//! with the allocation: a component using more memory than it was given
//! fails, and takes its application down (CPU is throttled instead). A failed or preempted application is
//! resubmitted at its original place in the queue and loses its work.
//!
//! Free capacity is recomputed from the allocations at every tick (in one
//! fixed order, so two runs with the same allocations see the same
//! numbers), and updated incrementally between ticks.

use super::buffer::target;
use super::metrics::{AppOutcome, BoxStats, RunSummary};
use super::model::{Host, Kind, Workload};
use super::optimistic::optimistic;
use super::params::{Params, Policy, Predictor};
use super::pessimistic::{pessimistic_into, ShaperApp, ShaperComponent, ShaperDecision, EPS};
use super::predictor::AppForecast;
use super::scheduler::{first_fit, FifoKey, FifoQueue};
use super::timeline::{
    AppPoint, AppTimeline, EventKind, HostPoint, HostTimeline, TimelineEvent, HOST_POINTS,
};
use crate::numerics::quantile::normal_quantile;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap};

/// Seconds between refreshes: the monitoring interval (§V: every minute).
pub const TICK_S: f64 = 60.0;

/// Everything one run produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// The numbers.
    pub summary: RunSummary,
    /// Every application's outcome, in workload order.
    pub apps: Vec<AppOutcome>,
    /// Turnaround of the completed applications (s).
    pub turnaround: BoxStats,
    /// CPU slack per application (%).
    pub slack_cpu: BoxStats,
    /// Memory slack per application (%).
    pub slack_mem: BoxStats,
    /// The chosen application's timeline.
    pub app_timeline: Option<AppTimeline>,
    /// The chosen host's timeline.
    pub host_timeline: HostTimeline,
}

/// What a run is asked.
pub(crate) struct RunSetup<'a> {
    pub workload: &'a Workload,
    pub hosts: &'a [Host],
    pub params: &'a Params,
    pub policy: Policy,
    pub predictor: Predictor,
    pub k1: f64,
    pub k2: f64,
    /// Per application (empty entries for the oracle).
    pub forecasts: &'a [AppForecast],
    pub timeline_app: Option<usize>,
    /// Recompute every host's allocations from the components after every
    /// event and count overcommits (tests).
    pub verify: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Future,
    Queued,
    Running,
    Done,
    Abandoned,
}

#[derive(Clone, Copy, Debug)]
struct Comp {
    host: u32,
    group: u16,
    kind: Kind,
    started: f64,
    cpu: f64,
    mem: f64,
}

struct App {
    state: State,
    attempts: u32,
    start: f64,
    comps: Vec<Comp>,
    pending: Vec<u32>,
    k: f64,
    s: f64,
    work: f64,
    version: u64,
    uc: f64,
    um: f64,
    alloc_cpu: f64,
    alloc_mem: f64,
    req_cpu: f64,
    req_mem: f64,
    last: f64,
    ia_cpu: f64,
    ia_mem: f64,
    iu_cpu: f64,
    iu_mem: f64,
    finish: Option<f64>,
    failures: u32,
    preemptions: u32,
    comp_preemptions: u32,
    wasted: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum EvKind {
    Finish(usize, u64),
    Arrival(usize),
    Tick,
}

impl EvKind {
    fn rank(self) -> u8 {
        match self {
            EvKind::Finish(..) => 0,
            EvKind::Arrival(_) => 1,
            EvKind::Tick => 2,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Ev {
    t: f64,
    seq: u64,
    kind: EvKind,
}

impl Eq for Ev {}

impl PartialOrd for Ev {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ev {
    /// Reversed: the heap pops the earliest.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .t
            .total_cmp(&self.t)
            .then(other.kind.rank().cmp(&self.kind.rank()))
            .then(other.seq.cmp(&self.seq))
    }
}

struct Sim<'a> {
    setup: &'a RunSetup<'a>,
    apps: Vec<App>,
    free: Vec<Host>,
    heap: BinaryHeap<Ev>,
    seq: u64,
    queue: FifoQueue,
    running: BTreeSet<FifoKey>,
    done: usize,
    dirty: bool,
    z: f64,
    keys: Vec<FifoKey>,
    placed: Vec<u32>,
    // Algorithm 1's buffers.
    sh_apps: Vec<ShaperApp>,
    sh_comps: Vec<ShaperComponent>,
    sh_owner: Vec<(usize, usize)>,
    decision: ShaperDecision,
    order: Vec<usize>,
    used_mem: Vec<f64>,
    // Metrics.
    events: usize,
    min_free_cpu: f64,
    min_free_mem: f64,
    violations: usize,
    timeline: Option<AppTimeline>,
    last_alloc: (f64, f64),
    host_tl: HostTimeline,
    host_stride: usize,
    host_ticks: usize,
}

impl<'a> Sim<'a> {
    fn key(&self, i: usize) -> FifoKey {
        FifoKey {
            arrival: self.setup.workload.applications[i].arrival,
            app: i,
        }
    }

    fn push(&mut self, t: f64, kind: EvKind) {
        self.seq += 1;
        self.heap.push(Ev {
            t,
            seq: self.seq,
            kind,
        });
    }

    fn note(&mut self, i: usize, t: f64, kind: EventKind, components: u32) {
        if self.setup.timeline_app == Some(i) {
            if let Some(tl) = self.timeline.as_mut() {
                tl.events.push(TimelineEvent {
                    t,
                    kind,
                    components,
                });
            }
        }
    }

    fn integrate(&mut self, i: usize, t: f64) {
        let a = &mut self.apps[i];
        let dt = t - a.last;
        if dt > 0.0 {
            a.ia_cpu += a.alloc_cpu * dt;
            a.ia_mem += a.alloc_mem * dt;
            a.iu_cpu += a.uc * a.req_cpu * dt;
            a.iu_mem += a.um * a.req_mem * dt;
        }
        a.last = t;
    }

    fn totals(&mut self, i: usize) {
        let setup = self.setup;
        let groups = &setup.workload.applications[i].components;
        let a = &mut self.apps[i];
        let (mut ac, mut am, mut rc, mut rm) = (0.0, 0.0, 0.0, 0.0);
        for c in &a.comps {
            ac += c.cpu;
            am += c.mem;
            let g = &groups[c.group as usize];
            rc += g.cpu;
            rm += g.mem;
        }
        a.alloc_cpu = ac;
        a.alloc_mem = am;
        a.req_cpu = rc;
        a.req_mem = rm;
    }

    fn reschedule(&mut self, i: usize, t: f64) {
        let a = &mut self.apps[i];
        a.version += 1;
        if a.k > 0.0 {
            let tf = ((a.work + a.s) / a.k).max(t);
            let v = a.version;
            self.push(tf, EvKind::Finish(i, v));
        }
    }

    fn release(&mut self, i: usize) {
        for c in std::mem::take(&mut self.apps[i].comps) {
            let h = &mut self.free[c.host as usize];
            h.cpu += c.cpu;
            h.mem += c.mem;
        }
    }

    /// A failed or preempted application: its work lost, back in the queue
    /// at its original place (or abandoned).
    fn stop(&mut self, i: usize, t: f64, kind: EventKind) {
        self.integrate(i, t);
        let n = self.apps[i].comps.len() as u32;
        self.release(i);
        let key = self.key(i);
        self.running.remove(&key);
        let max = self.setup.params.max_attempts;
        let a = &mut self.apps[i];
        a.wasted += (a.k * t - a.s).max(0.0);
        a.k = 0.0;
        a.s = 0.0;
        a.version += 1;
        a.alloc_cpu = 0.0;
        a.alloc_mem = 0.0;
        a.req_cpu = 0.0;
        a.req_mem = 0.0;
        match kind {
            EventKind::Fail => a.failures += 1,
            _ => a.preemptions += 1,
        }
        let abandon = a.attempts >= max;
        if abandon {
            a.state = State::Abandoned;
            self.queue.remove(key);
            self.done += 1;
        } else {
            a.state = State::Queued;
            self.queue.insert(key);
        }
        self.dirty = true;
        self.note(i, t, kind, n);
        if abandon {
            self.note(i, t, EventKind::Abandon, 0);
        }
    }

    fn finish(&mut self, i: usize, t: f64) {
        self.integrate(i, t);
        self.release(i);
        let key = self.key(i);
        self.running.remove(&key);
        self.queue.remove(key);
        let a = &mut self.apps[i];
        a.state = State::Done;
        a.finish = Some(t);
        a.alloc_cpu = 0.0;
        a.alloc_mem = 0.0;
        a.req_cpu = 0.0;
        a.req_mem = 0.0;
        self.done += 1;
        self.dirty = true;
        self.note(i, t, EventKind::Finish, 0);
    }

    /// Places what fits of the application's waiting elastic components.
    fn place_elastic(&mut self, i: usize, t: f64) -> u32 {
        let setup = self.setup;
        let groups = &setup.workload.applications[i].components;
        let mut placed_total = 0;
        for (g, group) in groups.iter().enumerate() {
            let want = self.apps[i].pending[g];
            if want == 0 || group.kind != Kind::Elastic {
                continue;
            }
            self.placed.clear();
            let got = first_fit(&mut self.free, group.cpu, group.mem, want, &mut self.placed);
            let a = &mut self.apps[i];
            for &h in &self.placed {
                a.comps.push(Comp {
                    host: h,
                    group: g as u16,
                    kind: Kind::Elastic,
                    started: t,
                    cpu: group.cpu,
                    mem: group.mem,
                });
            }
            a.pending[g] -= got;
            a.k += got as f64;
            a.s += got as f64 * t;
            placed_total += got;
        }
        placed_total
    }

    /// Strict FIFO admission, then elastic placement.
    fn schedule(&mut self, t: f64) {
        let setup = self.setup;
        let mut keys = std::mem::take(&mut self.keys);
        self.queue.snapshot(&mut keys);
        for key in &keys {
            let i = key.app;
            let app = &setup.workload.applications[i];
            match self.apps[i].state {
                State::Queued => {
                    // Gang placement of the core components, undone on failure.
                    let saved: Vec<Host> = self.free.clone();
                    let mut comps = Vec::new();
                    let mut ok = true;
                    for (g, group) in app.components.iter().enumerate() {
                        if group.kind != Kind::Core {
                            continue;
                        }
                        self.placed.clear();
                        let got = first_fit(
                            &mut self.free,
                            group.cpu,
                            group.mem,
                            group.count,
                            &mut self.placed,
                        );
                        if got < group.count {
                            ok = false;
                            break;
                        }
                        comps.extend(self.placed.iter().map(|&h| Comp {
                            host: h,
                            group: g as u16,
                            kind: Kind::Core,
                            started: t,
                            cpu: group.cpu,
                            mem: group.mem,
                        }));
                    }
                    if !ok {
                        self.free = saved;
                        break;
                    }
                    let n = comps.len() as f64;
                    let a = &mut self.apps[i];
                    a.state = State::Running;
                    a.attempts += 1;
                    a.start = t;
                    a.last = t;
                    a.k = n;
                    a.s = n * t;
                    a.comps = comps;
                    for (g, group) in app.components.iter().enumerate() {
                        a.pending[g] = if group.kind == Kind::Elastic {
                            group.count
                        } else {
                            0
                        };
                    }
                    let (uc, um) = app.usage.at(0);
                    a.uc = uc;
                    a.um = um;
                    self.running.insert(*key);
                    self.place_elastic(i, t);
                    self.totals(i);
                    if self.apps[i].pending.iter().all(|&p| p == 0) {
                        self.queue.remove(*key);
                    }
                    self.reschedule(i, t);
                    let n = self.apps[i].comps.len() as u32;
                    self.note(i, t, EventKind::Start, n);
                }
                State::Running => {
                    self.integrate(i, t);
                    if self.place_elastic(i, t) > 0 {
                        self.totals(i);
                        self.reschedule(i, t);
                    }
                    if self.apps[i].pending.iter().all(|&p| p == 0) {
                        self.queue.remove(*key);
                    }
                }
                _ => {
                    self.queue.remove(*key);
                }
            }
        }
        self.keys = keys;
    }

    /// Free capacity from the allocations, in FIFO and component order.
    fn recompute_free(&mut self) {
        self.free.clear();
        self.free.extend_from_slice(self.setup.hosts);
        for key in &self.running {
            for c in &self.apps[key.app].comps {
                let h = &mut self.free[c.host as usize];
                h.cpu -= c.cpu;
                h.mem -= c.mem;
            }
        }
    }

    fn tick(&mut self, t: f64) {
        let setup = self.setup;
        let params = setup.params;
        let grace = params.grace_minutes;
        let running: Vec<FifoKey> = self.running.iter().copied().collect();
        self.sh_apps.clear();
        self.sh_comps.clear();
        self.sh_owner.clear();
        self.used_mem.clear();
        let mut forecasts = Vec::with_capacity(running.len());
        for key in &running {
            let i = key.app;
            self.integrate(i, t);
            let app = &setup.workload.applications[i];
            let a = &mut self.apps[i];
            let m = ((t - a.start) / TICK_S + 1e-9).floor() as usize;
            let (uc, um) = app.usage.at(m);
            a.uc = uc;
            a.um = um;
            let shaping = setup.policy != Policy::Reservation && m >= grace;
            let f = if shaping {
                Some(setup.forecasts[i].at(setup.predictor, &app.usage, grace, m))
            } else {
                None
            };
            forecasts.push(f);
            let first = self.sh_comps.len();
            for (ci, c) in a.comps.iter().enumerate() {
                let g = &app.components[c.group as usize];
                let (cpu, mem) = match f {
                    Some(f) => (
                        target(
                            g.cpu,
                            f.cpu_mean,
                            f.cpu_var,
                            setup.k1,
                            setup.k2,
                            params.spread,
                        ),
                        target(
                            g.mem,
                            f.mem_mean,
                            f.mem_var,
                            setup.k1,
                            setup.k2,
                            params.spread,
                        ),
                    ),
                    None => (c.cpu, c.mem),
                };
                self.sh_comps.push(ShaperComponent {
                    host: c.host as usize,
                    kind: c.kind,
                    started: c.started,
                    cpu,
                    mem,
                });
                self.sh_owner.push((i, ci));
                self.used_mem.push(um * g.mem);
            }
            self.sh_apps.push(ShaperApp {
                arrival: app.arrival,
                id: i,
                first,
                len: a.comps.len(),
            });
        }
        match setup.policy {
            Policy::Reservation => {}
            Policy::Pessimistic => {
                let mut decision = std::mem::take(&mut self.decision);
                let mut order = std::mem::take(&mut self.order);
                pessimistic_into(
                    setup.hosts,
                    &self.sh_apps,
                    &self.sh_comps,
                    params.elastic_zero_left_preempts,
                    &mut decision,
                    &mut order,
                );
                // Resize the kept (lines 39–41) before preempting, so that
                // component indices still hold.
                for &ai in &decision.kept {
                    let sa = self.sh_apps[ai];
                    for ci in sa.first..sa.first + sa.len {
                        let (i, k) = self.sh_owner[ci];
                        let c = &mut self.apps[i].comps[k];
                        c.cpu = self.sh_comps[ci].cpu;
                        c.mem = self.sh_comps[ci].mem;
                    }
                }
                // 𝒦_E (lines 37–38): grouped by application, removed from
                // the highest index down.
                let mut lost: Vec<(usize, usize)> = decision
                    .preempted_components
                    .iter()
                    .map(|&ci| self.sh_owner[ci])
                    .collect();
                lost.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
                let mut touched = Vec::new();
                for (i, k) in lost {
                    let a = &mut self.apps[i];
                    let c = a.comps.swap_remove(k);
                    a.wasted += t - c.started;
                    a.k -= 1.0;
                    a.s -= c.started;
                    a.pending[c.group as usize] += 1;
                    a.comp_preemptions += 1;
                    if touched.last().map(|&(j, _)| j) != Some(i) {
                        touched.push((i, 0u32));
                    }
                    touched.last_mut().expect("pushed").1 += 1;
                }
                for (i, n) in touched {
                    // Keep the components in start order (time alive).
                    self.apps[i]
                        .comps
                        .sort_by(|a, b| a.started.total_cmp(&b.started));
                    let key = self.key(i);
                    self.queue.insert(key);
                    self.reschedule(i, t);
                    self.note(i, t, EventKind::PreemptComponents, n);
                }
                // 𝒦 (lines 34–36).
                let preempted: Vec<usize> = decision
                    .preempted_apps
                    .iter()
                    .map(|&ai| self.sh_apps[ai].id)
                    .collect();
                self.decision = decision;
                self.order = order;
                self.recompute_free();
                for i in preempted {
                    self.stop(i, t, EventKind::Preempt);
                }
            }
            Policy::Optimistic => {
                for (ci, &(i, k)) in self.sh_owner.iter().enumerate() {
                    let c = &mut self.apps[i].comps[k];
                    c.cpu = self.sh_comps[ci].cpu;
                    c.mem = self.sh_comps[ci].mem;
                }
                let decision =
                    optimistic(setup.hosts, &self.sh_apps, &self.sh_comps, &self.used_mem);
                let killed: Vec<usize> = decision
                    .killed_apps
                    .iter()
                    .map(|&ai| self.sh_apps[ai].id)
                    .collect();
                // The killed first leave the hosts, CPU is shared out on
                // the hosts it overflows, then the rest is summed.
                for &i in &killed {
                    self.apps[i].comps.clear();
                }
                for key in &running {
                    for c in self.apps[key.app].comps.iter_mut() {
                        c.cpu *= decision.cpu_scale[c.host as usize];
                    }
                }
                self.recompute_free();
                for i in killed {
                    self.stop(i, t, EventKind::Fail);
                }
            }
        }
        if setup.policy == Policy::Reservation {
            self.recompute_free();
        }
        // The minute's use against the allocation: a component using more
        // memory than it was given fails (OOM) and takes its application
        // down; CPU beyond the allocation is throttled, not fatal.
        for (pos, key) in running.iter().enumerate() {
            let i = key.app;
            if self.apps[i].state != State::Running {
                continue;
            }
            let app = &setup.workload.applications[i];
            let a = &self.apps[i];
            let over = a.comps.iter().any(|c| {
                let g = &app.components[c.group as usize];
                a.um * g.mem > c.mem + EPS
            });
            if over {
                self.stop(i, t, EventKind::Fail);
                continue;
            }
            self.totals(i);
            if setup.timeline_app == Some(i) {
                self.record_app(i, t, forecasts[pos]);
            }
        }
        self.record_host(t);
        self.dirty = true;
    }

    fn record_app(&mut self, i: usize, t: f64, f: Option<super::predictor::MinuteForecast>) {
        let z = self.z;
        let a = &self.apps[i];
        let band = |mean: f64, var: f64, req: f64| {
            let sd = var.max(0.0).sqrt();
            [(mean - z * sd) * req, (mean + z * sd) * req]
        };
        let point = AppPoint {
            t,
            components: a.comps.len() as u32,
            request_cpu: a.req_cpu,
            request_mem: a.req_mem,
            used_cpu: a.uc * a.req_cpu,
            used_mem: a.um * a.req_mem,
            alloc_cpu: a.alloc_cpu,
            alloc_mem: a.alloc_mem,
            forecast_cpu: f.map(|f| f.cpu_mean * a.req_cpu),
            band_cpu: f.map(|f| band(f.cpu_mean, f.cpu_var, a.req_cpu)),
            forecast_mem: f.map(|f| f.mem_mean * a.req_mem),
            band_mem: f.map(|f| band(f.mem_mean, f.mem_var, a.req_mem)),
        };
        let (pc, pm) = self.last_alloc;
        let resized = (point.alloc_cpu - pc).abs() > 0.01 * a.req_cpu
            || (point.alloc_mem - pm).abs() > 0.01 * a.req_mem;
        let was_resize = f.is_some() && resized;
        self.last_alloc = (point.alloc_cpu, point.alloc_mem);
        let n = point.components;
        if let Some(tl) = self.timeline.as_mut() {
            tl.points.push(point);
        }
        if was_resize {
            self.note(i, t, EventKind::Resize, n);
        }
    }

    fn record_host(&mut self, t: f64) {
        self.host_ticks += 1;
        if !self.host_ticks.is_multiple_of(self.host_stride) {
            return;
        }
        let h = self.setup.params.timeline_host;
        let (mut n, mut uc, mut um) = (0u32, 0.0, 0.0);
        for key in &self.running {
            let app = &self.setup.workload.applications[key.app];
            let a = &self.apps[key.app];
            for c in a.comps.iter().filter(|c| c.host as usize == h) {
                let g = &app.components[c.group as usize];
                n += 1;
                uc += a.uc * g.cpu;
                um += a.um * g.mem;
            }
        }
        let cap = self.setup.hosts[h];
        self.host_tl.points.push(HostPoint {
            t,
            components: n,
            alloc_cpu: cap.cpu - self.free[h].cpu,
            alloc_mem: cap.mem - self.free[h].mem,
            used_cpu: uc,
            used_mem: um,
        });
        if self.host_tl.points.len() >= HOST_POINTS {
            let kept: Vec<HostPoint> = self.host_tl.points.iter().step_by(2).copied().collect();
            self.host_tl.points = kept;
            self.host_stride *= 2;
        }
    }

    fn check(&mut self) {
        for f in &self.free {
            self.min_free_cpu = self.min_free_cpu.min(f.cpu);
            self.min_free_mem = self.min_free_mem.min(f.mem);
        }
        if self.setup.verify {
            let mut used = vec![Host { cpu: 0.0, mem: 0.0 }; self.free.len()];
            for a in &self.apps {
                for c in &a.comps {
                    used[c.host as usize].cpu += c.cpu;
                    used[c.host as usize].mem += c.mem;
                }
            }
            for (u, cap) in used.iter().zip(self.setup.hosts) {
                if u.cpu > cap.cpu + 1e-6 || u.mem > cap.mem + 1e-6 {
                    self.violations += 1;
                }
            }
        }
    }
}

/// Runs one simulation; `progress(done)` is called as applications
/// complete or are abandoned.
pub(crate) fn run(setup: &RunSetup<'_>, progress: &mut dyn FnMut(usize)) -> RunReport {
    let w = setup.workload;
    let n = w.applications.len();
    let apps: Vec<App> = w
        .applications
        .iter()
        .map(|a| App {
            state: State::Future,
            attempts: 0,
            start: 0.0,
            comps: Vec::new(),
            pending: vec![0; a.components.len()],
            k: 0.0,
            s: 0.0,
            work: a.runtime * a.component_count() as f64,
            version: 0,
            uc: 0.0,
            um: 0.0,
            alloc_cpu: 0.0,
            alloc_mem: 0.0,
            req_cpu: 0.0,
            req_mem: 0.0,
            last: 0.0,
            ia_cpu: 0.0,
            ia_mem: 0.0,
            iu_cpu: 0.0,
            iu_mem: 0.0,
            finish: None,
            failures: 0,
            preemptions: 0,
            comp_preemptions: 0,
            wasted: 0.0,
        })
        .collect();
    let h = setup.params.timeline_host;
    let mut sim = Sim {
        setup,
        apps,
        free: setup.hosts.to_vec(),
        heap: BinaryHeap::with_capacity(2 * n + 16),
        seq: 0,
        queue: FifoQueue::default(),
        running: BTreeSet::new(),
        done: 0,
        dirty: false,
        z: normal_quantile(0.5 + 0.5 * setup.params.level),
        keys: Vec::new(),
        placed: Vec::new(),
        sh_apps: Vec::new(),
        sh_comps: Vec::new(),
        sh_owner: Vec::new(),
        decision: ShaperDecision::default(),
        order: Vec::new(),
        used_mem: Vec::new(),
        events: 0,
        min_free_cpu: f64::INFINITY,
        min_free_mem: f64::INFINITY,
        violations: 0,
        timeline: setup.timeline_app.map(|i| AppTimeline {
            app: w.applications[i].name.clone(),
            ..Default::default()
        }),
        last_alloc: (0.0, 0.0),
        host_tl: HostTimeline {
            host: h,
            cpu: setup.hosts[h].cpu,
            mem: setup.hosts[h].mem,
            points: Vec::new(),
        },
        host_stride: 1,
        host_ticks: 0,
    };
    for (i, a) in w.applications.iter().enumerate() {
        sim.push(a.arrival, EvKind::Arrival(i));
    }
    let first_arrival = w
        .applications
        .iter()
        .map(|a| a.arrival)
        .fold(f64::INFINITY, f64::min);
    sim.push(
        (first_arrival / TICK_S).floor() * TICK_S + TICK_S,
        EvKind::Tick,
    );
    let mut reported = 0;
    let mut makespan = 0.0_f64;
    while let Some(ev) = sim.heap.pop() {
        let t = ev.t;
        match ev.kind {
            EvKind::Arrival(i) => {
                sim.apps[i].state = State::Queued;
                let key = sim.key(i);
                sim.queue.insert(key);
                sim.dirty = true;
                sim.note(i, t, EventKind::Submit, 0);
            }
            EvKind::Finish(i, v) => {
                if sim.apps[i].version != v || sim.apps[i].state != State::Running {
                    continue;
                }
                sim.finish(i, t);
                makespan = makespan.max(t);
            }
            EvKind::Tick => {
                sim.tick(t);
                if sim.done < n {
                    sim.push(t + TICK_S, EvKind::Tick);
                }
            }
        }
        if sim.dirty {
            sim.schedule(t);
            sim.dirty = false;
        }
        sim.events += 1;
        sim.check();
        if sim.done != reported {
            reported = sim.done;
            progress(reported);
        }
        if sim.done == n {
            break;
        }
    }
    summarize(sim, first_arrival, makespan)
}

fn summarize(sim: Sim<'_>, first_arrival: f64, makespan: f64) -> RunReport {
    let setup = sim.setup;
    let w = setup.workload;
    let pct = |a: f64, u: f64| if a > 0.0 { 100.0 * (a - u) / a } else { 0.0 };
    let outcomes: Vec<AppOutcome> = w
        .applications
        .iter()
        .zip(&sim.apps)
        .map(|(app, a)| AppOutcome {
            name: app.name.clone(),
            arrival: app.arrival,
            finish: a.finish,
            attempts: a.attempts,
            failures: a.failures,
            preemptions: a.preemptions,
            component_preemptions: a.comp_preemptions,
            wasted: a.wasted,
            slack_cpu_pct: pct(a.ia_cpu, a.iu_cpu),
            slack_mem_pct: pct(a.ia_mem, a.iu_mem),
        })
        .collect();
    let turnarounds: Vec<f64> = outcomes.iter().filter_map(|o| o.turnaround()).collect();
    let slack_cpu: Vec<f64> = outcomes.iter().map(|o| o.slack_cpu_pct).collect();
    let slack_mem: Vec<f64> = outcomes.iter().map(|o| o.slack_mem_pct).collect();
    let tb = BoxStats::of(&turnarounds);
    let p95 = {
        let mut v = turnarounds.clone();
        v.sort_by(|a, b| a.total_cmp(b));
        crate::numerics::stats::percentile_sorted(&v, 95.0).unwrap_or(0.0)
    };
    let sum = |f: &dyn Fn(&App) -> f64| sim.apps.iter().map(f).sum::<f64>();
    let (ia_c, ia_m, iu_c, iu_m) = (
        sum(&|a| a.ia_cpu),
        sum(&|a| a.ia_mem),
        sum(&|a| a.iu_cpu),
        sum(&|a| a.iu_mem),
    );
    let span = (makespan - first_arrival).max(1e-9);
    let cap_c: f64 = setup.hosts.iter().map(|h| h.cpu).sum::<f64>() * span;
    let cap_m: f64 = setup.hosts.iter().map(|h| h.mem).sum::<f64>() * span;
    let needed: f64 = w
        .applications
        .iter()
        .map(|a| a.runtime * a.component_count() as f64)
        .sum();
    let wasted: f64 = outcomes.iter().map(|o| o.wasted).sum();
    let failed_apps = outcomes.iter().filter(|o| o.failures > 0).count();
    let napps = w.applications.len();
    let summary = RunSummary {
        policy: setup.policy,
        predictor: setup.predictor,
        k1: setup.k1,
        k2: setup.k2,
        apps: napps,
        completed: turnarounds.len(),
        abandoned: outcomes.iter().filter(|o| o.finish.is_none()).count(),
        mean_turnaround_s: tb.mean,
        median_turnaround_s: tb.median,
        p95_turnaround_s: p95,
        mean_slack_cpu_pct: BoxStats::of(&slack_cpu).mean,
        mean_slack_mem_pct: BoxStats::of(&slack_mem).mean,
        cluster_slack_cpu_pct: pct(ia_c, iu_c),
        cluster_slack_mem_pct: pct(ia_m, iu_m),
        allocated_cpu_pct: 100.0 * ia_c / cap_c,
        used_cpu_pct: 100.0 * iu_c / cap_c,
        allocated_mem_pct: 100.0 * ia_m / cap_m,
        used_mem_pct: 100.0 * iu_m / cap_m,
        failed_apps,
        failed_apps_pct: 100.0 * failed_apps as f64 / napps as f64,
        failures: outcomes.iter().map(|o| o.failures as usize).sum(),
        preempted_apps: outcomes.iter().filter(|o| o.preemptions > 0).count(),
        app_preemptions: outcomes.iter().map(|o| o.preemptions as usize).sum(),
        component_preemptions: outcomes
            .iter()
            .map(|o| o.component_preemptions as usize)
            .sum(),
        wasted_component_hours: wasted / 3600.0,
        wasted_pct: 100.0 * wasted / needed,
        makespan_s: makespan,
        events: sim.events,
        min_free_cpu: sim.min_free_cpu,
        min_free_mem: sim.min_free_mem,
        overcommits: sim.violations,
        forecast_fallbacks: if setup.predictor == Predictor::Oracle {
            0
        } else {
            setup.forecasts.iter().map(|f| f.fallbacks).sum()
        },
    };
    RunReport {
        summary,
        turnaround: tb,
        slack_cpu: BoxStats::of(&slack_cpu),
        slack_mem: BoxStats::of(&slack_mem),
        apps: outcomes,
        app_timeline: sim.timeline,
        host_timeline: sim.host_tl,
    }
}
