//! Loss classification before the congestion response (the `LossClassifier` axis).
//!
//! The sender consults the classifier when it is about to fast-retransmit (at the dupACK
//! threshold, or when TCP-DCR's delay expires): a congestion loss gets the usual halving, a
//! wireless loss keeps cwnd (the lost segment is still retransmitted). Each decision is kept as
//! a [`LossClassification`] that the world drains with
//! [`crate::TcpSender::take_loss_classifications`] to compare with the ground truth (why the
//! segment was really dropped).

use crate::config::TcpConfig;
use vhsim_core::{SimDuration, SimTime, TracedVar};
use vhsim_net::Engagement;

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
    /// verdict is the default `Wireless` (docs/references.md A4), not inequality (1).
    pub suspended: bool,
    /// LD's Tcur (seconds) at the decision, if it had a sample.
    pub tcur: Option<f64>,
    /// LD's threshold, the right-hand side of inequality (2) (seconds; may be infinite).
    pub threshold: Option<f64>,
}

/// A loss classifier.
pub trait LossClassifier {
    /// A new cumulative ACK gave a valid per-ACK RTT sample `rtt` of a segment first sent at
    /// `sent_at` (none from an ACK that fills a hole).
    fn on_sample(&mut self, sent_at: SimTime, rtt: SimDuration);
    /// After each ACK: the cumulative ACK point and one past the highest segment sent.
    fn on_ack(&mut self, snd_una: u64, snd_max: u64);
    /// The retransmission timer expired at `now`.
    fn on_rto(&mut self, now: SimTime);
    /// The RTO response found the last timeout spurious; `snd_max` = one past the highest
    /// segment sent so far.
    fn on_spurious_rto(&mut self, snd_max: u64);
    /// Classify the loss of `seq` at `now`; `None` for a classifier that records nothing.
    fn classify(&mut self, now: SimTime, seq: u64) -> Option<LossClassification>;
    /// The classifier's RTT average, the delay Lim & Jang give TCP-DCR (none without one).
    fn tavg(&self) -> Option<SimDuration>;
    /// The classifier's traced variables.
    fn traced_vars(&self, _out: &mut Vec<TracedVar>) {}
    /// How often the classifier acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// Loss classification before the congestion response (`loss_classifier`).
    config LossClassifierConfig;
    /// The loss classifier of one sender.
    state AnyLossClassifier;
    dispatch dispatch;
    settings TcpConfig;
    /// Every loss is congestion; nothing is recorded.
    "none" => None(none::NoClassifier),
    /// Lim & Jang's loss differentiation (IET Commun. 2(2) 2008; EURASIP JWCN 2009 §4.1):
    /// inequality (1) on the RTT statistics (`k`, `suspend_rounds`, `handover_reset`,
    /// `initial_tdev`).
    "ld" => Ld(ld::Ld) boxed,
}

impl LossClassifier for AnyLossClassifier {
    fn on_sample(&mut self, sent_at: SimTime, rtt: SimDuration) {
        dispatch!(self, p => LossClassifier::on_sample(p, sent_at, rtt))
    }
    fn on_ack(&mut self, snd_una: u64, snd_max: u64) {
        dispatch!(self, p => LossClassifier::on_ack(p, snd_una, snd_max))
    }
    fn on_rto(&mut self, now: SimTime) {
        dispatch!(self, p => LossClassifier::on_rto(p, now))
    }
    fn on_spurious_rto(&mut self, snd_max: u64) {
        dispatch!(self, p => LossClassifier::on_spurious_rto(p, snd_max))
    }
    fn classify(&mut self, now: SimTime, seq: u64) -> Option<LossClassification> {
        dispatch!(self, p => LossClassifier::classify(p, now, seq))
    }
    fn tavg(&self) -> Option<SimDuration> {
        dispatch!(self, p => LossClassifier::tavg(p))
    }
    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        dispatch!(self, p => LossClassifier::traced_vars(p, out))
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => LossClassifier::engagement(p, out))
    }
}

impl AnyLossClassifier {
    /// LD's state, if this is LD.
    pub fn ld(&self) -> Option<&ld::Ld> {
        match self {
            AnyLossClassifier::Ld(ld) => Some(ld),
            _ => None,
        }
    }
}
