//! mSCTP: dynamic address reconfiguration (RFC 5061) driving a handover (Koh et al. 2004;
//! docs/references.md §9.3, §9.4), and the correspondent's handover schemes (normal mSCTP,
//! MT-mSCTP, HR-mSCTP; §9.4, §10).
//!
//! **The endpoint on the mobile node** requests Add-IP, Set-Primary and Delete-IP at scripted
//! times or on link events ([`crate::MsctpTrigger`]), as ASCONF chunks ([`crate::asconf`]) sent
//! from its current source address to the peer's data destination. An added address becomes
//! one of its own (usable as a source) when the ASCONF-ACK reports success; an address being
//! deleted stops being used as a source at once (and comes back if the peer refuses). The T4
//! timer (RFC 5061 §5.1 B1-B5) counts an error of the destination and of the association,
//! doubles that destination's RTO and resends the same ASCONF, to an alternate destination if
//! there is one.
//!
//! **The peer** (normally the correspondent node) processes the requests in order:
//! * Add-IP: a new destination, UNCONFIRMED, with the initial cwnd and RTO; a HEARTBEAT goes
//!   to it at once (RFC 4960 §5.4, RFC 5061 §4.2.1). A destination deleted before is revived
//!   the same way. It carries no DATA until a HEARTBEAT-ACK confirms it.
//! * Delete-IP: refused with cause 0x00A0 for the last remaining address, else 0x00A2 for the
//!   ASCONF's own source address (§5.2; checked in that order); otherwise the destination leaves
//!   the association: nothing new goes there, and the chunks outstanding there move to the
//!   destination new data goes to, into its flight and under its T3-rtx (RFC 5061 does not say
//!   what happens to them; a timer on an address that is no longer the peer's would retransmit
//!   to it, or be lost with it).
//! * Set-Primary: new data follows the new primary once it is confirmed; with
//!   [`MsctpScheme::HandoverRetransmission`] Kim & Koh's Steps 1-4 (§3): every chunk
//!   outstanding elsewhere, whether in flight or already marked, is marked for a handover
//!   retransmission to the new primary (nothing more goes to the old address), and new data
//!   waits until every marked chunk has been retransmitted (§6.1 C), within the new primary's
//!   cwnd, which restarts from the initial cwnd only with `hr_cwnd_reset`.
//! * An address not in the association: cause 0x0005 (Unresolvable Address).
//!
//! MT-mSCTP ([`MsctpScheme::MultiPath`]) counts missing reports by
//! split fast retransmit ([`crate::sack`]); with `mt_region = "add_ip"` its handover region
//! starts with an Add-IP and ends when a Delete-IP leaves one address, and meanwhile new data
//! goes to any usable destination with cwnd space, the primary first; with `"set_primary"` (the
//! default) new data follows the primary as in normal mSCTP.

use crate::asconf::{Accept, AsconfReceiver, AsconfSender};
use crate::config::{AddressOp, AsconfAction, MsctpScheme, MsctpTrigger, SetPrimarySource};
use crate::endpoint::SctpEndpoint;
use crate::outbound::{next_active, Mark, Outbound};
use crate::path::PathState;
use crate::wire::{
    AsconfAckChunk, AsconfChunk, AsconfRequest, AsconfResult, Chunk, CAUSE_DELETE_LAST_ADDRESS,
    CAUSE_DELETE_SOURCE_ADDRESS, CAUSE_UNRESOLVABLE_ADDRESS,
};
use crate::Addr;
use std::collections::VecDeque;
use vhsim_core::SimTime;
use vhsim_net::{LinkEvent, Packet, TraceTag};

/// The mSCTP state of an endpoint.
#[derive(Clone, Debug, Default)]
pub struct Mobility {
    /// Care-of address of each interface of the mobile node (empty elsewhere).
    pub interfaces: Vec<Addr>,
    /// Scripted requests not made yet, in time order.
    pub script: VecDeque<AsconfAction>,
    /// Delete-IP requests a link trigger scheduled: (when, address).
    pub deletes: Vec<(SimTime, Addr)>,
    /// The requesting side.
    pub sender: AsconfSender,
    /// The responding side.
    pub receiver: AsconfReceiver,
    /// MT-mSCTP's handover region (from an Add-IP until a Delete-IP leaves one address).
    pub region: bool,
    /// HR-mSCTP: a switch waits for the new primary to be confirmed.
    pub hr_pending: bool,
    /// Set-Primary requests applied.
    pub primary_switches: u64,
    /// What the schemes did (engagement counters).
    pub stats: SchemeStats,
}

