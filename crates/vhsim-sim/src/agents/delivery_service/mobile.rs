//! The Delivery Service at the mobile node: acknowledges what arrives by the guarded interface,
//! and in active mode filters repeated ACKs after a handover to it.
//!
//! Acknowledgement policy: one per packet (`ack_every` = 1, default: the paper says only
//! "acknowledged service"), or one per `ack_every` packets, naming the latest, and at the latest
//! `ack_delay` after the first packet it covers arrived (a delayed acknowledgement, as TCP's,
//! so that the last packets before a pause do not wait for more).

use super::{DupAckFilter, DS_ACK_FLAG};
use crate::agents::{AgentCounts, Hook, NodeAgent, Verdict};
use std::collections::VecDeque;
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::{Addr, LinkEvent, Packet, Payload, TraceTag, UnitKind, NO_FLOW};
use vhsim_scenario::{ActiveModeAfter, DsMobileModel};

/// The mobile node's Delivery Service.
#[derive(Clone, Debug)]
pub struct DsMobile {
    interface: u32,
    address: Addr,
    anchor: Addr,
    arrivals: Vec<u32>,
    ack_size: u32,
    ack_every: u32,
    ack_delay: SimDuration,
    /// Packets received and not acknowledged yet: how many, the latest's uid, and when the
    /// delayed acknowledgement is due.
    unacked: u32,
    latest: u64,
    ack_due: Option<SimTime>,
    filter: Option<DupAckFilter>,
    after_any_handover: bool,
    out: VecDeque<Packet>,
    counts: AgentCounts,
}

impl DsMobile {
    /// The DS of `m`.
    pub fn new(m: &DsMobileModel) -> Self {
        DsMobile {
            interface: m.interface,
            address: Addr(m.address),
            anchor: Addr(m.anchor_address),
            arrivals: m.arrivals.clone(),
            ack_size: m.ack_size,
            ack_every: m.ack_every,
            ack_delay: m.ack_delay,
            unacked: 0,
            latest: 0,
            ack_due: None,
            filter: m.active_mode.map(DupAckFilter::new),
            after_any_handover: m.active_mode_after == ActiveModeAfter::AnyHandover,
            out: VecDeque::new(),
            counts: AgentCounts::default(),
        }
    }

    /// Packet `uid` arrived by the guarded interface: acknowledge it now, or when `ack_every`
    /// have come or `ack_delay` has passed.
    fn received(&mut self, now: SimTime, uid: u64) {
        self.unacked += 1;
        self.latest = uid;
        if self.unacked >= self.ack_every {
            self.acknowledge();
        } else if self.ack_due.is_none() {
            self.ack_due = Some(now + self.ack_delay);
        }
    }

    /// Acknowledge every packet received so far (cumulative by position: the latest's uid).
    fn acknowledge(&mut self) {
        self.out.push_back(self.ds_ack(self.latest));
        self.unacked = 0;
        self.ack_due = None;
    }

    /// The acknowledgement of the packet `uid`.
    fn ds_ack(&self, uid: u64) -> Packet {
        let tag = TraceTag { flags: DS_ACK_FLAG, ..TraceTag::control(uid) };
        Packet {
            uid: 0,
            flow: NO_FLOW,
            src: self.address,
            dst: self.anchor,
            size: self.ack_size,
            tag,
            payload: Payload::Empty,
        }
    }
}

impl NodeAgent for DsMobile {
    fn on_packet(&mut self, now: SimTime, pkt: &mut Packet, hook: Hook) -> Verdict {
        self.counts.see(pkt);
        if hook.local && hook.arrived_on.is_some_and(|l| self.arrivals.contains(&l)) {
            self.received(now, pkt.uid);
            return Verdict::Forward;
        }
        // ACKs leaving the mobile node's endpoints (transport-neutral: the tag's cumulative ACK).
        if hook.arrived_on.is_none() && pkt.tag.kind == UnitKind::Ack && pkt.flow != NO_FLOW {
            if let Some(f) = self.filter.as_mut() {
                if !f.passes(now, pkt.flow, pkt.tag.seq) {
                    self.counts.dropped += 1;
                    return Verdict::Drop;
                }
            }
        }
        Verdict::Forward
    }

    fn on_link_event(&mut self, now: SimTime, ev: &LinkEvent) {
        // §5.2: "Once it notices that there has been a handover to WLAN ... it starts building
        // information about TCP flows"; Figure 7(b) also filters after the return to 3G.
        if let (LinkEvent::Completed { new, .. }, Some(f)) = (ev, self.filter.as_mut()) {
            if *new == self.interface || self.after_any_handover {
                f.activate(now);
            }
        }
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.ack_due
    }

    fn on_timeout(&mut self, now: SimTime) {
        if self.ack_due.is_some_and(|d| d <= now) {
            self.acknowledge();
        }
    }

    fn poll_send(&mut self, _now: SimTime) -> Option<Packet> {
        let p = self.out.pop_front()?;
        self.counts.sent += 1;
        Some(p)
    }

    fn summary(&self) -> AgentCounts {
        self.counts
    }
}
