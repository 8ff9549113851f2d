//! What a reimage history says (§3, Figures 4–6): reimages per server per
//! month, per tenant (per server of the tenant) month by month, the
//! tenants' month-to-month ranking into infrequent / intermediate /
//! frequent thirds and how often each changes group, and the CDFs.
//!
//! Months are calendar months (UTC) from the first event's to the last
//! event's. Ties in a month's ranking share a group: a tenant's group is
//! `floor(3 · midrank / tenants)` with its tie block's mean 0-based rank,
//! so the many tenants with no reimage in a month do not change group by
//! the order they happen to be listed in.

use super::reimages::{ReimageEvent, ReimageHistory, ServerLayout};
use crate::harvest::error::{check, HarvestError};
use crate::model::Timestamp;
use crate::numerics::Rng;
use crate::time::{civil_from_days, days_from_civil, DAY};
use serde::{Deserialize, Serialize};

/// One point of an empirical CDF: the share of items at or below `x`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CdfPoint {
    /// The value.
    pub x: f64,
    /// Share of items ≤ x, in (0, 1].
    pub share: f64,
}

/// A tenant's reimages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TenantReimages {
    /// Tenant name.
    pub name: String,
    /// Its servers.
    pub servers: u32,
    /// Server reimages in the history.
    pub reimages: u64,
    /// Correlated events (distinct timestamps).
    pub events: u64,
    /// The largest event, servers.
    pub largest_event: u32,
    /// Reimages per server in each month.
    pub per_month: Vec<f64>,
    /// Mean reimages per server per month (Figure 5's value).
    pub average: f64,
    /// Its group each month: 0 infrequent, 1 intermediate, 2 frequent.
    pub groups: Vec<u8>,
    /// Month-to-month group changes (Figure 6's value).
    pub changes: u32,
}

/// The statistics of a history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReimageStats {
    /// Start of each month.
    pub months: Vec<Timestamp>,
    /// Per tenant, in file order.
    pub tenants: Vec<TenantReimages>,
    /// Figure 4: CDF of each server's mean reimages per month.
    pub server_cdf: Vec<CdfPoint>,
    /// Figure 5: CDF of each tenant's mean reimages per server per month.
    pub tenant_cdf: Vec<CdfPoint>,
    /// Figure 6: CDF of each tenant's group changes.
    pub changes_cdf: Vec<CdfPoint>,
    /// Share of servers reimaged at most once a month on average (the
    /// paper: at least 90 %).
    pub servers_at_most_monthly: f64,
    /// Share of tenants at most once per server per month (the paper: at
    /// least 80 %).
    pub tenants_at_most_monthly: f64,
    /// Server reimages in all.
    pub server_reimages: u64,
}

/// The empirical CDF of `v` (one point per distinct value).
pub fn cdf(v: &[f64]) -> Vec<CdfPoint> {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    let mut out: Vec<CdfPoint> = Vec::new();
    for (i, &x) in s.iter().enumerate() {
        let share = (i + 1) as f64 / n;
        match out.last_mut() {
            Some(p) if p.x == x => p.share = share,
            _ => out.push(CdfPoint { x, share }),
        }
    }
    out
}

/// The calendar months a history spans: from the start of its first
/// event's month to the end of its last event's month.
pub fn history_span(h: &ReimageHistory) -> (Timestamp, Timestamp) {
    let first = h.events.iter().map(|e| e.time).min().unwrap_or(0);
    let last = h.events.iter().map(|e| e.time).max().unwrap_or(0);
    (
        month_start(month_number(first)),
        month_start(month_number(last) + 1),
    )
}

/// Month index (calendar, UTC) of `t` counted from year 0.
fn month_number(t: Timestamp) -> i64 {
    let (y, m, _) = civil_from_days(t.div_euclid(DAY));
    y * 12 + i64::from(m) - 1
}

fn month_start(n: i64) -> Timestamp {
    days_from_civil(n.div_euclid(12), (n.rem_euclid(12) + 1) as u32, 1) * DAY
}

