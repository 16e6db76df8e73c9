//! Test harness for the sans-IO SCTP endpoints.
//!
//! [`Script`] drives one endpoint (the sender, "CN") along a millisecond timeline with
//! hand-written SACKs and timer firings; every step returns what went on the wire, decoded into
//! [`Out`], so a test reads like a packet trace:
//!
//! ```ignore
//! let mut t = Script::multihomed(cfg());
//! assert_eq!(t.send_all(0), data(MN_A, [1, 2, 3]));
//! assert_eq!(t.sack(100, 1, &[]), data(MN_A, [4, 5]));
//! ```
//!
//! [`Net`] connects two endpoints (CN with one address, MN with one address per path) through
//! one simulated link per path: per direction a FIFO with an optional packet limit, a
//! serialization rate, a one-way delay, scripted down periods and a drop rule.

#![allow(dead_code)]

use std::collections::BTreeMap;
use vhsim_core::{Rate, RngStreams, SimDuration, SimTime};
use vhsim_net::{AppOffer, Endpoint, Packet, Payload, Report, RetxCause, TraceTag, UnitKind};
use vhsim_sctp::wire::{AsconfRequest, AsconfResult, Chunk, CommonHeader, SackChunk, SctpPacket};
use vhsim_sctp::{sctp_payload, Addr, SctpConfig, SctpEndpoint};

/// The correspondent node's address.
pub const CN: Addr = Addr(1);
/// The mobile node's first address (primary destination).
pub const MN_A: Addr = Addr(10);
/// The mobile node's second address.
pub const MN_B: Addr = Addr(11);
/// ns-2's chunk size, the "MTU" of the window arithmetic.
pub const MTU: u32 = 1468;

/// Milliseconds to simulation time.
pub fn ms(t: u64) -> SimTime {
    SimTime(t * 1_000_000)
}

/// Whole milliseconds of a time (panics if not whole).
#[track_caller]
pub fn to_ms(t: SimTime) -> u64 {
    assert_eq!(t.0 % 1_000_000, 0, "{t} is not a whole millisecond");
    t.0 / 1_000_000
}

/// RFC 4960 §15's RTO.Initial (ns-2.35's too), which the scripted timelines of these tests are
/// written for; the library default is RFC 9260 §16's 1 s.
pub const RFC4960_RTO_INITIAL: SimDuration = SimDuration::from_secs(3);

/// Defaults with deterministic heartbeats and RFC 4960's RTO.Initial.
pub fn cfg() -> SctpConfig {
    SctpConfig { hb_jitter: 0.0, rto_initial: RFC4960_RTO_INITIAL, ..Default::default() }
}

/// A packet as a test sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// DATA chunks.
    Data {
        /// Destination.
        to: Addr,
        /// TSNs.
        tsns: Vec<u32>,
        /// Cause.
        cause: RetxCause,
    },
    /// A SACK.
    Sack {
        /// Destination.
        to: Addr,
        /// Cumulative TSN ack.
        cum: u32,
        /// Gap blocks as absolute inclusive ranges.
        gaps: Vec<(u32, u32)>,
        /// Duplicate TSNs.
        dups: Vec<u32>,
    },
    /// A HEARTBEAT.
    Heartbeat {
        /// Destination.
        to: Addr,
    },
    /// A HEARTBEAT-ACK.
    HeartbeatAck {
        /// Destination.
        to: Addr,
    },
    /// An ASCONF.
    Asconf {
        /// Destination.
        to: Addr,
        /// Serial number.
        serial: u32,
        /// Requests.
        requests: Vec<AsconfRequest>,
    },
    /// An ASCONF-ACK.
    AsconfAck {
        /// Destination.
        to: Addr,
        /// Serial number.
        serial: u32,
        /// Results.
        results: Vec<AsconfResult>,
    },
}

