//! Tests of the storage half: the reimages CSV, Figures 4–6's statistics,
//! the fixture's shape, the grid's balance, Algorithm 2's invariants, the
//! stock baselines, and the durability and availability simulations
//! against closed forms.

use crate::fixtures::{reimage_history, ReimageFixtureParams};
use crate::harvest::*;
use crate::numerics::Rng;

fn info(name: &str, env: &str, servers: usize, gb: f64) -> TenantInfo {
    TenantInfo {
        name: name.into(),
        environment: env.into(),
        machine_function: "f".into(),
        servers,
        server_names: Vec::new(),
        cores_per_server: 12.0,
        storage_gb_per_server: gb,
    }
}

fn st(name: &str, env: &str, servers: u32, gb: f64, rate: f64, peak: f64) -> StorageTenant {
    StorageTenant {
        name: name.into(),
        environment: env.into(),
        servers,
        server_names: Vec::new(),
        storage_gb_per_server: gb,
        reimage_rate: rate,
        peak,
    }
}

/// `n` tenants in `n / 2` environments, 8–40 servers, random rates/peaks.
fn tenants(n: usize, gb: f64, seed: u64) -> Vec<StorageTenant> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            st(
                &format!("t{i:03}"),
                &format!("e{:03}", i / 2),
                rng.int(8, 40) as u32,
                gb,
                rng.uniform(0.0, 3.0),
                rng.uniform(5.0, 95.0),
            )
        })
        .collect()
}

fn params(r: usize) -> PlacementParams {
    PlacementParams {
        replication: r,
        block_mb: 1024.0,
        ..PlacementParams::default()
    }
}

/// The cluster of `ts` for placing `r` replicas and its `n` × `n` grid.
fn cluster_and_grid(ts: &[StorageTenant], r: usize, n: usize) -> (Cluster, Grid) {
    let c = Cluster::new(ts, &params(r)).unwrap();
    let g = build_grid(&c, n);
    (c, g)
}

// ---- the reimages CSV ----

#[test]
fn reimages_csv_reads_both_forms_and_groups_bursts() {
    let mut a = info("a", "e1", 3, 100.0);
    a.server_names = vec!["srv-1".into()];
    let ts = [a, info("b", "e2", 4, 100.0)];
    let text = "timestamp,server,tenant,servers\n\
                2026-01-05 10:00,srv-1,,\n\
                2026-01-05 10:00,a/s3,,\n\
                2026-02-01,,b,2\n\
                2026-02-01,,b,b/s1;b/s4\n";
    let h = read_reimages_csv("r.csv", text, &ts).unwrap();
    assert_eq!(h.events.len(), 2);
    assert_eq!(h.events[0].servers, vec![0, 2]);
    assert_eq!(h.events[0].size(), 2);
    assert_eq!(h.events[1].tenant, 1);
    assert_eq!(h.events[1].servers, vec![3, 6]);
    assert_eq!(h.events[1].unnamed, 2);
    assert_eq!(h.server_reimages(), 6);
    assert_eq!(h.layout.name(0), "srv-1");
    assert_eq!(h.layout.name(5), "b/s3");
    // Written and read back: the same history.
    let back = read_reimages_csv("w.csv", &write_reimages_csv(&h), &ts).unwrap();
    assert_eq!(back, h);
}

#[test]
fn bad_reimages_are_refused_with_their_location() {
    let ts = [info("a", "e1", 3, 100.0)];
    let cases = [
        (
            "timestamp,server\n2026-01-01,zz/s1\n",
            "r.csv:2:12: unknown server `zz/s1`",
        ),
        (
            "timestamp,server\n2026-01-01,a/s4\n",
            "r.csv:2:12: unknown server `a/s4`",
        ),
        (
            "timestamp,tenant,servers\n2026-01-01,q,1\n",
            "r.csv:2:12: unknown tenant `q`",
        ),
        (
            "timestamp,tenant,servers\n2026-01-01,a,5\n",
            "r.csv:2:14: servers must be in 1..=3",
        ),
        ("timestamp,server\nyesterday,a/s1\n", "r.csv:2:1:"),
        ("timestamp,server\n# nothing\n", "r.csv:1:1: no reimage"),
        ("timestamp,server\n2026-01-01,\n", "r.csv:2:"),
    ];
    for (text, want) in cases {
        let e = read_reimages_csv("r.csv", text, &ts)
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{text:?}: {e}");
    }
}

