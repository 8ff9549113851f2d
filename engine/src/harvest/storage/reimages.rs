//! Disk reimage history (§3): who was reformatted when, read from the
//! **reimages CSV** against the tenants file.
//!
//! **Reimages CSV** (header required, columns in any order, `#` comments):
//! `timestamp,server` — one reimaged server per line — or
//! `timestamp,tenant,servers` — `servers` of that tenant reimaged at once,
//! either a count (which servers is drawn, seeded, when the history is
//! used) or the servers' names separated by `;`. Both forms may share a
//! file (empty fields for the other form's columns). A timestamp is Unix
//! seconds or `YYYY-MM-DD[ HH:MM[:SS]]` (UTC). A server is named as in the
//! tenants CSV's `server_names`, or implicitly `tenant/sN` (N from 1 to
//! the tenant's `servers`). Lines of one tenant at one timestamp are one
//! correlated event (a burst), which is what a generated year resamples.
//!
//! Servers are numbered in the order of the tenants file, each tenant's
//! servers contiguous: the same numbering the placement uses.

use crate::harvest::error::HarvestError;
use crate::harvest::tenants::tenant::TenantInfo;
use crate::import::fields::{column_of, count, read_rows, FieldError};
use crate::import::ParseError;
use crate::model::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Known columns of the reimages CSV.
pub const REIMAGE_COLUMNS: [&str; 4] = ["timestamp", "server", "tenant", "servers"];

/// Where each tenant's servers sit in the cluster-wide numbering.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerLayout {
    /// Tenant names, in file order.
    pub tenants: Vec<String>,
    /// Tenant t owns servers `first[t] .. first[t + 1]` (length tenants + 1).
    pub first: Vec<u32>,
    /// Explicit server names (the tenants CSV's `server_names`), per tenant.
    pub names: Vec<Vec<String>>,
}

impl ServerLayout {
    /// The layout of `tenants`.
    pub fn new(tenants: &[TenantInfo]) -> Self {
        let mut first = Vec::with_capacity(tenants.len() + 1);
        let mut n = 0u32;
        for t in tenants {
            first.push(n);
            n += t.servers as u32;
        }
        first.push(n);
        ServerLayout {
            tenants: tenants.iter().map(|t| t.name.clone()).collect(),
            first,
            names: tenants.iter().map(|t| t.server_names.clone()).collect(),
        }
    }

    /// Servers in all.
    pub fn servers(&self) -> usize {
        *self.first.last().unwrap_or(&0) as usize
    }

    /// Servers of tenant `t`.
    pub fn servers_of(&self, t: usize) -> u32 {
        self.first[t + 1] - self.first[t]
    }

    /// The tenant of server `s` (binary search).
    pub fn tenant_of(&self, s: u32) -> usize {
        self.first.partition_point(|&f| f <= s) - 1
    }

    /// Server `s`'s name: its explicit name, or `tenant/sN`.
    pub fn name(&self, s: u32) -> String {
        let t = self.tenant_of(s);
        let i = (s - self.first[t]) as usize;
        match self.names[t].get(i) {
            Some(n) => n.clone(),
            None => format!("{}/s{}", self.tenants[t], i + 1),
        }
    }

    /// A lookup from names (explicit and implicit) to servers.
    fn lookup(&self) -> NameLookup {
        let mut explicit = HashMap::new();
        for (t, names) in self.names.iter().enumerate() {
            for (i, n) in names.iter().enumerate() {
                explicit.insert(n.clone(), self.first[t] + i as u32);
            }
        }
        let tenants = self
            .tenants
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        NameLookup { explicit, tenants }
    }
}

struct NameLookup {
    explicit: HashMap<String, u32>,
    tenants: HashMap<String, usize>,
}

impl NameLookup {
    fn server(&self, layout: &ServerLayout, name: &str) -> Option<u32> {
        if let Some(&s) = self.explicit.get(name) {
            return Some(s);
        }
        let (tenant, idx) = name.rsplit_once("/s")?;
        let t = *self.tenants.get(tenant)?;
        let i: u32 = idx.parse().ok()?;
        (i >= 1 && i <= layout.servers_of(t)).then(|| layout.first[t] + i - 1)
    }
}

/// One correlated reimage: servers of one tenant at one time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReimageEvent {
    /// When.
    pub time: Timestamp,
    /// Index of the tenant in the tenants file.
    pub tenant: u32,
    /// The servers named (cluster-wide numbers, ascending, distinct).
    pub servers: Vec<u32>,
    /// Further servers of the tenant, not named (drawn when used).
    pub unnamed: u32,
}

impl ReimageEvent {
    /// Servers reimaged.
    pub fn size(&self) -> u32 {
        self.servers.len() as u32 + self.unnamed
    }
}

/// A reimage history over a server layout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReimageHistory {
    /// The servers.
    pub layout: ServerLayout,
    /// Events by time (then tenant).
    pub events: Vec<ReimageEvent>,
}

impl ReimageHistory {
    /// Server reimages in all.
    pub fn server_reimages(&self) -> u64 {
        self.events.iter().map(|e| u64::from(e.size())).sum()
    }