/// What the mSCTP schemes did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemeStats {
    /// HR-mSCTP handover retransmissions started (one per switch to a confirmed new primary).
    pub hr_switches: u64,
    /// Chunks HR-mSCTP marked for retransmission to the new primary.
    pub hr_marked_chunks: u64,
    /// HR-mSCTP restarts of the new primary's cwnd (`hr_cwnd_reset`).
    pub hr_cwnd_resets: u64,
    /// MT-mSCTP (`mt_region = "add_ip"`): packets of new data sent to another destination than
    /// the primary's in the handover region.
    pub mt_concurrent_packets: u64,
    /// Chunks outstanding on a deleted destination moved to the one new data goes to.
    pub deleted_chunks_moved: u64,
}

impl SctpEndpoint {
    /// Make this the endpoint on the mobile node: `interfaces` are the care-of addresses of its
    /// interfaces (in interface order, as link events number them), `actions` its scripted
    /// requests (any order).
    pub fn set_mobility(&mut self, interfaces: Vec<Addr>, mut actions: Vec<AsconfAction>) {
        actions.sort_by_key(|a| a.at);
        self.mob.interfaces = interfaces;
        self.mob.script = actions.into();
    }

    /// The mSCTP state.
    pub fn mobility(&self) -> &Mobility {
        &self.mob
    }

    /// Request an address reconfiguration now (sent at once unless an ASCONF is outstanding).
    pub fn request(&mut self, now: SimTime, op: AddressOp) {
        if !self.cfg.asconf {
            return;
        }
        match op {
            AddressOp::Add(a) if self.spec.local.contains(&a) || self.mob.sender.pending(op) => return,
            AddressOp::Delete(a) => {
                self.spec.local.retain(|&x| x != a);
                let fallback = self.spec.local.first().copied();
                for p in self.paths.iter_mut().filter(|p| p.source == a) {
                    p.source = fallback.unwrap_or(a);
                }
            }
            AddressOp::SetPrimary(a)
                if self.spec.local.contains(&a) && self.cfg.set_primary_from == SetPrimarySource::New =>
            {
                self.paths.iter_mut().for_each(|p| p.source = a);
            }
            _ => {}
        }
        self.mob.sender.request(op);
        self.flush_asconf(now);
    }

    /// Send the waiting requests if no ASCONF is outstanding.
    fn flush_asconf(&mut self, now: SimTime) {
        let dest = self.data_path();
        let (src, t4) = (self.paths[dest].source, now + self.paths[dest].rto.rto());
        if let Some(chunk) = self.mob.sender.next_chunk(src, dest, t4) {
            self.queue_asconf(src, dest, chunk);
        }
    }

    fn queue_asconf(&mut self, src: Addr, dest: usize, chunk: AsconfChunk) {
        let tag = TraceTag::control(u64::from(chunk.serial));
        let pkt = self.packet(src, self.paths[dest].addr, vec![Chunk::Asconf(chunk)], tag);
        self.queue.push_back(pkt);
    }

    /// The earliest mSCTP deadline: a scripted request, a scheduled Delete-IP, T4-RTO.
    pub(crate) fn mobility_deadline(&self) -> Option<SimTime> {
        let script = self.mob.script.front().map(|a| a.at);
        let deletes = self.mob.deletes.iter().map(|d| d.0).min();
        [script, deletes, self.mob.sender.t4()].into_iter().flatten().min()
    }

    /// Run the due mSCTP deadlines; true if the association failed.
    pub(crate) fn mobility_timers(&mut self, now: SimTime) -> bool {
        while self.mob.script.front().is_some_and(|a| a.at <= now) {
            let a = self.mob.script.pop_front().expect("checked");
            self.request(now, a.op);
        }
        while let Some(i) = self.mob.deletes.iter().position(|d| d.0 <= now) {
            let (_, a) = self.mob.deletes.remove(i);
            self.request(now, AddressOp::Delete(a));
        }
        if self.mob.sender.t4().is_some_and(|t| t <= now) {
            return self.on_t4(now);
        }
        false
    }