#[test]
fn tenants_csv_storage_column_is_optional_and_checked() {
    let old = "tenant,environment,machine_function,servers\na,e,f,2\n";
    let t = read_tenants_csv("t.csv", old).unwrap();
    assert_eq!(t[0].storage_gb_per_server, DEFAULT_STORAGE_GB);
    let new = "tenant,environment,machine_function,servers,storage_gb_per_server\na,e,f,2,250\n";
    assert_eq!(
        read_tenants_csv("t.csv", new).unwrap()[0].storage_gb_per_server,
        250.0
    );
    let bad = "tenant,environment,machine_function,servers,storage_gb_per_server\na,e,f,2,-5\n";
    let e = read_tenants_csv("t.csv", bad).unwrap_err().to_string();
    assert!(
        e.contains("t.csv:2:9: storage_gb_per_server must not be negative"),
        "{e}"
    );
    // Written with the column, read back equal.
    let back = read_tenants_csv("w.csv", &write_tenants_csv(&t)).unwrap();
    assert_eq!(back, t);
}

// ---- statistics (Figures 4–6) ----

#[test]
fn stats_by_hand() {
    // Tenants a (2 servers), b (1), c (1); three months.
    let ts = [
        info("a", "e", 2, 1.0),
        info("b", "e", 1, 1.0),
        info("c", "e", 1, 1.0),
    ];
    let text = "timestamp,server\n\
                2026-01-03,a/s1\n2026-01-03,a/s2\n2026-01-09,b/s1\n\
                2026-02-10,c/s1\n2026-02-11,c/s1\n\
                2026-03-01,a/s1\n";
    let h = read_reimages_csv("r.csv", text, &ts).unwrap();
    let s = reimage_stats(&h, 1).unwrap();
    assert_eq!(s.months.len(), 3);
    assert_eq!(s.tenants[0].per_month, vec![1.0, 0.0, 0.5]);
    assert_eq!(s.tenants[1].per_month, vec![1.0, 0.0, 0.0]);
    assert_eq!(s.tenants[2].per_month, vec![0.0, 2.0, 0.0]);
    assert_eq!(s.tenants[0].events, 2);
    assert_eq!(s.tenants[0].largest_event, 2);
    // January: c 0 (rank 0) → 0; a, b tie at ranks 1–2 (midrank 1.5) → 1.
    // February: a, b tie at 0–1 (0.5) → 0; c rank 2 → 2.
    // March: b, c tie at 0–1 → 0; a rank 2 → 2.
    assert_eq!(s.tenants[0].groups, vec![1, 0, 2]);
    assert_eq!(s.tenants[1].groups, vec![1, 0, 0]);
    assert_eq!(s.tenants[2].groups, vec![0, 2, 0]);
    assert_eq!(
        s.tenants.iter().map(|t| t.changes).collect::<Vec<_>>(),
        vec![2, 1, 2]
    );
    // Servers: a/s1 2 reimages, a/s2 1, b/s1 1, c/s1 2 → per month 2/3, 1/3, 1/3, 2/3.
    assert_eq!(s.server_cdf.len(), 2);
    assert!((s.server_cdf[0].x - 1.0 / 3.0).abs() < 1e-12 && s.server_cdf[0].share == 0.5);
    assert_eq!(s.server_cdf[1].share, 1.0);
    assert_eq!(s.servers_at_most_monthly, 1.0);
    assert_eq!(s.server_reimages, 6);
}

