//! Aligning and quantizing a job's history runs (Morpheus §5): start times
//! aligned, time cut into fixed steps, one row of container counts per run,
//! padded with zeros to the longest run.

use super::params::{ModelError, Variant};
use crate::model::{JobRun, Skyline};

/// Runs of one job on a common step: `rows[i][k]` is the containers run `i`
/// used in step `k`.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    /// Step, seconds.
    pub step_secs: u32,
    /// One row per run, all of length `steps`.
    pub rows: Vec<Vec<f64>>,
    /// Instance ids, one per row.
    pub instances: Vec<String>,
    /// Instances left out because their skyline is all zeros.
    pub dropped: Vec<String>,
}

impl History {
    /// Number of steps `K`.
    pub fn steps(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }
}

/// Re-samples a skyline on `step`: the paper averages the containers used in
/// each step; Hadoop's ResourceEstimator takes the largest count seen in the
/// interval (`SolverPreprocessor.getDiscreteSkyline`).
pub fn quantize(skyline: &Skyline, step: u32, variant: Variant) -> Vec<f64> {
    match variant {
        Variant::Paper => skyline.resample(step).containers,
        Variant::Hadoop => {
            let src = i64::from(skyline.step_secs.max(1));
            let dst = i64::from(step.max(1));
            let len = (skyline.duration_secs() + dst - 1) / dst;
            let mut out = vec![0.0f64; len as usize];
            for (i, &c) in skyline.containers.iter().enumerate() {
                let (lo, hi) = (i as i64 * src, (i as i64 + 1) * src);
                for j in lo / dst..=((hi - 1) / dst) {
                    let slot = &mut out[j as usize];
                    *slot = slot.max(c);
                }
            }
            out
        }
    }
}

/// Builds the history matrix of `runs` on `step` seconds.
pub fn build(runs: &[&JobRun], step: u32, variant: Variant) -> Result<History, ModelError> {
    if runs.is_empty() {
        return Err(ModelError::EmptyHistory);
    }
    let mut rows = Vec::new();
    let mut instances = Vec::new();
    let mut dropped = Vec::new();
    for r in runs {
        if r.skyline.step_secs == 0 {
            return Err(ModelError::BadRun {
                instance: r.instance.clone(),
                why: "skyline step is 0".into(),
            });
        }
        if let Some(bad) = r
            .skyline
            .containers
            .iter()
            .find(|c| !c.is_finite() || **c < 0.0)
        {
            return Err(ModelError::BadRun {
                instance: r.instance.clone(),
                why: format!("skyline sample {bad} is not a non-negative number"),
            });
        }
        let row = quantize(&r.skyline, step, variant);
        if row.iter().all(|&c| c == 0.0) {
            dropped.push(r.instance.clone());
            continue;
        }
        rows.push(row);
        instances.push(r.instance.clone());
    }
    if rows.is_empty() {
        return Err(ModelError::AllZero);
    }
    let k = rows.iter().map(Vec::len).max().unwrap_or(0);
    const MAX_CELLS: usize = 20_000_000;
    if k.saturating_mul(rows.len()) > MAX_CELLS {
        return Err(ModelError::TooLarge {
            runs: rows.len(),
            steps: k,
        });
    }
    for row in &mut rows {
        row.resize(k, 0.0);
    }
    Ok(History {
        step_secs: step,
        rows,
        instances,
        dropped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_averages_hadoop_takes_max() {
        let s = Skyline::new(5, vec![1.0, 3.0, 2.0, 6.0, 4.0]);
        assert_eq!(quantize(&s, 10, Variant::Paper), vec![2.0, 4.0, 2.0]);
        assert_eq!(quantize(&s, 10, Variant::Hadoop), vec![3.0, 6.0, 4.0]);
        assert_eq!(quantize(&s, 5, Variant::Hadoop), s.containers);
    }
}