    /// T4-RTO expiry (RFC 5061 §5.1 B1-B5).
    fn on_t4(&mut self, now: SimTime) -> bool {
        let o = self.mob.sender.outstanding.as_mut().expect("T4 runs only with an outstanding ASCONF");
        let d = o.dest;
        self.paths[d].count_error(self.cfg.path_max_retrans); // B1
        self.out.assoc_errors += 1; // B2
        if self.association_error(now) {
            return true;
        }
        self.paths[d].rto.back_off(); // B3
        let to = if self.paths.len() > 1 { next_active(d, &self.paths) } else { d }; // B4
        let t4 = now + self.paths[to].rto.rto(); // B5
        let o = self.mob.sender.outstanding.as_mut().expect("still outstanding");
        o.dest = to;
        o.t4 = t4;
        let chunk = o.chunk.clone();
        self.mob.sender.stats.retransmitted += 1;
        let src = self.paths[to].source;
        self.queue_asconf(src, to, chunk);
        false
    }

    /// An ASCONF-ACK arrived (requesting side).
    pub(crate) fn on_asconf_ack(&mut self, now: SimTime, ack: &AsconfAckChunk) {
        let Some(results) = self.mob.sender.on_ack(ack) else { return };
        for (req, cause) in results {
            let a = Addr(req.addr());
            match (req, cause) {
                (AsconfRequest::AddIp { .. }, None) if !self.spec.local.contains(&a) => {
                    self.spec.local.push(a)
                }
                (AsconfRequest::DeleteIp { .. }, Some(_)) if !self.spec.local.contains(&a) => {
                    self.spec.local.push(a)
                }
                _ => {}
            }
        }
        self.flush_asconf(now);
    }

    /// A link event at the mobile node, under a link trigger (`msctp_trigger`).
    pub(crate) fn on_trigger(&mut self, now: SimTime, ev: &LinkEvent) {
        let iface = |i: u32| self.mob.interfaces.get(i as usize).copied();
        let switch_to = match (self.cfg.msctp_trigger, *ev) {
            (MsctpTrigger::LinkUp, LinkEvent::Up(i)) => iface(i),
            (MsctpTrigger::Warning, LinkEvent::Imminent { new, .. }) => iface(new),
            (MsctpTrigger::LinkUp | MsctpTrigger::Warning, LinkEvent::Completed { old, .. }) => {
                if let (Some(after), Some(a)) = (self.cfg.delete_after, iface(old)) {
                    self.mob.deletes.push((now + after, a));
                }
                None
            }
            _ => None,
        };
        if let Some(a) = switch_to {
            self.request(now, AddressOp::Add(a));
            self.request(now, AddressOp::SetPrimary(a));
        }
    }

    /// An ASCONF arrived in `pkt` (responding side, §5.2).
    pub(crate) fn on_asconf(&mut self, now: SimTime, pkt: &Packet, chunk: &AsconfChunk) {
        let ack = match self.mob.receiver.accept(chunk.serial) {
            Accept::Stale => return,
            Accept::Duplicate(ack) => ack,
            Accept::New => {
                let results = chunk.requests.iter().map(|r| self.apply_request(now, pkt.src, r)).collect();
                self.mob.receiver.processed(chunk.serial, results)
            }
        };
        let reply = self.packet(
            pkt.dst,
            pkt.src,
            vec![Chunk::AsconfAck(ack)],
            TraceTag::control(u64::from(chunk.serial)),
        );
        self.queue.push_back(reply);
    }

    fn apply_request(&mut self, now: SimTime, source: Addr, r: &AsconfRequest) -> AsconfResult {
        let correlation = r.correlation();
        let a = Addr(r.addr());
        let found = self.path_of(a).filter(|&d| !self.paths[d].deleted);
        let error = |cause| AsconfResult::Error { correlation, cause };
        match *r {
            AsconfRequest::AddIp { .. } => {
                if found.is_none() {
                    self.add_destination(now, a);
                }
            }
            AsconfRequest::DeleteIp { .. } => {
                let Some(d) = found else { return error(CAUSE_UNRESOLVABLE_ADDRESS) };
                if self.paths.iter().filter(|p| !p.deleted).count() == 1 {
                    return error(CAUSE_DELETE_LAST_ADDRESS);
                }
                if a == source {
                    return error(CAUSE_DELETE_SOURCE_ADDRESS);
                }
                self.delete_destination(now, d);
            }
            AsconfRequest::SetPrimary { .. } => {
                let Some(d) = found else { return error(CAUSE_UNRESOLVABLE_ADDRESS) };
                self.switch_primary(d);
            }
        }
        AsconfResult::Success { correlation }
    }

