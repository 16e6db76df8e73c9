//! The Delivery Service at the mobile node: acknowledges what arrives by the guarded interface,
//! and in active mode filters repeated ACKs after a handover to it.

use super::{DupAckFilter, DS_ACK_FLAG};
use crate::agents::{AgentCounts, Hook, NodeAgent, Verdict};
use std::collections::VecDeque;
use vhsim_core::SimTime;
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
            filter: m.active_mode.map(DupAckFilter::new),
            after_any_handover: m.active_mode_after == ActiveModeAfter::AnyHandover,
            out: VecDeque::new(),
            counts: AgentCounts::default(),
        }
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
            self.out.push_back(self.ds_ack(pkt.uid));
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

    fn poll_send(&mut self, _now: SimTime) -> Option<Packet> {
        let p = self.out.pop_front()?;
        self.counts.sent += 1;
        Some(p)
    }

    fn summary(&self) -> AgentCounts {
        self.counts
    }
}