#[test]
fn fixture_is_heavy_tailed_with_bursts() {
    let dc = crate::fixtures::datacenter(&crate::fixtures::DatacenterParams::default());
    let h = reimage_history(&dc.tenants, &ReimageFixtureParams::default());
    assert_eq!(
        h,
        reimage_history(&dc.tenants, &ReimageFixtureParams::default())
    );
    let s = reimage_stats(&h, 7).unwrap();
    assert_eq!(s.months.len(), 12);
    // §3: at least 90 % of servers at most once a month, a tail above.
    assert!(
        s.servers_at_most_monthly >= 0.9,
        "{}",
        s.servers_at_most_monthly
    );
    assert!(s.servers_at_most_monthly < 1.0);
    assert!(s.tenant_cdf.last().unwrap().x > 1.0);
    // Correlated bursts: some event reimages many servers of one tenant.
    assert!(h.events.iter().any(|e| e.size() >= 10));
    // Ranks are consistent but not frozen.
    let changes: Vec<u32> = s.tenants.iter().map(|t| t.changes).collect();
    assert!(changes.iter().any(|&c| c > 0));
    assert!(changes.iter().filter(|&&c| c <= 6).count() * 2 >= changes.len());
}

// ---- the grid ----

#[test]
fn grid_of_nine_equal_tenants_has_one_per_cell() {
    // Rates ascend with i, peaks descend within each row band.
    let ts: Vec<StorageTenant> = (0..9)
        .map(|i| {
            st(
                &format!("t{i}"),
                &format!("e{i}"),
                1,
                10.0,
                i as f64,
                (9 - i) as f64,
            )
        })
        .collect();
    let (_, g) = cluster_and_grid(&ts, 3, 3);
    assert_eq!(g.imbalance, 0.0);
    // Row 0 = t0, t1, t2 (least reimaged); by peak: t2 (7) < t1 (8) < t0 (9).
    assert_eq!(g.cells[0].tenants, vec![2]);
    assert_eq!(g.cells[1].tenants, vec![1]);
    assert_eq!(g.cells[2].tenants, vec![0]);
    assert_eq!(g.cells[8].tenants, vec![6]);
    assert!(g.cells.iter().all(|c| c.space == 10 && c.balance == 1.0));
}

#[test]
fn grid_balance_by_hand_with_unequal_tenants() {
    // Spaces 6, 1, 1, 1, 1, 2 (GB = replicas at 1024 MB blocks), n = 2.
    // S = 12, rows: midpoints 3, 6.5, 7.5, 8.5, 9.5, 11 along cumulative
    // space → row 0 = {a} (3 < 6), row 1 = the rest.
    // Row 1 (S_row = 6) by peak: b 1, c 2, d 3, e 4, f 5 with midpoints
    // 0.5, 1.5, 2.5, 3.5, 5 → cols 0, 0, 0, 1, 1.
    let ts = vec![
        st("a", "ea", 1, 6.0, 0.0, 50.0),
        st("b", "eb", 1, 1.0, 1.0, 1.0),
        st("c", "ec", 1, 1.0, 1.1, 2.0),
        st("d", "ed", 1, 1.0, 1.2, 3.0),
        st("e", "ee", 1, 1.0, 1.3, 4.0),
        st("f", "ef", 1, 2.0, 1.4, 5.0),
    ];
    let (_, g) = cluster_and_grid(&ts, 2, 2);
    assert_eq!(g.ideal, 3.0);
    // Row 0 alone: midpoint 3 of 6 → column 1.
    assert_eq!(g.cells[0].tenants, Vec::<u32>::new());
    assert_eq!(g.cells[1].tenants, vec![0]);
    assert_eq!(g.cells[2].tenants, vec![1, 2, 3]);
    assert_eq!(g.cells[3].tenants, vec![4, 5]);
    assert_eq!(
        g.cells.iter().map(|c| c.space).collect::<Vec<_>>(),
        vec![0, 6, 3, 3]
    );
    assert_eq!(g.imbalance, 1.0);
}

// ---- Algorithm 2 ----

