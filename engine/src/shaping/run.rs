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
use super::learning::Learning;
use super::metrics::{all_turnarounds, AppOutcome, BoxStats, RunSummary};
use super::model::{Host, Kind};
use super::optimistic::{cpu_share, optimistic};
use super::params::{Policy, Predictor, PreemptOn};
use super::pessimistic::{pessimistic_on, ShaperApp, ShaperComponent, ShaperDecision, EPS};
use super::predictor::MinuteForecast;
use super::scenario::Scenario;
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
    /// Turnaround of all applications (s).
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

/// What one run is asked: a [`Scenario`] (the workload, settings, cluster
/// and forecasts, validated together) and what varies from run to run.
pub(crate) struct RunSetup<'a> {
    /// The validated workload, settings, cluster and forecasts.
    pub scenario: &'a Scenario<'a>,
    /// The shaping policy (the baseline is [`Policy::Reservation`]).
    pub policy: Policy,
    /// Whose forecasts the scenario holds (the oracle's are computed on the
    /// fly).
    pub predictor: Predictor,
    /// β's K1.
    pub k1: f64,
    /// β's K2.
    pub k2: f64,
    /// The application whose timeline is recorded.
    pub timeline_app: Option<usize>,
    /// Recompute every host's allocations from the components after every
    /// event and count overcommits (tests).
    pub verify: bool,
}

impl<'a> RunSetup<'a> {
    /// A run of `policy` with the forecaster, K1 and K2 of the scenario's
    /// own settings: what the simulation, the comparison and the timeline
    /// re-runs all ask (only the grid varies those three), built in one
    /// place so they cannot drift apart.
    pub(crate) fn from_params(
        scenario: &'a Scenario<'a>,
        policy: Policy,
        timeline_app: Option<usize>,
        verify: bool,
    ) -> Self {
        let params = scenario.params();
        RunSetup {
            scenario,
            policy,
            predictor: params.predictor,
            k1: params.k1,
            k2: params.k2,
            timeline_app,
            verify,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Future,
    Queued,
    Running,
    Done,
}

/// A component placed on a host.
#[derive(Clone, Copy, Debug)]
struct RunningComponent {
    host: u32,
    group: u16,
    kind: Kind,
    started: f64,
    cpu: f64,
    mem: f64,
}

/// One application during a run.
struct App {
    state: State,
    attempts: u32,
    /// Shaping turned off after `max_crashes` crashes: its allocation stays
    /// its full request.
    shaping_off: bool,
    /// Latest start (its usage trace's minute 0).
    start: f64,
    /// Its components on hosts, in start order.
    components: Vec<RunningComponent>,
    /// Elastic components of each group still waiting for a host.
    pending_elastic: Vec<u32>,
    /// Components running now (as a float: the rate work is done at).
    running_components: f64,
    /// Sum of the running components' start times: the work done by time
    /// `t` is `running_components · t − start_sum` component-seconds.
    start_sum: f64,
    /// Component-seconds the application needs (runtime × components).
    work: f64,
    /// Bumped whenever the finish time changes; a finish event of an older
    /// version is stale.
    version: u64,
    /// This minute's CPU use, a fraction of the request.
    use_cpu: f64,
    /// This minute's memory use, a fraction of the request.
    use_mem: f64,
    alloc_cpu: f64,
    alloc_mem: f64,
    request_cpu: f64,
    request_mem: f64,
    /// Time up to which the integrals below are summed.
    integrated_to: f64,
    /// ∫ allocated CPU dt (core-seconds).
    allocated_cpu_s: f64,
    /// ∫ allocated memory dt.
    allocated_mem_s: f64,
    /// ∫ used CPU dt (core-seconds).
    used_cpu_s: f64,
    /// ∫ used memory dt.
    used_mem_s: f64,
    finish: Option<f64>,
    failures: u32,
    preemptions: u32,
    component_preemptions: u32,
    wasted: f64,
}

/// What happens at an event: an application's finish (stale unless its
/// version is current), an arrival, or the minute tick.
#[derive(Clone, Copy, Debug, PartialEq)]
enum SimEventKind {
    Finish(usize, u64),
    Arrival(usize),
    Tick,
}

impl SimEventKind {
    fn rank(self) -> u8 {
        match self {
            SimEventKind::Finish(..) => 0,
            SimEventKind::Arrival(_) => 1,
            SimEventKind::Tick => 2,
        }
    }
}

/// An event due at time `t`; `seq` orders events pushed for one time and
/// kind.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SimEvent {
    t: f64,
    seq: u64,
    kind: SimEventKind,
}

impl Eq for SimEvent {}

impl PartialOrd for SimEvent {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SimEvent {
    /// Reversed: the heap pops the earliest.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .t
            .total_cmp(&self.t)
            .then(other.kind.rank().cmp(&self.kind.rank()))
            .then(other.seq.cmp(&self.seq))
    }
}

/// The run's state.
struct Sim<'a> {
    setup: &'a RunSetup<'a>,
    apps: Vec<App>,
    /// Free capacity per host.
    free: Vec<Host>,
    /// Events due, earliest first.
    heap: BinaryHeap<SimEvent>,
    /// Events pushed so far (ties at one time go in push order).
    seq: u64,
    /// Applications waiting for the scheduler, in FIFO order.
    queue: FifoQueue,
    /// Applications running, in FIFO order.
    running: BTreeSet<FifoKey>,
    /// Applications finished.
    done: usize,
    /// Something changed since the scheduler last ran.
    needs_schedule: bool,
    /// The normal quantile of the timeline's forecast bands.
    interval_z: f64,
    /// What each application's forecaster kept across its attempts.
    learning: Learning,
    /// Scratch: hosts first fit placed components on.
    placed_hosts: Vec<u32>,
    // What the shaper sees this minute (Algorithm 1's and the optimistic
    // policy's input), rebuilt at every tick.
    shaper_apps: Vec<ShaperApp>,
    shaper_components: Vec<ShaperComponent>,
    /// Per shaper component: (application, its index in `components`).
    shaper_owner: Vec<(usize, usize)>,
    /// Per shaper component: memory used this minute.
    shaper_used_mem: Vec<f64>,
    decision: ShaperDecision,
    shaper_order: Vec<usize>,
    // Metrics.
    events: usize,
    min_free_cpu: f64,
    min_free_mem: f64,
    overcommits: usize,
    app_timeline: Option<AppTimeline>,
    last_alloc: (f64, f64),
    host_timeline: HostTimeline,
    host_stride: usize,
    host_ticks: usize,
}

