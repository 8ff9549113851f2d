//! Only confirmed advice: whether the tuner's recommendation is worth a
//! change of the cluster's configuration.
//!
//! Algorithm 1's estimate ranks the grid, but it is an estimate: on the
//! studio's demo it recommends `0.667/0.333`, 1.1 % better than the current
//! `0.5/0.5`, while the event-driven simulation of the same jobs says the
//! recommendation is 2 % *slower*. A planner who follows an estimate the
//! simulation contradicts changes a production scheduler for nothing, so a
//! change is advised only when the simulation confirms a gain larger than
//! the estimator's tie tolerance ([`TIE_TOLERANCE`]); otherwise the current
//! configuration is kept, and both figures are shown so the planner sees
//! why. This one function decides; the studio, the CLI and the report only
//! display its [`Advice`].

use super::error::TuneError;
use super::latency::compare;
use super::model::{Cluster, GroupConfig, TuneJob};
use super::panel::simulated_latency;
use super::rules::RuleSet;
use super::search::{identical_config, Candidate, TIE_TOLERANCE};
use super::tune::{GroupResult, TuneParams};
use serde::{Deserialize, Serialize};

/// What to do with the recommendation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The estimate itself keeps the current configuration (it is the best,
    /// or ties with it): nothing to change.
    #[default]
    Current,
    /// The simulation confirms the estimated gain: change to the
    /// recommendation.
    Confirmed,
    /// The estimate recommends a change the simulation does not confirm
    /// (slower, or within the tie tolerance): keep the current
    /// configuration.
    Unconfirmed,
}

impl Verdict {
    /// Whether the configuration should change.
    pub fn change(self) -> bool {
        self == Verdict::Confirmed
    }

    /// One sentence for a planner (the CLI and the report print it).
    pub fn sentence(self) -> &'static str {
        match self {
            Verdict::Current => "keep the current configuration: the estimate finds nothing better",
            Verdict::Confirmed => "change to the recommendation: the simulation confirms its gain",
            Verdict::Unconfirmed => {
                "keep the current configuration: the simulation does not confirm the estimated gain"
            }
        }
    }
}

/// The recommendation against the current configuration, estimated and
/// simulated, and the verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    /// Algorithm 1's mean latency of the recommendation, seconds.
    pub estimated_best_secs: f64,
    /// The same of the current configuration.
    pub estimated_current_secs: f64,
    /// The simulation's mean latency of the recommendation (mean of the
    /// seeded runs), seconds.
    pub simulated_best_secs: f64,
    /// The same of the current configuration.
    pub simulated_current_secs: f64,
    /// What to do.
    pub verdict: Verdict,
}

impl Advice {
    /// Decides from the four figures. `estimate_keeps_current` is the
    /// search's own answer that the current configuration is (or ties
    /// with) the best. A change is confirmed only when the simulated
    /// recommendation is faster than the current configuration by more
    /// than [`TIE_TOLERANCE`]; a non-finite figure (a configuration that
    /// never finishes) confirms nothing.
    pub fn decide(
        estimated_best_secs: f64,
        estimated_current_secs: f64,
        simulated_best_secs: f64,
        simulated_current_secs: f64,
        estimate_keeps_current: bool,
    ) -> Self {
        let confirmed = simulated_best_secs.is_finite()
            && simulated_current_secs.is_finite()
            && simulated_best_secs < simulated_current_secs * (1.0 - TIE_TOLERANCE);
        let verdict = if estimate_keeps_current {
            Verdict::Current
        } else if confirmed {
            Verdict::Confirmed
        } else {
            Verdict::Unconfirmed
        };
        Advice {
            estimated_best_secs,
            estimated_current_secs,
            simulated_best_secs,
            simulated_current_secs,
            verdict,
        }
    }

    /// The estimated gain of the recommendation over the current
    /// configuration, `1 − best / current` (negative: slower).
    pub fn estimated_gain(&self) -> f64 {
        gain(self.estimated_best_secs, self.estimated_current_secs)
    }

    /// The simulated gain, `1 − best / current`.
    pub fn simulated_gain(&self) -> f64 {
        gain(self.simulated_best_secs, self.simulated_current_secs)
    }
}

fn gain(best: f64, current: f64) -> f64 {
    if current > 0.0 && current.is_finite() {
        1.0 - best / current
    } else {
        0.0
    }
}

/// The advice on one group: `current` estimated by Algorithm 1 under
/// `rules_of` its configuration, the recommended candidate `best` (with its
/// estimate) and `current` both simulated from `seed` (the mean of the
/// panel's seeded runs), and the verdict. `kept_current` is the search's
/// own tie rule; a recommendation identical to `current` (the same
/// shares and limits, [`identical_config`]) keeps it too.
pub fn advise(
    jobs: &[TuneJob],
    cluster: &Cluster,
    current: &GroupConfig,
    best: &Candidate,
    kept_current: bool,
    rules_of: &dyn Fn(&GroupConfig) -> RuleSet,
    seed: u64,
) -> Result<Advice, TuneError> {
    let estimated_current = compare(jobs, cluster, current, rules_of(current))?.mean_latency_secs;
    let simulated_best = simulated_latency(jobs, cluster, &best.config, seed)?;
    let simulated_current = simulated_latency(jobs, cluster, current, seed)?;
    Ok(Advice::decide(
        best.latency_secs,
        estimated_current,
        simulated_best,
        simulated_current,
        // Only the very configuration in force is "nothing to change": a
        // grid point with the same shares but other limits (the grid's
        // user-limit factor) is a change, and the simulation decides it.
        kept_current || identical_config(&best.config, current),
    ))
}