fn invariants(r: usize) {
    let ts = tenants(60, 2000.0, 3);
    let (c, g) = cluster_and_grid(&ts, r, 3);
    assert!(g.cells.iter().all(|c| !c.tenants.is_empty()));
    let mut placer = Placer::new(&c, &g);
    let mut rng = Rng::new(11);
    let mut out = vec![0u32; r];
    let mut all = Vec::new();
    let mut writers = Vec::new();
    for b in 0..100_000u64 {
        let w = placer.random_writer(&[], &mut rng).unwrap();
        placer
            .place(Policy::HdfsH, b, w, &[], &mut rng, &mut out)
            .unwrap();
        writers.push(w);
        all.extend_from_slice(&out);
    }
    assert_eq!(placer.relaxed, 0);
    let p = Placement {
        replication: r,
        replicas: all,
    };
    // First replica local.
    assert!(p.replicas.chunks(r).zip(&writers).all(|(b, &w)| b[0] == w));
    let d = check_diversity(&c, &g, &p);
    assert_eq!(d, Diversity::default(), "R = {r}");
    // Space: used = room − free for each server, never above the room.
    let mut held = vec![0u32; c.servers()];
    for &s in &p.replicas {
        held[s as usize] += 1;
    }
    for ((h, f), room) in held.iter().zip(placer.free()).zip(&c.room) {
        assert_eq!(h + f, *room);
    }
    // Every cell got replicas (random cells, not a fixed order).
    let mut per_cell = [0u64; 9];
    for &s in &p.replicas {
        per_cell[g.cell_of[c.tenant_of[s as usize] as usize] as usize] += 1;
    }
    assert!(per_cell.iter().all(|&n| n > 1000), "{per_cell:?}");
}

#[test]
fn algorithm_2_invariants_over_100000_blocks_r3() {
    invariants(3);
}

#[test]
fn algorithm_2_invariants_over_100000_blocks_r4() {
    invariants(4);
}

#[test]
fn stock_places_local_remote_rack_then_that_rack() {
    let ts = tenants(30, 2000.0, 5);
    let p = PlacementParams {
        rack_size: 10,
        ..params(3)
    };
    let c = Cluster::new(&ts, &p).unwrap();
    let g = build_grid(&c, 3);
    let (pl, rep) = place_blocks(&c, &g, Policy::Stock, 20_000, 3, 1).unwrap();
    assert_eq!(rep.diversity.over_room_servers, 0);
    for b in pl.replicas.chunks(3) {
        let rack = |s: u32| c.rack_of[s as usize];
        assert_ne!(rack(b[0]), rack(b[1]));
        assert_eq!(rack(b[1]), rack(b[2]));
        assert_ne!(b[1], b[2]);
    }
    // Stock is blind to tenants: with racks inside tenants, two replicas
    // often share one.
    assert!(rep.diversity.tenant_repeats > 10_000, "{:?}", rep.diversity);
}

