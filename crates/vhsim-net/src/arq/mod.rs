//! Link-layer ARQ: what happens after a transmission attempt fails.
//!
//! An ARQ model sits between the error model and the receiving node of a link direction: the
//! error model (and the ARQ's own frame-loss draw) decide whether one *attempt* fails, and the
//! ARQ decides whether the frame is retried and after how long, or given up. The link keeps the
//! frame on the wire while it is retried, so the next packet waits and delivery stays in order.
//!
//! Random streams: the ARQ of link direction `<name>` draws from `link/<name>/arq`, so enabling
//! it never changes the error model's or the reordering model's draws (ARCHITECTURE §2.4).

mod stop_and_wait;

pub use stop_and_wait::StopAndWait;

use serde::{Deserialize, Serialize};
use vhsim_core::{RngStreams, SimDuration};

/// Resolved configuration of a link-layer ARQ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ArqConfig {
    /// IEEE 802.11 stop-and-wait ARQ (see [`StopAndWait`]).
    StopAndWait {
        /// Probability that one attempt fails, in [0, 1] (on top of the error model).
        frame_loss: f64,
        /// Total attempts per frame (>= 1); ns-2 LongRetryLimit_ 4, ShortRetryLimit_ 7.
        retry_limit: u32,
        /// Fixed time a failed attempt adds before the next one (ACK timeout + backoff).
        retry_delay: SimDuration,
        /// Upper bound of an extra uniform random backoff per failed attempt (0 = none).
        backoff_max: SimDuration,
    },
}

/// What the ARQ decides after one attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptResult {
    /// The attempt succeeded: the frame is delivered.
    Delivered,
    /// The attempt failed; the frame is sent again after waiting this long.
    Retry(SimDuration),
    /// The attempt failed and it was the last allowed: the frame is dropped.
    GiveUp,
}

/// A running link-layer ARQ.
#[derive(Clone, Debug)]
pub enum Arq {
    /// 802.11 stop-and-wait.
    StopAndWait(StopAndWait),
}

impl Arq {
    /// Build the ARQ of link direction `link` with its own stream `link/<link>/arq`.
    pub fn new(cfg: &ArqConfig, streams: &RngStreams, link: &str) -> Self {
        let rng = streams.stream(&format!("link/{link}/arq"));
        match *cfg {
            ArqConfig::StopAndWait { frame_loss, retry_limit, retry_delay, backoff_max } => {
                Arq::StopAndWait(StopAndWait::new(frame_loss, retry_limit, retry_delay, backoff_max, rng))
            }
        }
    }

    /// Attempt number `attempt` (1 = first) of a frame just ended; `error_lost` is the error
    /// model's verdict on that attempt.
    #[inline]
    pub fn after_attempt(&mut self, attempt: u32, error_lost: bool) -> AttemptResult {
        match self {
            Arq::StopAndWait(a) => a.after_attempt(attempt, error_lost),
        }
    }
}
