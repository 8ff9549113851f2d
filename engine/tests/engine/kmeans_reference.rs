//! K-Means against scikit-learn: `data/kmeans_reference.py` ran
//! `KMeans(init=centres, n_init=1, algorithm="lloyd", tol)` on the same
//! data from the same initial centres and recorded its labels, centres
//! and inertia in `data/kmeans_reference.json`: strict convergence
//! (`tol = 0`), the default `tol = 1e-4` stopping before it, and a centre
//! left without points (scikit-learn's relocation).

use skyplan_engine::harvest::{lloyd, KMeansResult};

use crate::support::{matrix, reference};

/// Asserts `r` has scikit-learn's labels (`want["labels"]`) and inertia
/// (`want["inertia"]`, to 1e-9 relative).
fn same_clustering(name: &str, r: &KMeansResult, want: &serde_json::Value) {
    let labels: Vec<usize> = want["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(r.labels, labels, "{name}: labels");
    let inertia = want["inertia"].as_f64().unwrap();
    assert!(
        (r.inertia - inertia).abs() <= 1e-9 * inertia,
        "{name}: inertia {} vs scikit-learn {inertia}",
        r.inertia
    );
}

#[test]
fn lloyd_matches_scikit_learn() {
    let doc = reference(include_str!("../data/kmeans_reference.json"));
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 5);
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let data = matrix(&c["data"]);
        let init = matrix(&c["init"]);
        let tol = c["tol"].as_f64().unwrap();
        let r = lloyd(&data, &init, 300, tol).unwrap();
        same_clustering(name, &r, c);
        for (got, want) in r.centres.iter().zip(matrix(&c["centres"])) {
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-9 * w.abs().max(1.0),
                    "{name}: centre {g} vs {w}"
                );
            }
        }
    }
}

/// Whole fits, seeding included: `KMeans(k, n_init=3, random_state=7)` on
/// three of the cases' data. skyplan draws numpy's `RandomState` stream as
/// scikit-learn does, so the partition is scikit-learn's label for label.
#[test]
fn seeded_fits_are_scikit_learns() {
    use skyplan_engine::harvest::tenants::kmeans::{search_all, KMeansParams, Points, Search};
    let doc = reference(include_str!("../data/kmeans_reference.json"));
    let cases = doc["cases"].as_array().unwrap();
    let seeded = doc["seeded"].as_array().unwrap();
    assert_eq!(seeded.len(), 3);
    for s in seeded {
        let case = &cases[s["case"].as_u64().unwrap() as usize];
        let name = case["name"].as_str().unwrap();
        let points = Points::new(&matrix(&case["data"])).unwrap();
        let k = s["k"].as_u64().unwrap() as usize;
        let params = KMeansParams {
            n_init: s["n_init"].as_u64().unwrap() as usize,
            ..KMeansParams::default()
        };
        let search = Search {
            points: &points,
            k: Some(k),
            seed: s["seed"].as_u64().unwrap() as u32,
        };
        let found = search_all(&[search], 1, 0.0, &params).unwrap();
        let r = &found[0].result;
        same_clustering(&format!("{name}, k {k}"), r, s);
    }
}
