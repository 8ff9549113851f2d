//! A simulated span of reimages (§6: "one year of reimages"), as
//! `(seconds from the start, server)` pairs in time order, either
//! generated from each tenant's history — its events as a Poisson process
//! at its historical event rate, each event as large as one of its past
//! events drawn at random, its servers drawn uniformly — or the history
//! replayed from its first month (repeated when shorter than the span).

use super::params::ReimageSource;
use super::reimage_stats::{history_span, resolve_event};
use super::reimages::ReimageHistory;
use crate::numerics::Rng;

/// The reimages of `days` days from `h`, seeded.
pub fn reimage_year(
    h: &ReimageHistory,
    source: ReimageSource,
    days: f64,
    seed: u64,
) -> Vec<(u32, u32)> {
    let span = (days * 86_400.0).round().max(0.0) as u64;
    let (start, end) = history_span(h);
    let period = (end - start).max(1) as u64;
    let mut rng = Rng::new(seed ^ 0x5945_4152);
    let mut out = Vec::new();
    let mut servers = Vec::new();
    match source {
        ReimageSource::Replay => {
            let mut offset = 0u64;
            while offset < span {
                for e in &h.events {
                    let t = offset + (e.time - start) as u64;
                    if t >= span {
                        break;
                    }
                    resolve_event(&h.layout, e, &mut rng, &mut servers);
                    out.extend(servers.iter().map(|&s| (t as u32, s)));
                }
                offset += period;
            }
        }
        ReimageSource::Generate => {
            let tn = h.layout.tenants.len();
            let mut sizes: Vec<Vec<u32>> = vec![Vec::new(); tn];
            for e in &h.events {
                sizes[e.tenant as usize].push(e.size());
            }
            let mut pool = Vec::new();
            for (t, sz) in sizes.iter().enumerate() {
                if sz.is_empty() {
                    continue;
                }
                let rate = sz.len() as f64 / period as f64;
                let (a, b) = (h.layout.first[t], h.layout.first[t + 1]);
                let mut time = 0.0;
                loop {
                    time += -(1.0 - rng.unit()).ln() / rate;
                    if time >= span as f64 {
                        break;
                    }
                    let k = sz[(rng.next_u64() % sz.len() as u64) as usize] as usize;
                    pool.clear();
                    pool.extend(a..b);
                    let k = k.min(pool.len());
                    for i in 0..k {
                        let j = i + (rng.next_u64() % (pool.len() - i) as u64) as usize;
                        pool.swap(i, j);
                        out.push((time as u32, pool[i]));
                    }
                }
            }
        }
    }
    out.sort_unstable();
    out
}
