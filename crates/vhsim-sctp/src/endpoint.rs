//! An SCTP association endpoint: one side of an association, with a sending half
//! ([`Outbound`]), a receiving half ([`Inbound`]) and one [`PathState`] per peer address,
//! driven through the transport-neutral [`Endpoint`] interface.
//!
//! DATA and HEARTBEATs to a destination leave from the local address the latest packet from
//! that destination arrived at (initially the first local address), replies (SACK,
//! HEARTBEAT-ACK) from the address the packet they answer arrived at; the world routes by the
//! destination address and picks the interface by the source.
//!
//! The association starts ESTABLISHED (INIT / INIT-ACK / COOKIE are not modelled): both sides
//! know each other's addresses, the peer's initial a_rwnd is its configured receive buffer,
//! TSNs start at 1 and every destination is active with its initial cwnd and RTO.Initial.
//! Timers and heartbeats start with the first call that hands the endpoint the time.
//!
//! Per arriving packet, chunks are processed in bundle order: SACK ([`crate::sack`]; a fast
//! retransmission packet is queued at once), DATA (collected, then [`Inbound::on_data`]; a SACK
//! is queued if due now), HEARTBEAT (a HEARTBEAT-ACK is queued, echoing the information, to
//! the address it came from, from the address it arrived at), HEARTBEAT-ACK (the destination
//! in its information is reachable). ASCONF and ASCONF-ACK are ignored until mSCTP exists.
//!
//! Per wake-up, due deadlines run in path order: the delayed SACK, then per destination its
//! T3-rtx ([`crate::retransmit`]: the T3 retransmission packet is queued at once, a
//! [`Report::Timeout`] raised), its unanswered HEARTBEAT, a due HEARTBEAT, the idle cwnd decay.
//!
//! [`Endpoint::poll_transmit`] returns the queued packets first, then retransmissions of marked
//! chunks within cwnd, then new DATA for the primary (or, when it is inactive, the next active
//! destination). After a T3-rtx expiry only the queued packets leave at that moment; the other
//! marked chunks wait for the next event, normally a SACK (§6.3.3 "sent as soon as cwnd allows
//! (normally, when a SACK arrives)"; ns-2's `Timeout()` sends one packet). Max.Burst counts DATA packets per transmit opportunity (each arriving
//! packet, wake-up or application offer starts one); only the queued packets ignore it.
//! SACKs are never bundled with DATA.

use crate::config::{ConfigError, EndpointSpec, MaxBurstScope, MsctpScheme, MtRegion, SctpConfig};
use crate::inbound::Inbound;
use crate::mobility::Mobility;
use crate::outbound::{DataTx, Outbound};
use crate::path::PathState;
use crate::retransmit::RtxSelect;
use crate::summary::{PathSummary, SctpSummary};
use crate::wire::{Chunk, CommonHeader, DataChunk, HeartbeatInfo, SackChunk, SctpPacket};
use crate::Addr;
use std::collections::VecDeque;
use vhsim_core::{RngStream, SimTime, TracedVar};
use vhsim_net::{
    AppOffer, Endpoint, Engagement, LinkEvent, Packet, Payload, Pending, Report, SendProgress, TraceTag, UnitKind,
};

/// SCTP port of both endpoints (ports are not modelled beyond the header's fields).
pub const SCTP_PORT: u16 = 5001;

/// One side of an SCTP association.
#[derive(Clone, Debug)]
pub struct SctpEndpoint {
    pub(crate) spec: EndpointSpec,
    pub(crate) cfg: SctpConfig,
    pub(crate) paths: Vec<PathState>,
    pub(crate) primary: usize,
    pub(crate) out: Outbound,
    pub(crate) inb: Inbound,
    rng: RngStream,
    pub(crate) queue: VecDeque<Packet>,
    reports: VecDeque<Report>,
    started: bool,
    failed_at: Option<SimTime>,
    burst: u32,
    burst_limited: bool,
    /// A T3-rtx expired in this opportunity: nothing beyond its retransmission goes now.
    t3_fired: bool,
    /// mSCTP: address reconfiguration and handover schemes (`crate::mobility`).
    pub(crate) mob: Mobility,
}

