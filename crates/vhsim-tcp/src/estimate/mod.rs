//! Estimators every part may read, kept up to date by the sender on every ACK: round
//! counting ([`Rounds`]), the base (minimum) RTT since the last path change and since the
//! start ([`BaseRtt`]), and the delivery-rate estimate ([`Bandwidth`], Westwood+'s, kept only for
//! a window law that reads it), these two also since the sender last resumed from persist mode
//! ([`SinceResume`], kept only for a window law that reads them). Westwood+ reads the delivery
//! rate and the
//! minimum RTT since the start (docs/references.md §7.3), Freeze-TCPv2's WAVE those since the
//! resume (its option `bandwidth_since`); nothing in the wave-1 schemes reads them. The
//! receiver's own RTT estimate from echoed timestamps is [`ReceiverRtt`].

mod bandwidth;
mod base_rtt;
pub mod receiver_rtt;
mod rounds;

pub use bandwidth::Bandwidth;
pub use base_rtt::BaseRtt;
pub use receiver_rtt::ReceiverRtt;
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
    /// Delivery rate, kept only for a window law that reads it (Westwood+, Freeze-TCPv2; boxed,
    /// so every other sender neither carries nor updates it: issue #29, memory per flow).
    pub bandwidth: Option<Box<Bandwidth>>,
    /// The estimates since the sender last resumed from persist mode, kept only for a window
    /// law that reads them (Freeze-TCPv2's WAVE; boxed, so every other sender neither carries
    /// nor updates them: issue #29, memory per flow).
    pub since_resume: Option<Box<SinceResume>>,
}

/// The estimates since the sender last resumed from persist mode (Freeze-TCPv2's WAVE counts
/// the ACKs after the PACK, Park et al. §3.2); the same as the connection's before any resume.
#[derive(Clone, Debug)]
pub struct SinceResume {
    /// Delivery rate since the resume.
    pub bandwidth: Bandwidth,
    /// Minimum RTT since the resume (the new cell's RTTmin).
    pub min_rtt: BaseRtt,
}

impl Estimators {
    /// Nothing measured yet; segments of `segment_bytes` payload bytes; the delivery rate is
    /// kept if `delivery_rate`, the estimates since a resume from persist mode if
    /// `since_resume`.
    pub fn new(segment_bytes: u32, delivery_rate: bool, since_resume: bool) -> Self {
        Estimators {
            rounds: Rounds::default(),
            base_rtt: BaseRtt::default(),
            min_rtt: BaseRtt::default(),
            bandwidth: delivery_rate.then(|| Box::new(Bandwidth::new(segment_bytes))),
            since_resume: since_resume
                .then(|| Box::new(SinceResume { bandwidth: Bandwidth::new(segment_bytes), min_rtt: BaseRtt::default() })),
        }
    }

    /// An ACK for `ack` (next expected) arrives at `now`, before the sender processes it;
    /// `snd_una` and `snd_max` are the sender's before it. Returns whether it ends a round.
    #[inline]
    pub fn on_ack(&mut self, now: SimTime, ack: u64, snd_una: u64, snd_max: u64) -> bool {
        let duplicate = ack == snd_una && snd_max > snd_una;
        if let Some(b) = &mut self.bandwidth {
            b.on_ack(ack.saturating_sub(snd_una), duplicate);
        }
        if let Some(r) = &mut self.since_resume {
            r.bandwidth.on_ack(ack.saturating_sub(snd_una), duplicate);
        }
        let round_end = self.rounds.on_ack(now, ack, snd_max);
        if round_end {
            if let Some(b) = &mut self.bandwidth {
                b.end_round(now);
            }
            if let Some(r) = &mut self.since_resume {
                r.bandwidth.end_round(now);
            }
        }
        round_end
    }

    /// A valid per-ACK RTT sample.
    #[inline]
    pub fn on_rtt_sample(&mut self, rtt: SimDuration) {
        self.base_rtt.on_sample(rtt);
        self.min_rtt.on_sample(rtt);
        if let Some(r) = &mut self.since_resume {
            r.min_rtt.on_sample(rtt);
        }
    }

    /// The sender resumes from persist mode at `now` (a PACK): the since-resume estimates
    /// start afresh.
    pub fn on_resume(&mut self, now: SimTime) {
        if let Some(r) = &mut self.since_resume {
            r.bandwidth.restart(now);
            r.min_rtt.reset();
        }
    }

    /// The path changed (a handover notification): the base RTT is measured anew.
    pub fn on_path_change(&mut self) {
        self.base_rtt.reset();
    }
}
