//! Estimators every part may read, kept up to date by the sender on every ACK: round
//! counting ([`Rounds`]), the base (minimum) RTT since the last path change and since the
//! start ([`BaseRtt`]), and the delivery-rate estimate ([`Bandwidth`], Westwood+'s). Westwood+
//! and Freeze-TCPv2 read the delivery rate and the minimum RTT since the start
//! (protocol-facts §7.3); nothing in the wave-1 schemes reads them, so they change no result.

mod bandwidth;
mod base_rtt;
mod rounds;

pub use bandwidth::Bandwidth;
pub use base_rtt::BaseRtt;
pub use rounds::Rounds;

use vhsim_core::{SimDuration, SimTime};

/// The shared estimators of one sender.
#[derive(Clone, Debug)]
pub struct Estimators {
    /// Round counting.
    pub rounds: Rounds,
    /// Minimum RTT since the last path change.
    pub base_rtt: BaseRtt,
    /// Minimum RTT since the start of the connection (Westwood+'s RTTmin: a sender learns of
    /// a handover only from its packets, so nothing resets it).
    pub min_rtt: BaseRtt,
    /// Delivery rate (Westwood+).
    pub bandwidth: Bandwidth,
}

impl Estimators {
    /// Nothing measured yet; segments of `segment_bytes` payload bytes.
    pub fn new(segment_bytes: u32) -> Self {
        Estimators {
            rounds: Rounds::default(),
            base_rtt: BaseRtt::default(),
            min_rtt: BaseRtt::default(),
            bandwidth: Bandwidth::new(segment_bytes),
        }
    }

    /// An ACK for `ack` (next expected) arrives at `now`, before the sender processes it;
    /// `snd_una` and `snd_max` are the sender's before it. Returns whether it ends a round.
    #[inline]
    pub fn on_ack(&mut self, now: SimTime, ack: u64, snd_una: u64, snd_max: u64) -> bool {
        let duplicate = ack == snd_una && snd_max > snd_una;
        self.bandwidth.on_ack(ack.saturating_sub(snd_una), duplicate);
        let round_end = self.rounds.on_ack(now, ack, snd_max);
        if round_end {
            self.bandwidth.end_round(now);
        }
        round_end
    }

    /// A valid per-ACK RTT sample.
    #[inline]
    pub fn on_rtt_sample(&mut self, rtt: SimDuration) {
        self.base_rtt.on_sample(rtt);
        self.min_rtt.on_sample(rtt);
    }

    /// The path changed (a handover notification): the base RTT is measured anew.
    pub fn on_path_change(&mut self) {
        self.base_rtt.reset();
    }
}
