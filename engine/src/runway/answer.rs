//! The runway as it is answered: each limit's P10/P50/P90 date, the
//! binding limit, the purchase schedules (P50 and P90) and what a chart of
//! it draws. Plain data, the same for the CLI's JSON, the panel and the
//! report.

use super::cluster::Cluster;
use super::growth::Quantile;
use super::trend::Evidence;
use crate::model::Timestamp;
use serde::{Deserialize, Serialize};

/// One limit's runway.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitRunway {
    /// Its name (`cpu utilization`, `agenda`, `pricing queue`).
    pub name: String,
    /// What it is, in a sentence.
    pub description: String,
    /// The date demand's 90th percentile reaches it (the early date), or
    /// `None` beyond the horizon.
    pub p10: Option<Timestamp>,
    /// The date the median demand reaches it.
    pub p50: Option<Timestamp>,
    /// The date demand's 10th percentile reaches it (the late date).
    pub p90: Option<Timestamp>,
    /// The largest growth of today's demand the cluster meets (∞ when it
    /// never binds: serialized as `null`).
    pub largest_growth: Option<f64>,
    /// Whether a date lies further out than the history supports.
    pub extrapolated: bool,
    /// The growth model, in a few words.
    pub model: String,
}

/// Machines to add by a date.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Purchase {
    /// 00:00 UTC of the day they must be in.
    pub date: Timestamp,
    /// How many.
    pub machines: u32,
}

/// The fewest machines that keep every limit to the purchase horizon,
/// each bought as late as it can be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PurchasePlan {
    /// Which demand it is planned for (P50: the median; P90: the 90th
    /// percentile, the cautious plan).
    pub quantile: Quantile,
    /// The purchases, by date.
    pub purchases: Vec<Purchase>,
    /// Machines in all.
    pub total: u32,
    /// When no number of machines up to the cap keeps a limit: which, from
    /// when.
    pub unmet: Option<String>,
}

/// One day of the chart: demand against capacity, in growth factors of
/// today's demand, for the binding limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartDay {
    /// 00:00 UTC of the day.
    pub date: Timestamp,
    /// Demand's 10th percentile.
    pub p10: f64,
    /// Its median.
    pub p50: f64,
    /// Its 90th percentile.
    pub p90: f64,
    /// The most the cluster meets today (`None`: never binds).
    pub capacity_today: Option<f64>,
    /// The most it meets after the P50 plan's purchases so far.
    pub capacity_planned: Option<f64>,
}

/// The runway before its purchases are planned: each limit's dates, the
/// binding limit and its demand against today's capacity. It needs one
/// re-planned size per limit where the purchase plans need one a machine
/// added, so a panel shows it while those are still being re-planned;
/// every field is the one the [`Runway`] under the same settings has,
/// but for the chart's `capacity_planned`, not known yet (`None`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outlook {
    /// 00:00 UTC of today (the last day of history).
    pub today: Timestamp,
    /// Days looked ahead.
    pub horizon_days: u32,
    /// The limit reached first, as [`Runway::binding`].
    pub binding: Option<String>,
    /// Every limit.
    pub limits: Vec<LimitRunway>,
    /// The cluster and the machine added.
    pub cluster: Cluster,
    /// What the fitted growth saw (`None`: growth set by hand).
    pub evidence: Option<Evidence>,
    /// The binding limit's demand and today's capacity, a day at a time.
    pub chart: Vec<ChartDay>,
    /// What the reader must know (extrapolation, limits already reached).
    pub notes: Vec<String>,
}

/// The runway.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Runway {
    /// 00:00 UTC of today (the last day of history).
    pub today: Timestamp,
    /// Days looked ahead.
    pub horizon_days: u32,
    /// The limit reached first (by its P50 date, then its P10 date), or
    /// `None` when none is reached within the horizon.
    pub binding: Option<String>,
    /// Every limit.
    pub limits: Vec<LimitRunway>,
    /// The median plan.
    pub purchases: PurchasePlan,
    /// The cautious plan.
    pub purchases_p90: PurchasePlan,
    /// The cluster and the machine added.
    pub cluster: Cluster,
    /// What the fitted growth saw (`None`: growth set by hand).
    pub evidence: Option<Evidence>,
    /// The binding limit's demand and capacity, a day at a time.
    pub chart: Vec<ChartDay>,
    /// What the reader must know (extrapolation, limits already reached).
    pub notes: Vec<String>,
}

impl Runway {
    /// Its outlook: what it says before the purchases, the chart as it is
    /// (after the purchases).
    pub fn outlook(&self) -> Outlook {
        Outlook {
            today: self.today,
            horizon_days: self.horizon_days,
            binding: self.binding.clone(),
            limits: self.limits.clone(),
            cluster: self.cluster.clone(),
            evidence: self.evidence.clone(),
            chart: self.chart.clone(),
            notes: self.notes.clone(),
        }
    }
}
