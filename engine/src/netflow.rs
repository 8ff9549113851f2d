//! Minimum-cost flow by the primal network simplex method.
//!
//! Used for the skyline LP of Morpheus §5, whose dual is a min-cost flow (see
//! `resource_model::flow`): a general LP solver does not see that structure
//! and is orders of magnitude slower on month-long, minute-step histories.
//!
//! The implementation follows the classic design (as in LEMON's
//! `NetworkSimplex`): an artificial root with big-M arcs gives the first
//! feasible tree; entering arcs come from an altering candidate list; the leaving arc
//! keeps the spanning tree strongly feasible (which prevents cycling); the
//! tree is kept as parent pointers plus doubly linked child lists so a pivot
//! costs O(cycle length + moved subtree). Costs and capacities are `f64`;
//! capacities may be infinite. The node potentials of the optimal tree are
//! returned too: they are the optimal solution of the dual LP.

/// A min-cost flow problem: `min Σ cost·flow` subject to
/// `Σ out − Σ in = supply(v)` and `0 ≤ flow ≤ cap`.
#[derive(Clone, Debug, Default)]
pub struct FlowNetwork {
    supply: Vec<f64>,
    tail: Vec<usize>,
    head: Vec<usize>,
    cap: Vec<f64>,
    cost: Vec<f64>,
}

/// An optimal flow and the node potentials that prove it optimal.
#[derive(Clone, Debug)]
pub struct FlowSolution {
    /// Flow on each arc, in the order the arcs were added.
    pub flow: Vec<f64>,
    /// Potential of each node: every arc with reduced cost
    /// `cost + π(tail) − π(head)` negative is saturated and every arc with a
    /// positive one is empty (complementary slackness).
    pub potential: Vec<f64>,
    /// Total cost `Σ cost·flow`.
    pub cost: f64,
    /// Number of pivots performed.
    pub pivots: usize,
}

/// Why a flow problem has no optimal solution.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FlowError {
    /// Supplies cannot be routed.
    #[error("the flow problem is infeasible")]
    Infeasible,
    /// A negative-cost cycle of infinite capacity.
    #[error("the flow problem is unbounded")]
    Unbounded,
    /// NaN or negative capacities, unbalanced supplies.
    #[error("invalid flow problem: {0}")]
    Invalid(&'static str),
    /// The pivot limit was reached (should not happen with a strongly
    /// feasible tree; guards against floating-point stalling).
    #[error("network simplex did not converge within {0} pivots")]
    NoConvergence(usize),
}

const UP: i8 = 1;
const DOWN: i8 = -1;
const LOWER: i8 = 1;
const TREE: i8 = 0;
const UPPER: i8 = -1;
const NONE: usize = usize::MAX;

impl FlowNetwork {
    /// A network with `nodes` nodes, no arcs and zero supplies.
    pub fn new(nodes: usize) -> Self {
        FlowNetwork {
            supply: vec![0.0; nodes],
            ..FlowNetwork::default()
        }
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.supply.len()
    }

    /// Number of arcs.
    pub fn arcs(&self) -> usize {
        self.tail.len()
    }

    /// Adds `amount` to the supply of node `v` (negative: demand).
    pub fn add_supply(&mut self, v: usize, amount: f64) {
        self.supply[v] += amount;
    }

    /// Adds an arc and returns its index.
    pub fn add_arc(&mut self, tail: usize, head: usize, cap: f64, cost: f64) -> usize {
        self.tail.push(tail);
        self.head.push(head);
        self.cap.push(cap);
        self.cost.push(cost);
        self.tail.len() - 1
    }

    /// Raises the capacity of arc `e` by `extra`.
    pub fn add_capacity(&mut self, e: usize, extra: f64) {
        self.cap[e] += extra;
    }

    /// Solves the problem.
    pub fn solve(&self) -> Result<FlowSolution, FlowError> {
        Simplex::new(self)?.run()
    }
}

struct Simplex {
    n: usize,
    m: usize,
    tail: Vec<usize>,
    head: Vec<usize>,
    cap: Vec<f64>,
    cost: Vec<f64>,
    flow: Vec<f64>,
    state: Vec<i8>,
    pi: Vec<f64>,
    parent: Vec<usize>,
    pred: Vec<usize>,
    pred_dir: Vec<i8>,
    depth: Vec<usize>,
    first_child: Vec<usize>,
    next_sib: Vec<usize>,
    prev_sib: Vec<usize>,
    eps: f64,
    block: usize,
    head_len: usize,
    cand: Vec<(f64, usize)>,
    next_arc: usize,
    stack: Vec<usize>,
}

