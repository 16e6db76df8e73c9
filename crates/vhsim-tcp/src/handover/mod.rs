//! Reactions to cross-layer handover notifications (the `HandoverPolicy` axis).
//!
//! A notification carries only what a real mobile node can know: the bandwidth and one-way
//! delay of the old and new access links (Daniel & Kojo §3), never ground truth. Policies that
//! change the sender (cross-layer A1-A5, Freeze-TCP, ...) add variants here.

mod crosslayer;

pub use crosslayer::{CrossLayer, CrossLayerCounters};

use crate::config::{HandoverPolicyKind, TcpConfig};
use crate::sender::SenderCore;
use vhsim_core::SimTime;

pub use vhsim_net::{AccessLinkInfo, HandoverNotice};

/// The handover policy of one sender.
#[derive(Clone, Debug)]
pub enum AnyHandoverPolicy {
    /// Ignore notifications.
    None,
    /// Keep every notification with its arrival time and change nothing (for tests and
    /// traces).
    Record(Vec<(SimTime, HandoverNotice)>),
    /// Daniel & Kojo's cross-layer algorithms A1-A5.
    CrossLayer(CrossLayer),
}

impl AnyHandoverPolicy {
    /// Build from the configuration.
    pub fn new(cfg: &TcpConfig) -> Self {
        match cfg.handover {
            HandoverPolicyKind::None => AnyHandoverPolicy::None,
            HandoverPolicyKind::Record => AnyHandoverPolicy::Record(Vec::new()),
            HandoverPolicyKind::CrossLayer => AnyHandoverPolicy::CrossLayer(CrossLayer::new(cfg.cross_layer)),
        }
    }

    /// A notification arrives at `now`.
    pub fn on_notice(&mut self, core: &mut SenderCore, now: SimTime, notice: &HandoverNotice) {
        match self {
            AnyHandoverPolicy::None => {}
            AnyHandoverPolicy::Record(log) => log.push((now, *notice)),
            AnyHandoverPolicy::CrossLayer(x) => x.on_notice(core, now, notice),
        }
    }

    /// After every ACK the sender processed.
    pub fn on_ack(&mut self, core: &mut SenderCore, now: SimTime) {
        if let AnyHandoverPolicy::CrossLayer(x) = self {
            x.on_ack(core, now);
        }
    }

    /// Whether the next fast retransmit must keep cwnd and ssthresh.
    pub fn keeps_window(&self) -> bool {
        matches!(self, AnyHandoverPolicy::CrossLayer(x) if x.keeps_window())
    }

    /// Fast recovery was just entered.
    pub fn on_fast_recovery(&mut self, core: &mut SenderCore, now: SimTime) {
        if let AnyHandoverPolicy::CrossLayer(x) = self {
            x.on_fast_recovery(core, now);
        }
    }

    /// A timeout was handled; `first` = not in RTO recovery before it.
    pub fn on_rto(&mut self, core: &mut SenderCore, first: bool) {
        if let AnyHandoverPolicy::CrossLayer(x) = self {
            x.on_rto(core, first);
        }
    }

    /// Notifications recorded so far (empty unless the policy records).
    pub fn recorded(&self) -> &[(SimTime, HandoverNotice)] {
        match self {
            AnyHandoverPolicy::Record(log) => log,
            AnyHandoverPolicy::None | AnyHandoverPolicy::CrossLayer(_) => &[],
        }
    }
}
