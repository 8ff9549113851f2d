//! What the storage view computes in the worker: the tenants with their
//! space, reimage rate and peak (from the tenants file, the reimages file
//! and the last classification's series), the grid and a fill run, one
//! block explained, and the durability and availability simulations.

use super::protocol::{
    AvailabilityView, DurabilityView, PlaceView, StorageSettings, StorageTenantRow, StorageView,
};
use skyplan_engine::harvest::{
    build_grid, place_blocks, reimage_stats, simulate_availability, simulate_durability,
    storage_tenants, AvailabilityParams, Cluster, DurabilityParams, PlacementParams, Placer,
    Policy, ReimageHistory, ReimageStats, StorageTenant, TenantInfo, TenantSet,
};
use skyplan_engine::numerics::Rng;

/// What every storage computation starts from.
pub struct StorageInputs<'a> {
    /// The tenants file's tenants.
    pub infos: &'a [TenantInfo],
    /// The reimages file's name and history.
    pub reimages: (&'a str, &'a ReimageHistory),
    /// The last classification's tenants (for the peaks).
    pub set: &'a TenantSet,
    /// Its peak percentile.
    pub peak_percentile: f64,
}

fn tenants_of(i: &StorageInputs<'_>) -> Result<(ReimageStats, Vec<StorageTenant>), String> {
    let stats = reimage_stats(i.reimages.1, 7).map_err(|e| e.to_string())?;
    let tenants =
        storage_tenants(i.infos, &stats, i.set, i.peak_percentile).map_err(|e| e.to_string())?;
    Ok((stats, tenants))
}

fn placement(s: &StorageSettings) -> PlacementParams {
    PlacementParams {
        replication: s.replication,
        grid: s.grid,
        seed: s.seed,
        ..PlacementParams::default()
    }
}

/// The grid, the statistics and a fill run of `settings.blocks` blocks.
pub fn grid_view(
    i: &StorageInputs<'_>,
    ticket: u32,
    settings: &StorageSettings,
) -> Result<StorageView, String> {
    let (stats, tenants) = tenants_of(i)?;
    let p = placement(settings);
    let cluster = Cluster::new(&tenants, &p).map_err(|e| e.to_string())?;
    let grid = build_grid(&cluster, p.grid);
    let (placed, fill) = place_blocks(
        &cluster,
        &grid,
        Policy::HdfsH,
        settings.blocks,
        p.replication,
        p.seed,
    )
    .map_err(|e| e.to_string())?;
    let mut used = vec![0u64; tenants.len()];
    for &s in &placed.replicas {
        used[cluster.tenant_of[s as usize] as usize] += 1;
    }
    let rows = tenants
        .iter()
        .enumerate()
        .map(|(t, x)| StorageTenantRow {
            name: x.name.clone(),
            environment: x.environment.clone(),
            servers: x.servers,
            storage_gb_per_server: x.storage_gb_per_server,
            reimage_rate: x.reimage_rate,
            peak: x.peak,
            cell: Some(grid.cell_of[t] as usize).filter(|&c| c != u16::MAX as usize),
            used: used[t],
            room: cluster.tenant_capacity(t),
        })
        .collect();
    Ok(StorageView {
        ticket,
        reimages_file: i.reimages.0.to_owned(),
        grid,
        tenants: rows,
        fill,
        server_cdf: stats.server_cdf,
        tenant_cdf: stats.tenant_cdf,
        changes_cdf: stats.changes_cdf,
        months: stats.months.len(),
        servers_at_most_monthly: stats.servers_at_most_monthly,
        reimages: stats.tenants,
        millis: 0.0,
    })
}

/// One block written at `writer` on an empty cluster, explained.
pub fn place_view(
    i: &StorageInputs<'_>,
    ticket: u32,
    writer: &str,
    policy: Policy,
    settings: &StorageSettings,
) -> Result<PlaceView, String> {
    let (_, tenants) = tenants_of(i)?;
    let p = placement(settings);
    let cluster = Cluster::new(&tenants, &p).map_err(|e| e.to_string())?;
    let grid = build_grid(&cluster, p.grid);
    let s = (0..cluster.servers() as u32)
        .find(|&s| cluster.layout.name(s) == writer)
        .ok_or_else(|| format!("unknown server `{writer}`"))?;
    let mut placer = Placer::new(&cluster, &grid);
    let mut rng = Rng::new(p.seed);
    let trace = placer
        .place_traced(policy, 0, s, &[], &mut rng, p.replication)
        .map_err(|e| e.to_string())?;
    Ok(PlaceView { ticket, trace })
}

/// Figure 15 with the view's settings.
pub fn durability_view(
    i: &StorageInputs<'_>,
    ticket: u32,
    settings: &StorageSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<DurabilityView, String> {
    let (_, tenants) = tenants_of(i)?;
    let p = DurabilityParams {
        blocks: settings.blocks,
        runs: settings.runs,
        placement: placement(settings),
        ..DurabilityParams::default()
    };
    let report =
        simulate_durability(&tenants, i.reimages.1, &p, progress).map_err(|e| e.to_string())?;
    Ok(DurabilityView {
        ticket,
        report,
        millis: 0.0,
    })
}

/// Figure 16 with the view's settings.
pub fn availability_view(
    i: &StorageInputs<'_>,
    ticket: u32,
    settings: &StorageSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<AvailabilityView, String> {
    let (_, tenants) = tenants_of(i)?;
    let p = AvailabilityParams {
        blocks: settings.availability_blocks,
        runs: settings.runs,
        levels: settings.levels.clone(),
        placement: placement(settings),
        ..AvailabilityParams::default()
    };
    let report = simulate_availability(&tenants, i.set, &p, progress).map_err(|e| e.to_string())?;
    Ok(AvailabilityView {
        ticket,
        report,
        millis: 0.0,
    })
}
