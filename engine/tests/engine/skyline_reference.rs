//! The skyline LP optimum against HiGHS (scipy), an independent solver: the
//! optima in `data/skyline_lp_highs.json` were computed once by
//! `data/skyline_lp_highs.py` on the LP as the paper writes it.

use skyplan_engine::resource_model::{flow, SkylineLp};

#[test]
fn flow_and_simplex_match_highs() {
    let text = include_str!("../data/skyline_lp_highs.json");
    let doc: serde_json::Value = serde_json::from_str(text).expect("reference JSON");
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= 20);
    for (i, c) in cases.iter().enumerate() {
        let rows: Vec<Vec<f64>> = c["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap())
                    .collect()
            })
            .collect();
        let lp = SkylineLp {
            rows,
            alpha: c["alpha"].as_f64().unwrap(),
            beta: c["beta"].as_f64().unwrap(),
            lo: c["lo"].as_f64().unwrap(),
            hi: c["hi"].as_f64().unwrap_or(f64::INFINITY),
        };
        let want = c["objective"].as_f64().unwrap();
        let tol = 1e-6 * want.abs().max(1.0);
        let f = flow::solve(&lp).unwrap();
        let got = lp.evaluate(&f.skyline).total;
        assert!(
            (got - want).abs() <= tol,
            "case {i}: flow {got} vs HiGHS {want}"
        );
        assert!(
            (f.lower_bound - want).abs() <= tol,
            "case {i}: dual bound {} vs HiGHS {want}",
            f.lower_bound
        );
        let s = lp.solve_simplex().unwrap();
        let got = lp.evaluate(&s).total;
        assert!(
            (got - want).abs() <= tol,
            "case {i}: minilp {got} vs HiGHS {want}"
        );
    }
}
