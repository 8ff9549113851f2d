//! The tenants CSV and the server → tenant mapping file.
//!
//! **Tenants CSV** (header required, columns in any order, `#` comments):
//! `tenant,environment,machine_function,servers[,cores_per_server][,server_names][,storage_gb_per_server]`
//! — one primary tenant per line: its name (unique), environment, machine
//! function, number of servers, cores per server (default 12, the paper's
//! testbed) and optionally its servers' names separated by `;` (they map
//! `server`-named utilization series and Alibaba machine ids to the
//! tenant; at most `servers` of them) and the storage each server offers
//! for harvesting in GB (default [`DEFAULT_STORAGE_GB`]; files without the
//! column still parse).
//!
//! **Mapping file**: `server,tenant` — assigns servers (or Alibaba
//! `machine_id`s) to tenants, for traces whose series are named by server.

use super::tenant::{TenantInfo, DEFAULT_STORAGE_GB};
use crate::harvest::error::HarvestError;
use crate::import::fields::{column_of, count, number, read_rows, FieldError};
use crate::import::ParseError;
use std::collections::{BTreeMap, HashSet};

/// Known columns of the tenants CSV, in their documented order.
pub const TENANT_COLUMNS: [&str; 7] = [
    "tenant",
    "environment",
    "machine_function",
    "servers",
    "cores_per_server",
    "server_names",
    "storage_gb_per_server",
];

/// Required columns of the tenants CSV.
pub const TENANT_REQUIRED: [&str; 4] = ["tenant", "environment", "machine_function", "servers"];

/// Columns of the mapping file.
pub const MAPPING_COLUMNS: [&str; 2] = ["server", "tenant"];

/// Default cores per server when the tenants CSV leaves them out (§6: the
/// testbed's 12-core servers).
pub const DEFAULT_CORES: f64 = 12.0;

/// Reads a tenants CSV (`file` names it in errors). Strict: every bad line
/// is returned and the file refused.
pub fn read_tenants_csv(file: &str, text: &str) -> Result<Vec<TenantInfo>, HarvestError> {
    let mut names = HashSet::new();
    let mut servers_seen = HashSet::new();
    let rows = read_rows(
        file,
        text,
        &TENANT_COLUMNS,
        &TENANT_REQUIRED,
        |line, fields, h| {
            let get = |k: usize| h.pos[k].map(|i| &fields[i]);
            let text = |k: usize| {
                get(k)
                    .map(|f| f.text.trim().to_string())
                    .unwrap_or_default()
            };
            let name = text(0);
            let f0 = get(0).map_or(0, |f| f.offset);
            if name.is_empty() {
                return Err(FieldError::at(column_of(line, f0), "tenant is empty"));
            }
            if !names.insert(name.clone()) {
                return Err(FieldError::at(
                    column_of(line, f0),
                    format!("tenant `{name}` appears twice"),
                ));
            }
            let servers_f = get(3).expect("required column");
            let servers = count(line, servers_f, "servers")? as usize;
            if servers == 0 {
                return Err(FieldError::at(
                    column_of(line, servers_f.offset),
                    "servers must be at least 1",
                ));
            }
            let cores = match get(4) {
                Some(f) if !f.text.trim().is_empty() => {
                    let v = number(line, f, "cores_per_server")?;
                    if v <= 0.0 {
                        return Err(FieldError::at(
                            column_of(line, f.offset),
                            "cores_per_server must be positive",
                        ));
                    }
                    v
                }
                _ => DEFAULT_CORES,
            };
            let mut server_names = Vec::new();
            if let Some(f) = get(5) {
                for s in f.text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                    if !servers_seen.insert(s.to_string()) {
                        return Err(FieldError::at(
                            column_of(line, f.offset),
                            format!("server `{s}` belongs to two tenants"),
                        ));
                    }
                    server_names.push(s.to_string());
                }
                if server_names.len() > servers {
                    return Err(FieldError::at(
                        column_of(line, f.offset),
                        format!("{} server names for {servers} servers", server_names.len()),
                    ));
                }
            }
            let storage = match get(6) {
                Some(f) if !f.text.trim().is_empty() => {
                    let v = number(line, f, "storage_gb_per_server")?;
                    if v < 0.0 {
                        return Err(FieldError::at(
                            column_of(line, f.offset),
                            "storage_gb_per_server must not be negative",
                        ));
                    }
                    v
                }
                _ => DEFAULT_STORAGE_GB,
            };
            let environment = text(1);
            let machine_function = text(2);
            for (k, v) in [(1, &environment), (2, &machine_function)] {
                if v.is_empty() {
                    return Err(FieldError::at(
                        column_of(line, get(k).map_or(0, |f| f.offset)),
                        format!("{} is empty", TENANT_COLUMNS[k]),
                    ));
                }
            }
            Ok(TenantInfo {
                name,
                environment,
                machine_function,
                servers,
                server_names,
                cores_per_server: cores,
                storage_gb_per_server: storage,
            })
        },
    )?;
    if rows.is_empty() {
        return Err(HarvestError::Parse(vec![ParseError {
            file: file.into(),
            line: 1,
            column: 1,
            reason: "no tenant".into(),
        }]));
    }
    Ok(rows)
}

/// Reads a `server,tenant` mapping file. With `tenants`, a tenant not among
/// them is a located error (unknown tenant).
pub fn read_mapping_csv(
    file: &str,
    text: &str,
    tenants: Option<&[TenantInfo]>,
) -> Result<BTreeMap<String, String>, HarvestError> {
    let known: Option<HashSet<&str>> = tenants.map(|t| t.iter().map(|t| t.name.as_str()).collect());
    let rows = read_rows(
        file,
        text,
        &MAPPING_COLUMNS,
        &MAPPING_COLUMNS,
        |line, fields, h| {
            let f = |k: usize| &fields[h.pos[k].unwrap_or(0)];
            let server = f(0).text.trim().to_string();
            let tenant = f(1).text.trim().to_string();
            if server.is_empty() {
                return Err(FieldError::at(
                    column_of(line, f(0).offset),
                    "server is empty",
                ));
            }
            if tenant.is_empty() {
                return Err(FieldError::at(
                    column_of(line, f(1).offset),
                    "tenant is empty",
                ));
            }
            if let Some(k) = &known {
                if !k.contains(tenant.as_str()) {
                    return Err(FieldError::at(
                        column_of(line, f(1).offset),
                        format!("unknown tenant `{tenant}` (not in the tenants CSV)"),
                    ));
                }
            }
            Ok((server, tenant))
        },
    )?;
    let mut out = BTreeMap::new();
    for (server, tenant) in rows {
        out.insert(server, tenant);
    }
    Ok(out)
}

/// Writes tenants as a tenants CSV (the columns [`read_tenants_csv`]
/// reads; `server_names` joined by `;`).
pub fn write_tenants_csv(tenants: &[TenantInfo]) -> String {
    use crate::export::cell::text;
    use std::fmt::Write as _;
    let mut out = TENANT_COLUMNS.join(",");
    out.push('\n');
    for t in tenants {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{}",
            text(&t.name),
            text(&t.environment),
            text(&t.machine_function),
            t.servers,
            t.cores_per_server,
            text(&t.server_names.join(";")),
            t.storage_gb_per_server
        );
    }
    out
}