impl<'a> Sim<'a> {
    fn key(&self, i: usize) -> FifoKey {
        FifoKey {
            arrival: self.setup.scenario.workload().applications[i].arrival,
            app: i,
        }
    }

    fn push(&mut self, t: f64, kind: SimEventKind) {
        self.seq += 1;
        self.heap.push(SimEvent {
            t,
            seq: self.seq,
            kind,
        });
    }

    fn note(&mut self, i: usize, t: f64, kind: EventKind, components: u32) {
        if self.setup.timeline_app == Some(i) {
            if let Some(tl) = self.app_timeline.as_mut() {
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
        let dt = t - a.integrated_to;
        if dt > 0.0 {
            a.allocated_cpu_s += a.alloc_cpu * dt;
            a.allocated_mem_s += a.alloc_mem * dt;
            a.used_cpu_s += a.use_cpu * a.request_cpu * dt;
            a.used_mem_s += a.use_mem * a.request_mem * dt;
        }
        a.integrated_to = t;
    }

    fn totals(&mut self, i: usize) {
        let setup = self.setup;
        let groups = &setup.scenario.workload().applications[i].components;
        let a = &mut self.apps[i];
        let (mut ac, mut am, mut rc, mut rm) = (0.0, 0.0, 0.0, 0.0);
        for c in &a.components {
            ac += c.cpu;
            am += c.mem;
            let g = &groups[c.group as usize];
            rc += g.cpu;
            rm += g.mem;
        }
        a.alloc_cpu = ac;
        a.alloc_mem = am;
        a.request_cpu = rc;
        a.request_mem = rm;
    }

    fn reschedule(&mut self, i: usize, t: f64) {
        let a = &mut self.apps[i];
        a.version += 1;
        if a.running_components > 0.0 {
            let tf = ((a.work + a.start_sum) / a.running_components).max(t);
            let v = a.version;
            self.push(tf, SimEventKind::Finish(i, v));
        }
    }

    fn release(&mut self, i: usize) {
        for c in std::mem::take(&mut self.apps[i].components) {
            let h = &mut self.free[c.host as usize];
            h.cpu += c.cpu;
            h.mem += c.mem;
        }
    }

    /// A failed or preempted application: its work lost, back in the queue
    /// at its original place (§III-B); after `max_crashes` failures,
    /// shaping is turned off for it. Preemptions are not crashes.
    fn stop(&mut self, i: usize, t: f64, kind: EventKind) {
        self.integrate(i, t);
        let n = self.apps[i].components.len() as u32;
        self.release(i);
        let key = self.key(i);
        self.running.remove(&key);
        let params = self.setup.scenario.params();
        let max = params.max_crashes;
        // The forecaster keeps what this attempt observed: its minutes up
        // to this one.
        let observed = ((t - self.apps[i].start) / TICK_S + 1e-9).floor() as usize + 1;
        self.learning.attempt_ended(
            i,
            &self.setup.scenario.workload().applications[i].usage,
            observed,
            params.history,
        );
        let a = &mut self.apps[i];
        a.wasted += (a.running_components * t - a.start_sum).max(0.0);
        a.running_components = 0.0;
        a.start_sum = 0.0;
        a.version += 1;
        a.alloc_cpu = 0.0;
        a.alloc_mem = 0.0;
        a.request_cpu = 0.0;
        a.request_mem = 0.0;
        match kind {
            EventKind::Fail => a.failures += 1,
            _ => a.preemptions += 1,
        }
        let turn_off = kind == EventKind::Fail && !a.shaping_off && a.failures >= max;
        if turn_off {
            a.shaping_off = true;
        }
        a.state = State::Queued;
        self.queue.insert(key);
        self.needs_schedule = true;
        self.note(i, t, kind, n);
        self.note(i, t, EventKind::Resubmit, 0);
        if turn_off {
            self.note(i, t, EventKind::ShapingOff, 0);
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
        a.request_cpu = 0.0;
        a.request_mem = 0.0;
        self.done += 1;
        self.needs_schedule = true;
        self.note(i, t, EventKind::Finish, 0);
    }

    /// First fit of `count` components of (`cpu`, `mem`) into the free
    /// capacity, which is charged; the hosts chosen are left in
    /// `placed_hosts` (cleared first). Shared by the gang start and the
    /// elastic placement so both place the same way. Returns how many fit.
    fn fit(&mut self, cpu: f64, mem: f64, count: u32) -> u32 {
        self.placed_hosts.clear();
        first_fit(&mut self.free, cpu, mem, count, &mut self.placed_hosts)
    }

    /// Places what fits of the application's waiting elastic components.
    fn place_elastic(&mut self, i: usize, t: f64) -> u32 {
        let setup = self.setup;
        let groups = &setup.scenario.workload().applications[i].components;
        let mut placed_total = 0;
        for (g, group) in groups.iter().enumerate() {
            let want = self.apps[i].pending_elastic[g];
            if want == 0 || group.kind != Kind::Elastic {
                continue;
            }
            let got = self.fit(group.cpu, group.mem, want);
            let a = &mut self.apps[i];
            for &h in &self.placed_hosts {
                a.components.push(RunningComponent {
                    host: h,
                    group: g as u16,
                    kind: Kind::Elastic,
                    started: t,
                    cpu: group.cpu,
                    mem: group.mem,
                });
            }
            a.pending_elastic[g] -= got;
            a.running_components += got as f64;
            a.start_sum += got as f64 * t;
            placed_total += got;
        }
        placed_total
    }

    /// Strict FIFO admission, then elastic placement: queued applications
    /// start in order until one does not fit; running ones get what fits of
    /// their waiting elastic components.
    ///
    /// The pass walks the queue key by key and stops at the blocked head,
    /// so its cost is what it visits — not the queue's length, which with
    /// bursts of arrivals is most of the workload (copying it at every
    /// event made runs quadratic).
    fn schedule(&mut self, t: f64) {
        let mut cursor = None;
        while let Some(key) = self.queue.next_after(cursor) {
            cursor = Some(key);
            let i = key.app;
            match self.apps[i].state {
                State::Queued => {
                    if !self.start(key, t) {
                        break;
                    }
                }
                State::Running => {
                    self.integrate(i, t);
                    if self.place_elastic(i, t) > 0 {
                        self.totals(i);
                        self.reschedule(i, t);
                    }
                    if self.apps[i].pending_elastic.iter().all(|&p| p == 0) {
                        self.queue.remove(key);
                    }
                }
                _ => {
                    self.queue.remove(key);
                }
            }
        }
    }

    /// Starts a queued application: its core components placed as a gang
    /// (all or none: the free capacity is restored when one does not fit),
    /// then what fits of its elastic ones. False when the gang does not fit.
    fn start(&mut self, key: FifoKey, t: f64) -> bool {
        let i = key.app;
        let setup = self.setup;
        let app = &setup.scenario.workload().applications[i];
        let saved: Vec<Host> = self.free.clone();
        let mut core = Vec::new();
        for (g, group) in app.components.iter().enumerate() {
            if group.kind != Kind::Core {
                continue;
            }
            let got = self.fit(group.cpu, group.mem, group.count);
            if got < group.count {
                self.free = saved;
                return false;
            }
            core.extend(self.placed_hosts.iter().map(|&h| RunningComponent {
                host: h,
                group: g as u16,
                kind: Kind::Core,
                started: t,
                cpu: group.cpu,
                mem: group.mem,
            }));
        }
        let n = core.len() as f64;
        let a = &mut self.apps[i];
        a.state = State::Running;
        a.attempts += 1;
        a.start = t;
        a.integrated_to = t;
        a.running_components = n;
        a.start_sum = n * t;
        a.components = core;
        for (g, group) in app.components.iter().enumerate() {
            a.pending_elastic[g] = if group.kind == Kind::Elastic {
                group.count
            } else {
                0
            };
        }
        let (use_cpu, use_mem) = app.usage.at(0);
        a.use_cpu = use_cpu;
        a.use_mem = use_mem;
        self.running.insert(key);
        self.place_elastic(i, t);
        self.totals(i);
        if self.apps[i].pending_elastic.iter().all(|&p| p == 0) {
            self.queue.remove(key);
        }
        self.reschedule(i, t);
        let n = self.apps[i].components.len() as u32;
        self.note(i, t, EventKind::Start, n);
        true
    }

    /// Free capacity from the allocations, in FIFO and component order.
    fn recompute_free(&mut self) {
        self.free.clear();
        self.free.extend_from_slice(self.setup.scenario.hosts());
        for key in &self.running {
            for c in &self.apps[key.app].components {
                let h = &mut self.free[c.host as usize];
                h.cpu -= c.cpu;
                h.mem -= c.mem;
            }
        }
    }

    /// The minute tick: each running application's next minute of usage,
    /// the shaper's targets (forecast + β), the policy applied to them, and
    /// the minute's memory use checked against the allocations.
    fn tick(&mut self, t: f64) {
        let running: Vec<FifoKey> = self.running.iter().copied().collect();
        let forecasts = self.build_shaper_view(t, &running);
        match self.setup.policy {
            Policy::Reservation => self.recompute_free(),
            Policy::Pessimistic => self.apply_pessimistic(t),
            Policy::Optimistic => self.apply_optimistic(t, &running),
        }
        self.fail_out_of_memory(t, &running, &forecasts);
        self.record_host(t);
        self.needs_schedule = true;
    }

    /// Advances every running application to its minute at `t` (integrals,
    /// usage, forecast) and rebuilds what the shaper sees: per component,
    /// its target allocation — forecast + β from the grace period on under
    /// a shaping policy, its current allocation otherwise. Returns each
    /// running application's forecast (none before the grace period or
    /// under reservations).
    fn build_shaper_view(&mut self, t: f64, running: &[FifoKey]) -> Vec<Option<MinuteForecast>> {
        self.shaper_apps.clear();
        self.shaper_components.clear();
        self.shaper_owner.clear();
        self.shaper_used_mem.clear();
        let mut forecasts = Vec::with_capacity(running.len());
        for key in running {
            let forecast = self.advance_minute(key.app, t);
            forecasts.push(forecast);
            self.push_shaper_app(key.app, forecast);
        }
        forecasts
    }

    /// Application `i` at `t`: its integrals brought up to `t`, this
    /// minute's usage, and its forecast when it is being shaped.
    fn advance_minute(&mut self, i: usize, t: f64) -> Option<MinuteForecast> {
        let setup = self.setup;
        let scenario = setup.scenario;
        self.integrate(i, t);
        let app = &scenario.workload().applications[i];
        let a = &mut self.apps[i];
        let minute = ((t - a.start) / TICK_S + 1e-9).floor() as usize;
        let (use_cpu, use_mem) = app.usage.at(minute);
        a.use_cpu = use_cpu;
        a.use_mem = use_mem;
        if setup.policy == Policy::Reservation || a.shaping_off {
            return None;
        }
        self.learning.forecast(
            i,
            setup.predictor,
            scenario.params(),
            &app.usage,
            minute,
            &scenario.forecasts()[i],
        )
    }

    /// Application `i`'s components into the shaper's view, each with its
    /// target allocation under `forecast` (its current one without).
    fn push_shaper_app(&mut self, i: usize, forecast: Option<MinuteForecast>) {
        let setup = self.setup;
        let params = setup.scenario.params();
        let app = &setup.scenario.workload().applications[i];
        let a = &self.apps[i];
        let first = self.shaper_components.len();
        for (ci, c) in a.components.iter().enumerate() {
            let group = &app.components[c.group as usize];
            let (cpu, mem) = match forecast {
                Some(f) => (
                    target(
                        group.cpu,
                        f.cpu_mean,
                        f.cpu_var,
                        setup.k1,
                        setup.k2,
                        params.spread,
                    ),
                    target(
                        group.mem,
                        f.mem_mean,
                        f.mem_var,
                        setup.k1,
                        setup.k2,
                        params.spread,
                    ),
                ),
                None => (c.cpu, c.mem),
            };
            self.shaper_components.push(ShaperComponent {
                host: c.host as usize,
                kind: c.kind,
                started: c.started,
                cpu,
                mem,
            });
            self.shaper_owner.push((i, ci));
            self.shaper_used_mem.push(a.use_mem * group.mem);
        }
        self.shaper_apps.push(ShaperApp {
            arrival: app.arrival,
            id: i,
            first,
            len: a.components.len(),
        });
    }

    /// Algorithm 1 on the shaper's view: the kept components resized, the
    /// preempted elastic components (𝒦_E) back to pending, the preempted
    /// applications (𝒦) stopped.
    fn apply_pessimistic(&mut self, t: f64) {
        let setup = self.setup;
        let mut decision = std::mem::take(&mut self.decision);
        let mut order = std::mem::take(&mut self.shaper_order);
        let check_cpu = setup.scenario.params().preempt_on == PreemptOn::CpuAndMemory;
        pessimistic_on(
            setup.scenario.hosts(),
            &self.shaper_apps,
            &self.shaper_components,
            setup.scenario.params().elastic_zero_left_preempts,
            check_cpu,
            &mut decision,
            &mut order,
        );
        // Resize the kept (lines 39–41) before preempting, so that
        // component indices still hold.
        for &ai in &decision.kept {
            let sa = self.shaper_apps[ai];
            for ci in sa.first..sa.first + sa.len {
                let (i, k) = self.shaper_owner[ci];
                let c = &mut self.apps[i].components[k];
                c.cpu = self.shaper_components[ci].cpu;
                c.mem = self.shaper_components[ci].mem;
            }
        }
        self.preempt_components(t, &decision.preempted_components);
        if !check_cpu {
            // Memory only: CPU beyond a host is shared out among the kept.
            let scale = cpu_share(&decision.free, setup.scenario.hosts());
            for &ai in &decision.kept {
                let i = self.shaper_apps[ai].id;
                for c in self.apps[i].components.iter_mut() {
                    c.cpu *= scale[c.host as usize];
                }
            }
        }
        // 𝒦 (lines 34–36).
        let preempted: Vec<usize> = decision
            .preempted_apps
            .iter()
            .map(|&ai| self.shaper_apps[ai].id)
            .collect();
        self.decision = decision;
        self.shaper_order = order;
        self.recompute_free();
        for i in preempted {
            self.stop(i, t, EventKind::Preempt);
        }
    }

    /// 𝒦_E (Algorithm 1, lines 37–38): the shaper components `lost`,
    /// grouped by application and removed from the highest index down,
    /// their work wasted, back to pending; each application touched back in
    /// the queue for them.
    fn preempt_components(&mut self, t: f64, lost: &[usize]) {
        let mut lost: Vec<(usize, usize)> = lost.iter().map(|&ci| self.shaper_owner[ci]).collect();
        lost.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut touched = Vec::new();
        for (i, k) in lost {
            let a = &mut self.apps[i];
            let c = a.components.swap_remove(k);
            a.wasted += t - c.started;
            a.running_components -= 1.0;
            a.start_sum -= c.started;
            a.pending_elastic[c.group as usize] += 1;
            a.component_preemptions += 1;
            if touched.last().map(|&(j, _)| j) != Some(i) {
                touched.push((i, 0u32));
            }
            touched.last_mut().expect("pushed").1 += 1;
        }
        for (i, n) in touched {
            // Keep the components in start order (time alive).
            self.apps[i]
                .components
                .sort_by(|a, b| a.started.total_cmp(&b.started));
            let key = self.key(i);
            self.queue.insert(key);
            self.reschedule(i, t);
            self.note(i, t, EventKind::PreemptComponents, n);
        }
    }

    /// The optimistic policy on the shaper's view: allocations follow the
    /// targets, the OS kills applications on a memory shortage and shares
    /// CPU out on the hosts it overflows.
    fn apply_optimistic(&mut self, t: f64, running: &[FifoKey]) {
        let setup = self.setup;
        for (ci, &(i, k)) in self.shaper_owner.iter().enumerate() {
            let c = &mut self.apps[i].components[k];
            c.cpu = self.shaper_components[ci].cpu;
            c.mem = self.shaper_components[ci].mem;
        }
        let decision = optimistic(
            setup.scenario.hosts(),
            &self.shaper_apps,
            &self.shaper_components,
            &self.shaper_used_mem,
        );
        let killed: Vec<usize> = decision
            .killed_apps
            .iter()
            .map(|&ai| self.shaper_apps[ai].id)
            .collect();
        // The killed first leave the hosts, CPU is shared out on
        // the hosts it overflows, then the rest is summed.
        for &i in &killed {
            self.apps[i].components.clear();
        }
        for key in running {
            for c in self.apps[key.app].components.iter_mut() {
                c.cpu *= decision.cpu_scale[c.host as usize];
            }
        }
        self.recompute_free();
        for i in killed {
            self.stop(i, t, EventKind::Fail);
        }
    }

    /// The minute's use against the allocation: a component using more
    /// memory than it was given fails (OOM) and takes its application
    /// down; CPU beyond the allocation is throttled, not fatal. The
    /// survivors' totals are summed and the followed application's minute
    /// recorded.
    fn fail_out_of_memory(
        &mut self,
        t: f64,
        running: &[FifoKey],
        forecasts: &[Option<MinuteForecast>],
    ) {
        let setup = self.setup;
        for (pos, key) in running.iter().enumerate() {
            let i = key.app;
            if self.apps[i].state != State::Running {
                continue;
            }
            let app = &setup.scenario.workload().applications[i];
            let a = &self.apps[i];
            let over = a.components.iter().any(|c| {
                let group = &app.components[c.group as usize];
                a.use_mem * group.mem > c.mem + EPS
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
    }

    fn record_app(&mut self, i: usize, t: f64, f: Option<MinuteForecast>) {
        let z = self.interval_z;
        let a = &self.apps[i];
        let band = |mean: f64, var: f64, req: f64| {
            let sd = var.max(0.0).sqrt();
            [(mean - z * sd) * req, (mean + z * sd) * req]
        };
        let point = AppPoint {
            t,
            components: a.components.len() as u32,
            request_cpu: a.request_cpu,
            request_mem: a.request_mem,
            used_cpu: a.use_cpu * a.request_cpu,
            used_mem: a.use_mem * a.request_mem,
            alloc_cpu: a.alloc_cpu,
            alloc_mem: a.alloc_mem,
            forecast_cpu: f.map(|f| f.cpu_mean * a.request_cpu),
            band_cpu: f.map(|f| band(f.cpu_mean, f.cpu_var, a.request_cpu)),
            forecast_mem: f.map(|f| f.mem_mean * a.request_mem),
            band_mem: f.map(|f| band(f.mem_mean, f.mem_var, a.request_mem)),
        };
        let (pc, pm) = self.last_alloc;
        let resized = (point.alloc_cpu - pc).abs() > 0.01 * a.request_cpu
            || (point.alloc_mem - pm).abs() > 0.01 * a.request_mem;
        let was_resize = f.is_some() && resized;
        self.last_alloc = (point.alloc_cpu, point.alloc_mem);
        let n = point.components;
        if let Some(tl) = self.app_timeline.as_mut() {
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
        let h = self.setup.scenario.params().timeline_host;
        let (mut n, mut used_cpu, mut used_mem) = (0u32, 0.0, 0.0);
        for key in &self.running {
            let app = &self.setup.scenario.workload().applications[key.app];
            let a = &self.apps[key.app];
            for c in a.components.iter().filter(|c| c.host as usize == h) {
                let g = &app.components[c.group as usize];
                n += 1;
                used_cpu += a.use_cpu * g.cpu;
                used_mem += a.use_mem * g.mem;
            }
        }
        let cap = self.setup.scenario.hosts()[h];
        self.host_timeline.points.push(HostPoint {
            t,
            components: n,
            alloc_cpu: cap.cpu - self.free[h].cpu,
            alloc_mem: cap.mem - self.free[h].mem,
            used_cpu,
            used_mem,
        });
        if self.host_timeline.points.len() >= HOST_POINTS {
            let kept: Vec<HostPoint> = self
                .host_timeline
                .points
                .iter()
                .step_by(2)
                .copied()
                .collect();
            self.host_timeline.points = kept;
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
                for c in &a.components {
                    used[c.host as usize].cpu += c.cpu;
                    used[c.host as usize].mem += c.mem;
                }
            }
            for (u, cap) in used.iter().zip(self.setup.scenario.hosts()) {
                if u.cpu > cap.cpu + 1e-6 || u.mem > cap.mem + 1e-6 {
                    self.overcommits += 1;
                }
            }
        }
    }
}

/// Runs one simulation; `progress(done)` is called as applications
/// complete.
pub(crate) fn run(setup: &RunSetup<'_>, progress: &mut dyn FnMut(usize)) -> RunReport {
    let w = setup.scenario.workload();
    let n = w.applications.len();
    let apps: Vec<App> = w
        .applications
        .iter()
        .map(|a| App {
            state: State::Future,
            attempts: 0,
            shaping_off: false,
            start: 0.0,
            components: Vec::new(),
            pending_elastic: vec![0; a.components.len()],
            running_components: 0.0,
            start_sum: 0.0,
            work: a.runtime * a.component_count() as f64,
            version: 0,
            use_cpu: 0.0,
            use_mem: 0.0,
            alloc_cpu: 0.0,
            alloc_mem: 0.0,
            request_cpu: 0.0,
            request_mem: 0.0,
            integrated_to: 0.0,
            allocated_cpu_s: 0.0,
            allocated_mem_s: 0.0,
            used_cpu_s: 0.0,
            used_mem_s: 0.0,
            finish: None,
            failures: 0,
            preemptions: 0,
            component_preemptions: 0,
            wasted: 0.0,
        })
        .collect();
    let h = setup.scenario.params().timeline_host;
    let mut sim = Sim {
        setup,
        apps,
        free: setup.scenario.hosts().to_vec(),
        heap: BinaryHeap::with_capacity(2 * n + 16),
        seq: 0,
        queue: FifoQueue::default(),
        running: BTreeSet::new(),
        done: 0,
        needs_schedule: false,
        interval_z: normal_quantile(0.5 + 0.5 * setup.scenario.params().level),
        learning: Learning::new(n),
        placed_hosts: Vec::new(),
        shaper_apps: Vec::new(),
        shaper_components: Vec::new(),
        shaper_owner: Vec::new(),
        shaper_used_mem: Vec::new(),
        decision: ShaperDecision::default(),
        shaper_order: Vec::new(),
        events: 0,
        min_free_cpu: f64::INFINITY,
        min_free_mem: f64::INFINITY,
        overcommits: 0,
        app_timeline: setup.timeline_app.map(|i| AppTimeline {
            app: w.applications[i].name.clone(),
            ..Default::default()
        }),
        last_alloc: (0.0, 0.0),
        host_timeline: HostTimeline {
            host: h,
            cpu: setup.scenario.hosts()[h].cpu,
            mem: setup.scenario.hosts()[h].mem,
            points: Vec::new(),
        },
        host_stride: 1,
        host_ticks: 0,
    };
    for (i, a) in w.applications.iter().enumerate() {
        sim.push(a.arrival, SimEventKind::Arrival(i));
    }
    let first_arrival = w
        .applications
        .iter()
        .map(|a| a.arrival)
        .fold(f64::INFINITY, f64::min);
    sim.push(
        (first_arrival / TICK_S).floor() * TICK_S + TICK_S,
        SimEventKind::Tick,
    );
    let mut reported = 0;
    let mut makespan = 0.0_f64;
    while let Some(ev) = sim.heap.pop() {
        let t = ev.t;
        match ev.kind {
            SimEventKind::Arrival(i) => {
                sim.apps[i].state = State::Queued;
                let key = sim.key(i);
                sim.queue.insert(key);
                sim.needs_schedule = true;
                sim.note(i, t, EventKind::Submit, 0);
            }
            SimEventKind::Finish(i, v) => {
                if sim.apps[i].version != v || sim.apps[i].state != State::Running {
                    continue;
                }
                sim.finish(i, t);
                makespan = makespan.max(t);
            }
            SimEventKind::Tick => {
                sim.tick(t);
                if sim.done < n {
                    sim.push(t + TICK_S, SimEventKind::Tick);
                }
            }
        }
        if sim.needs_schedule {
            sim.schedule(t);
            sim.needs_schedule = false;
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
    let w = setup.scenario.workload();
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
            shaping_off: a.shaping_off,
            preemptions: a.preemptions,
            component_preemptions: a.component_preemptions,
            wasted: a.wasted,
            slack_cpu_pct: pct(a.allocated_cpu_s, a.used_cpu_s),
            slack_mem_pct: pct(a.allocated_mem_s, a.used_mem_s),
        })
        .collect();
    let (turnarounds, unfinished) = all_turnarounds(&outcomes, makespan);
    let slack_cpu: Vec<f64> = outcomes.iter().map(|o| o.slack_cpu_pct).collect();
    let slack_mem: Vec<f64> = outcomes.iter().map(|o| o.slack_mem_pct).collect();
    let turnaround = BoxStats::of(&turnarounds);
    let p95 = {
        let mut v = turnarounds.clone();
        v.sort_by(|a, b| a.total_cmp(b));
        crate::numerics::stats::percentile_sorted(&v, 95.0).unwrap_or(0.0)
    };
    let sum = |f: &dyn Fn(&App) -> f64| sim.apps.iter().map(f).sum::<f64>();
    let (allocated_cpu, allocated_mem, used_cpu, used_mem) = (
        sum(&|a| a.allocated_cpu_s),
        sum(&|a| a.allocated_mem_s),
        sum(&|a| a.used_cpu_s),
        sum(&|a| a.used_mem_s),
    );
    let span = (makespan - first_arrival).max(1e-9);
    let capacity_cpu: f64 = setup.scenario.hosts().iter().map(|h| h.cpu).sum::<f64>() * span;
    let capacity_mem: f64 = setup.scenario.hosts().iter().map(|h| h.mem).sum::<f64>() * span;
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
        completed: napps - unfinished,
        unfinished,
        mean_turnaround_s: turnaround.mean,
        median_turnaround_s: turnaround.median,
        p95_turnaround_s: p95,
        mean_slack_cpu_pct: BoxStats::of(&slack_cpu).mean,
        mean_slack_mem_pct: BoxStats::of(&slack_mem).mean,
        cluster_slack_cpu_pct: pct(allocated_cpu, used_cpu),
        cluster_slack_mem_pct: pct(allocated_mem, used_mem),
        allocated_cpu_pct: 100.0 * allocated_cpu / capacity_cpu,
        allocated_cpu_s: allocated_cpu,
        used_cpu_pct: 100.0 * used_cpu / capacity_cpu,
        allocated_mem_pct: 100.0 * allocated_mem / capacity_mem,
        used_mem_pct: 100.0 * used_mem / capacity_mem,
        failed_apps,
        failed_apps_pct: 100.0 * failed_apps as f64 / napps as f64,
        failures: outcomes.iter().map(|o| o.failures as usize).sum(),
        resubmissions: outcomes.iter().map(|o| o.resubmissions() as usize).sum(),
        shaping_off_apps: outcomes.iter().filter(|o| o.shaping_off).count(),
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
        overcommits: sim.overcommits,
        forecast_fallbacks: if setup.predictor == Predictor::Oracle {
            0
        } else {
            setup
                .scenario
                .forecasts()
                .iter()
                .map(|f| f.fallbacks)
                .sum::<usize>()
                + sim.learning.fallbacks()
        },
    };
    RunReport {
        summary,
        turnaround,
        slack_cpu: BoxStats::of(&slack_cpu),
        slack_mem: BoxStats::of(&slack_mem),
        apps: outcomes,
        app_timeline: sim.app_timeline,
        host_timeline: sim.host_timeline,
    }
}