/// Decode a packet, checking that its trace tag and size agree with its chunks.
#[track_caller]
pub fn decode(p: &Packet) -> Out {
    let s = sctp_payload(p).expect("an SCTP packet");
    assert_eq!(p.size, 20 + s.wire_len(), "size = IP header + SCTP packet");
    assert_eq!(p.tag.flags, s.kind_flags());
    match &s.chunks[..] {
        [Chunk::Sack(k)] => {
            assert_eq!((p.tag.kind, p.tag.seq), (UnitKind::Ack, k.cum_tsn_ack as u64));
            Out::Sack {
                to: p.dst,
                cum: k.cum_tsn_ack,
                gaps: k.acked_ranges().collect(),
                dups: k.dup_tsns.clone(),
            }
        }
        [Chunk::Heartbeat(_)] => Out::Heartbeat { to: p.dst },
        [Chunk::HeartbeatAck(_)] => Out::HeartbeatAck { to: p.dst },
        [Chunk::Asconf(a)] => {
            assert_eq!((p.tag.kind, p.tag.seq), (UnitKind::Control, a.serial as u64));
            Out::Asconf { to: p.dst, serial: a.serial, requests: a.requests.clone() }
        }
        [Chunk::AsconfAck(a)] => Out::AsconfAck { to: p.dst, serial: a.serial, results: a.results.clone() },
        chunks => {
            let tsns: Vec<u32> = s.data_chunks().map(|d| d.tsn).collect();
            assert_eq!(tsns.len(), chunks.len(), "only DATA chunks are bundled together");
            assert!(tsns.windows(2).all(|w| w[1] == w[0] + 1), "contiguous TSNs: {tsns:?}");
            assert_eq!(p.tag.kind, UnitKind::Data);
            assert_eq!((p.tag.seq, p.tag.units as usize), (tsns[0] as u64, tsns.len()));
            assert_eq!(p.tag.payload_bytes, s.data_chunks().map(|d| d.payload_len).sum::<u32>());
            Out::Data { to: p.dst, tsns, cause: p.tag.retx }
        }
    }
}

/// DATA packets of new chunks to `to`, one chunk each.
pub fn data(to: Addr, tsns: impl IntoIterator<Item = u32>) -> Vec<Out> {
    data_with(to, RetxCause::New, tsns)
}

/// DATA packets with a cause, one chunk each.
pub fn data_with(to: Addr, cause: RetxCause, tsns: impl IntoIterator<Item = u32>) -> Vec<Out> {
    tsns.into_iter().map(|t| Out::Data { to, tsns: vec![t], cause }).collect()
}

/// Nothing sent.
pub fn none() -> Vec<Out> {
    Vec::new()
}

/// A packet of flow 0 from `src` to `dst` carrying `chunks`, sized as the endpoints size theirs.
pub fn packet_of(src: Addr, dst: Addr, chunks: Vec<Chunk>, tag: TraceTag) -> Packet {
    let s = SctpPacket { header: CommonHeader::default(), chunks };
    Packet { uid: 0, flow: 0, src, dst, size: 20 + s.wire_len(), tag, payload: Payload::Sctp(Box::new(s)) }
}

/// A packet carrying one SACK from `from` to `to`.
pub fn sack_packet(from: Addr, to: Addr, sack: SackChunk) -> Packet {
    packet_of(from, to, vec![Chunk::Sack(sack)], TraceTag::ack(0))
}

/// One endpoint (CN) driven by hand.
pub struct Script {
    /// The endpoint under test.
    pub ep: SctpEndpoint,
    /// Current time.
    pub now: SimTime,
    /// Reports raised so far.
    pub reports: Vec<Report>,
}

impl Script {
    /// CN with a bulk backlog, peer MN_A (primary) and MN_B.
    pub fn multihomed(cfg: SctpConfig) -> Self {
        Self::build(cfg, &[MN_A, MN_B], u64::MAX)
    }

    /// CN with a bulk backlog and a single-homed peer MN_A.
    pub fn single(cfg: SctpConfig) -> Self {
        Self::build(cfg, &[MN_A], u64::MAX)
    }

    /// CN with `n` chunks to send to a single-homed MN_A.
    pub fn single_with_backlog(cfg: SctpConfig, n: u64) -> Self {
        Self::build(cfg, &[MN_A], n)
    }