impl SctpEndpoint {
    /// An established endpoint. `rng` draws the heartbeat jitter (the world keys it by the
    /// endpoint's name, e.g. `flow/<name>/sctp/<side>`); with `hb_jitter = 0` it is unused.
    pub fn new(spec: EndpointSpec, cfg: SctpConfig, rng: RngStream) -> Result<Self, Vec<ConfigError>> {
        let mut errs = Vec::new();
        if let Err(e) = cfg.validate() {
            errs.extend(e);
        }
        if let Err(e) = spec.validate() {
            errs.extend(e);
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        let paths: Vec<PathState> =
            spec.peer.iter().map(|&a| PathState::new(a, spec.local[0], &cfg)).collect();
        let primary = spec.peer.iter().position(|&a| a == spec.primary).expect("validated");
        Ok(SctpEndpoint {
            out: Outbound::new(&cfg),
            inb: Inbound::default(),
            paths,
            primary,
            spec,
            cfg,
            rng,
            queue: VecDeque::new(),
            reports: VecDeque::new(),
            started: false,
            failed_at: None,
            burst: 0,
            burst_limited: false,
            t3_fired: false,
            mob: Mobility::default(),
        })
    }

    /// Both endpoints of an association of flow `flow`: `a` with addresses `a_addrs` sending to
    /// `b_primary` first, `b` with `b_addrs` sending to `a_primary` first. Each gets its own
    /// random stream.
    #[allow(clippy::too_many_arguments)]
    pub fn pair(
        flow: u32,
        cfg: &SctpConfig,
        a_addrs: &[Addr],
        b_addrs: &[Addr],
        a_primary: Addr,
        b_primary: Addr,
        rng_a: RngStream,
        rng_b: RngStream,
    ) -> Result<(Self, Self), Vec<ConfigError>> {
        let a = EndpointSpec { flow, local: a_addrs.to_vec(), peer: b_addrs.to_vec(), primary: b_primary };
        let b = EndpointSpec { flow, local: b_addrs.to_vec(), peer: a_addrs.to_vec(), primary: a_primary };
        let a = Self::new(a, cfg.clone(), rng_a).map_err(|e| prefixed(e, "a"))?;
        let b = Self::new(b, cfg.clone(), rng_b).map_err(|e| prefixed(e, "b"))?;
        Ok((a, b))
    }

    /// Configuration.
    pub fn config(&self) -> &SctpConfig {
        &self.cfg
    }

    /// Who this endpoint is.
    pub fn spec(&self) -> &EndpointSpec {
        &self.spec
    }

    /// Per-destination state, in peer-address order.
    pub fn paths(&self) -> &[PathState] {
        &self.paths
    }

    /// Primary destination (path index).
    pub fn primary(&self) -> usize {
        self.primary
    }

    /// Where new DATA goes now (path index).
    pub fn data_path(&self) -> usize {
        Outbound::data_dest(self.primary, &self.paths)
    }

    /// The sending half.
    pub fn outbound(&self) -> &Outbound {
        &self.out
    }

    /// The receiving half.
    pub fn inbound(&self) -> &Inbound {
        &self.inb
    }

    /// When the association failed (Association.Max.Retrans exceeded).
    pub fn failed_at(&self) -> Option<SimTime> {
        self.failed_at
    }

    /// Path index of a peer address.
    pub fn path_of(&self, addr: Addr) -> Option<usize> {
        self.paths.iter().position(|p| p.addr == addr)
    }

    /// Make `addr` the primary destination (ns-2 `set-primary-destination`; the local side of
    /// mSCTP's Set Primary). New DATA follows at the next transmission.
    pub fn set_primary(&mut self, addr: Addr) -> Result<(), ConfigError> {
        let i = self.path_of(addr).ok_or_else(|| {
            let peer: Vec<u32> = self.spec.peer.iter().map(|a| a.0).collect();
            ConfigError {
                key: "primary".into(),
                message: format!("address {} is not one of the peer's addresses {peer:?}", addr.0),
            }
        })?;
        self.primary = i;
        self.spec.primary = addr;
        Ok(())
    }

    /// The `sctp` part of the flow summary.
    pub fn summary(&self) -> SctpSummary {
        let paths = self
            .paths
            .iter()
            .enumerate()
            .map(|(i, p)| PathSummary {
                path: i as u32,
                address: p.addr.0,
                active: p.active,
                confirmed: p.confirmed,
                deleted: p.deleted,
                cwnd_bytes: p.cwnd,
                ssthresh_bytes: p.ssthresh,
                rto_s: p.rto.rto().as_secs_f64(),
                srtt_s: p.rto.srtt().map(|s| s.as_secs_f64()),
                error_count: p.error_count,
                counters: p.stats,
            })
            .collect();
        SctpSummary {
            primary_path: self.primary as u32,
            data_path: self.data_path() as u32,
            tsns_sent: (self.out.next_tsn - 1) as u64,
            cum_tsn_acked: self.out.cum_ack as u64,
            fast_recoveries: self.out.stats.fast_recoveries,
            sacks_received: self.out.stats.sacks,
            sacks_sent: self.inb.stats.sacks,
            duplicate_chunks_received: self.inb.stats.duplicates,
            association_failed_at_s: self.failed_at.map(|t| t.as_secs_f64()),
            primary_switches: self.mob.primary_switches,
            asconf_sent: self.mob.sender.stats.sent,
            asconf_retransmissions: self.mob.sender.stats.retransmitted,
            asconf_errors: self.mob.sender.stats.errors,
            paths,
        }
    }

    /// The `sctp` part of a flow's summary: this (sending) endpoint's part with the SACKs and
    /// duplicate chunks of the flow's receiving endpoint `receiver`.
    pub fn summary_with_receiver(&self, receiver: Option<&SctpEndpoint>) -> SctpSummary {
        let mut s = self.summary();
        if let Some(r) = receiver {
            let a = &r.mob.sender.stats;
            s.sacks_sent = r.inb.stats.sacks;
            s.duplicate_chunks_received = r.inb.stats.duplicates;
            s.asconf_sent += a.sent;
            s.asconf_retransmissions += a.retransmitted;
            s.asconf_errors += a.errors;
        }
        s
    }

    fn start(&mut self, now: SimTime) {
        if self.started {
            return;
        }
        self.started = true;
        for i in 0..self.paths.len() {
            let u = self.draw_jitter();
            let p = &mut self.paths[i];
            p.hb.last_activity = Some(now);
            p.hb.jitter = u;
        }
    }

    /// A new transmit opportunity begins (Max.Burst counts per opportunity).
    fn begin_opportunity(&mut self) {
        self.burst = 0;
        self.t3_fired = false;
        self.burst_limited = self.cfg.max_burst > 0 && self.cfg.max_burst_scope == MaxBurstScope::EverySend;
    }

    fn burst_allows(&self) -> bool {
        !self.burst_limited || self.burst < self.cfg.max_burst
    }

    fn draw_jitter(&mut self) -> f64 {
        if self.cfg.hb_jitter == 0.0 {
            return 0.0;
        }
        (2.0 * self.rng.uniform() - 1.0) * self.cfg.hb_jitter
    }

    pub(crate) fn packet(&self, src: Addr, dst: Addr, chunks: Vec<Chunk>, tag: TraceTag) -> Packet {
        let sctp = SctpPacket {
            header: CommonHeader {
                src_port: SCTP_PORT,
                dst_port: SCTP_PORT,
                verification_tag: self.spec.flow,
            },
            chunks,
        };
        let tag = TraceTag { flags: sctp.kind_flags(), ..tag };
        let size = self.cfg.ip_header_size + sctp.wire_len();
        Packet { uid: 0, flow: self.spec.flow, src, dst, size, tag, payload: Payload::Sctp(Box::new(sctp)) }
    }

    /// The packet for `tx`, with the bookkeeping of sending DATA to a destination.
    fn data_packet(&mut self, now: SimTime, tx: DataTx) -> Packet {
        self.burst += 1;
        let mtu = self.cfg.cc_mtu();
        let p = &mut self.paths[tx.dest];
        if let (Some(after), Some(last)) = (self.cfg.idle_cwnd_reset, p.last_data_at) {
            if now - last >= after {
                // RFC 4960 §7.2.1 "after a sufficiently long idle period": the initial cwnd. The
                // first packet passes the cwnd check whatever the window (nothing was in flight
                // here), so resetting as it leaves is exact.
                p.cwnd = self.cfg.initial_cwnd_bytes();
                p.partial_bytes_acked = 0;
                p.stats.idle_cwnd_resets += 1;
            }
        }
        p.last_data_at = Some(now);
        p.stats.data_packets += 1;
        p.hb_note_activity(now);
        p.decay_at = (self.cfg.idle_cwnd_decay && p.cwnd > 4 * mtu).then(|| now + p.rto.rto());
        let tag = TraceTag {
            kind: UnitKind::Data,
            seq: tx.chunks[0].tsn as u64,
            units: tx.chunks.len() as u16,
            retx: tx.cause,
            copy: 0,
            payload_bytes: tx.chunks.iter().map(|c| c.payload_len).sum(),
            flags: 0,
        };
        let (src, dst) = (self.paths[tx.dest].source, self.paths[tx.dest].addr);
        let chunks = tx.chunks.into_iter().map(Chunk::Data).collect();
        self.packet(src, dst, chunks, tag)
    }

    fn queue_sack(&mut self) {
        let Some((local, remote)) = self.inb.reply else { return };
        let sack = self.inb.build_sack(&self.cfg);
        let tag = TraceTag::ack(sack.cum_tsn_ack as u64);
        let pkt = self.packet(local, remote, vec![Chunk::Sack(sack)], tag);
        self.queue.push_back(pkt);
    }

    fn queue_heartbeat(&mut self, now: SimTime, d: usize) {
        let jitter = self.draw_jitter();
        let p = &mut self.paths[d];
        p.hb_sent(now, jitter);
        let (src, dst) = (p.source, p.addr);
        let info = HeartbeatInfo { dest: dst.0, sent_at_ns: now.0 };
        let tag = TraceTag::control(0);
        let pkt = self.packet(src, dst, vec![Chunk::Heartbeat(info)], tag);
        self.queue.push_back(pkt);
    }

    fn queue_retransmission(&mut self, now: SimTime, select: RtxSelect) {
        if let Some(tx) = self.out.retransmission(now, select, self.primary, &mut self.paths, &self.cfg) {
            let pkt = self.data_packet(now, tx);
            self.queue.push_back(pkt);
        }
    }

    fn on_sack(&mut self, now: SimTime, sack: &SackChunk, from: Addr) {
        let Some(outcome) = self.out.on_sack(now, sack, from, &mut self.paths, &self.cfg) else { return };
        if self.cfg.max_burst > 0 && self.out.acked_fast_retransmitted {
            self.burst_limited = true;
        }
        if outcome.fast_retransmit {
            self.queue_retransmission(now, RtxSelect::FastRetransmit);
        }
    }

    fn on_heartbeat_ack(&mut self, now: SimTime, info: &HeartbeatInfo) {
        if let Some(d) = self.path_of(Addr(info.dest)).filter(|&d| !self.paths[d].deleted) {
            self.paths[d].hb_acked(now, SimTime(info.sent_at_ns));
            self.out.assoc_errors = 0; // §8.1
            self.handover_retransmission(); // a new primary may just have been confirmed
        }
    }

    /// Count an association error; fails the association above Association.Max.Retrans.
    pub(crate) fn association_error(&mut self, now: SimTime) -> bool {
        if self.out.assoc_errors > self.cfg.association_max_retrans {
            self.failed_at = Some(now);
            self.queue.clear();
            for p in &mut self.paths {
                p.t3 = None;
                p.decay_at = None;
            }
            self.inb.sack_at = None;
            return true;
        }
        false
    }

    fn path_timers(&mut self, now: SimTime, d: usize) -> bool {
        if self.paths[d].t3.is_some_and(|t| t <= now) {
            let o = self.out.on_t3_expiry(d, &mut self.paths, &self.cfg);
            self.reports.push_back(Report::Timeout);
            self.t3_fired = true;
            if o.association_failed && self.association_error(now) {
                return true;
            }
            self.queue_retransmission(now, RtxSelect::TimerExpiry(d));
            if o.became_inactive && self.cfg.hb_on_inactive {
                self.paths[d].hb.probe_now = true;
            }
        }
        if self.paths[d].hb.pending.is_some_and(|(_, t)| t <= now) {
            self.paths[d].hb_timed_out(&self.cfg);
            self.out.assoc_errors += 1;
            if self.association_error(now) {
                return true;
            }
        }
        if self.paths[d].hb_due(&self.cfg).is_some_and(|t| t <= now) {
            self.queue_heartbeat(now, d);
        }
        if self.paths[d].decay_at.is_some_and(|t| t <= now) {
            let p = &mut self.paths[d];
            let more = p.on_idle_rto(self.cfg.cc_mtu());
            p.decay_at = more.then(|| now + p.rto.rto());
        }
        false
    }
}

/// The SCTP packet a packet carries, if it is one.
pub fn sctp_payload(pkt: &Packet) -> Option<&SctpPacket> {
    match &pkt.payload {
        Payload::Sctp(p) => Some(p),
        _ => None,
    }
}

fn prefixed(errs: Vec<ConfigError>, side: &str) -> Vec<ConfigError> {
    errs.into_iter().map(|e| e.under(side)).collect()
}

impl SctpEndpoint {
    /// A packet arrives (the body of [`Endpoint::on_packet`]).
    fn receive(&mut self, now: SimTime, pkt: &Packet) {
        self.start(now);
        if self.failed_at.is_some() {
            return;
        }
        self.begin_opportunity();
        let Some(sctp) = sctp_payload(pkt) else { return };
        if let Some(d) = self.path_of(pkt.src) {
            if self.spec.local.contains(&pkt.dst) {
                self.paths[d].source = pkt.dst;
            }
        }
        let mut data: Vec<DataChunk> = Vec::new();
        for chunk in &sctp.chunks {
            match chunk {
                Chunk::Sack(s) => self.on_sack(now, s, pkt.src),
                Chunk::Data(d) => data.push(*d),
                Chunk::Heartbeat(info) => {
                    let tag = TraceTag::control(0);
                    let reply = self.packet(pkt.dst, pkt.src, vec![Chunk::HeartbeatAck(*info)], tag);
                    self.queue.push_back(reply);
                }
                Chunk::HeartbeatAck(info) => self.on_heartbeat_ack(now, info),
                Chunk::Asconf(a) if self.cfg.asconf => self.on_asconf(now, pkt, a),
                Chunk::AsconfAck(a) if self.cfg.asconf => self.on_asconf_ack(now, a),
                Chunk::Asconf(_) | Chunk::AsconfAck(_) => {}
            }
        }
        if !data.is_empty() && self.inb.on_data(now, &data, pkt.dst, pkt.src, &self.cfg) {
            self.queue_sack();
        }
        let (bytes, units) = self.inb.take_delivered();
        if units > 0 {
            self.reports.push_back(Report::Delivered { bytes, units });
        }
    }
}

impl Endpoint for SctpEndpoint {
    /// An association's outputs after a packet (SACKs, retransmissions, new data, reports)
    /// are not tracked: every poll is made.
    fn on_packet(&mut self, now: SimTime, pkt: &Packet) -> Pending {
        self.receive(now, pkt);
        Pending::ANY
    }