/// The servers an event reimages: the named ones plus `unnamed` others of
/// its tenant drawn uniformly without replacement; `out` is cleared.
pub fn resolve_event(layout: &ServerLayout, e: &ReimageEvent, rng: &mut Rng, out: &mut Vec<u32>) {
    out.clear();
    out.extend_from_slice(&e.servers);
    if e.unnamed == 0 {
        return;
    }
    let t = e.tenant as usize;
    let mut pool: Vec<u32> = (layout.first[t]..layout.first[t + 1])
        .filter(|s| e.servers.binary_search(s).is_err())
        .collect();
    let k = (e.unnamed as usize).min(pool.len());
    for i in 0..k {
        let j = i + (rng.next_u64() % (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
        out.push(pool[i]);
    }
}

/// Month-by-month groups of `rates[tenant][month]` (see the module doc).
pub fn month_groups(rates: &[Vec<f64>], months: usize) -> Vec<Vec<u8>> {
    let n = rates.len();
    let mut groups = vec![vec![0u8; months]; n];
    let mut order: Vec<usize> = (0..n).collect();
    for m in 0..months {
        order.sort_by(|&a, &b| rates[a][m].total_cmp(&rates[b][m]));
        let mut i = 0;
        while i < n {
            let mut j = i;
            while j + 1 < n && rates[order[j + 1]][m] == rates[order[i]][m] {
                j += 1;
            }
            let mid = (i + j) as f64 / 2.0;
            let g = ((3.0 * mid / n as f64).floor() as u8).min(2);
            for &t in &order[i..=j] {
                groups[t][m] = g;
            }
            i = j + 1;
        }
    }
    groups
}

/// The statistics of `h` (`seed` draws the unnamed servers of count
/// events). An empty history is refused.
pub fn reimage_stats(h: &ReimageHistory, seed: u64) -> Result<ReimageStats, HarvestError> {
    check(!h.events.is_empty(), "reimages", "must not be empty")?;
    let first = month_number(h.events[0].time);
    let last = month_number(h.events.iter().map(|e| e.time).max().unwrap_or(0));
    let months = (last - first + 1) as usize;
    let tn = h.layout.tenants.len();
    let mut per_server = vec![0u32; h.layout.servers()];
    let mut per_tm = vec![vec![0u64; months]; tn];
    let mut events = vec![0u64; tn];
    let mut largest = vec![0u32; tn];
    let mut rng = Rng::new(seed ^ 0x5245_494d);
    let mut servers = Vec::new();
    for e in &h.events {
        resolve_event(&h.layout, e, &mut rng, &mut servers);
        let t = e.tenant as usize;
        for &s in &servers {
            per_server[s as usize] += 1;
        }
        per_tm[t][(month_number(e.time) - first) as usize] += servers.len() as u64;
        events[t] += 1;
        largest[t] = largest[t].max(servers.len() as u32);
    }
    let rates: Vec<Vec<f64>> = (0..tn)
        .map(|t| {
            let k = f64::from(h.layout.servers_of(t).max(1));
            per_tm[t].iter().map(|&c| c as f64 / k).collect()
        })
        .collect();
    let groups = month_groups(&rates, months);
    let tenants: Vec<TenantReimages> = (0..tn)
        .map(|t| {
            let g = &groups[t];
            TenantReimages {
                name: h.layout.tenants[t].clone(),
                servers: h.layout.servers_of(t),
                reimages: per_tm[t].iter().sum(),
                events: events[t],
                largest_event: largest[t],
                average: rates[t].iter().sum::<f64>() / months as f64,
                per_month: rates[t].clone(),
                changes: g.windows(2).filter(|w| w[0] != w[1]).count() as u32,
                groups: g.clone(),
            }
        })
        .collect();
    let server_avg: Vec<f64> = per_server
        .iter()
        .map(|&c| f64::from(c) / months as f64)
        .collect();
    let tenant_avg: Vec<f64> = tenants.iter().map(|t| t.average).collect();
    let share = |v: &[f64]| v.iter().filter(|&&x| x <= 1.0).count() as f64 / v.len().max(1) as f64;
    Ok(ReimageStats {
        months: (first..=last).map(month_start).collect(),
        server_cdf: cdf(&server_avg),
        tenant_cdf: cdf(&tenant_avg),
        changes_cdf: cdf(&tenants
            .iter()
            .map(|t| f64::from(t.changes))
            .collect::<Vec<_>>()),
        servers_at_most_monthly: share(&server_avg),
        tenants_at_most_monthly: share(&tenant_avg),
        server_reimages: per_server.iter().map(|&c| u64::from(c)).sum(),
        tenants,
    })
}
