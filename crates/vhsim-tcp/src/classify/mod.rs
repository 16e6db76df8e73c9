//! Loss classification before the congestion response (the `LossClassifier` axis).
//!
//! The sender consults the classifier when it is about to fast-retransmit (at the dupACK
//! threshold, or when TCP-DCR's delay expires): a congestion loss gets the usual halving, a
//! wireless loss keeps cwnd (the lost segment is still retransmitted). Each decision is kept as
//! a [`LossClassification`] that the world drains with
//! [`crate::TcpSender::take_loss_classifications`] to compare with the ground truth (why the
//! segment was really dropped).

mod ld;

pub use ld::Ld;

use crate::config::{LossClassifierKind, TcpConfig};
use vhsim_core::{SimDuration, SimTime};

/// The verdict on one loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum LossClass {
    /// Queue overflow somewhere on the path: halve.
    Congestion = 0,
    /// A link error: keep the window.
    Wireless = 1,
}

impl LossClass {
    /// Names in code order.
    pub const NAMES: [&'static str; 2] = ["congestion", "wireless"];

    /// The name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// One classification decision, as the world receives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossClassification {
    /// When the decision took effect (the fast retransmit).
    pub at: SimTime,
    /// The segment judged lost (the first unacknowledged one, which is retransmitted).
    pub seq: u64,
    /// The verdict.
    pub class: LossClass,
    /// The classifier was suspended (Lim & Jang's n rounds after a spurious timeout) and the
    /// verdict is the default `Wireless` (protocol-facts A4), not inequality (1).
    pub suspended: bool,
    /// LD's Tcur (seconds) at the decision, if it had a sample.
    pub tcur: Option<f64>,
    /// LD's threshold, the right-hand side of inequality (2) (seconds; may be infinite).
    pub threshold: Option<f64>,
}

/// The loss classifier of one sender.
#[derive(Clone, Debug)]
pub enum AnyLossClassifier {
    /// Every loss is congestion; nothing is recorded.
    None,
    /// Lim & Jang's LD.
    Ld(Ld),
}

impl AnyLossClassifier {
    /// Build from the configuration.
    pub fn new(cfg: &TcpConfig) -> Self {
        match cfg.loss_classifier {
            LossClassifierKind::None => AnyLossClassifier::None,
            LossClassifierKind::Ld => AnyLossClassifier::Ld(Ld::new(cfg.ld)),
        }
    }

    /// A new cumulative ACK gave a Karn-valid RTT sample `rtt` of a segment first sent at
    /// `sent_at`.
    pub fn on_sample(&mut self, sent_at: SimTime, rtt: SimDuration) {
        if let AnyLossClassifier::Ld(ld) = self {
            ld.on_sample(sent_at, rtt);
        }
    }

    /// After each ACK: the cumulative ACK point and one past the highest segment sent.
    pub fn on_ack(&mut self, snd_una: u64, snd_max: u64) {
        if let AnyLossClassifier::Ld(ld) = self {
            ld.on_ack(snd_una, snd_max);
        }
    }

    /// The retransmission timer expired at `now`.
    pub fn on_rto(&mut self, now: SimTime) {
        if let AnyLossClassifier::Ld(ld) = self {
            ld.on_rto(now);
        }
    }

    /// The RTO response found the last timeout spurious; `snd_max` = one past the highest
    /// segment sent so far.
    pub fn on_spurious_rto(&mut self, snd_max: u64) {
        if let AnyLossClassifier::Ld(ld) = self {
            ld.on_spurious_rto(snd_max);
        }
    }

    /// Classify the loss of `seq` at `now`; `None` for the classifier that records nothing.
    pub fn classify(&self, now: SimTime, seq: u64) -> Option<LossClassification> {
        match self {
            AnyLossClassifier::None => None,
            AnyLossClassifier::Ld(ld) => Some(ld.classify(now, seq)),
        }
    }

    /// LD's Tavg, the delay Lim & Jang give TCP-DCR (none without LD).
    pub fn tavg(&self) -> Option<SimDuration> {
        match self {
            AnyLossClassifier::None => None,
            AnyLossClassifier::Ld(ld) => Some(ld.tavg_duration()),
        }
    }

    /// LD's state, if this is LD.
    pub fn ld(&self) -> Option<&Ld> {
        match self {
            AnyLossClassifier::Ld(ld) => Some(ld),
            AnyLossClassifier::None => None,
        }
    }
}