    /// CN with `backlog` chunks, peer `peer` (primary first).
    pub fn build(cfg: SctpConfig, peer: &[Addr], backlog: u64) -> Self {
        let (cn, _mn) = SctpEndpoint::pair(0, &cfg, &[CN], peer, CN, peer[0], rng("cn"), rng("mn"))
            .unwrap_or_else(|e| panic!("bad setup: {e:?}"));
        let mut s = Script { ep: cn, now: SimTime::ZERO, reports: Vec::new() };
        s.ep.on_app(SimTime::ZERO, AppOffer::More(backlog));
        s
    }

    fn advance(&mut self, at_ms: u64) {
        let t = ms(at_ms);
        assert!(t >= self.now, "the script went back in time: {t} < {}", self.now);
        self.now = t;
    }

    fn drain(&mut self) -> Vec<Out> {
        let mut out = Vec::new();
        while let Some(p) = self.ep.poll_transmit(self.now) {
            out.push(decode(&p));
            assert!(out.len() < 10_000, "poll_transmit never returned None");
        }
        while let Some(r) = self.ep.poll_report() {
            self.reports.push(r);
        }
        out
    }

    /// Everything sent at `at` ms.
    pub fn send_all(&mut self, at_ms: u64) -> Vec<Out> {
        self.advance(at_ms);
        self.drain()
    }

    /// A SACK from MN_A with gap blocks given as absolute inclusive TSN ranges.
    pub fn sack(&mut self, at_ms: u64, cum: u32, gaps: &[(u32, u32)]) -> Vec<Out> {
        self.sack_full(at_ms, MN_A, cum, gaps, 65536)
    }

    /// A SACK with everything given.
    pub fn sack_full(
        &mut self,
        at_ms: u64,
        from: Addr,
        cum: u32,
        gaps: &[(u32, u32)],
        a_rwnd: u32,
    ) -> Vec<Out> {
        self.advance(at_ms);
        let sack = SackChunk::from_received(cum, a_rwnd, gaps.iter().copied(), usize::MAX);
        self.ep.on_packet(self.now, &sack_packet(from, CN, sack));
        self.drain()
    }

    /// An ASCONF with `serial` and `requests` arriving from the peer's address `from`.
    pub fn asconf(&mut self, at_ms: u64, from: Addr, serial: u32, requests: Vec<AsconfRequest>) -> Vec<Out> {
        self.advance(at_ms);
        let chunk = vhsim_sctp::wire::AsconfChunk { serial, sender_addr: from.0, requests };
        let p = packet_of(from, CN, vec![Chunk::Asconf(chunk)], TraceTag::control(serial as u64));
        self.ep.on_packet(self.now, &p);
        self.drain()
    }

    /// The wake-up at `at` ms, which must be exactly when the endpoint asked.
    #[track_caller]
    pub fn fire(&mut self, at_ms: u64) -> Vec<Out> {
        assert_eq!(self.ep.poll_timeout(), Some(ms(at_ms)), "timer deadline");
        self.advance(at_ms);
        self.ep.on_timeout(self.now);
        self.drain()
    }

    /// Deadline of the endpoint's next wake-up, in ms.
    pub fn deadline_ms(&self) -> Option<u64> {
        self.ep.poll_timeout().map(to_ms)
    }

    /// cwnd of path `i`.
    pub fn cwnd(&self, i: usize) -> u32 {
        self.ep.paths()[i].cwnd
    }

    /// ssthresh of path `i`.
    pub fn ssthresh(&self, i: usize) -> u32 {
        self.ep.paths()[i].ssthresh
    }

    /// Flight size of path `i`.
    pub fn flight(&self, i: usize) -> u32 {
        self.ep.paths()[i].flight
    }
}

/// A random stream for an endpoint.
pub fn rng(name: &str) -> vhsim_core::RngStream {
    RngStreams::new(1).stream(name)
}

/// Which endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// The correspondent node (sender).
    Cn,
    /// The mobile node (receiver).
    Mn,
}

/// One direction of a link.
pub struct Pipe {
    /// Serialization rate.
    pub rate: Rate,
    /// One-way propagation delay.
    pub delay: SimDuration,
    /// Most packets waiting to be serialized (None = unlimited).
    pub limit: Option<usize>,
    /// Departure times of the packets queued or being serialized.
    departures: Vec<SimTime>,
}

