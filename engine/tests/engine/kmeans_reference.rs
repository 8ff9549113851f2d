//! K-Means against scikit-learn: `data/kmeans_reference.py` ran
//! `KMeans(init=centres, n_init=1, algorithm="lloyd", tol)` on the same
//! data from the same initial centres and recorded its labels, centres
//! and inertia in `data/kmeans_reference.json`: strict convergence
//! (`tol = 0`), the default `tol = 1e-4` stopping before it, and a centre
//! left without points (scikit-learn's relocation).

use skyplan_engine::harvest::lloyd;

use crate::support::{matrix, reference};

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
        let labels: Vec<usize> = c["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(r.labels, labels, "{name}: labels");
        let want = c["inertia"].as_f64().unwrap();
        assert!(
            (r.inertia - want).abs() <= 1e-9 * want,
            "{name}: inertia {} vs scikit-learn {want}",
            r.inertia
        );
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