#[test]
fn a_full_cluster_and_a_full_writer_are_refused() {
    let ts = vec![
        st("a", "e1", 2, 2.0, 0.0, 1.0),
        st("b", "e2", 2, 2.0, 1.0, 2.0),
        st("c", "e3", 2, 2.0, 2.0, 3.0),
    ];
    let (c, g) = cluster_and_grid(&ts, 3, 3);
    let e = place_blocks(&c, &g, Policy::HdfsH, 5, 3, 1).unwrap_err();
    assert_eq!(
        e,
        HarvestError::ClusterFull {
            needed: 15,
            capacity: 12
        }
    );
    let mut placer = Placer::new(&c, &g);
    let mut rng = Rng::new(1);
    let mut out = [0u32; 3];
    placer
        .place(Policy::HdfsH, 0, 0, &[], &mut rng, &mut out)
        .unwrap();
    placer
        .place(Policy::HdfsH, 1, 0, &[], &mut rng, &mut out)
        .unwrap();
    let e = placer
        .place(Policy::HdfsH, 2, 0, &[], &mut rng, &mut out)
        .unwrap_err();
    assert!(
        e.to_string().contains("the writer a/s1 has no room left"),
        "{e}"
    );
    // Two tenants' worth of room left in three environments: a third
    // replica has no environment left; nothing is taken on failure.
    let before = placer.free().to_vec();
    let mut p2 = placer.clone();
    let _ = p2.place(Policy::HdfsH, 2, 1, &[], &mut rng, &mut out);
    let ts2 = vec![
        st("a", "e1", 4, 4.0, 0.0, 1.0),
        st("b", "e1", 4, 4.0, 1.0, 2.0),
    ];
    let (c2, g2) = cluster_and_grid(&ts2, 2, 3);
    let mut p3 = Placer::new(&c2, &g2);
    let e = p3
        .place(Policy::HdfsH, 0, 0, &[], &mut rng, &mut [0u32; 2])
        .unwrap_err();
    assert!(e.to_string().contains("space-versus-diversity"), "{e}");
    assert_eq!(p3.free(), c2.room.as_slice());
    assert_eq!(placer.free(), before.as_slice());
    // Negative space is refused.
    let e = Cluster::new(&[st("a", "e", 1, -1.0, 0.0, 0.0)], &params(1)).unwrap_err();
    assert!(e.to_string().contains("storage_gb_per_server"), "{e}");
}

#[test]
fn traced_placement_explains_cells_and_tenants() {
    let ts = tenants(18, 2000.0, 9);
    let (c, g) = cluster_and_grid(&ts, 3, 3);
    let mut placer = Placer::new(&c, &g);
    let mut rng = Rng::new(2);
    let t = placer
        .place_traced(Policy::HdfsH, 0, 5, &[], &mut rng, 4)
        .unwrap();
    assert_eq!(t.steps.len(), 4);
    assert_eq!(t.steps[0].server, 5);
    let wcell = t.steps[0].cell.unwrap();
    // Replica 2: the writer's row and column are excluded.
    for chk in &t.steps[1].cells {
        if chk.cell / 3 == wcell / 3 {
            assert_eq!(chk.verdict, CellVerdict::RowUsed);
        } else if chk.cell % 3 == wcell % 3 {
            assert_eq!(chk.verdict, CellVerdict::ColumnUsed);
        }
    }
    // Replica 3 is forced into the last free row and column, then forgets.
    let c2 = t.steps[1].cell.unwrap();
    let c3 = t.steps[2].cell.unwrap();
    assert_eq!(
        [wcell / 3, c2 / 3, c3 / 3].iter().sum::<usize>(),
        3,
        "rows differ"
    );
    assert!(t.steps[2].forgot);
    assert!(t.steps[3]
        .cells
        .iter()
        .all(|c| c.verdict != CellVerdict::RowUsed));
}

// ---- durability ----

fn small_dc() -> (Vec<TenantInfo>, Vec<StorageTenant>, ReimageHistory) {
    let infos: Vec<TenantInfo> = (0..24)
        .map(|i| info(&format!("t{i:02}"), &format!("e{i:02}"), 20, 256.0))
        .collect();
    let h = reimage_history(&infos, &ReimageFixtureParams::default());
    let s = reimage_stats(&h, 1).unwrap();
    let sts = infos
        .iter()
        .zip(&s.tenants)
        .enumerate()
        .map(|(i, (t, r))| {
            st(
                &t.name,
                &t.environment,
                20,
                256.0,
                r.average,
                (i * 37 % 100) as f64,
            )
        })
        .collect();
    (infos, sts, h)
}

#[test]
fn no_reimages_lose_nothing_and_r1_loses_the_reimaged_share() {
    let (_, sts, _) = small_dc();
    let (c, g) = cluster_and_grid(&sts, 1, 3);
    let (p3, _) = place_blocks(&c, &g, Policy::HdfsH, 5000, 3, 1).unwrap();
    assert_eq!(lost_blocks(&p3, c.servers(), &[], 30.0), (0, 0));
    // R = 1: the blocks on servers reimaged at least once.
    let (p1, _) = place_blocks(&c, &g, Policy::Stock, 5000, 1, 1).unwrap();
    let year: Vec<(u32, u32)> = (0..c.servers() as u32)
        .filter(|s| s % 7 == 3)
        .map(|s| (s * 100, s))
        .collect();
    let hit: std::collections::HashSet<u32> = year.iter().map(|&(_, s)| s).collect();
    let want = p1.replicas.iter().filter(|s| hit.contains(s)).count() as u64;
    assert!(want > 0);
    assert_eq!(lost_blocks(&p1, c.servers(), &year, 30.0).0, want);
}

