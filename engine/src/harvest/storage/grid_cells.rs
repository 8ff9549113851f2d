//! Algorithm 2's classes (lines 4–5): tenants split into an n × n grid,
//! rows by reimage frequency (infrequent → frequent) and columns by peak
//! CPU utilization (low → high), every cell holding the same total space
//! S / n² as far as whole tenants allow.
//!
//! Rows first: tenants sorted by reimage rate, each put in the row its
//! space's midpoint falls in along the cumulative space (row i holds the
//! midpoints in [i·S/n, (i+1)·S/n)). Then, inside each row, the same by
//! peak utilization against the row's own total — so the column
//! boundaries of different rows do not align (Figure 8). A tenant is never
//! split (§4.2: splitting would hurt diversity); the imbalance this leaves
//! is reported. Tenants with no room are in no cell.

use super::tenant::Cluster;
use serde::{Deserialize, Serialize};

/// One class of the grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridCell {
    /// Row: reimage frequency, 0 = least frequent.
    pub row: usize,
    /// Column: peak utilization, 0 = lowest.
    pub col: usize,
    /// Its tenants (indices into the cluster's tenants).
    pub tenants: Vec<u32>,
    /// Its room, replicas.
    pub space: u64,
    /// Its room over the ideal S / n².
    pub balance: f64,
    /// Lowest and highest reimage rate of its tenants.
    pub reimage_range: [f64; 2],
    /// Lowest and highest peak of its tenants.
    pub peak_range: [f64; 2],
}

/// The n × n grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    /// Rows and columns.
    pub n: usize,
    /// Cells, row-major (`row · n + col`).
    pub cells: Vec<GridCell>,
    /// Cell of each tenant (`u16::MAX` for a tenant without room).
    pub cell_of: Vec<u16>,
    /// The ideal room per cell, S / n², replicas.
    pub ideal: f64,
    /// Largest |room − ideal| / ideal over the cells.
    pub imbalance: f64,
}

/// Midpoint rule: `items` (index, space) in order → a band in 0..n each.
fn bands(items: &[(u32, u64)], n: usize) -> Vec<usize> {
    let total: u64 = items.iter().map(|&(_, s)| s).sum();
    let mut cum = 0u64;
    items
        .iter()
        .map(|&(_, s)| {
            let mid = cum as f64 + s as f64 / 2.0;
            cum += s;
            if total == 0 {
                0
            } else {
                ((n as f64 * mid / total as f64).floor() as usize).min(n - 1)
            }
        })
        .collect()
}

/// The grid of `cluster` with `n` rows and columns.
pub fn build_grid(cluster: &Cluster, n: usize) -> Grid {
    let n = n.max(1);
    let ts = &cluster.tenants;
    let mut items: Vec<(u32, u64)> = (0..ts.len())
        .map(|t| (t as u32, cluster.tenant_capacity(t)))
        .filter(|&(_, s)| s > 0)
        .collect();
    items.sort_by(|a, b| {
        let (x, y) = (&ts[a.0 as usize], &ts[b.0 as usize]);
        x.reimage_rate
            .total_cmp(&y.reimage_rate)
            .then(x.peak.total_cmp(&y.peak))
            .then(x.name.cmp(&y.name))
    });
    let rows = bands(&items, n);
    let mut cell_of = vec![u16::MAX; ts.len()];
    for r in 0..n {
        let mut row: Vec<(u32, u64)> = items
            .iter()
            .zip(&rows)
            .filter(|(_, &b)| b == r)
            .map(|(&i, _)| i)
            .collect();
        row.sort_by(|a, b| {
            let (x, y) = (&ts[a.0 as usize], &ts[b.0 as usize]);
            x.peak
                .total_cmp(&y.peak)
                .then(x.reimage_rate.total_cmp(&y.reimage_rate))
                .then(x.name.cmp(&y.name))
        });
        for (&(t, _), c) in row.iter().zip(bands(&row, n)) {
            cell_of[t as usize] = (r * n + c) as u16;
        }
    }
    let total: u64 = items.iter().map(|&(_, s)| s).sum();
    let ideal = total as f64 / (n * n) as f64;
    let mut cells: Vec<GridCell> = (0..n * n)
        .map(|i| GridCell {
            row: i / n,
            col: i % n,
            tenants: Vec::new(),
            space: 0,
            balance: 0.0,
            reimage_range: [f64::INFINITY, f64::NEG_INFINITY],
            peak_range: [f64::INFINITY, f64::NEG_INFINITY],
        })
        .collect();
    for &(t, s) in &items {
        let c = &mut cells[cell_of[t as usize] as usize];
        let tn = &ts[t as usize];
        c.tenants.push(t);
        c.space += s;
        c.reimage_range = [
            c.reimage_range[0].min(tn.reimage_rate),
            c.reimage_range[1].max(tn.reimage_rate),
        ];
        c.peak_range = [c.peak_range[0].min(tn.peak), c.peak_range[1].max(tn.peak)];
    }
    let mut imbalance: f64 = 0.0;
    for c in &mut cells {
        c.tenants.sort_unstable();
        if c.tenants.is_empty() {
            c.reimage_range = [0.0, 0.0];
            c.peak_range = [0.0, 0.0];
        }
        c.balance = if ideal > 0.0 {
            c.space as f64 / ideal
        } else {
            0.0
        };
        if ideal > 0.0 {
            imbalance = imbalance.max((c.balance - 1.0).abs());
        }
    }
    Grid {
        n,
        cells,
        cell_of,
        ideal,
        imbalance,
    }
}