    /// Groups `(time, tenant, server or None for one unnamed)` rows into
    /// events; an event's size is capped at the tenant's servers.
    pub fn from_rows(layout: ServerLayout, rows: Vec<(Timestamp, u32, Option<u32>, u32)>) -> Self {
        let mut by: BTreeMap<(Timestamp, u32), ReimageEvent> = BTreeMap::new();
        for (time, tenant, server, unnamed) in rows {
            let e = by.entry((time, tenant)).or_insert_with(|| ReimageEvent {
                time,
                tenant,
                servers: Vec::new(),
                unnamed: 0,
            });
            if let Some(s) = server {
                e.servers.push(s);
            }
            e.unnamed += unnamed;
        }
        let mut events: Vec<ReimageEvent> = by.into_values().collect();
        for e in &mut events {
            e.servers.sort_unstable();
            e.servers.dedup();
            let cap = layout.servers_of(e.tenant as usize);
            e.unnamed = e.unnamed.min(cap - e.servers.len() as u32);
        }
        ReimageHistory { layout, events }
    }
}

/// Reads a reimages CSV (`file` names it in errors) against the tenants
/// it refers to. Strict: every bad line is returned and the file refused;
/// a file without any reimage is refused too.
pub fn read_reimages_csv(
    file: &str,
    text: &str,
    tenants: &[TenantInfo],
) -> Result<ReimageHistory, HarvestError> {
    let layout = ServerLayout::new(tenants);
    let lookup = layout.lookup();
    let rows = read_rows(
        file,
        text,
        &REIMAGE_COLUMNS,
        &["timestamp"],
        |line, fields, h| {
            let get = |k: usize| {
                h.pos[k]
                    .map(|i| &fields[i])
                    .filter(|f| !f.text.trim().is_empty())
            };
            let tf = get(0).ok_or_else(|| FieldError::at(1, "timestamp is empty"))?;
            let time = crate::time::parse_timestamp(tf.text.trim())
                .map_err(|e| FieldError::at(column_of(line, tf.offset), e))?;
            let mut out = Vec::new();
            match (get(1), get(2), get(3)) {
                (Some(sf), None, None) => {
                    let name = sf.text.trim();
                    let s = lookup.server(&layout, name).ok_or_else(|| {
                        FieldError::at(
                            column_of(line, sf.offset),
                            format!("unknown server `{name}` (not in the tenants file)"),
                        )
                    })?;
                    out.push((time, layout.tenant_of(s) as u32, Some(s), 0));
                }
                (None, Some(tf), Some(nf)) => {
                    let name = tf.text.trim();
                    let t = *lookup.tenants.get(name).ok_or_else(|| {
                        FieldError::at(
                            column_of(line, tf.offset),
                            format!("unknown tenant `{name}` (not in the tenants file)"),
                        )
                    })?;
                    let cap = layout.servers_of(t);
                    let list = nf.text.trim();
                    if list.contains(';') || list.parse::<u64>().is_err() {
                        for n in list.split(';').map(str::trim).filter(|n| !n.is_empty()) {
                            let s = lookup
                                .server(&layout, n)
                                .filter(|&s| layout.tenant_of(s) == t)
                                .ok_or_else(|| {
                                    FieldError::at(
                                        column_of(line, nf.offset),
                                        format!("unknown server `{n}` of tenant `{name}`"),
                                    )
                                })?;
                            out.push((time, t as u32, Some(s), 0));
                        }
                    } else {
                        let k = count(line, nf, "servers")?;
                        if k == 0 || k > u64::from(cap) {
                            return Err(FieldError::at(
                                column_of(line, nf.offset),
                                format!("servers must be in 1..={cap} (the tenant's servers)"),
                            ));
                        }
                        out.push((time, t as u32, None, k as u32));
                    }
                }
                (Some(sf), _, _) => {
                    return Err(FieldError::at(
                        column_of(line, sf.offset),
                        "give either server, or tenant and servers, not both",
                    ))
                }
                _ => {
                    return Err(FieldError::at(
                        column_of(line, line.len()),
                        "needs a server, or a tenant and its servers",
                    ))
                }
            }
            Ok(out)
        },
    )?;
    let rows: Vec<_> = rows.into_iter().flatten().collect();
    if rows.is_empty() {
        return Err(HarvestError::Parse(vec![ParseError {
            file: file.into(),
            line: 1,
            column: 1,
            reason: "no reimage (an empty history)".into(),
        }]));
    }
    Ok(ReimageHistory::from_rows(layout, rows))
}

/// Writes a history as a reimages CSV: `timestamp,server` when every
/// server is named, else all four columns.
pub fn write_reimages_csv(h: &ReimageHistory) -> String {
    use crate::export::cell::text;
    use std::fmt::Write as _;
    let named = h.events.iter().all(|e| e.unnamed == 0);
    let mut out = String::from(if named {
        "timestamp,server\n"
    } else {
        "timestamp,server,tenant,servers\n"
    });
    for e in &h.events {
        let ts = crate::time::format_timestamp(e.time);
        for &s in &e.servers {
            if named {
                let _ = writeln!(out, "{ts},{}", text(&h.layout.name(s)));
            } else {
                let _ = writeln!(out, "{ts},{},,", text(&h.layout.name(s)));
            }
        }
        if e.unnamed > 0 {
            let _ = writeln!(
                out,
                "{ts},,{},{}",
                text(&h.layout.tenants[e.tenant as usize]),
                e.unnamed
            );
        }
    }
    out
}