    fn on_timeout(&mut self, now: SimTime) {
        self.start(now);
        if self.failed_at.is_some() {
            return;
        }
        self.begin_opportunity();
        if self.inb.sack_at.is_some_and(|t| t <= now) {
            self.queue_sack();
        }
        if self.mobility_timers(now) {
            return;
        }
        for d in 0..self.paths.len() {
            if self.path_timers(now, d) {
                return;
            }
        }
    }

    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet> {
        self.start(now);
        if let Some(p) = self.queue.pop_front() {
            return Some(p);
        }
        if self.failed_at.is_some() || self.t3_fired || !self.burst_allows() {
            return None;
        }
        if let Some(tx) =
            self.out.retransmission(now, RtxSelect::WithinCwnd, self.primary, &mut self.paths, &self.cfg)
        {
            return Some(self.data_packet(now, tx));
        }
        let concurrent = self.cfg.msctp == MsctpScheme::MultiPath
            && self.cfg.mt_region == MtRegion::AddIp
            && self.mob.region;
        let dest = if concurrent { self.concurrent_dest() } else { self.data_path() };
        let tx = self.out.new_data(now, dest, &mut self.paths, &self.cfg)?;
        if dest != self.data_path() {
            self.mob.stats.mt_concurrent_packets += 1;
        }
        Some(self.data_packet(now, tx))
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        if !self.started || self.failed_at.is_some() {
            return None;
        }
        let per_path = self.paths.iter().flat_map(|p| [p.t3, p.hb_deadline(&self.cfg), p.decay_at]);
        per_path.chain([self.inb.sack_at, self.mobility_deadline()]).flatten().min()
    }

