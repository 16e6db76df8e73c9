//! The hold agent: keeps every packet that matches its rule during `[from, until)` and releases
//! them all at `until`, in the order they came (a buffering node; the shape of the Delivery
//! Service's buffer). Nothing is lost.

use super::{matches, AgentCounts, Hook, NodeAgent, Verdict};
use std::collections::VecDeque;
use vhsim_core::SimTime;
use vhsim_net::Packet;
use vhsim_scenario::PacketRule;

/// Holds by rule during a window.
#[derive(Clone, Debug)]
pub struct Hold {
    rule: PacketRule,
    from: SimTime,
    until: SimTime,
    held: VecDeque<Packet>,
    counts: AgentCounts,
}

impl Hold {
    /// Hold what matches `rule` during `[from, until)`.
    pub fn new(rule: PacketRule, from: SimTime, until: SimTime) -> Self {
        Hold { rule, from, until, held: VecDeque::new(), counts: AgentCounts::default() }
    }
}

impl NodeAgent for Hold {
    fn on_packet(&mut self, now: SimTime, pkt: &mut Packet, _hook: Hook) -> Verdict {
        self.counts.see(pkt);
        if now >= self.from && now < self.until && matches(&self.rule, pkt) {
            self.counts.held += 1;
            self.held.push_back(pkt.clone());
            Verdict::Hold
        } else {
            Verdict::Forward
        }
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        (!self.held.is_empty()).then_some(self.until)
    }

    fn poll_release(&mut self, now: SimTime) -> Option<Packet> {
        if now < self.until {
            return None;
        }
        let p = self.held.pop_front()?;
        self.counts.released += 1;
        Some(p)
    }

    fn summary(&self) -> AgentCounts {
        self.counts
    }
}
