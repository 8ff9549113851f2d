//! What the reference tests share (`crate::support`): reading the
//! values a reference implementation recorded in `data/*.json`, and
//! comparing skyplan's within a tolerance.
#![allow(dead_code)]

use serde_json::Value;

/// A recorded JSON document (the text of `data/*.json`).
pub fn reference(json: &str) -> Value {
    serde_json::from_str(json).expect("reference JSON")
}

/// A number.
pub fn num(v: &Value) -> f64 {
    v.as_f64().expect("number")
}

/// An array of numbers.
pub fn vector(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(num).collect()
}

/// An array of arrays of numbers.
pub fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().expect("array").iter().map(vector).collect()
}

/// `|got − want| ≤ rel · max(|want|, floor)`: relative, and absolute near 0
/// (a quantile at p = 0.5000001 is 2.5e-7 and only known to ~1e-17).
pub fn close(got: f64, want: f64, rel: f64, floor: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs().max(floor),
        "{what}: skyplan {got} vs reference {want}"
    );
}