#[test]
fn a_burst_on_one_tenant_loses_no_algorithm_2_block() {
    let (_, sts, _) = small_dc();
    let (c, g) = cluster_and_grid(&sts, 2, 3);
    for r in [2, 3, 4] {
        let (p, _) = place_blocks(&c, &g, Policy::HdfsH, 20_000, r, r as u64).unwrap();
        for t in 0..sts.len() {
            let (a, b) = (c.layout.first[t], c.layout.first[t + 1]);
            let burst: Vec<(u32, u32)> = (a..b).map(|s| (1000, s)).collect();
            let (lost, destroyed) = lost_blocks(&p, c.servers(), &burst, 30.0);
            assert_eq!(lost, 0, "R = {r}, tenant {t}");
            assert!(destroyed > 0);
        }
    }
    // Stock HDFS, blind to tenants, loses blocks to the same bursts when
    // a tenant spans racks (10-server racks, 20-server tenants).
    let c = Cluster::new(
        &sts,
        &PlacementParams {
            rack_size: 10,
            ..params(3)
        },
    )
    .unwrap();
    let (p, _) = place_blocks(&c, &g, Policy::Stock, 20_000, 3, 1).unwrap();
    let lost: u64 = (0..sts.len())
        .map(|t| {
            let burst: Vec<(u32, u32)> = (c.layout.first[t]..c.layout.first[t + 1])
                .map(|s| (1000, s))
                .collect();
            lost_blocks(&p, c.servers(), &burst, 30.0).0
        })
        .sum();
    assert!(lost > 0);
}

#[test]
fn recreation_races_by_hand() {
    // One block on servers 0 and 1 (R = 2); 30 blocks/h → 120 s a copy.
    let p = Placement {
        replication: 2,
        replicas: vec![0, 1],
    };
    assert_eq!(lost_blocks(&p, 2, &[(0, 0), (100, 1)], 30.0).0, 1);
    assert_eq!(lost_blocks(&p, 2, &[(0, 0), (120, 1)], 30.0).0, 0);
    // Two blocks on 0 with their copies on 1 and 2: both copied at once
    // (two sources), back at 120 s.
    let p = Placement {
        replication: 2,
        replicas: vec![0, 1, 0, 2],
    };
    assert_eq!(lost_blocks(&p, 3, &[(0, 0), (100, 2)], 30.0), (1, 3));
    assert_eq!(lost_blocks(&p, 3, &[(0, 0), (200, 2)], 30.0), (0, 3));
    // Two blocks on 0 and 1: server 1 copies one, then the other (240 s).
    let p = Placement {
        replication: 2,
        replicas: vec![0, 1, 0, 1],
    };
    assert_eq!(lost_blocks(&p, 2, &[(0, 0), (200, 1)], 30.0), (1, 4));
    assert_eq!(lost_blocks(&p, 2, &[(0, 0), (240, 1)], 30.0), (0, 4));
    // R = 3: the source free first copies; a reimage of the other source
    // does not lose the block.
    let p = Placement {
        replication: 3,
        replicas: vec![0, 1, 2],
    };
    assert_eq!(lost_blocks(&p, 3, &[(0, 0), (10, 1), (20, 2)], 30.0).0, 1);
    assert_eq!(lost_blocks(&p, 3, &[(0, 0), (10, 1), (130, 2)], 30.0).0, 0);
}

