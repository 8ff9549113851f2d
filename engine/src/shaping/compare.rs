//! Figure 2: the reservation baseline against the optimistic and the
//! pessimistic policy on one workload and one forecaster (the paper uses
//! the oracle), as box plots of turnaround and slack per application.

use super::error::ShapingError;
use super::metrics::{BoxStats, RunSummary};
use super::model::Workload;
use super::params::{Params, Policy};
use super::predictor::AppForecast;
use super::run::{run, RunSetup};
use super::scenario::Scenario;
use super::simulate::pick_timeline_app;
use serde::{Deserialize, Serialize};

/// One policy's box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyBox {
    /// The policy.
    pub policy: Policy,
    /// Its summary.
    pub summary: RunSummary,
    /// Turnaround per completed application (s).
    pub turnaround: BoxStats,
    /// CPU slack per application (%).
    pub slack_cpu: BoxStats,
    /// Memory slack per application (%).
    pub slack_mem: BoxStats,
}

/// The three policies side by side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyComparison {
    /// Baseline, optimistic, pessimistic.
    pub policies: Vec<PolicyBox>,
}

/// Runs every policy on `w` with `params`' forecaster, K1 and K2;
/// `progress(done, total)` counts runs.
pub fn compare_policies(
    w: &Workload,
    params: &Params,
    mut progress: impl FnMut(usize, usize),
) -> Result<PolicyComparison, ShapingError> {
    let scenario = Scenario::new(w, params)?.forecast(&mut |_| {});
    let total = Policy::ALL.len() + 1;
    progress(1, total);
    compare_scenario(&scenario, |d, _| progress(d + 1, total))
}

/// [`compare_policies`] on forecasts already computed by
/// [`prepare_forecasts`](super::prepare_forecasts) (`params.predictor`'s;
/// empty for the oracle), as the studio keeps them after a simulation;
/// `progress(done, total)` counts runs.
pub fn compare_policies_with(
    w: &Workload,
    params: &Params,
    forecasts: &[AppForecast],
    progress: impl FnMut(usize, usize),
) -> Result<PolicyComparison, ShapingError> {
    let scenario = Scenario::new(w, params)?.with_forecasts(forecasts)?;
    compare_scenario(&scenario, progress)
}

/// Every policy on `scenario`, with its forecaster, K1 and K2.
fn compare_scenario(
    scenario: &Scenario<'_>,
    mut progress: impl FnMut(usize, usize),
) -> Result<PolicyComparison, ShapingError> {
    let params = scenario.params();
    let timeline_app = pick_timeline_app(scenario.workload(), params)?;
    let total = Policy::ALL.len();
    let mut policies = Vec::new();
    for (k, policy) in Policy::ALL.into_iter().enumerate() {
        let r = run(
            &RunSetup::from_params(scenario, policy, timeline_app, false),
            &mut |_| {},
        );
        policies.push(PolicyBox {
            policy,
            summary: r.summary,
            turnaround: r.turnaround,
            slack_cpu: r.slack_cpu,
            slack_mem: r.slack_mem,
        });
        progress(k + 1, total);
    }
    Ok(PolicyComparison { policies })
}