    fn poll_report(&mut self) -> Option<Report> {
        self.reports.pop_front()
    }

    fn on_link_event(&mut self, now: SimTime, ev: &LinkEvent) {
        self.start(now);
        if self.failed_at.is_none() {
            self.begin_opportunity();
            self.on_trigger(now, ev);
        }
    }

    fn on_app(&mut self, now: SimTime, offer: AppOffer) {
        self.start(now);
        self.begin_opportunity();
        match offer {
            AppOffer::More(n) => {
                self.out.offered = true;
                self.out.backlog = self.out.backlog.saturating_add(n);
            }
            AppOffer::Stop => self.out.backlog = 0,
        }
    }

    fn acknowledged(&self) -> bool {
        true // SACKs acknowledge every DATA chunk
    }

    fn progress(&self) -> Option<SendProgress> {
        self.out
            .offered
            .then(|| SendProgress { acked: self.out.cum_ack as u64 + 1, sent_max: self.out.next_tsn as u64 })
    }

    /// Engagement counters (docs/sctp.md, "Engagement counters"): the core mechanisms of
    /// every association, and the mSCTP ones its configuration enables, each reported even at 0.
    fn engagement(&self, out: &mut Engagement) {
        crate::engagement::report(self, out);
    }

    fn traced_paths(&self) -> usize {
        self.paths.len()
    }

