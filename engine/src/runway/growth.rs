//! Demand growth a day ahead as factors of today's demand, P10/P50/P90,
//! one curve per limit: a resource's utilization follows its own fitted
//! band, the agenda and the queue follow the CPU's (the workload grows as
//! its CPU demand does); growth set by hand is the same for all and has no
//! interval; steps (a new tenant of N cores from a date) add N over
//! today's peak CPU demand in cores from their day on.

use super::cluster::Cluster;
use super::demand::{day_index, Demand};
use super::error::RunwayError;
use super::limit::Limit;
use super::params::{Growth, RunwayParams, DAYS_PER_MONTH};
use super::peaks::DailyPeaks;
use super::scale::ScaleChoice;
use super::season::SeasonChoice;
use super::trend::{fitted_band, level_now, Band, Evidence};
use crate::model::Resource;
use serde::{Deserialize, Serialize};

/// Growth factors a day ahead, index 0 = today (1.0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GrowthCurve {
    /// Demand's 10th percentile (the late dates).
    pub p10: Vec<f64>,
    /// Its median.
    pub p50: Vec<f64>,
    /// Its 90th percentile (the early dates).
    pub p90: Vec<f64>,
    /// The model, in a few words.
    pub model: String,
    /// What a fitted model saw (`None` for growth set by hand).
    pub evidence: Option<Evidence>,
}

/// The three quantiles of a curve, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quantile {
    /// 10th percentile of demand.
    P10,
    /// Median.
    P50,
    /// 90th percentile of demand.
    P90,
}

impl GrowthCurve {
    /// The factors of quantile `q`.
    pub fn of(&self, q: Quantile) -> &[f64] {
        match q {
            Quantile::P10 => &self.p10,
            Quantile::P50 => &self.p50,
            Quantile::P90 => &self.p90,
        }
    }

    fn from_band(band: Band, level: f64, evidence: Evidence) -> GrowthCurve {
        let rel = |v: Vec<f64>| -> Vec<f64> {
            let mut out: Vec<f64> = v.iter().map(|x| (x / level).max(0.0)).collect();
            out[0] = 1.0;
            out
        };
        GrowthCurve {
            p10: rel(band.p10),
            p50: rel(band.p50),
            p90: rel(band.p90),
            model: band.model,
            evidence: Some(evidence),
        }
    }

    fn monthly(percent: f64, days: usize) -> GrowthCurve {
        let f: Vec<f64> = (0..=days)
            .map(|d| (1.0 + percent / 100.0).powf(d as f64 / DAYS_PER_MONTH))
            .collect();
        GrowthCurve {
            p10: f.clone(),
            p50: f.clone(),
            p90: f,
            model: format!("set by hand: {percent:+} % a month, compounded (no interval)"),
            evidence: None,
        }
    }
}

/// The fitted curve of one resource's peaks.
fn fitted(
    peaks: &DailyPeaks,
    days: usize,
    season: SeasonChoice,
    scale: ScaleChoice,
) -> Result<GrowthCurve, RunwayError> {
    let name = peaks.resource.to_string();
    let band = fitted_band(&peaks.peaks, days, &name, season, scale, 1.0)?;
    let level = level_now(&peaks.peaks).unwrap_or(0.0);
    if level <= 0.0 {
        return Ok(GrowthCurve {
            evidence: Some(Evidence::of(&peaks.peaks)),
            ..GrowthCurve::monthly(0.0, days)
        });
    }
    Ok(GrowthCurve::from_band(
        band,
        level,
        Evidence::of(&peaks.peaks),
    ))
}

/// The series the workload's growth is read from: the CPU's, else the
/// first resource's.
fn workload_peaks(demand: &Demand) -> Option<&DailyPeaks> {
    demand
        .utilization
        .iter()
        .find(|p| p.resource == Resource::Cpu)
        .or_else(|| demand.utilization.first())
}

/// One growth curve per limit, `params.horizon_days` ahead, steps added.
pub fn curves(
    demand: &Demand,
    cluster: &Cluster,
    limits: &[Limit],
    params: &RunwayParams,
) -> Result<Vec<GrowthCurve>, RunwayError> {
    let days = params.horizon_days as usize;
    let workload = || -> Result<GrowthCurve, RunwayError> {
        match &params.growth {
            Growth::Monthly { percent } => Ok(GrowthCurve::monthly(*percent, days)),
            Growth::Fitted => match workload_peaks(demand) {
                Some(p) => fitted(p, days, params.season, params.scale),
                None => Err(RunwayError::param(
                    "growth",
                    "a fitted growth needs a utilization series to fit on; set it by hand (% a month)",
                )),
            },
        }
    };
    let mut out = Vec::with_capacity(limits.len());
    let mut shared: Option<GrowthCurve> = None;
    for limit in limits {
        let curve = match (limit, &params.growth) {
            (Limit::Utilization { resource, .. }, Growth::Fitted) => {
                match demand.utilization.iter().find(|p| &p.resource == resource) {
                    Some(p) => fitted(p, days, params.season, params.scale)?,
                    None => workload()?,
                }
            }
            _ => match &shared {
                Some(c) => c.clone(),
                None => {
                    let c = workload()?;
                    shared = Some(c.clone());
                    c
                }
            },
        };
        out.push(curve);
    }
    if !params.steps.is_empty() {
        let level = workload_peaks(demand).and_then(|p| level_now(&p.peaks));
        let (Some(level), Some(cores)) = (level, cluster.cores) else {
            return Err(RunwayError::param(
                "step",
                "a step in cores is compared with today's peak CPU demand in cores, which needs a CPU utilization series and the agenda's capacity",
            ));
        };
        let today_cores = level * cores;
        if today_cores <= 0.0 {
            return Err(RunwayError::param("step", "today's CPU demand is zero"));
        }
        for curve in &mut out {
            for s in &params.steps {
                let from = day_index(demand.today, s.from);
                for v in [&mut curve.p10, &mut curve.p50, &mut curve.p90] {
                    for x in v.iter_mut().skip(from.max(1)) {
                        *x = (*x + s.cores / today_cores).max(0.0);
                    }
                }
            }
            curve.model.push_str(&format!(
                "; {} step(s) in demand (cores over today's peak of {today_cores:.1})",
                params.steps.len()
            ));
        }
    }
    Ok(out)
}