impl Simplex {
    fn new(net: &FlowNetwork) -> Result<Simplex, FlowError> {
        let n = net.nodes();
        let m = net.arcs();
        if net.cap.iter().any(|c| c.is_nan() || *c < 0.0) {
            return Err(FlowError::Invalid("capacities must be non-negative"));
        }
        if net.cost.iter().chain(&net.supply).any(|c| !c.is_finite()) {
            return Err(FlowError::Invalid("costs and supplies must be finite"));
        }
        let total: f64 = net.supply.iter().sum();
        let scale: f64 = net.supply.iter().map(|s| s.abs()).sum::<f64>().max(1.0);
        if total.abs() > 1e-9 * scale {
            return Err(FlowError::Invalid("supplies do not sum to zero"));
        }
        let max_cost = net.cost.iter().fold(0.0f64, |a, c| a.max(c.abs()));
        let art_cost = (max_cost + 1.0) * (n as f64 + 1.0);
        let root = n;
        let total_arcs = m + n;
        let mut s = Simplex {
            n,
            m,
            tail: Vec::with_capacity(total_arcs),
            head: Vec::with_capacity(total_arcs),
            cap: Vec::with_capacity(total_arcs),
            cost: Vec::with_capacity(total_arcs),
            flow: vec![0.0; total_arcs],
            state: vec![LOWER; total_arcs],
            pi: vec![0.0; n + 1],
            parent: vec![NONE; n + 1],
            pred: vec![NONE; n + 1],
            pred_dir: vec![UP; n + 1],
            depth: vec![0; n + 1],
            first_child: vec![NONE; n + 1],
            next_sib: vec![NONE; n + 1],
            prev_sib: vec![NONE; n + 1],
            eps: 1e-9 * (max_cost + 1.0),
            block: (((m + n) as f64).sqrt() as usize).max(10),
            head_len: ((((m + n) as f64).sqrt() * 0.01) as usize).max(3),
            cand: Vec::new(),
            next_arc: 0,
            stack: Vec::new(),
        };
        s.tail.extend_from_slice(&net.tail);
        s.head.extend_from_slice(&net.head);
        s.cap.extend_from_slice(&net.cap);
        s.cost.extend_from_slice(&net.cost);
        for v in 0..n {
            let e = m + v;
            let b = net.supply[v];
            if b >= 0.0 {
                s.tail.push(v);
                s.head.push(root);
                s.cost.push(0.0);
                s.flow[e] = b;
                s.pred_dir[v] = UP;
                s.pi[v] = 0.0;
            } else {
                s.tail.push(root);
                s.head.push(v);
                s.cost.push(art_cost);
                s.flow[e] = -b;
                s.pred_dir[v] = DOWN;
                s.pi[v] = art_cost;
            }
            s.cap.push(f64::INFINITY);
            s.state[e] = TREE;
            s.pred[v] = e;
            s.depth[v] = 1;
            s.link(v, root);
        }
        Ok(s)
    }

    /// Makes `v` a child of `p` in the child lists.
    fn link(&mut self, v: usize, p: usize) {
        self.parent[v] = p;
        let f = self.first_child[p];
        self.next_sib[v] = f;
        self.prev_sib[v] = NONE;
        if f != NONE {
            self.prev_sib[f] = v;
        }
        self.first_child[p] = v;
    }

    /// Removes `v` from its parent's child list.
    fn cut(&mut self, v: usize) {
        let p = self.parent[v];
        let (prev, next) = (self.prev_sib[v], self.next_sib[v]);
        if prev != NONE {
            self.next_sib[prev] = next;
        } else if p != NONE {
            self.first_child[p] = next;
        }
        if next != NONE {
            self.prev_sib[next] = prev;
        }
        self.parent[v] = NONE;
        self.prev_sib[v] = NONE;
        self.next_sib[v] = NONE;
    }

    fn reduced(&self, e: usize) -> f64 {
        f64::from(self.state[e]) * (self.cost[e] + self.pi[self.tail[e]] - self.pi[self.head[e]])
    }

