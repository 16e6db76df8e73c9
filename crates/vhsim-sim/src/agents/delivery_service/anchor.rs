//! The Delivery Service at the anchor (Sobral et al.'s HNAC): the acknowledged service on one
//! interface's path and the failure detection that triggers a forced handover.
//!
//! Timer rule (`timer`): `restart_on_progress` (default) is a retransmission timer in the
//! manner of RFC 6298 §5: armed `timeout` ahead when a copy is kept and none was; restarted on
//! every acknowledgement that frees a copy while others remain; stopped when none remain. So it
//! expires only after `timeout` without any progress, whatever the load. `packet_age` expires
//! when the oldest kept copy is `timeout` old (per packet; under load it fires sooner after a
//! failure, since the oldest copy was kept before the last acknowledgement came).
//!
//! Buffer (`buffer`): the copies kept may hold at most this many bytes (Sobral et al. §2.2:
//! "40 ms needs a buffer of 80 K bits" at 2 Mb/s); a packet that does not fit is forwarded
//! without a copy (counted `unkept`): it is not protected if the path fails.

use super::DS_ACK_FLAG;
use crate::agents::{AgentAction, AgentCounts, Hook, NodeAgent, Verdict};
use std::collections::VecDeque;
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::{Addr, Packet, UnitKind, NO_FLOW};
use vhsim_scenario::{DsAnchorModel, DsTimer};

/// The anchor's Delivery Service.
#[derive(Clone, Debug)]
pub struct DsAnchor {
    interface: u32,
    timeout: SimDuration,
    guarded_link: u32,
    mobile: Vec<Addr>,
    buffer: Option<u64>,
    timer: DsTimer,
    /// Copies of packets forwarded on the guarded path and not acknowledged, in order, with
    /// when each was kept.
    kept: VecDeque<(SimTime, Packet)>,
    kept_bytes: u64,
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
            buffer: m.buffer,
            timer: m.timer,
            kept: VecDeque::new(),
            kept_bytes: 0,
            deadline: None,
            action: None,
            resend: VecDeque::new(),
            counts: AgentCounts::default(),
        }
    }

    /// The mobile node's DS received the packet `uid`: free its copy and every earlier one.
    fn acknowledge(&mut self, now: SimTime, uid: u64) {
        let Some(pos) = self.kept.iter().position(|(_, p)| p.uid == uid) else { return };
        for (_, p) in self.kept.drain(..=pos) {
            self.kept_bytes -= p.size as u64;
        }
        self.deadline = self.kept.front().map(|&(kept_at, _)| match self.timer {
            DsTimer::RestartOnProgress => now + self.timeout,
            DsTimer::PacketAge => kept_at + self.timeout,
        });
    }

    /// Keep a copy of `pkt` if the buffer has room; the timer starts with the first copy.
    fn keep(&mut self, now: SimTime, pkt: &Packet) {
        if self.buffer.is_some_and(|b| self.kept_bytes + pkt.size as u64 > b) {
            self.counts.unkept += 1;
            return;
        }
        if self.kept.is_empty() {
            self.deadline = Some(now + self.timeout);
        }
        self.kept_bytes += pkt.size as u64;
        self.kept.push_back((now, pkt.clone()));
        self.counts.kept += 1;
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
            self.keep(now, pkt);
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
        self.resend.extend(self.kept.drain(..).map(|(_, p)| p));
        self.kept_bytes = 0;
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
