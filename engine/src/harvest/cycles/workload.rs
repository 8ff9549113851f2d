//! Batch job sources for the scheduling simulation: DAGs from a job
//! history (SWIM-derived map/reduce jobs), Alibaba `batch_task.csv` jobs,
//! or generated TPC-DS-like query DAGs (§6 runs 52 Hive queries of
//! TPC-DS, e.g. Figure 7's query 19: a few map vertices with many tasks
//! feeding chains of reducers with fewer).

use super::dag::{JobDag, Vertex};
use crate::numerics::Rng;

/// `n` TPC-DS-like query DAGs, seeded: 2–4 map vertices of 20–200 tasks
/// (10–60 s each) joined by 1–5 reducer stages of 1–60 tasks (10–90 s),
/// each stage reading the previous one and, now and then, a map vertex
/// directly (a join).
pub fn tpcds_like(n: usize, seed: u64) -> Vec<JobDag> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|q| {
            let mut vertices = Vec::new();
            let mut edges = Vec::new();
            let maps = rng.int(2, 4) as usize;
            for m in 0..maps {
                vertices.push(Vertex {
                    name: format!("Map {}", m + 1),
                    tasks: rng.int(20, 200) as u32,
                    task_secs: rng.uniform(10.0, 60.0).round(),
                });
            }
            let reducers = rng.int(1, 5) as usize;
            for r in 0..reducers {
                let name = format!("Reducer {}", maps + r + 1);
                let tasks = rng.int(1, 60) as u32;
                vertices.push(Vertex {
                    name: name.clone(),
                    tasks,
                    task_secs: rng.uniform(10.0, 90.0).round(),
                });
                if r == 0 {
                    for m in 0..maps {
                        edges.push([format!("Map {}", m + 1), name.clone()]);
                    }
                } else {
                    edges.push([format!("Reducer {}", maps + r), name.clone()]);
                    if rng.chance(0.3) {
                        let m = rng.int(1, maps as i64);
                        edges.push([format!("Map {m}"), name.clone()]);
                    }
                }
            }
            JobDag {
                name: format!("query{}", q + 1),
                last_run_secs: None,
                vertices,
                edges,
            }
        })
        .collect()
}
