//! The Delivery Service at the anchor (Sobral et al.'s HNAC): the acknowledged service on one
//! interface's path and the failure detection that triggers a forced handover.
//!
//! Timer rule (a retransmission timer in the manner of RFC 6298 §5): armed `timeout` ahead when
//! a copy is kept and none was; restarted on every acknowledgement that frees a copy while
//! others remain; stopped when none remain. So it expires only after `timeout` without any
//! progress, whatever the load.

use super::DS_ACK_FLAG;
use crate::agents::{AgentAction, AgentCounts, Hook, NodeAgent, Verdict};
use std::collections::VecDeque;
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::{Addr, Packet, UnitKind, NO_FLOW};
use vhsim_scenario::DsAnchorModel;

/// The anchor's Delivery Service.
#[derive(Clone, Debug)]
pub struct DsAnchor {
    interface: u32,
    timeout: SimDuration,
    guarded_link: u32,
    mobile: Vec<Addr>,
    /// Copies of packets forwarded on the guarded path and not acknowledged, in order.
    kept: VecDeque<Packet>,
    deadline: Option<SimTime>,
    action: Option<AgentAction>,
    resend: VecDeque<Packet>,
    counts: AgentCounts,
}

impl DsAnchor {
    /// The DS of `m`.
    pub fn new(m: &DsAnchorModel) -> Self {
        DsAnchor {
            interface: m.interface,
            timeout: m.timeout,
            guarded_link: m.guarded_link,
            mobile: m.mobile_addresses.iter().map(|&a| Addr(a)).collect(),
            kept: VecDeque::new(),
            deadline: None,
            action: None,
            resend: VecDeque::new(),
            counts: AgentCounts::default(),
        }
    }

    /// The mobile node's DS received the packet `uid`: free its copy and every earlier one.
    fn acknowledge(&mut self, now: SimTime, uid: u64) {
        let Some(pos) = self.kept.iter().position(|p| p.uid == uid) else { return };
        self.kept.drain(..=pos);
        self.deadline = (!self.kept.is_empty()).then(|| now + self.timeout);
    }
}

impl NodeAgent for DsAnchor {
    fn on_packet(&mut self, now: SimTime, pkt: &mut Packet, hook: Hook) -> Verdict {
        self.counts.see(pkt);
        if hook.local
            && pkt.flow == NO_FLOW
            && pkt.tag.kind == UnitKind::Control
            && pkt.tag.flags & DS_ACK_FLAG != 0
        {
            self.counts.consumed += 1;
            self.acknowledge(now, pkt.tag.seq);
            return Verdict::Consume;
        }
        if hook.next_link == Some(self.guarded_link) && self.mobile.contains(&pkt.dst) {
            if self.kept.is_empty() {
                self.deadline = Some(now + self.timeout);
            }
            self.kept.push_back(pkt.clone());
            self.counts.kept += 1;
        }
        Verdict::Forward
    }

    fn on_timeout(&mut self, now: SimTime) {
        if self.deadline.is_none_or(|d| d > now) {
            return;
        }
        // §2.2: no acknowledgement within the DS timeout: the path is declared dead and every
        // queued packet goes to the mobile node by the other path, in order.
        self.deadline = None;
        self.counts.failures += 1;
        self.action = Some(AgentAction::InterfaceFailed(self.interface));
        self.resend.extend(self.kept.drain(..));
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.deadline
    }

    fn poll_action(&mut self) -> Option<AgentAction> {
        self.action.take()
    }

    fn poll_resend(&mut self, _now: SimTime) -> Option<Packet> {
        let p = self.resend.pop_front()?;
        self.counts.resent += 1;
        Some(p)
    }

    fn summary(&self) -> AgentCounts {
        self.counts
    }
}