    /// A new (or revived) destination: unconfirmed, initial cwnd and RTO, probed at once.
    fn add_destination(&mut self, now: SimTime, a: Addr) {
        let mut p = PathState::new(a, self.spec.local[0], &self.cfg);
        p.confirmed = false;
        p.hb.last_activity = Some(now);
        p.hb.probe_now = true;
        match self.path_of(a) {
            Some(d) => {
                p.flight = self.paths[d].flight;
                p.t3 = self.paths[d].t3;
                p.stats = self.paths[d].stats;
                self.paths[d] = p;
            }
            None => self.paths.push(p),
        }
        if !self.spec.peer.contains(&a) {
            self.spec.peer.push(a);
        }
        self.mob.region = true;
    }

    fn delete_destination(&mut self, now: SimTime, d: usize) {
        let p = &mut self.paths[d];
        p.deleted = true;
        p.hb.pending = None;
        p.hb.probe_now = false;
        p.decay_at = None;
        self.spec.peer.retain(|&x| x != p.addr);
        if self.primary == d {
            self.primary = next_active(d, &self.paths);
            self.spec.primary = self.paths[self.primary].addr;
        }
        let to = self.data_path();
        if to != d {
            for c in self.out.chunks.iter_mut().filter(|c| c.dest == d && !c.gap_acked) {
                if c.mark.is_none() {
                    self.paths[d].flight -= c.size;
                    self.paths[to].flight += c.size;
                }
                c.dest = to;
                self.mob.stats.deleted_chunks_moved += 1;
            }
            let old = &mut self.paths[d];
            old.t3 = None;
            old.timed = None;
            if self.paths[to].flight > 0 {
                self.paths[to].ensure_t3(now);
            }
        }
        if self.paths.iter().filter(|p| !p.deleted).count() == 1 {
            self.mob.region = false;
        }
    }

    /// Set-Primary to destination `d` (responding side).
    fn switch_primary(&mut self, d: usize) {
        let old = self.primary;
        self.primary = d;
        self.spec.primary = self.paths[d].addr;
        self.mob.primary_switches += 1;
        if self.cfg.msctp == MsctpScheme::HandoverRetransmission && d != old {
            self.mob.hr_pending = true;
            self.handover_retransmission();
        }
    }

    /// HR-mSCTP (Kim & Koh §3) once the new primary can carry data. Step 1, "pause the data
    /// transmissions to the old primary address", and Steps 2-3, "retransmit all the
    /// outstanding data chunks to the new primary address": every chunk outstanding on another
    /// destination, in flight or already marked, is marked for a handover retransmission,
    /// which goes to the new primary (and leaves the old destination's flight, stopping its
    /// T3-rtx). Step 4, new data only after that, is §6.1 C in [`Outbound::new_data`]. The
    /// new primary keeps its cwnd unless `hr_cwnd_reset` (not one of the Steps).
    pub(crate) fn handover_retransmission(&mut self) {
        let to = self.primary;
        if !self.mob.hr_pending || !self.paths[to].usable() {
            return;
        }
        self.mob.hr_pending = false;
        self.mob.stats.hr_switches += 1;
        for c in self.out.chunks.iter_mut().filter(|c| !c.gap_acked && c.dest != to) {
            let p = &mut self.paths[c.dest];
            if c.mark.is_none() {
                p.flight -= c.size;
            }
            if p.timed.is_some_and(|(t, _)| t == c.tsn) {
                p.timed = None;
            }
            c.mark = Some(Mark::Handover);
            c.misses = 0;
            self.mob.stats.hr_marked_chunks += 1;
        }
        for p in self.paths.iter_mut().filter(|p| p.flight == 0) {
            p.t3 = None;
        }
        if self.cfg.hr_cwnd_reset {
            let p = &mut self.paths[to];
            p.cwnd = self.cfg.initial_cwnd_bytes();
            p.partial_bytes_acked = 0;
            self.mob.stats.hr_cwnd_resets += 1;
        }
    }

    /// MT-mSCTP's destination for new data in the handover region: the primary's data
    /// destination if it has cwnd space, else the first other usable destination that has.
    pub(crate) fn concurrent_dest(&self) -> usize {
        let first = Outbound::data_dest(self.primary, &self.paths);
        let has_space = |d: usize| self.paths[d].usable() && self.paths[d].flight < self.paths[d].cwnd;
        if has_space(first) {
            return first;
        }
        (0..self.paths.len()).find(|&d| d != first && has_space(d)).unwrap_or(first)
    }
}
