//! Random streams keyed by (master seed, component name).
//!
//! Every random component (an error model on one link direction, a cross-traffic start time, ...)
//! draws from its own stream whose seed is a stable hash of the run's master seed and the
//! component's name. Adding a flow or a link therefore never changes the draws of another one,
//! and the same scenario + seed gives identical draws on any machine (ns-3's Seed+Run idea).

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Factory of named random streams for one run.
#[derive(Clone, Debug)]
pub struct RngStreams {
    master_seed: u64,
}

impl RngStreams {
    /// Streams of the run with this master seed.
    pub fn new(master_seed: u64) -> Self {
        RngStreams { master_seed }
    }

    /// The master seed.
    pub fn master_seed(&self) -> u64 {
        self.master_seed
    }

    /// The stream of the component called `name` (e.g. `"link/access/forward/error"`).
    pub fn stream(&self, name: &str) -> RngStream {
        let key = xxh3_64_with_seed(name.as_bytes(), self.master_seed);
        RngStream { rng: Xoshiro256PlusPlus::seed_from_u64(key) }
    }
}

/// One component's random stream.
#[derive(Clone, Debug)]
pub struct RngStream {
    rng: Xoshiro256PlusPlus,
}

impl RngStream {
    /// A uniform draw in [0, 1) with 53 bits of precision.
    pub fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p` (a Bernoulli trial).
    pub fn bernoulli(&mut self, p: f64) -> bool {
        p > 0.0 && self.uniform() < p
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_name_same_seed_gives_same_draws() {
        let a: Vec<u64> = (0..5).map({ let mut s = RngStreams::new(7).stream("x"); move |_| s.next_u64() }).collect();
        let b: Vec<u64> = (0..5).map({ let mut s = RngStreams::new(7).stream("x"); move |_| s.next_u64() }).collect();
        assert_eq!(a, b);
    }

    #[test]
    fn streams_differ_by_name_and_seed() {
        let first = |seed, name: &str| RngStreams::new(seed).stream(name).next_u64();
        assert_ne!(first(7, "x"), first(7, "y"));
        assert_ne!(first(7, "x"), first(8, "x"));
    }

    #[test]
    fn bernoulli_rate_is_close_to_p() {
        let mut s = RngStreams::new(1).stream("b");
        let hits = (0..100_000).filter(|_| s.bernoulli(0.01)).count();
        assert!((800..1200).contains(&hits), "{hits}");
        assert!(!s.bernoulli(0.0));
    }
}
