//! IEEE 802.11 stop-and-wait ARQ (docs/references.md §12; ns-2 mac/mac-802_11.cc).
//!
//! Every frame awaits a link-layer ACK. An attempt fails if the error model loses it or the
//! ARQ's own draw with probability `frame_loss` does. A failed attempt is retried after
//! `retry_delay` (the ACK timeout plus backoff, as a fixed duration) plus a uniform random
//! backoff in `[0, backoff_max]`, unless it was attempt number `retry_limit`: the limit counts
//! *all* attempts (ns-2 drops when `*rcount >= thresh`; LongRetryLimit_ 4 for data frames since
//! RTSThreshold_ is 0, ShortRetryLimit_ 7), and the frame is then dropped.
//!
//! Consequences: with independent per-attempt loss `p` the residual loss is `p^N`
//! (N = `retry_limit`); a frame that needs `k` attempts holds the link for
//! `k * serialization + (k - 1) * (retry_delay + backoff)` and arrives that long after its
//! first attempt started (plus the propagation delay); a dropped frame holds it for
//! `N * serialization + (N - 1) * (retry_delay + backoff)`. A successful attempt adds nothing
//! (the link-layer ACK's time is not modelled), so `frame_loss = 0` with a loss-free error
//! model behaves exactly like no ARQ.

use super::AttemptResult;
use vhsim_core::{RngStream, SimDuration};

/// Stop-and-wait ARQ with a retry limit.
#[derive(Clone, Debug)]
pub struct StopAndWait {
    frame_loss: f64,
    retry_limit: u32,
    retry_delay: SimDuration,
    backoff_max: SimDuration,
    rng: RngStream,
}

impl StopAndWait {
    /// An ARQ with per-attempt loss `frame_loss`, `retry_limit` total attempts (>= 1), a fixed
    /// `retry_delay` and a uniform backoff in `[0, backoff_max]` per failed attempt.
    pub fn new(
        frame_loss: f64,
        retry_limit: u32,
        retry_delay: SimDuration,
        backoff_max: SimDuration,
        rng: RngStream,
    ) -> Self {
        assert!(retry_limit >= 1, "retry_limit counts all attempts and must be >= 1");
        StopAndWait { frame_loss, retry_limit, retry_delay, backoff_max, rng }
    }

    /// Decide after attempt `attempt` (1-based). The frame-loss draw is taken on every attempt
    /// (whatever the error model said) so the stream's use does not depend on the error model.
    pub fn after_attempt(&mut self, attempt: u32, error_lost: bool) -> AttemptResult {
        let frame_lost = self.rng.bernoulli(self.frame_loss);
        if !(frame_lost || error_lost) {
            AttemptResult::Delivered
        } else if attempt >= self.retry_limit {
            AttemptResult::GiveUp
        } else {
            AttemptResult::Retry(self.retry_delay + self.backoff())
        }
    }

    /// Uniform in `[0, backoff_max]` nanoseconds (no draw if `backoff_max` is 0).
    fn backoff(&mut self) -> SimDuration {
        let max = self.backoff_max.as_nanos();
        if max == 0 {
            return SimDuration::ZERO;
        }
        let ns = (self.rng.uniform() * (max as f64 + 1.0)) as u64;
        SimDuration::from_nanos(ns.min(max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vhsim_core::RngStreams;

    #[test]
    fn the_retry_limit_counts_all_attempts() {
        // ns-2 mac-802_11.cc drops when *rcount >= thresh: with LongRetryLimit_ 4 a frame is
        // sent at most 4 times (docs/references.md §12).
        let d = SimDuration::from_micros(300);
        let mut a = StopAndWait::new(1.0, 4, d, SimDuration::ZERO, RngStreams::new(1).stream("arq"));
        let steps: Vec<AttemptResult> = (1..=4).map(|k| a.after_attempt(k, false)).collect();
        let r = AttemptResult::Retry(d);
        assert_eq!(steps, [r, r, r, AttemptResult::GiveUp]);
        let mut once = StopAndWait::new(0.0, 1, d, SimDuration::ZERO, RngStreams::new(1).stream("arq"));
        assert_eq!(once.after_attempt(1, true), AttemptResult::GiveUp);
        assert_eq!(once.after_attempt(1, false), AttemptResult::Delivered);
    }
}