/// One path between CN and an MN address.
pub struct Link {
    /// The MN address this link serves.
    pub mn_addr: Addr,
    /// CN -> MN.
    pub down: Pipe,
    /// MN -> CN.
    pub up: Pipe,
    /// Periods `[start, end)` during which the link loses everything (sent or arriving).
    pub outages: Vec<(SimTime, SimTime)>,
}

impl Link {
    /// A symmetric link.
    pub fn new(mn_addr: Addr, rate: Rate, delay_ms: u64) -> Self {
        let pipe =
            || Pipe { rate, delay: SimDuration::from_millis(delay_ms), limit: None, departures: Vec::new() };
        Link { mn_addr, down: pipe(), up: pipe(), outages: Vec::new() }
    }

    fn is_out(&self, t: SimTime) -> bool {
        self.outages.iter().any(|&(a, b)| a <= t && t < b)
    }
}

/// What the harness saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Sent {
    /// When it was sent.
    pub at: SimTime,
    /// Who sent it.
    pub from: Side,
    /// Link index.
    pub link: usize,
    /// Decoded packet.
    pub out: Out,
    /// Whether the network dropped it.
    pub dropped: bool,
}

/// Drop rule: (link, sender side, packet, time) -> drop?
pub type DropRule = Box<dyn FnMut(usize, Side, &Packet, SimTime) -> bool>;

/// Two endpoints over simulated links.
pub struct Net {
    /// Correspondent node.
    pub cn: SctpEndpoint,
    /// Mobile node.
    pub mn: SctpEndpoint,
    /// Links, one per MN address.
    pub links: Vec<Link>,
    /// Current time.
    pub now: SimTime,
    /// Extra drop rule.
    pub drop: DropRule,
    /// Every packet sent.
    pub log: Vec<Sent>,
    /// Application bytes and units delivered at the MN, with the time of each report.
    pub delivered: Vec<(SimTime, u64, u64)>,
    /// Timeout reports of the CN.
    pub timeouts: Vec<SimTime>,
    /// Extra random delay of each packet, uniform in `[0, bound)` (reorders packets).
    pub jitter: Option<(vhsim_core::RngStream, SimDuration)>,
    events: BTreeMap<(SimTime, u64), (Side, Packet)>,
    order: u64,
}

impl Net {
    /// CN (one address) to MN (one address per link, the first primary), bulk backlog.
    pub fn new(cfg: SctpConfig, links: Vec<Link>) -> Self {
        let mn_addrs: Vec<Addr> = links.iter().map(|l| l.mn_addr).collect();
        Self::with_association(cfg, links, &mn_addrs, Vec::new())
    }

    /// CN to an MN with one interface per link whose association starts with the addresses
    /// `mn_initial` (the first primary) and whose scripted mSCTP requests are `actions`.
    pub fn with_association(
        cfg: SctpConfig,
        links: Vec<Link>,
        mn_initial: &[Addr],
        actions: Vec<vhsim_sctp::AsconfAction>,
    ) -> Self {
        let (cn, mut mn) =
            SctpEndpoint::pair(0, &cfg, &[CN], mn_initial, CN, mn_initial[0], rng("cn"), rng("mn"))
                .unwrap_or_else(|e| panic!("bad setup: {e:?}"));
        mn.set_mobility(links.iter().map(|l| l.mn_addr).collect(), actions);
        let mut net = Net {
            cn,
            mn,
            links,
            now: SimTime::ZERO,
            drop: Box::new(|_, _, _, _| false),
            log: Vec::new(),
            delivered: Vec::new(),
            timeouts: Vec::new(),
            jitter: None,
            events: BTreeMap::new(),
            order: 0,
        };
        net.cn.on_app(SimTime::ZERO, AppOffer::More(u64::MAX));
        net.drain(Side::Cn);
        net
    }

    fn ep(&mut self, side: Side) -> &mut SctpEndpoint {
        match side {
            Side::Cn => &mut self.cn,
            Side::Mn => &mut self.mn,
        }
    }

    fn drain(&mut self, side: Side) {
        let now = self.now;
        while let Some(p) = self.ep(side).poll_transmit(now) {
            self.route(side, p);
        }
        check_sender_invariants(self.ep(side));
        while let Some(r) = self.ep(side).poll_report() {
            match r {
                Report::Delivered { bytes, units } => self.delivered.push((now, bytes, units)),
                Report::Timeout => self.timeouts.push(now),
                Report::LossVerdict { .. } | Report::Decision(_) => {}
            }
        }
    }

