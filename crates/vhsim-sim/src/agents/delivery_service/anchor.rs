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

//!
//! Many mobile nodes: one DS at an anchor serves every mobile node anchored there that has a DS
//! of its own for the interface, each with its own copies and timer; the timers wait in a heap
//! (a deadline that moved leaves a stale entry, dropped when it reaches the top), so a packet
//! or an acknowledgement costs O(log N) whatever the number of mobile nodes.

use super::DS_ACK_FLAG;
use crate::agents::{AgentAction, AgentCounts, Hook, NodeAgent, Verdict};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::{Packet, UnitKind, NO_FLOW};
use vhsim_scenario::{DsAnchorModel, DsTimer};

/// No guard for an address.
const NONE: u32 = u32::MAX;

/// The acknowledged service of one mobile node's interface.
#[derive(Clone, Debug)]
struct Guard {
    mobile: u32,
    interface: u32,
    guarded_link: u32,
    /// Copies of packets forwarded on the guarded path and not acknowledged, in order, with
    /// when each was kept.
    kept: VecDeque<(SimTime, Packet)>,
    kept_bytes: u64,
    deadline: Option<SimTime>,
}

/// The anchor's Delivery Service.
#[derive(Clone, Debug)]
pub struct DsAnchor {
    timeout: SimDuration,
    buffer: Option<u64>,
    timer: DsTimer,
    guards: Vec<Guard>,
    /// The guard of each address (`NONE` for addresses of mobile nodes it does not serve).
    guard_of: Vec<u32>,
    /// Every deadline set, earliest first (with stale entries, see the module docs); the top
    /// is always a guard's current deadline.
    timers: BinaryHeap<Reverse<(SimTime, u32)>>,
    actions: VecDeque<AgentAction>,
    resend: VecDeque<Packet>,
    counts: AgentCounts,
}

impl DsAnchor {
    /// The DS of `m`.
    pub fn new(m: &DsAnchorModel) -> Self {
        let top = m.served.iter().flat_map(|s| s.addresses.iter()).max().map_or(0, |&a| a as usize + 1);
        let mut guard_of = vec![NONE; top];
        for (g, s) in m.served.iter().enumerate() {
            for &a in &s.addresses {
                guard_of[a as usize] = g as u32;
            }
        }
        DsAnchor {
            timeout: m.timeout,
            buffer: m.buffer,
            timer: m.timer,
            guards: m
                .served
                .iter()
                .map(|s| Guard {
                    mobile: s.mobile,
                    interface: s.interface,
                    guarded_link: s.guarded_link,
                    kept: VecDeque::new(),
                    kept_bytes: 0,
                    deadline: None,
                })
                .collect(),
            guard_of,
            timers: BinaryHeap::new(),
            actions: VecDeque::new(),
            resend: VecDeque::new(),
            counts: AgentCounts::default(),
        }
    }

    fn guard(&self, addr: vhsim_net::Addr) -> Option<usize> {
        self.guard_of.get(addr.index()).copied().filter(|&g| g != NONE).map(|g| g as usize)
    }

    fn set_deadline(&mut self, g: usize, deadline: Option<SimTime>) {
        self.guards[g].deadline = deadline;
        if let Some(d) = deadline {
            self.timers.push(Reverse((d, g as u32)));
        }
        while let Some(&Reverse((t, g))) = self.timers.peek() {
            if self.guards[g as usize].deadline == Some(t) {
                break;
            }
            self.timers.pop();
        }
    }

    /// The mobile node's DS received the packet `uid`: free its copy and every earlier one.
    fn acknowledge(&mut self, now: SimTime, g: usize, uid: u64) {
        let guard = &mut self.guards[g];
        let Some(pos) = guard.kept.iter().position(|(_, p)| p.uid == uid) else { return };
        for (_, p) in guard.kept.drain(..=pos) {
            guard.kept_bytes -= p.size as u64;
        }
        let deadline = guard.kept.front().map(|&(kept_at, _)| match self.timer {
            DsTimer::RestartOnProgress => now + self.timeout,
            DsTimer::PacketAge => kept_at + self.timeout,
        });
        self.set_deadline(g, deadline);
    }

    /// Keep a copy of `pkt` if the buffer has room; the timer starts with the first copy.
    fn keep(&mut self, now: SimTime, g: usize, pkt: &Packet) {
        let guard = &mut self.guards[g];
        if self.buffer.is_some_and(|b| guard.kept_bytes + pkt.size as u64 > b) {
            self.counts.unkept += 1;
            return;
        }
        let first = guard.kept.is_empty();
        guard.kept_bytes += pkt.size as u64;
        guard.kept.push_back((now, pkt.clone()));
        self.counts.kept += 1;
        if first {
            self.set_deadline(g, Some(now + self.timeout));
        }
    }

    /// §2.2: no acknowledgement within the DS timeout: the path is declared dead and every
    /// queued packet goes to the mobile node by the other path, in order.
    fn fail(&mut self, g: usize) {
        self.counts.failures += 1;
        let guard = &mut self.guards[g];
        self.actions.push_back(AgentAction::InterfaceFailed { mobile: guard.mobile, iface: guard.interface });
        self.resend.extend(guard.kept.drain(..).map(|(_, p)| p));
        guard.kept_bytes = 0;
        self.set_deadline(g, None);
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
            if let Some(g) = self.guard(pkt.src) {
                self.acknowledge(now, g, pkt.tag.seq);
            }
            return Verdict::Consume;
        }
        if let Some(g) = self.guard(pkt.dst) {
            if hook.next_link == Some(self.guards[g].guarded_link) {
                self.keep(now, g, pkt);
            }
        }
        Verdict::Forward
    }

    fn on_timeout(&mut self, now: SimTime) {
        while let Some(&Reverse((t, g))) = self.timers.peek() {
            if t > now {
                break;
            }
            self.timers.pop();
            if self.guards[g as usize].deadline == Some(t) {
                self.fail(g as usize);
            }
        }
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.timers.peek().map(|&Reverse((t, _))| t)
    }

    fn poll_action(&mut self) -> Option<AgentAction> {
        self.actions.pop_front()
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