    /// Altering candidate list (LEMON's fastest rule in practice): keep the
    /// most violating arcs of earlier scans, re-price them, extend the list
    /// block by block until it holds more than `head` arcs, enter the best and
    /// keep the `head` next best for the next pivot.
    fn entering(&mut self) -> Option<usize> {
        let total = self.m + self.n;
        let mut kept = 0;
        for i in 0..self.cand.len() {
            let e = self.cand[i].1;
            let c = self.reduced(e);
            if c < -self.eps {
                self.cand[kept] = (c, e);
                kept += 1;
            }
        }
        self.cand.truncate(kept);
        let mut count = self.block;
        let mut limit = self.head_len;
        let mut scanned = 0;
        let mut e = self.next_arc;
        while scanned < total {
            let c = if self.state[e] != TREE {
                self.reduced(e)
            } else {
                0.0
            };
            // A duplicate is harmless: once entered it is a tree arc and
            // re-pricing drops it.
            if c < -self.eps {
                self.cand.push((c, e));
            }
            e = if e + 1 == total { 0 } else { e + 1 };
            scanned += 1;
            count -= 1;
            if count == 0 {
                if self.cand.len() > limit {
                    break;
                }
                limit = 0;
                count = self.block;
            }
        }
        self.next_arc = e;
        if self.cand.is_empty() {
            return None;
        }
        let best = (0..self.cand.len())
            .min_by(|&a, &b| self.cand[a].0.total_cmp(&self.cand[b].0))
            .unwrap_or(0);
        let (_, arc) = self.cand.swap_remove(best);
        if self.cand.len() > self.head_len {
            let h = self.head_len;
            self.cand
                .select_nth_unstable_by(h, |a, b| a.0.total_cmp(&b.0));
            self.cand.truncate(h);
        }
        Some(arc)
    }

    fn join(&self, mut a: usize, mut b: usize) -> usize {
        while a != b {
            if self.depth[a] >= self.depth[b] {
                a = self.parent[a];
            } else {
                b = self.parent[b];
            }
        }
        a
    }

    fn run(mut self) -> Result<FlowSolution, FlowError> {
        let limit = 50 * (self.m + self.n) + 100_000;
        let mut pivots = 0;
        while let Some(e_in) = self.entering() {
            pivots += 1;
            if pivots > limit {
                return Err(FlowError::NoConvergence(limit));
            }
            self.pivot(e_in)?;
        }
        // Artificial arcs must carry no flow.
        let scale = self.flow[..self.m]
            .iter()
            .fold(1.0f64, |a, f| a.max(f.abs()));
        if self.flow[self.m..].iter().any(|&f| f > 1e-9 * scale) {
            return Err(FlowError::Infeasible);
        }
        let flow: Vec<f64> = self.flow[..self.m].to_vec();
        let cost = flow.iter().zip(&self.cost).map(|(f, c)| f * c).sum();
        let mut potential = self.pi;
        potential.truncate(self.n);
        Ok(FlowSolution {
            flow,
            potential,
            cost,
            pivots,
        })
    }

    fn residual_up(&self, e: usize) -> f64 {
        if self.cap[e].is_infinite() {
            f64::INFINITY
        } else {
            self.cap[e] - self.flow[e]
        }
    }

    fn pivot(&mut self, e_in: usize) -> Result<(), FlowError> {
        let (first, second) = if self.state[e_in] == LOWER {
            (self.tail[e_in], self.head[e_in])
        } else {
            (self.head[e_in], self.tail[e_in])
        };
        let join = self.join(first, second);
        let mut delta = self.cap[e_in];
        let mut u_out = NONE;
        let mut side = 0;
        let mut u = first;
        while u != join {
            let e = self.pred[u];
            let d = if self.pred_dir[u] == UP {
                self.flow[e]
            } else {
                self.residual_up(e)
            };
            if d < delta {
                delta = d;
                u_out = u;
                side = 1;
            }
            u = self.parent[u];
        }
        u = second;
        while u != join {
            let e = self.pred[u];
            let d = if self.pred_dir[u] == UP {
                self.residual_up(e)
            } else {
                self.flow[e]
            };
            if d <= delta {
                delta = d;
                u_out = u;
                side = 2;
            }
            u = self.parent[u];
        }
        if delta.is_infinite() {
            return Err(FlowError::Unbounded);
        }
        // Push `delta` around the cycle.
        if delta > 0.0 {
            let val = f64::from(self.state[e_in]) * delta;
            self.flow[e_in] += val;
            let mut u = self.tail[e_in];
            while u != join {
                let e = self.pred[u];
                self.flow[e] -= f64::from(self.pred_dir[u]) * val;
                u = self.parent[u];
            }
            let mut u = self.head[e_in];
            while u != join {
                let e = self.pred[u];
                self.flow[e] += f64::from(self.pred_dir[u]) * val;
                u = self.parent[u];
            }
        }
        if side == 0 {
            // The entering arc blocks itself: it moves to its other bound.
            self.flow[e_in] = if self.state[e_in] == LOWER {
                self.cap[e_in]
            } else {
                0.0
            };
            self.state[e_in] = -self.state[e_in];
            return Ok(());
        }
        // The leaving arc goes to the bound it reached, exactly.
        let e_out = self.pred[u_out];
        let to_zero = (side == 1) == (self.pred_dir[u_out] == UP);
        if to_zero {
            self.flow[e_out] = 0.0;
            self.state[e_out] = LOWER;
        } else {
            self.flow[e_out] = self.cap[e_out];
            self.state[e_out] = UPPER;
        }
        self.state[e_in] = TREE;
        let (u_in, v_in) = if side == 1 {
            (first, second)
        } else {
            (second, first)
        };
        self.retree(u_in, v_in, u_out, e_in);
        Ok(())
    }

