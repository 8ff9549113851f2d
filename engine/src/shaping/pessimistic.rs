//! The pessimistic preemption policy, Algorithm 1 of §III-B, as written:
//!
//! 1. free capacity starts at every host's total (lines 1–5);
//! 2. running applications are sorted by the scheduler's policy — FIFO,
//!    by arrival (line 6);
//! 3. for each application, its core components are charged to their hosts
//!    on a scratch copy (lines 8–19): if one leaves its host's CPU or memory
//!    below 0, the application goes to 𝒦 (preempted whole) and the copy is
//!    dropped; otherwise the copy is kept (lines 23–24) and its elastic
//!    components, sorted by time alive, oldest first (line 25), are charged
//!    one by one, those that do not fit going to 𝒦_E (lines 26–33);
//! 4. every application of 𝒦 is preempted (lines 34–36), every component of
//!    𝒦_E (37–38), and the components of the others are resized (39–41).
//!
//! "futureCpus + β" is what the caller puts in [`ShaperComponent::cpu`]
//! (and memory likewise): the forecast plus the buffer, capped at the
//! request ([`super::buffer::target`]).
//!
//! Two readings are stated rather than guessed. Line 29 tests `≤ 0` where
//! lines 13 and 17 test `< 0`; [`pessimistic`] takes the choice
//! (`elastic_zero_left_preempts`; the simulation's default is `< 0` for
//! both, see [`super::Params::elastic_zero_left_preempts`]). And the
//! scratch copy of lines 8–9 is a copy of *all* hosts per application; an
//! undo log of the hosts touched is the same computation without the O(H)
//! copy. Comparisons allow 1e-9 of rounding (sums of fractional requests).

use super::model::{Host, Kind};
use serde::{Deserialize, Serialize};

/// Rounding allowed in the capacity tests.
pub const EPS: f64 = 1e-9;

/// A running component as Algorithm 1 sees it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShaperComponent {
    /// Its host (index into the hosts).
    pub host: usize,
    /// Core or elastic.
    pub kind: Kind,
    /// When it started (s): the time alive orders elastic components.
    pub started: f64,
    /// futureCpus + β (cores).
    pub cpu: f64,
    /// futureMem + β (GB).
    pub mem: f64,
}

/// A running application: its scheduling key and its components, a range
/// of the flat component slice.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShaperApp {
    /// Arrival (the FIFO key).
    pub arrival: f64,
    /// Tie-break of equal arrivals (and the caller's id).
    pub id: usize,
    /// First component in the flat slice.
    pub first: usize,
    /// Number of components.
    pub len: usize,
}

/// What Algorithm 1 decided.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShaperDecision {
    /// 𝒦: applications preempted whole (indices into the apps slice), in
    /// the order they were processed.
    pub preempted_apps: Vec<usize>,
    /// 𝒦_E: elastic components preempted (indices into the component
    /// slice).
    pub preempted_components: Vec<usize>,
    /// 𝒥 \ 𝒦: the applications kept, their surviving components resized to
    /// their `cpu`/`mem`, in scheduling order.
    pub kept: Vec<usize>,
    /// Free capacity left on each host (cores, GB).
    pub free: Vec<Host>,
}

/// Algorithm 1 on `hosts` and the running `apps` (components in `comps`).
pub fn pessimistic(
    hosts: &[Host],
    apps: &[ShaperApp],
    comps: &[ShaperComponent],
    elastic_zero_left_preempts: bool,
) -> ShaperDecision {
    let mut out = ShaperDecision::default();
    pessimistic_into(
        hosts,
        apps,
        comps,
        elastic_zero_left_preempts,
        &mut out,
        &mut Vec::new(),
    );
    out
}

/// [`pessimistic`] reusing the caller's buffers (`order` is scratch).
pub fn pessimistic_into(
    hosts: &[Host],
    apps: &[ShaperApp],
    comps: &[ShaperComponent],
    elastic_zero_left_preempts: bool,
    out: &mut ShaperDecision,
    order: &mut Vec<usize>,
) {
    pessimistic_on(
        hosts,
        apps,
        comps,
        elastic_zero_left_preempts,
        true,
        out,
        order,
    );
}

/// [`pessimistic_into`] checking CPU as printed (`check_cpu`) or memory
/// only, as the reference simulator's centralised pessimistic policy: a
/// CPU shortfall is then a slowdown the caller shares out, not a
/// preemption (`out.free` may have negative CPU).
pub fn pessimistic_on(
    hosts: &[Host],
    apps: &[ShaperApp],
    comps: &[ShaperComponent],
    elastic_zero_left_preempts: bool,
    check_cpu: bool,
    out: &mut ShaperDecision,
    order: &mut Vec<usize>,
) {
    out.preempted_apps.clear();
    out.preempted_components.clear();
    out.kept.clear();
    // Lines 1–5.
    out.free.clear();
    out.free.extend_from_slice(hosts);
    let free = &mut out.free;
    // Line 6: FIFO.
    order.clear();
    order.extend(0..apps.len());
    order.sort_by(|&a, &b| {
        apps[a]
            .arrival
            .total_cmp(&apps[b].arrival)
            .then(apps[a].id.cmp(&apps[b].id))
    });
    let mut undo: Vec<(usize, f64, f64)> = Vec::new();
    let mut elastic: Vec<usize> = Vec::new();
    for &ai in order.iter() {
        let app = apps[ai];
        let range = app.first..app.first + app.len;
        // Lines 8–19 on a scratch copy (an undo log).
        undo.clear();
        let mut remove = false;
        for ci in range.clone() {
            let c = &comps[ci];
            if c.kind != Kind::Core {
                continue;
            }
            let h = &mut free[c.host];
            undo.push((c.host, h.cpu, h.mem));
            h.cpu -= c.cpu;
            if check_cpu && h.cpu < -EPS {
                remove = true;
                break;
            }
            h.mem -= c.mem;
            if h.mem < -EPS {
                remove = true;
                break;
            }
        }
        if remove {
            // Lines 20–21: the copy is dropped.
            for &(h, cpu, mem) in undo.iter().rev() {
                free[h].cpu = cpu;
                free[h].mem = mem;
            }
            out.preempted_apps.push(ai);
            continue;
        }
        // Lines 23–24 keep the copy; line 25: elastic by time alive.
        elastic.clear();
        elastic.extend(range.filter(|&ci| comps[ci].kind == Kind::Elastic));
        elastic.sort_by(|&a, &b| {
            comps[a]
                .started
                .total_cmp(&comps[b].started)
                .then(a.cmp(&b))
        });
        for &ei in &elastic {
            let e = &comps[ei];
            let cpu = free[e.host].cpu - e.cpu;
            let mem = free[e.host].mem - e.mem;
            let misfit = if elastic_zero_left_preempts {
                (check_cpu && cpu <= 0.0) || mem <= 0.0
            } else {
                (check_cpu && cpu < -EPS) || mem < -EPS
            };
            if misfit {
                out.preempted_components.push(ei);
            } else {
                free[e.host].cpu = cpu;
                free[e.host].mem = mem;
            }
        }
        out.kept.push(ai);
    }
}
