//! Where RM-H puts a container whose request names no class: every task of
//! YARN-PT (stock Tez names none) and YARN-H's tasks when Algorithm 1
//! picks no class. §5.1: "RM-H schedules a container to a heartbeating
//! server of the correct class with a probability proportional to the
//! server's available resources. If Tez-H does not name a label, RM-H
//! selects destination servers using its default policy." The rule ∝
//! available resources is stated for labelled requests only; what "its
//! default policy" is, the paper does not say. Three readings, each a
//! [`DefaultPlacement`]:
//!
//! - **heartbeat** (the default): stock YARN's. The RM hands containers
//!   to servers as they heartbeat, and Hadoop 2.x's Capacity Scheduler
//!   gives a heartbeating server at most one container without locality
//!   ("off-switch") per heartbeat; the Fair Scheduler gives one of any kind
//!   unless `assignmultiple` is set. Our tasks carry no data locality, so
//!   each container goes to a server with a free core, every such server
//!   alike, however much room it has.
//! - **proportional**: RM-H's label rule applied to every server, ∝ free
//!   cores — the reading this simulation used first. It spreads the batch
//!   work as evenly as any rule can, a rule the paper states only for
//!   labelled requests.
//! - **fill**: the heartbeating server is given containers until it has no
//!   free core (several assignments per heartbeat, as the Capacity
//!   Scheduler makes for node-local requests), then the next one.
//!
//! The readings differ in how full they leave servers, and a primary
//! tenant's rise kills only on a full server: BENCHMARKS.md measures all
//! three.

use super::free_cores::FreeCores;
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

/// RM-H's default policy: how a container whose request names no class
/// finds its server (see the module's notes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DefaultPlacement {
    /// One container per server heartbeat: any server with a free core,
    /// uniformly (stock YARN 2.x without locality).
    #[default]
    Heartbeat,
    /// ∝ the servers' free cores (RM-H's label rule, over all servers).
    Proportional,
    /// A server with a free core drawn uniformly and filled before the
    /// next is drawn.
    Fill,
}

impl DefaultPlacement {
    /// Every reading, in the order above.
    pub const ALL: [DefaultPlacement; 3] = [
        DefaultPlacement::Heartbeat,
        DefaultPlacement::Proportional,
        DefaultPlacement::Fill,
    ];

    /// The name the command line and the JSON use.
    pub fn name(self) -> &'static str {
        match self {
            DefaultPlacement::Heartbeat => "heartbeat",
            DefaultPlacement::Proportional => "proportional",
            DefaultPlacement::Fill => "fill",
        }
    }

    /// The reading named `s` (as [`Self::name`] writes it).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// One run's default policy: the reading and, for `fill`, the server
/// being filled.
pub(super) struct DefaultPolicy {
    placement: DefaultPlacement,
    filling: Option<usize>,
}

impl DefaultPolicy {
    /// The policy of `placement`, nothing being filled yet.
    pub(super) fn new(placement: DefaultPlacement) -> Self {
        DefaultPolicy {
            placement,
            filling: None,
        }
    }

    /// The server of the next unlabelled container, drawing on `rng`;
    /// `None` when no server has a free core.
    pub(super) fn server(&mut self, free: &FreeCores, rng: &mut Rng) -> Option<usize> {
        let uniform = |rng: &mut Rng| {
            let n = free.with_room();
            (n > 0).then(|| free.find_room((rng.unit() * n as f64) as i64))
        };
        match self.placement {
            DefaultPlacement::Heartbeat => uniform(rng),
            DefaultPlacement::Proportional => {
                let total = free.total();
                (total > 0).then(|| free.find((rng.unit() * total as f64) as i64))
            }
            DefaultPlacement::Fill => {
                if let Some(s) = self.filling.filter(|&s| free.get(s) > 0) {
                    return Some(s);
                }
                // With no room anywhere the server being filled stays the
                // one to fill.
                let s = uniform(rng)?;
                self.filling = Some(s);
                Some(s)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DefaultPlacement, DefaultPolicy};
    use crate::harvest::cycles::free_cores::FreeCores;
    use crate::numerics::Rng;

    /// Draw counts per server over many draws from a fixed state.
    fn counts(placement: DefaultPlacement, free: &[i64], draws: usize) -> Vec<usize> {
        let class_of = vec![0; free.len()];
        let f = FreeCores::new(free, &class_of, 1);
        let mut policy = DefaultPolicy::new(placement);
        let mut rng = Rng::new(11);
        let mut n = vec![0; free.len()];
        for _ in 0..draws {
            if let Some(s) = policy.server(&f, &mut rng) {
                n[s] += 1;
            }
        }
        n
    }

    #[test]
    fn heartbeat_treats_every_server_with_room_alike_and_proportional_weighs_room() {
        let free = [0, 1, 6, 0, 3];
        let draws = 120_000;
        let hb = counts(DefaultPlacement::Heartbeat, &free, draws);
        let pr = counts(DefaultPlacement::Proportional, &free, draws);
        for s in 0..free.len() {
            let want_hb = if free[s] > 0 { draws as f64 / 3.0 } else { 0.0 };
            let want_pr = draws as f64 * free[s] as f64 / 10.0;
            // Binomial: within 5 standard deviations.
            for (got, want) in [(hb[s], want_hb), (pr[s], want_pr)] {
                let sd = (want * (1.0 - want / draws as f64)).sqrt();
                assert!(
                    (got as f64 - want).abs() <= 5.0 * sd + 1e-9,
                    "{s}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn fill_keeps_to_one_server_until_it_is_full() {
        let class_of = [0; 4];
        let mut free = vec![2, 0, 3, 1];
        let mut f = FreeCores::new(&free, &class_of, 1);
        let mut policy = DefaultPolicy::new(DefaultPlacement::Fill);
        let mut rng = Rng::new(3);
        let mut order = Vec::new();
        while let Some(s) = policy.server(&f, &mut rng) {
            order.push(s);
            free[s] -= 1;
            f.set(s, free[s]);
        }
        // Six containers; each server's run is unbroken and it is full after.
        assert_eq!(order.len(), 6);
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for &s in &order {
            match runs.last_mut() {
                Some((last, k)) if *last == s => *k += 1,
                _ => runs.push((s, 1)),
            }
        }
        let mut seen: Vec<(usize, usize)> = runs.clone();
        seen.sort();
        assert_eq!(seen, vec![(0, 2), (2, 3), (3, 1)], "{order:?}");
        assert!(free.iter().all(|&v| v == 0));
    }

    #[test]
    fn names_round_trip() {
        for p in DefaultPlacement::ALL {
            assert_eq!(DefaultPlacement::parse(p.name()), Some(p));
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(json, format!("\"{}\"", p.name()));
        }
        assert_eq!(DefaultPlacement::parse("pack"), None);
        assert_eq!(DefaultPlacement::default(), DefaultPlacement::Heartbeat);
    }
}
