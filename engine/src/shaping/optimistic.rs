//! The optimistic policy (§III-B, as the Omega simulator and Borg's
//! reclamation \[4\], \[5\]): every component's allocation follows its forecast
//! plus β, without looking at what the host can hold; resource shortage is
//! left to the operating system. Memory is finite: a host whose memory
//! allocations exceed its memory kills, as Linux's OOM killer does, the
//! process using the most memory — here the component with the largest
//! memory *use* on that host — and its application fails (taken down
//! whole, resubmitted); it repeats until the host fits. CPU is time-shared:
//! a host whose CPU allocations exceed its cores shares them in proportion
//! (as CFS shares do), every allocation on it scaled by cores / allocated.

use super::model::Host;
use super::pessimistic::{ShaperApp, ShaperComponent, EPS};
use serde::{Deserialize, Serialize};

/// What the operating system did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OptimisticDecision {
    /// Applications killed (indices into the apps slice), in kill order.
    pub killed_apps: Vec<usize>,
    /// Free capacity left on each host once the killed are gone (before
    /// the CPU scaling).
    pub free: Vec<Host>,
    /// Per host, the factor its CPU allocations are scaled by (1 when they
    /// fit).
    pub cpu_scale: Vec<f64>,
}

/// The optimistic policy on the running `apps` (components in `comps`,
/// their forecast + β in `cpu`/`mem`; `used_mem[i]` is component i's memory
/// in use, what the OOM killer ranks by).
pub fn optimistic(
    hosts: &[Host],
    apps: &[ShaperApp],
    comps: &[ShaperComponent],
    used_mem: &[f64],
) -> OptimisticDecision {
    let mut free: Vec<Host> = hosts.to_vec();
    let mut owner = vec![usize::MAX; comps.len()];
    for (ai, a) in apps.iter().enumerate() {
        for ci in a.first..a.first + a.len {
            owner[ci] = ai;
            let c = &comps[ci];
            free[c.host].cpu -= c.cpu;
            free[c.host].mem -= c.mem;
        }
    }
    let mut on_host: Vec<Vec<usize>> = vec![Vec::new(); hosts.len()];
    for (ci, c) in comps.iter().enumerate() {
        if owner[ci] != usize::MAX {
            on_host[c.host].push(ci);
        }
    }
    let mut killed = vec![false; apps.len()];
    let mut out = OptimisticDecision::default();
    for h in 0..hosts.len() {
        while free[h].mem < -EPS {
            // The largest memory user still alive on the host.
            let victim = on_host[h]
                .iter()
                .copied()
                .filter(|&ci| !killed[owner[ci]])
                .max_by(|&a, &b| used_mem[a].total_cmp(&used_mem[b]).then(b.cmp(&a)));
            let Some(ci) = victim else { break };
            let ai = owner[ci];
            killed[ai] = true;
            out.killed_apps.push(ai);
            let a = apps[ai];
            for c in &comps[a.first..a.first + a.len] {
                free[c.host].cpu += c.cpu;
                free[c.host].mem += c.mem;
            }
        }
    }
    out.cpu_scale = cpu_share(&free, hosts);
    out.free = free;
    out
}

/// Per host, the factor that shares its cores out among what was given
/// when `free` CPU went negative (1 elsewhere): CPU short is a slowdown.
pub fn cpu_share(free: &[Host], hosts: &[Host]) -> Vec<f64> {
    free.iter()
        .zip(hosts)
        .map(|(f, h)| {
            if f.cpu < -EPS {
                h.cpu / (h.cpu - f.cpu)
            } else {
                1.0
            }
        })
        .collect()
}
