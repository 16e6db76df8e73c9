//! Reactions to cross-layer handover notifications (the `HandoverPolicy` axis).
//!
//! A notification carries only what a real mobile node can know: the bandwidth and one-way
//! delay of the old and new access links (Daniel & Kojo §3), never ground truth. Policies that
//! change the sender (cross-layer A1-A5, later Freeze-TCP, ...) are variants here.

use crate::config::TcpConfig;
use crate::sender::SenderCore;
use vhsim_core::SimTime;
use vhsim_net::{Decision, Engagement};

pub use vhsim_net::{AccessLinkInfo, HandoverNotice};

/// A handover policy.
pub trait HandoverPolicy {
    /// A notification arrives at `now`.
    fn on_notice(&mut self, c: &mut SenderCore, now: SimTime, notice: &HandoverNotice);
    /// After every ACK the sender processed.
    fn on_ack(&mut self, _c: &mut SenderCore, _now: SimTime) {}
    /// Whether the next fast retransmit must keep cwnd and ssthresh.
    fn keeps_window(&self) -> bool {
        false
    }
    /// Fast recovery was just entered.
    fn on_fast_recovery(&mut self, _c: &mut SenderCore, _now: SimTime) {}
    /// A timeout was handled; `first` = not in RTO recovery before it.
    fn on_rto(&mut self, _c: &mut SenderCore, _first: bool) {}
    /// The oldest decision the policy took and nobody has taken yet (see [`Decision`]).
    fn next_decision(&mut self) -> Option<Decision> {
        None
    }
    /// How often the policy's mechanisms acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// Reaction to cross-layer handover notifications (`handover`).
    config HandoverPolicyConfig;
    /// The handover policy of one sender.
    state AnyHandoverPolicy;
    dispatch dispatch;
    settings TcpConfig;
    /// Ignore notifications.
    "none" => None(none::Ignore),
    /// Keep every notification with its arrival time and change nothing (tests and traces).
    "record" => Record(record::Record) boxed,
    /// Daniel & Kojo's cross-layer algorithms A1-A5 (`a1` ... `a5` and their parameters;
    /// default: "enhanced TCP", A1 + A2 + A3 + A4).
    "cross_layer" => CrossLayer(crosslayer::CrossLayer) boxed,
    /// DEMO-Vegas: stop sending while the peer's ACKs carry the SIG bit, restart the base RTT
    /// when it clears (docs/references.md §7.1, A17).
    "demo_sig" => DemoSig(sig::DemoSig),
}

impl HandoverPolicy for AnyHandoverPolicy {
    fn on_notice(&mut self, c: &mut SenderCore, now: SimTime, notice: &HandoverNotice) {
        dispatch!(self, p => p.on_notice(c, now, notice))
    }
    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime) {
        dispatch!(self, p => p.on_ack(c, now))
    }
    fn keeps_window(&self) -> bool {
        dispatch!(self, p => p.keeps_window())
    }
    fn on_fast_recovery(&mut self, c: &mut SenderCore, now: SimTime) {
        dispatch!(self, p => p.on_fast_recovery(c, now))
    }
    fn on_rto(&mut self, c: &mut SenderCore, first: bool) {
        dispatch!(self, p => p.on_rto(c, first))
    }
    fn next_decision(&mut self) -> Option<Decision> {
        dispatch!(self, p => p.next_decision())
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}

impl AnyHandoverPolicy {
    /// Notifications recorded so far (empty unless the policy records).
    pub fn recorded(&self) -> &[(SimTime, HandoverNotice)] {
        match self {
            AnyHandoverPolicy::Record(r) => r.notices(),
            _ => &[],
        }
    }

    /// The cross-layer policy's state, if this is it.
    pub fn cross_layer(&self) -> Option<&crosslayer::CrossLayer> {
        match self {
            AnyHandoverPolicy::CrossLayer(x) => Some(x),
            _ => None,
        }
    }
}
