//! Property tests of the §6.3 simulation's edge: whatever the settings, it
//! returns a report or a typed error and never panics (the studio runs it
//! in a Web Worker on user input); with exact estimates MRM is never late.

use proptest::prelude::*;
use skyplan_engine::pricing::{simulate, Arrivals, Durations, Policy, SimParams};

fn odd_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(-1.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(1e-300),
        Just(1e12),
        0.0..5.0f64,
        0.5..500.0f64,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn never_panics(
        jobs in 0usize..300,
        gap in odd_f64(),
        alpha in odd_f64(),
        kappa in odd_f64(),
        ds_share in odd_f64(),
        error_share in odd_f64(),
        durations in proptest::collection::vec(odd_f64(), 0..6),
        trace in proptest::option::of(proptest::collection::vec(odd_f64(), 0..40)),
        seed in any::<u64>(),
    ) {
        let p = SimParams {
            jobs,
            arrivals: match trace {
                Some(times) => Arrivals::Trace { times },
                None => Arrivals::Poisson { mean_interarrival_secs: gap },
            },
            alpha,
            kappa,
            ds_share,
            error_share,
            durations: Durations::List { secs: durations },
            seed,
            ..SimParams::default()
        };
        if let Ok(r) = simulate(&p) {
            prop_assert_eq!(r.policies.len(), 3);
            for pol in &r.policies {
                let all = pol.tardy_percent.all.unwrap();
                prop_assert!((0.0..=100.0).contains(&all));
            }
        }
    }

    #[test]
    fn exact_estimates_are_never_late(
        times in proptest::collection::vec(0.0..2_000.0f64, 1..60),
        durations in proptest::collection::vec(0.01..300.0f64, 1..8),
        alpha in 1.0..5.0f64,
        kappa in 1.0..5.0f64,
        seed in any::<u64>(),
    ) {
        let mut times = times;
        times.sort_by(f64::total_cmp);
        let p = SimParams {
            arrivals: Arrivals::Trace { times },
            alpha,
            kappa,
            error_share: 0.0,
            durations: Durations::List { secs: durations },
            seed,
            ..SimParams::default()
        };
        let r = simulate(&p).unwrap();
        for pol in [Policy::Mrm, Policy::Fcfs] {
            let rep = r.policies.iter().find(|x| x.policy == pol).unwrap();
            prop_assert_eq!(rep.tardy_percent.all, Some(0.0), "{:?}", pol);
        }
    }
}
