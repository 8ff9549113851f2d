//! The Mersenne Twister MT19937 as numpy's legacy `RandomState(seed)` runs
//! it: `init_genrand` seeding from a 32-bit integer and 53-bit doubles
//! (`random_sample`) from two 32-bit draws.
//!
//! Why a second generator beside [`super::Rng`]: K-Means finds a local
//! optimum that depends on its random draws, so the harvesting
//! classification reproduces scikit-learn's `KMeans(random_state=seed)`
//! partition only when it draws the same numbers. scikit-learn draws them
//! from this stream; with it skyplan's k-means++ seeding picks the same
//! points. Every other seeded algorithm keeps [`super::Rng`].
//!
//! Checked against numpy's own values in the unit tests.

/// A MT19937 state (624 words and the position in them).
#[derive(Clone, Debug)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

impl Mt19937 {
    /// The stream of `numpy.random.RandomState(seed)` (`init_genrand`).
    pub fn new(seed: u32) -> Self {
        let mut state = [0u32; N];
        state[0] = seed;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: N }
    }

    /// Regenerates the 624 words (the twist).
    fn twist(&mut self) {
        for i in 0..N {
            let y = (self.state[i] & UPPER) | (self.state[(i + 1) % N] & LOWER);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            self.state[i] = self.state[(i + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32-bit output (`genrand_int32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// The next double in [0, 1) from two outputs, as numpy's
    /// `random_sample` (`genrand_res53`).
    pub fn next_f64(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
    }

    /// Skips `n` doubles (2 n outputs): where a consumer that drew them
    /// would continue.
    pub fn skip_f64(&mut self, n: usize) {
        for _ in 0..2 * n {
            self.next_u32();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpys_random_state_stream() {
        // numpy 2.4.6: RandomState(7).randint(0, 2**32, 3, dtype=uint64),
        // RandomState(7).random_sample(3), the two after 1,000 skipped, and
        // RandomState(2**32 - 1).random_sample(2).
        let mut r = Mt19937::new(7);
        let words: Vec<u32> = (0..3).map(|_| r.next_u32()).collect();
        assert_eq!(words, [327_741_615, 976_413_892, 3_349_725_721]);
        let mut r = Mt19937::new(7);
        let first: Vec<f64> = (0..3).map(|_| r.next_f64()).collect();
        assert_eq!(
            first,
            [0.07630828937395717, 0.7799187922401146, 0.4384092314408935]
        );
        let mut r = Mt19937::new(7);
        r.skip_f64(1000);
        assert_eq!(
            [r.next_f64(), r.next_f64()],
            [0.08378587007198324, 0.526152908756173]
        );
        let mut r = Mt19937::new(u32::MAX);
        assert_eq!(
            [r.next_f64(), r.next_f64()],
            [0.0976320289940138, 0.9123828453026218]
        );
    }
}