    fn route(&mut self, from: Side, p: Packet) {
        let mn_addr = if from == Side::Cn { p.dst } else { p.src };
        let link = self.links.iter().position(|l| l.mn_addr == mn_addr).expect("a link per MN address");
        let now = self.now;
        let mut dropped = self.links[link].is_out(now) || (self.drop)(link, from, &p, now);
        let l = &mut self.links[link];
        let pipe = if from == Side::Cn { &mut l.down } else { &mut l.up };
        pipe.departures.retain(|&d| d > now);
        if pipe.limit.is_some_and(|lim| pipe.departures.len() >= lim) {
            dropped = true; // drop-tail
        }
        let mut arrival = None;
        if !dropped {
            let start = pipe.departures.last().copied().unwrap_or(now).max(now);
            let depart = start + pipe.rate.serialization(p.size as u64);
            pipe.departures.push(depart);
            let extra = match &mut self.jitter {
                Some((rng, bound)) => SimDuration(rng.below(bound.0)),
                None => SimDuration::ZERO,
            };
            arrival = Some(depart + pipe.delay + extra);
        }
        self.log.push(Sent { at: now, from, link, out: decode(&p), dropped });
        if let Some(at) = arrival {
            self.order += 1;
            let to = if from == Side::Cn { Side::Mn } else { Side::Cn };
            self.events.insert((at, self.order), (to, p));
        }
    }

    /// Run every event and timer up to and including `end`.
    pub fn run_until(&mut self, end: SimTime) {
        loop {
            let ev = self.events.keys().next().map(|k| k.0);
            let next = [ev, self.cn.poll_timeout(), self.mn.poll_timeout()].into_iter().flatten().min();
            let Some(t) = next.filter(|&t| t <= end) else { break };
            self.now = t;
            while let Some(entry) = self.events.first_entry() {
                if entry.key().0 != t {
                    break;
                }
                let (to, p) = entry.remove();
                let link =
                    self.links.iter().position(|l| l.mn_addr == if to == Side::Mn { p.dst } else { p.src });
                if link.is_some_and(|i| self.links[i].is_out(t)) {
                    continue; // lost in an outage while in flight
                }
                self.ep(to).on_packet(t, &p);
                self.drain(to);
            }
            for side in [Side::Cn, Side::Mn] {
                if self.ep(side).poll_timeout().is_some_and(|d| d <= t) {
                    self.ep(side).on_timeout(t);
                }
                self.drain(side);
            }
        }
        self.now = end;
    }

    /// The CN's application stops offering data now.
    pub fn stop_app(&mut self) {
        let now = self.now;
        self.cn.on_app(now, AppOffer::Stop);
    }

    /// Units delivered to the MN's application so far.
    pub fn delivered_units(&self) -> u64 {
        self.delivered.iter().map(|d| d.2).sum()
    }

    /// Bytes delivered to the MN's application in `(from, to]`.
    pub fn delivered_bytes_between(&self, from: SimTime, to: SimTime) -> u64 {
        self.delivered.iter().filter(|d| d.0 > from && d.0 <= to).map(|d| d.1).sum()
    }

    /// Packets the CN sent, decoded, with their time and link.
    pub fn cn_sent(&self) -> impl Iterator<Item = &Sent> {
        self.log.iter().filter(|s| s.from == Side::Cn)
    }
}

