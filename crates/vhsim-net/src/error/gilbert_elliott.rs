//! Gilbert–Elliott two-state loss, per-packet Markov form.
//!
//! States Good and Bad; each packet is lost with the loss probability of the state it sees,
//! then the chain takes one step: Good -> Bad with probability `p`, Bad -> Good with
//! probability `r` (Gurtov & Floyd, CCR 2004, as summarised in docs/references.md §12).
//! Analytic values: `pi_B = p / (p + r)`, mean loss `pi_G * loss_good + pi_B * loss_bad`,
//! mean sojourn in Bad (the "bad burst") `1 / r` packets, in Good `1 / p` packets.
//!
//! The chain starts in Good. Loss draws and state transitions come from two different random
//! streams, so changing `loss_good`/`loss_bad` never changes the state sequence.

use crate::packet::Packet;
use vhsim_core::{RngStream, SimTime};

/// State of a two-state (Gilbert–Elliott) channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelState {
    /// Low loss.
    Good,
    /// High loss.
    Bad,
}

/// Per-packet Gilbert–Elliott loss.
#[derive(Clone, Debug)]
pub struct GilbertElliott {
    p: f64,
    r: f64,
    loss_good: f64,
    loss_bad: f64,
    state: ChannelState,
    loss_rng: RngStream,
    state_rng: RngStream,
}

impl GilbertElliott {
    /// A channel in state Good with transition probabilities `p` (G->B) and `r` (B->G) per
    /// packet and the given per-state loss probabilities; `loss_rng` draws losses, `state_rng`
    /// draws transitions.
    pub fn new(
        p: f64,
        r: f64,
        loss_good: f64,
        loss_bad: f64,
        loss_rng: RngStream,
        state_rng: RngStream,
    ) -> Self {
        GilbertElliott { p, r, loss_good, loss_bad, state: ChannelState::Good, loss_rng, state_rng }
    }

    /// The state the next packet will see.
    pub fn state(&self) -> ChannelState {
        self.state
    }

    /// Stationary probability of Bad, `p / (p + r)` (0 if both are 0: the chain stays Good).
    pub fn stationary_bad(&self) -> f64 {
        if self.p + self.r == 0.0 {
            0.0
        } else {
            self.p / (self.p + self.r)
        }
    }

    /// Long-run loss probability per packet, `pi_G * loss_good + pi_B * loss_bad`.
    pub fn mean_loss(&self) -> f64 {
        let b = self.stationary_bad();
        (1.0 - b) * self.loss_good + b * self.loss_bad
    }

    /// Mean number of consecutive packets that see Bad, `1 / r`.
    pub fn mean_bad_burst(&self) -> f64 {
        1.0 / self.r
    }

    /// The packet sees the current state's loss probability, then the chain steps once.
    pub fn drops(&mut self, _now: SimTime, _pkt: &Packet) -> bool {
        let lost = match self.state {
            ChannelState::Good => self.loss_rng.bernoulli(self.loss_good),
            ChannelState::Bad => self.loss_rng.bernoulli(self.loss_bad),
        };
        self.state = match self.state {
            ChannelState::Good if self.state_rng.bernoulli(self.p) => ChannelState::Bad,
            ChannelState::Bad if self.state_rng.bernoulli(self.r) => ChannelState::Good,
            s => s,
        };
        lost
    }
}