    /// Destination `path`'s state (one time-series row per destination that changed, its
    /// index in the `path` column): window, flight, RTO, errors, whether it is active, the
    /// primary, and where new data goes; the peer's window rides along.
    fn traced_vars(&self, path: usize, out: &mut Vec<TracedVar>) {
        let Some(p) = self.paths.get(path).filter(|_| self.out.offered) else { return };
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        out.push(TracedVar::new("cwnd", "bytes", p.cwnd as f64));
        out.push(TracedVar::new("ssthresh", "bytes", p.ssthresh as f64));
        out.push(TracedVar::new("outstanding", "bytes", p.flight as f64));
        out.push(TracedVar::new("rto", "s", p.rto.rto().as_secs_f64()));
        out.push(TracedVar::passive("srtt", "s", p.rto.srtt().map_or(f64::NAN, |s| s.as_secs_f64())));
        out.push(TracedVar::new("errors", "count", p.error_count as f64));
        out.push(TracedVar::new("active", "bool", flag(p.active)));
        out.push(TracedVar::new("confirmed", "bool", flag(p.confirmed && !p.deleted)));
        out.push(TracedVar::new("primary", "bool", flag(path == self.primary)));
        out.push(TracedVar::new("data_dest", "bool", flag(path == self.data_path())));
        out.push(TracedVar::passive("peer_rwnd", "bytes", self.out.peer_rwnd(&self.paths) as f64));
    }
}