/// [`advise`] on one group of a tuning pass run with `params`: its
/// containers on `params.per_machine` a machine, its search's
/// recommendation and tie rule, the rules `params` estimates with — what
/// the studio, `skyplan tune` and the report each show.
pub fn advise_group(
    jobs: &[TuneJob],
    group: &GroupResult,
    current: &GroupConfig,
    params: &TuneParams,
    seed: u64,
) -> Result<Advice, TuneError> {
    let cluster = Cluster::of(group.containers, params.per_machine);
    let rules = |c: &GroupConfig| RuleSet::for_config(c, params.constraint, params.exec);
    advise(
        jobs,
        &cluster,
        current,
        group.search.best(),
        group.search.kept_current,
        &rules,
        seed,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::model::{Policy, SchedulerKind};
    use crate::tuning::panel::equal_queues;
    use crate::tuning::rules::{ConstraintRule, ExecRule};
    use crate::tuning::search::Point;
    use crate::tuning::simulate::{simulate, SimParams};
    use crate::tuning::workload::google_like_mix;

    #[test]
    fn the_demos_case_keeps_the_current_configuration() {
        // The demo's figures: estimated 1.1 % better, simulated 2 % slower.
        let a = Advice::decide(79.1, 80.0, 81.6, 80.0, false);
        assert_eq!(a.verdict, Verdict::Unconfirmed);
        assert!(!a.verdict.change());
        assert!(a.estimated_gain() > 0.0 && a.simulated_gain() < 0.0);
        // A simulated gain inside the tie tolerance confirms nothing.
        assert_eq!(
            Advice::decide(70.0, 80.0, 79.5, 80.0, false).verdict,
            Verdict::Unconfirmed
        );
        // Nor does a recommendation that never finishes.
        assert_eq!(
            Advice::decide(70.0, 80.0, f64::INFINITY, 80.0, false).verdict,
            Verdict::Unconfirmed
        );
    }

    #[test]
    fn an_agreeing_simulation_confirms_the_change() {
        let a = Advice::decide(60.0, 80.0, 62.0, 81.0, false);
        assert_eq!(a.verdict, Verdict::Confirmed);
        assert!(a.verdict.change());
        assert!((a.simulated_gain() - (1.0 - 62.0 / 81.0)).abs() < 1e-12);
        // The estimate keeping the current configuration is not a change,
        // whatever the simulation says.
        assert_eq!(
            Advice::decide(60.0, 60.0, 50.0, 80.0, true).verdict,
            Verdict::Current
        );
    }

    fn candidate(config: GroupConfig) -> Candidate {
        Candidate {
            point: Point {
                shares: Vec::new(),
                policy: Policy::Fifo,
            },
            config,
            latency_secs: 1.0,
        }
    }

    /// `advise` against the simulation run directly: its figures are the
    /// seeded runs' means and its verdict the rule's on them, for every
    /// candidate of a contended mix (some confirmed, some not).
    #[test]
    fn advise_is_the_rule_on_the_simulated_means() {
        let jobs = google_like_mix(11, 10, 2, 2, 60.0, 0.0);
        let cluster = Cluster::of(8, 4);
        let current = equal_queues(SchedulerKind::Capacity, 2);
        let rules = |c: &GroupConfig| {
            RuleSet::for_config(c, ConstraintRule::LimitsAndPlacement, ExecRule::Algorithm2)
        };
        let mean_sim = |c: &GroupConfig| {
            let runs: Vec<f64> = (0..super::super::panel::SIM_RUNS)
                .map(|k| {
                    let p = SimParams {
                        seed: 3 + k,
                        ..SimParams::default()
                    };
                    simulate(&jobs, &cluster, c, &p)
                        .expect("sim")
                        .mean_latency_secs
                })
                .collect();
            runs.iter().sum::<f64>() / runs.len() as f64
        };
        let sim_current = mean_sim(&current);
        for share in [0.2, 0.4, 0.8] {
            let mut config = current.clone();
            config.queues[0].share = share;
            config.queues[1].share = 1.0 - share;
            let best = candidate(config);
            let a = advise(&jobs, &cluster, &current, &best, false, &rules, 3).expect("advice");
            let sim_best = mean_sim(&best.config);
            assert!((a.simulated_best_secs - sim_best).abs() < 1e-9);
            assert!((a.simulated_current_secs - sim_current).abs() < 1e-9);
            let expected = if sim_best < sim_current * (1.0 - TIE_TOLERANCE) {
                Verdict::Confirmed
            } else {
                Verdict::Unconfirmed
            };
            assert_eq!(a.verdict, expected, "share {share}");
        }
        // The current configuration recommended is kept.
        let same = advise(
            &jobs,
            &cluster,
            &current,
            &candidate(current.clone()),
            false,
            &rules,
            3,
        )
        .expect("advice");
        assert_eq!(same.verdict, Verdict::Current);
    }
}
