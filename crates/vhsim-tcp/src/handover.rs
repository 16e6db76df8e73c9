//! Reactions to cross-layer handover notifications (the `HandoverPolicy` axis).
//!
//! A notification carries only what a real mobile node can know: the bandwidth and one-way
//! delay of the old and new access links (Daniel & Kojo §3), never ground truth. Policies that
//! change the sender (cross-layer A1-A5, Freeze-TCP, ...) add variants here.

use crate::config::HandoverPolicyKind;
use crate::sender::SenderCore;
use vhsim_core::{Rate, SimDuration, SimTime};

/// Parameters of one access link as the mobile node reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessLinkInfo {
    /// Link bandwidth.
    pub bandwidth: Rate,
    /// One-way propagation delay.
    pub delay: SimDuration,
}

/// A handover notification as it reaches the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandoverNotice {
    /// The access link before the handover.
    pub old: AccessLinkInfo,
    /// The access link after the handover.
    pub new: AccessLinkInfo,
}

/// The handover policy of one sender.
#[derive(Clone, Debug)]
pub enum AnyHandoverPolicy {
    /// Ignore notifications.
    None,
    /// Keep every notification with its arrival time and change nothing (for tests and
    /// traces).
    Record(Vec<(SimTime, HandoverNotice)>),
}

impl AnyHandoverPolicy {
    /// Build from the configuration.
    pub fn new(kind: HandoverPolicyKind) -> Self {
        match kind {
            HandoverPolicyKind::None => AnyHandoverPolicy::None,
            HandoverPolicyKind::Record => AnyHandoverPolicy::Record(Vec::new()),
        }
    }

    /// A notification arrives at `now`.
    pub fn on_notice(&mut self, _core: &mut SenderCore, now: SimTime, notice: &HandoverNotice) {
        match self {
            AnyHandoverPolicy::None => {}
            AnyHandoverPolicy::Record(log) => log.push((now, *notice)),
        }
    }

    /// Notifications recorded so far (empty unless the policy records).
    pub fn recorded(&self) -> &[(SimTime, HandoverNotice)] {
        match self {
            AnyHandoverPolicy::Record(log) => log,
            AnyHandoverPolicy::None => &[],
        }
    }
}