    /// Replaces the tree arc above `u_out` by `e_in` = (`u_in`, `v_in`):
    /// the subtree of `u_out` is re-rooted at `u_in` and hung below `v_in`;
    /// its potentials and depths are updated.
    fn retree(&mut self, u_in: usize, v_in: usize, u_out: usize, e_in: usize) {
        // Reverse the path u_in → … → u_out.
        let mut path = Vec::new();
        let mut u = u_in;
        loop {
            path.push(u);
            if u == u_out {
                break;
            }
            u = self.parent[u];
        }
        let old_pred: Vec<usize> = path.iter().map(|&w| self.pred[w]).collect();
        let old_dir: Vec<i8> = path.iter().map(|&w| self.pred_dir[w]).collect();
        for &w in &path {
            self.cut(w);
        }
        for j in (1..path.len()).rev() {
            // path[j] becomes a child of path[j-1] through the arc that linked
            // path[j-1] to its old parent path[j].
            let (child, par) = (path[j], path[j - 1]);
            self.pred[child] = old_pred[j - 1];
            self.pred_dir[child] = -old_dir[j - 1];
            self.link(child, par);
        }
        self.pred[u_in] = e_in;
        self.pred_dir[u_in] = if self.tail[e_in] == u_in { UP } else { DOWN };
        self.link(u_in, v_in);
        // New potential of u_in makes e_in's reduced cost zero.
        let target = if self.tail[e_in] == u_in {
            self.pi[v_in] - self.cost[e_in]
        } else {
            self.pi[v_in] + self.cost[e_in]
        };
        let sigma = target - self.pi[u_in];
        self.depth[u_in] = self.depth[v_in] + 1;
        self.pi[u_in] = target;
        self.stack.clear();
        let mut c = self.first_child[u_in];
        while c != NONE {
            self.stack.push(c);
            c = self.next_sib[c];
        }
        while let Some(w) = self.stack.pop() {
            self.pi[w] += sigma;
            self.depth[w] = self.depth[self.parent[w]] + 1;
            let mut c = self.first_child[w];
            while c != NONE {
                self.stack.push(c);
                c = self.next_sib[c];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks flow conservation, bounds and complementary slackness.
    fn check(net: &FlowNetwork, sol: &FlowSolution) {
        let mut bal = net.supply.clone();
        for e in 0..net.arcs() {
            let f = sol.flow[e];
            assert!(f >= -1e-9 && f <= net.cap[e] + 1e-9, "arc {e} flow {f}");
            bal[net.tail[e]] -= f;
            bal[net.head[e]] += f;
            let rc = net.cost[e] + sol.potential[net.tail[e]] - sol.potential[net.head[e]];
            if rc > 1e-7 {
                assert!(f < 1e-9, "arc {e} rc {rc} flow {f}");
            }
            if rc < -1e-7 {
                assert!(f > net.cap[e] - 1e-9, "arc {e} rc {rc} flow {f}");
            }
        }
        assert!(bal.iter().all(|b| b.abs() < 1e-9), "{bal:?}");
    }

    #[test]
    fn small_transport() {
        // Two sources, two sinks; optimal cost worked out by hand: 4·1 + 1·3 + 3·2 = 13.
        let mut net = FlowNetwork::new(4);
        net.add_supply(0, 5.0);
        net.add_supply(1, 3.0);
        net.add_supply(2, -4.0);
        net.add_supply(3, -4.0);
        net.add_arc(0, 2, 10.0, 1.0);
        net.add_arc(0, 3, 10.0, 3.0);
        net.add_arc(1, 2, 10.0, 4.0);
        net.add_arc(1, 3, 10.0, 2.0);
        let sol = net.solve().unwrap();
        check(&net, &sol);
        assert!((sol.cost - 13.0).abs() < 1e-12, "{}", sol.cost);
    }

    #[test]
    fn capacities_negative_costs_and_infeasibility() {
        // A negative cycle of capacity 2 is saturated.
        let mut net = FlowNetwork::new(3);
        net.add_arc(0, 1, 2.0, -5.0);
        net.add_arc(1, 2, f64::INFINITY, 1.0);
        net.add_arc(2, 0, f64::INFINITY, 1.0);
        let sol = net.solve().unwrap();
        check(&net, &sol);
        assert!((sol.cost + 6.0).abs() < 1e-12);
        // Unbounded: a negative cycle of infinite capacity.
        let mut net = FlowNetwork::new(2);
        net.add_arc(0, 1, f64::INFINITY, -1.0);
        net.add_arc(1, 0, f64::INFINITY, 0.0);
        assert_eq!(net.solve().unwrap_err(), FlowError::Unbounded);
        // Infeasible: no arc from the source.
        let mut net = FlowNetwork::new(2);
        net.add_supply(0, 1.0);
        net.add_supply(1, -1.0);
        net.add_arc(1, 0, 5.0, 1.0);
        assert_eq!(net.solve().unwrap_err(), FlowError::Infeasible);
        let mut net = FlowNetwork::new(1);
        net.add_supply(0, 1.0);
        assert!(matches!(net.solve(), Err(FlowError::Invalid(_))));
    }

    /// Bellman–Ford over the infinite-capacity arcs only.
    fn has_infinite_negative_cycle(net: &FlowNetwork) -> bool {
        let mut d = vec![0.0f64; net.nodes()];
        for _ in 0..=net.nodes() {
            let mut changed = false;
            for e in (0..net.arcs()).filter(|&e| net.cap[e].is_infinite()) {
                if d[net.tail[e]] + net.cost[e] < d[net.head[e]] - 1e-12 {
                    d[net.head[e]] = d[net.tail[e]] + net.cost[e];
                    changed = true;
                }
            }
            if !changed {
                return false;
            }
        }
        true
    }

    /// Random instances against an independent solver: the LP of the same
    /// flow problem solved by minilp's simplex.
    #[test]
    fn random_instances_match_minilp() {
        use crate::numerics::lp::{ComparisonOp, OptimizationDirection, Problem};
        use crate::numerics::Rng;
        let mut rng = Rng::new(42);
        for case in 0..500 {
            let n = rng.int(2, 9) as usize;
            let mut net = FlowNetwork::new(n);
            for _ in 0..rng.int(n as i64, 4 * n as i64) {
                let (a, b) = (
                    rng.int(0, n as i64 - 1) as usize,
                    rng.int(0, n as i64 - 1) as usize,
                );
                if a == b {
                    continue;
                }
                let cap = if rng.chance(0.3) {
                    f64::INFINITY
                } else {
                    rng.int(0, 6) as f64 * 0.5
                };
                net.add_arc(a, b, cap, rng.int(-3, 8) as f64);
            }
            // Supplies routed along a random permutation path keep it feasible
            // only if arcs exist; infeasible draws are compared too.
            let s = rng.int(0, 4) as f64;
            net.add_supply(0, s);
            net.add_supply(n - 1, -s);
            let mut lp = Problem::new(OptimizationDirection::Minimize);
            let vars: Vec<_> = (0..net.arcs())
                .map(|e| lp.add_var(net.cost[e], (0.0, net.cap[e])))
                .collect();
            for v in 0..n {
                let expr: Vec<_> = (0..net.arcs())
                    .filter_map(|e| {
                        if net.tail[e] == v {
                            Some((vars[e], 1.0))
                        } else if net.head[e] == v {
                            Some((vars[e], -1.0))
                        } else {
                            None
                        }
                    })
                    .collect();
                lp.add_constraint(expr.as_slice(), ComparisonOp::Eq, net.supply[v]);
            }
            match (net.solve(), lp.solve()) {
                (Ok(a), Ok(b)) => {
                    check(&net, &a);
                    assert!(
                        (a.cost - b.objective()).abs() < 1e-7,
                        "case {case}: {} vs {}",
                        a.cost,
                        b.objective()
                    );
                }
                // A problem both infeasible and with a negative cycle of
                // infinite capacity may be reported either way.
                (Err(FlowError::Infeasible), Err(_)) => {}
                // minilp reports some unbounded problems as Ok(−∞) or Ok(NaN):
                // check for a negative cycle of infinite capacity directly.
                (Err(FlowError::Unbounded), b) => {
                    assert!(
                        b.map_or(true, |b| !b.objective().is_finite()),
                        "case {case}"
                    );
                    assert!(has_infinite_negative_cycle(&net), "case {case}");
                }
                (a, b) => panic!(
                    "case {case}: {:?} vs {:?}",
                    a.map(|s| s.cost),
                    b.map(|s| s.objective())
                ),
            }
        }
    }
}
