//! Independent (Bernoulli) per-packet loss.

use crate::packet::Packet;
use vhsim_core::{RngStream, SimTime};

/// Loses each packet with probability `p`, independently.
#[derive(Clone, Debug)]
pub struct Bernoulli {
    p: f64,
    rng: RngStream,
}

impl Bernoulli {
    /// A model with loss probability `p` drawing from `rng`.
    pub fn new(p: f64, rng: RngStream) -> Self {
        Bernoulli { p, rng }
    }

    /// One draw per packet, data and ACKs alike.
    pub fn drops(&mut self, _now: SimTime, _pkt: &Packet) -> bool {
        self.rng.bernoulli(self.p)
    }
}