#[test]
fn durability_simulation_runs_and_h_loses_less() {
    let (_, sts, h) = small_dc();
    // Racks of 10 inside tenants of 20: a tenant spans two racks, so
    // stock's writer and remote-rack pair can all sit in one tenant.
    let p = DurabilityParams {
        blocks: 20_000,
        runs: 2,
        placement: PlacementParams {
            rack_size: 10,
            ..params(3)
        },
        ..DurabilityParams::default()
    };
    let mut calls = 0;
    let r = simulate_durability(&sts, &h, &p, &mut |_, _| calls += 1).unwrap();
    assert_eq!(calls, 2 * 2 * 2);
    assert_eq!(r.results.len(), 4);
    let h3 = &r.results[0];
    let s3 = &r.results[1];
    assert_eq!((h3.policy, h3.replication), (Policy::HdfsH, 3));
    assert!(s3.lost_percent.avg > 0.0);
    assert!(h3.lost_percent.avg < s3.lost_percent.avg, "{h3:?} {s3:?}");
    // Replayed: deterministic year, every run the same reimages.
    let p2 = DurabilityParams {
        source: ReimageSource::Replay,
        replications: vec![3],
        ..p
    };
    let r2 = simulate_durability(&sts, &h, &p2, &mut |_, _| {}).unwrap();
    let n = r2.results[0]
        .runs
        .iter()
        .map(|r| r.reimages)
        .collect::<Vec<_>>();
    assert_eq!(n[0], n[1]);
    assert_eq!(n[0], h.server_reimages());
}

// ---- availability ----

#[test]
fn availability_is_monotone_in_utilization() {
    let dc = crate::fixtures::datacenter(&crate::fixtures::DatacenterParams::default());
    let mut infos = dc.tenants.clone();
    for t in &mut infos {
        t.storage_gb_per_server = 64.0;
    }
    let (set, _) = group_series(&dc.series, Some(&infos), None, &GroupParams::default()).unwrap();
    let h = reimage_history(&infos, &ReimageFixtureParams::default());
    let s = reimage_stats(&h, 1).unwrap();
    let sts = storage_tenants(&infos, &s, &set, 99.0).unwrap();
    let p = AvailabilityParams {
        blocks: 3000,
        runs: 2,
        levels: vec![5.0, 20.0, 35.0, 50.0, 65.0],
        placement: params(3),
        ..AvailabilityParams::default()
    };
    let r = simulate_availability(&sts, &set, &p, &mut |_, _| {}).unwrap();
    assert_eq!(r.levels.len(), 5);
    for k in 0..r.levels[0].points.len() {
        let v: Vec<f64> = r
            .levels
            .iter()
            .map(|l| l.points[k].failed_percent.avg)
            .collect();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "{k}: {v:?}");
    }
    let first = &r.levels[0];
    assert!(first.points.iter().all(|p| p.failed_percent.max == 0.0));
    let last = &r.levels[4];
    assert!(last.points[0].failed_percent.avg > 0.0);
    assert!(r
        .levels
        .windows(2)
        .all(|w| w[0].utilization < w[1].utilization));
}

/// The replay written the plain way, block-major: every reimage scans every
/// block, and a block's replicas keep their own back times.
fn lost_blocks_by_scan(p: &Placement, year: &[(u32, u32)], per_hour: f64) -> (u64, u64) {
    let r = p.replication;
    let per = (3600.0 / per_hour).ceil() as u32;
    let mut back = vec![0u32; p.replicas.len()];
    let mut lost = vec![false; p.blocks()];
    let mut free: std::collections::HashMap<u32, u32> = Default::default();
    let (mut n_lost, mut destroyed) = (0, 0);
    for &(t, s) in year {
        for b in 0..p.blocks() {
            let servers = &p.replicas[b * r..(b + 1) * r];
            let Some(own) = servers.iter().position(|&x| x == s) else {
                continue;
            };
            if lost[b] {
                continue;
            }
            destroyed += 1;
            let mut best: Option<(u32, u32)> = None;
            for (q, &srv) in servers.iter().enumerate() {
                let f = free.get(&srv).copied().unwrap_or(0);
                if q != own && back[b * r + q] <= t && best.is_none_or(|(_, bf)| f < bf) {
                    best = Some((srv, f));
                }
            }
            match best {
                None => {
                    lost[b] = true;
                    n_lost += 1;
                }
                Some((srv, f)) => {
                    let done = f.max(t) + per;
                    free.insert(srv, done);
                    back[b * r + own] = done;
                }
            }
        }
    }
    (n_lost, destroyed)
}

