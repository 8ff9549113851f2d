//! A Fenwick (binary indexed) tree of non-negative integer weights, for
//! drawing a server with probability ∝ its free cores within a range of
//! servers in O(log n) (RM-H's "probability proportional to the server's
//! available resources", §5.1).

/// Prefix sums over non-negative weights.
#[derive(Clone, Debug, Default)]
pub struct Fenwick {
    tree: Vec<i64>,
    values: Vec<i64>,
}

impl Fenwick {
    /// A tree over `values` (negative ones count as 0), built in O(n).
    pub fn build(values: &[i64]) -> Self {
        let mut f = Fenwick::default();
        f.rebuild(values);
        f
    }

    /// Rebuilds in place over `values`.
    pub fn rebuild(&mut self, values: &[i64]) {
        let n = values.len();
        self.values.clear();
        self.values.extend(values.iter().map(|&v| v.max(0)));
        self.tree.clear();
        self.tree.resize(n + 1, 0);
        for i in 0..n {
            self.tree[i + 1] += self.values[i];
            let j = i + 1 + ((i + 1) & (i + 1).wrapping_neg());
            if j <= n {
                self.tree[j] += self.tree[i + 1];
            }
        }
    }

    /// Sets weight `i` to `v` (negative counts as 0).
    pub fn set(&mut self, i: usize, v: i64) {
        let v = v.max(0);
        let d = v - self.values[i];
        if d == 0 {
            return;
        }
        self.values[i] = v;
        let mut j = i + 1;
        while j < self.tree.len() {
            self.tree[j] += d;
            j += j & j.wrapping_neg();
        }
    }

    /// Weight `i`.
    pub fn get(&self, i: usize) -> i64 {
        self.values[i]
    }

    /// Sum of weights `0..i`.
    pub fn prefix(&self, i: usize) -> i64 {
        let (mut s, mut j) = (0, i);
        while j > 0 {
            s += self.tree[j];
            j -= j & j.wrapping_neg();
        }
        s
    }

    /// Sum of weights in `lo..hi`.
    pub fn range(&self, lo: usize, hi: usize) -> i64 {
        self.prefix(hi) - self.prefix(lo)
    }

    /// The index whose cumulative interval holds `target` (0 ≤ target <
    /// total): the smallest i with prefix(i + 1) > target.
    pub fn find(&self, target: i64) -> usize {
        let n = self.tree.len() - 1;
        let (mut pos, mut rem) = (0usize, target);
        let mut step = n.next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next <= n && self.tree[next] <= rem {
                pos = next;
                rem -= self.tree[next];
            }
            step /= 2;
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_finds_like_a_scan() {
        let v = vec![3, 0, 5, 1, 0, 0, 7, 2, 4];
        let mut f = Fenwick::build(&v);
        for i in 0..=v.len() {
            assert_eq!(f.prefix(i), v[..i].iter().sum::<i64>());
        }
        let total = f.prefix(v.len());
        for t in 0..total {
            let mut acc = 0;
            let want = v
                .iter()
                .position(|&w| {
                    acc += w;
                    acc > t
                })
                .unwrap();
            assert_eq!(f.find(t), want, "target {t}");
        }
        f.set(2, 0);
        f.set(4, 6);
        assert_eq!(f.range(2, 5), 1 + 6);
        assert_eq!(f.get(4), 6);
    }
}