/// Invariants of a sending endpoint between events: the buffer holds TSNs cum+1.. without
/// holes; each destination's flight is the bytes of the chunks last sent there that are neither
/// gap-acked nor marked; T3-rtx runs wherever data is in flight; cwnd is at least one MTU.
#[track_caller]
pub fn check_sender_invariants(ep: &SctpEndpoint) {
    let out = ep.outbound();
    for (i, c) in out.chunks.iter().enumerate() {
        assert_eq!(c.tsn, out.cum_ack + 1 + i as u32, "buffer without holes");
        assert!(!(c.gap_acked && c.mark.is_some()), "{c:?}");
    }
    if ep.failed_at().is_some() {
        return;
    }
    for (d, p) in ep.paths().iter().enumerate() {
        let flight: u32 = out
            .chunks
            .iter()
            .filter(|c| c.dest == d && !c.gap_acked && c.mark.is_none())
            .map(|c| c.size)
            .sum();
        assert_eq!(p.flight, flight, "flight of path {d}");
        assert!(flight == 0 || p.t3.is_some(), "T3-rtx of path {d} runs while data is in flight");
        assert!(p.cwnd >= ep.config().cc_mtu(), "cwnd of path {d}");
    }
}

/// Pseudo-random draws for a test case (vhsim-core's keyed streams).
pub fn draws(seed: u64) -> vhsim_core::RngStream {
    RngStreams::new(seed).stream("test")
}

/// Uniform integers from a random stream.
pub trait Below {
    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64;
}

impl Below for vhsim_core::RngStream {
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// A full-size DATA chunk of `cfg` with TSN `tsn` on stream 0 (SSN = TSN - 1).
pub fn data_chunk(tsn: u32, cfg: &SctpConfig) -> vhsim_sctp::wire::DataChunk {
    vhsim_sctp::wire::DataChunk {
        tsn,
        ssn: (tsn - 1) as u16,
        payload_len: cfg.chunk_payload(),
        beginning: true,
        ending: true,
        ..Default::default()
    }
}

/// A receiving endpoint (MN, addresses MN_A and MN_B) driven by hand-written DATA packets
/// from CN.
pub struct Rx {
    /// The endpoint under test.
    pub ep: SctpEndpoint,
    /// Current time.
    pub now: SimTime,
    /// Raw packets sent so far.
    pub sent: Vec<Packet>,
    /// Reports raised so far.
    pub reports: Vec<Report>,
}

impl Rx {
    /// The MN of an association with CN.
    pub fn new(cfg: SctpConfig) -> Self {
        let (_cn, mn) = SctpEndpoint::pair(0, &cfg, &[CN], &[MN_A, MN_B], CN, MN_A, rng("cn"), rng("mn"))
            .unwrap_or_else(|e| panic!("bad setup: {e:?}"));
        Rx { ep: mn, now: SimTime::ZERO, sent: Vec::new(), reports: Vec::new() }
    }

    fn drain(&mut self) -> Vec<Out> {
        let mut out = Vec::new();
        while let Some(p) = self.ep.poll_transmit(self.now) {
            out.push(decode(&p));
            self.sent.push(p);
        }
        while let Some(r) = self.ep.poll_report() {
            self.reports.push(r);
        }
        out
    }

    /// One packet with DATA chunks `tsns` (full-size chunks, SSN = TSN - 1) arriving at `to`.
    pub fn data_at(&mut self, at_ms: u64, to: Addr, tsns: &[u32]) -> Vec<Out> {
        let t = ms(at_ms);
        assert!(t >= self.now);
        self.now = t;
        let cfg = self.ep.config().clone();
        let chunks = tsns.iter().map(|&tsn| Chunk::Data(data_chunk(tsn, &cfg))).collect();
        let p = packet_of(CN, to, chunks, TraceTag::data(0, 0, RetxCause::New));
        self.ep.on_packet(t, &p);
        self.drain()
    }

    /// DATA arriving at MN_A.
    pub fn data(&mut self, at_ms: u64, tsns: &[u32]) -> Vec<Out> {
        self.data_at(at_ms, MN_A, tsns)
    }

    /// The wake-up at `at` ms, which must be exactly when the endpoint asked.
    #[track_caller]
    pub fn fire(&mut self, at_ms: u64) -> Vec<Out> {
        assert_eq!(self.ep.poll_timeout(), Some(ms(at_ms)), "timer deadline");
        self.now = ms(at_ms);
        self.ep.on_timeout(self.now);
        self.drain()
    }
}

/// A SACK to CN.
pub fn sack_to_cn(cum: u32, gaps: &[(u32, u32)], dups: &[u32]) -> Vec<Out> {
    vec![Out::Sack { to: CN, cum, gaps: gaps.to_vec(), dups: dups.to_vec() }]
}