/// `blocks` blocks of `r` replicas on distinct servers drawn at random.
fn random_placement(rng: &mut Rng, servers: usize, r: usize, blocks: usize) -> Placement {
    let mut replicas = Vec::with_capacity(blocks * r);
    for _ in 0..blocks {
        let mut picked: Vec<u32> = Vec::new();
        while picked.len() < r {
            let s = rng.int(0, servers as i64 - 1) as u32;
            if !picked.contains(&s) {
                picked.push(s);
            }
        }
        replicas.extend(picked);
    }
    Placement {
        replication: r,
        replicas,
    }
}

#[test]
fn the_server_major_replay_matches_a_plain_scan() {
    // Few servers, many blocks, reimages minutes apart in bursts: copies
    // queue for hours, peers are often still recovering, blocks are lost.
    let mut rng = Rng::new(5);
    let mut total_lost = 0;
    for case in 0..60 {
        let servers = 4 + case % 9;
        let r = 1 + case % 4;
        let r = r.min(servers);
        let blocks = 50 + rng.int(0, 400) as usize;
        let p = random_placement(&mut rng, servers, r, blocks);
        let mut t = 0u32;
        let year: Vec<(u32, u32)> = (0..40)
            .map(|_| {
                t += rng.int(0, 3) as u32 * rng.int(0, 1200) as u32;
                (t, rng.int(0, servers as i64 - 1) as u32)
            })
            .collect();
        let per_hour = [30.0, 7.0, 200.0][case % 3];
        let want = lost_blocks_by_scan(&p, &year, per_hour);
        assert_eq!(
            lost_blocks(&p, servers, &year, per_hour),
            want,
            "case {case}"
        );
        total_lost += want.0;
    }
    assert!(total_lost > 0);
}

#[test]
fn the_replay_takes_any_replication() {
    // Past the params' cap of 16 the peers no longer fit on the stack: 20
    // replicas over 24 servers, 21 servers reimaged a minute apart.
    let mut rng = Rng::new(9);
    let (servers, r, blocks) = (24usize, 20usize, 300usize);
    let p = random_placement(&mut rng, servers, r, blocks);
    let year: Vec<(u32, u32)> = (0..21).map(|i| (60 * i, i)).collect();
    let want = lost_blocks_by_scan(&p, &year, 30.0);
    assert!(want.0 > 0);
    assert_eq!(lost_blocks(&p, servers, &year, 30.0), want);
}

#[test]
fn durability_is_the_same_on_one_thread_or_three() {
    let (_, sts, h) = small_dc();
    let p = DurabilityParams {
        blocks: 4_000,
        runs: 3,
        threads: 1,
        placement: PlacementParams {
            rack_size: 10,
            ..params(3)
        },
        ..DurabilityParams::default()
    };
    let mut calls = Vec::new();
    let one = simulate_durability(&sts, &h, &p, &mut |d, t| calls.push((d, t))).unwrap();
    assert_eq!(calls, (1..=12).map(|d| (d, 12)).collect::<Vec<_>>());
    let three = simulate_durability(
        &sts,
        &h,
        &DurabilityParams {
            threads: 3,
            ..p.clone()
        },
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(one.results, three.results);
    // Each run in seed order, per (level, policy).
    for r in &one.results {
        let seeds: Vec<u64> = r.runs.iter().map(|x| x.seed).collect();
        let s0 = p.placement.seed;
        assert_eq!(seeds, vec![s0, s0 + 1, s0 + 2]);
    }
    assert_eq!(three.memory_bytes, 3 * one.memory_bytes);
}
