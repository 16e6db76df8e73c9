//! Scripted-test harness for the sans-IO TCP endpoints (ARCHITECTURE.md §6 item 2).
//!
//! A [`Script`] drives one [`TcpSender`] (and optionally a [`TcpSink`]) along a timeline written
//! in milliseconds: every step hands the endpoint the time, then drains `poll_transmit` and
//! returns what went on the wire, so a test reads like a packet trace:
//!
//! ```ignore
//! let mut t = Script::new(cfg("reno").iw(8));
//! assert_eq!(t.send_all(0), new(0..8));
//! assert_eq!(t.ack(100, 0), new([8]));          // first dupACK: limited transmit
//! ```
//!
//! [`Net`] is a small event-driven pipe (one-way delay, bottleneck spacing, drop decisions) for
//! tests that need a whole connection, and [`Lcg`] a deterministic pseudo-random source.

#![allow(dead_code)]

use std::collections::BTreeMap;
use vhsim_core::{SimDuration, SimTime};
use vhsim_tcp::presets::preset;
use vhsim_tcp::{AckInfo, AckOut, Defaults, SinkConfig, TcpConfig, TcpSender, TcpSink, Transmit, TxCause};

/// Milliseconds to simulation time.
pub fn ms(t: u64) -> SimTime {
    SimTime(t * 1_000_000)
}

/// A duration in milliseconds.
pub fn dur_ms(t: u64) -> SimDuration {
    SimDuration::from_millis(t)
}

/// The sender configuration of a named preset over ns-2.35's defaults: the scripted exchanges
/// are written for ns-2's settings (initial window 2, window 20, 200 ms minimum RTO, an ACK
/// per segment), the behaviour of the papers' baselines they check.
pub fn cfg(name: &str) -> TcpConfig {
    preset(name).unwrap_or_else(|| panic!("no preset {name}")).configs(Defaults::Ns2_35).0
}

/// The sink configuration of a named preset over ns-2.35's defaults (see [`cfg`]).
pub fn sink_cfg(name: &str) -> SinkConfig {
    preset(name).unwrap_or_else(|| panic!("no preset {name}")).configs(Defaults::Ns2_35).1
}

/// Short-hand setters for the fields tests change most.
pub trait CfgExt: Sized {
    /// Initial window (segments).
    fn iw(self, n: u32) -> Self;
    /// Window cap `window_` (segments).
    fn window(self, n: u32) -> Self;
    /// Initial ssthresh (segments).
    fn ssthresh(self, n: u32) -> Self;
    /// Limited transmit on or off.
    fn limited_transmit(self, on: bool) -> Self;
    /// Keys of a `[tcp]` table (TOML text, dotted keys allowed) merged over the configuration
    /// as a scenario's would be, e.g. `.set("dupack_response.trigger = 3")`.
    fn set(self, toml: &str) -> Self;
}

impl CfgExt for TcpConfig {
    fn iw(mut self, n: u32) -> Self {
        self.initial_window = n;
        self
    }
    fn window(mut self, n: u32) -> Self {
        self.window = n;
        self
    }
    fn ssthresh(mut self, n: u32) -> Self {
        self.initial_ssthresh = Some(n);
        self
    }
    fn limited_transmit(mut self, on: bool) -> Self {
        self.limited_transmit = on;
        self
    }
    fn set(self, toml: &str) -> Self {
        let t: toml::Table = toml::from_str(toml).unwrap_or_else(|e| panic!("{toml}: {e}"));
        self.merged(&t).unwrap_or_else(|e| panic!("{toml}: {e}"))
    }
}

/// NewReno's timer variant set to `timer` if the recovery is NewReno (other recoveries have no
/// such option).
pub fn with_timer(c: TcpConfig, timer: vhsim_tcp::recovery::newreno::NewRenoTimer) -> TcpConfig {
    match c.recovery {
        vhsim_tcp::RecoveryConfig::NewReno(_) => {
            let mut c = c;
            c.recovery = vhsim_tcp::RecoveryConfig::NewReno(vhsim_tcp::recovery::newreno::NewRenoConfig {
                timer,
                ..Default::default()
            });
            c
        }
        _ => c,
    }
}

/// Transmissions of new data, in order.
pub fn new(seqs: impl IntoIterator<Item = u64>) -> Vec<Transmit> {
    txs(TxCause::New, seqs)
}

/// Transmissions with one cause.
pub fn txs(cause: TxCause, seqs: impl IntoIterator<Item = u64>) -> Vec<Transmit> {
    seqs.into_iter().map(|seq| Transmit { seq, cause }).collect()
}

/// One transmission.
pub fn tx(seq: u64, cause: TxCause) -> Transmit {
    Transmit { seq, cause }
}

/// Nothing sent.
pub fn none() -> Vec<Transmit> {
    Vec::new()
}

/// Float equality for window values computed by a known sequence of operations.
#[track_caller]
pub fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-9, "expected {expected}, got {actual}");
}

/// The advertised window every scripted ACK carries unless a test says otherwise
/// (ns-2's sink advertises no limit).
pub const NO_LIMIT: u32 = u32::MAX;

/// A sender (and optional sink) driven along a millisecond timeline.
pub struct Script {
    /// The endpoint under test.
    pub tcp: TcpSender,
    /// A sink that turns [`Script::arrive`] into ACKs for the sender.
    pub sink: Option<TcpSink>,
    /// Current time.
    pub now: SimTime,
    /// Every transmission so far, with its time.
    pub log: Vec<(SimTime, Transmit)>,
}

impl Script {
    /// A bulk sender (infinite backlog).
    pub fn new(cfg: TcpConfig) -> Self {
        Self::with_app_limit(cfg, u64::MAX)
    }

    /// A sender with `n` segments to send.
    pub fn with_app_limit(cfg: TcpConfig, n: u64) -> Self {
        Script { tcp: TcpSender::new(cfg, n), sink: None, now: SimTime::ZERO, log: Vec::new() }
    }

    /// A bulk sender whose ACKs come from a real sink fed by [`Script::arrive`].
    pub fn with_sink(cfg: TcpConfig, sink: SinkConfig) -> Self {
        let mut s = Self::new(cfg);
        s.sink = Some(TcpSink::new(sink));
        s
    }

    fn advance(&mut self, at_ms: u64) {
        let t = ms(at_ms);
        assert!(t >= self.now, "the script went back in time: {t} < {}", self.now);
        self.now = t;
    }

    fn drain(&mut self) -> Vec<Transmit> {
        let mut out = Vec::new();
        while let Some(t) = self.tcp.poll_transmit(self.now) {
            out.push(t);
            self.log.push((self.now, t));
            assert!(out.len() < 10_000, "poll_transmit never returned None");
        }
        out
    }

    /// Everything the sender sends at `at` ms.
    pub fn send_all(&mut self, at_ms: u64) -> Vec<Transmit> {
        self.advance(at_ms);
        self.drain()
    }

    /// An ACK (next expected = `ack`) with no SACK blocks and no window limit; returns what the
    /// sender sent in response.
    pub fn ack(&mut self, at_ms: u64, ack: u64) -> Vec<Transmit> {
        self.ack_full(at_ms, ack, &[], NO_LIMIT)
    }

    /// An ACK with SACK blocks `(start, end)`, most recent first.
    pub fn ack_sack(&mut self, at_ms: u64, ack: u64, sack: &[(u64, u64)]) -> Vec<Transmit> {
        self.ack_full(at_ms, ack, sack, NO_LIMIT)
    }

    /// An ACK advertising a window of `window` segments.
    pub fn ack_win(&mut self, at_ms: u64, ack: u64, window: u32) -> Vec<Transmit> {
        self.ack_full(at_ms, ack, &[], window)
    }

    /// An ACK with everything given.
    pub fn ack_full(&mut self, at_ms: u64, ack: u64, sack: &[(u64, u64)], window: u32) -> Vec<Transmit> {
        self.advance(at_ms);
        let info = AckInfo { ack, sack: sack.to_vec(), window, sig: false };
        self.tcp.on_ack(self.now, &info);
        self.drain()
    }

    /// Repeat the same duplicate ACK `n` times at `at` ms; returns everything sent.
    pub fn dupacks(&mut self, at_ms: u64, ack: u64, n: usize) -> Vec<Transmit> {
        (0..n).flat_map(|_| self.ack(at_ms, ack)).collect()
    }

    /// The retransmission timer fires at `at` ms, which must be exactly when the sender asked.
    #[track_caller]
    pub fn fire_timer(&mut self, at_ms: u64) -> Vec<Transmit> {
        assert_eq!(self.tcp.next_timeout(), Some(ms(at_ms)), "timer deadline");
        self.advance(at_ms);
        self.tcp.on_timeout(self.now);
        self.drain()
    }

    /// Fire the timer whenever it is due; returns the firing time (ms) and what was sent.
    pub fn fire_due_timer(&mut self) -> (u64, Vec<Transmit>) {
        let t = self.tcp.next_timeout().expect("no timer armed");
        assert_eq!(t.0 % 1_000_000, 0, "deadline {t} is not a whole millisecond");
        let at = t.0 / 1_000_000;
        (at, self.fire_timer(at))
    }

    /// Segment `seq` reaches the sink at `at` ms; the sink's ACK (if any) reaches the sender at
    /// once. Returns what the sender sent in response.
    pub fn arrive(&mut self, at_ms: u64, seq: u64) -> Vec<Transmit> {
        self.advance(at_ms);
        let now = self.now;
        let sink = self.sink.as_mut().expect("Script::arrive needs a sink");
        let r = sink.on_data(now, seq);
        match r.ack {
            Some(a) => self.deliver_ack(a),
            None => Vec::new(),
        }
    }

    /// Several arrivals at the same time, in order; returns everything sent.
    pub fn arrive_all(&mut self, at_ms: u64, seqs: impl IntoIterator<Item = u64>) -> Vec<Transmit> {
        seqs.into_iter().flat_map(|s| self.arrive(at_ms, s)).collect()
    }

    fn deliver_ack(&mut self, a: AckOut) -> Vec<Transmit> {
        let info = AckInfo { ack: a.ack, sack: a.sack, window: a.window, sig: a.sig };
        self.tcp.on_ack(self.now, &info);
        self.drain()
    }

    /// Congestion window.
    pub fn cwnd(&self) -> f64 {
        self.tcp.cwnd()
    }

    /// Slow-start threshold.
    pub fn ssthresh(&self) -> f64 {
        self.tcp.ssthresh()
    }

    /// Segments sent and not cumulatively acknowledged.
    pub fn outstanding(&self) -> u64 {
        self.tcp.core().snd_max() - self.tcp.core().snd_una()
    }

    /// Retransmission deadline in ms (panics if not on a whole millisecond).
    pub fn deadline_ms(&self) -> Option<u64> {
        self.tcp.next_timeout().map(|t| {
            assert_eq!(t.0 % 1_000_000, 0, "deadline {t} is not a whole millisecond");
            t.0 / 1_000_000
        })
    }
}

/// The counters named in `names` of the sender's engagement (docs/schemes.md "Engagement
/// counters"), in that order; a counter the sender does not report is a test failure.
#[track_caller]
pub fn engaged(tcp: &TcpSender, names: &[&str]) -> Vec<u64> {
    let mut e = vhsim_net::Engagement::new();
    tcp.engagement(&mut e);
    names.iter().map(|n| *e.get(n).unwrap_or_else(|| panic!("no counter {n} in {e:?}"))).collect()
}

/// The same for a sink.
#[track_caller]
pub fn sink_engaged(sink: &TcpSink, names: &[&str]) -> Vec<u64> {
    let mut e = vhsim_net::Engagement::new();
    sink.engagement(&mut e);
    names.iter().map(|n| *e.get(n).unwrap_or_else(|| panic!("no counter {n} in {e:?}"))).collect()
}

/// Sequence numbers of a list of transmissions.
pub fn seqs(v: &[Transmit]) -> Vec<u64> {
    v.iter().map(|t| t.seq).collect()
}

/// A deterministic pseudo-random source (Knuth's MMIX linear congruential generator).
#[derive(Clone, Debug)]
pub struct Lcg(u64);

impl Lcg {
    /// Seeded generator.
    pub fn new(seed: u64) -> Self {
        Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1))
    }

    /// Next 31 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u32() as f64) < p * (1u64 << 31) as f64
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u32() as u64 % n.max(1)
    }
}

/// What travels in the pipe.
#[derive(Clone, Debug)]
enum Ev {
    Data(u64),
    Ack(AckOut),
}

/// A whole connection over a simple pipe: data leaves a bottleneck one `spacing` apart, then
/// takes `owd` (plus optional jitter) to the sink; ACKs take `owd` back. Drop decisions are
/// closures so tests choose exact losses or random ones.
pub struct Net {
    /// Sender.
    pub tcp: TcpSender,
    /// Sink.
    pub sink: TcpSink,
    /// Current time.
    pub now: SimTime,
    /// One-way propagation delay.
    pub owd: SimDuration,
    /// Bottleneck serialization time of one data segment.
    pub spacing: SimDuration,
    /// Extra random delay bound for data segments (0 = no reordering).
    pub jitter: SimDuration,
    link_free: SimTime,
    events: BTreeMap<(SimTime, u64), Ev>,
    order: u64,
    /// `drop_data(seq, how many times seq was sent before)`: true = lose this copy.
    pub drop_data: Box<dyn FnMut(u64, u32) -> bool>,
    /// `drop_ack(ack)`: true = lose this ACK.
    pub drop_ack: Box<dyn FnMut(&AckOut) -> bool>,
    /// Random source for jitter.
    pub rng: Lcg,
    /// Times each segment was sent.
    pub send_count: Vec<u32>,
    /// Every transmission with its time.
    pub log: Vec<(SimTime, Transmit)>,
    /// Segments delivered in order to the application.
    pub delivered: u64,
    /// Pauses `[start, end)`: a packet (data or ACK) due to arrive inside one arrives at its
    /// end instead, in order, and nothing is lost (a pause handover, a delay spike).
    pub pauses: Vec<(SimTime, SimTime)>,
}

impl Net {
    /// A lossless pipe with the given delays (ms) and spacing (µs).
    pub fn new(cfg: TcpConfig, sink: SinkConfig, app_limit: u64, owd_ms: u64, spacing_us: u64) -> Self {
        Net {
            tcp: TcpSender::new(cfg, app_limit),
            sink: TcpSink::new(sink),
            now: SimTime::ZERO,
            owd: SimDuration::from_millis(owd_ms),
            spacing: SimDuration::from_micros(spacing_us),
            jitter: SimDuration::ZERO,
            link_free: SimTime::ZERO,
            events: BTreeMap::new(),
            order: 0,
            drop_data: Box::new(|_, _| false),
            drop_ack: Box::new(|_| false),
            rng: Lcg::new(1),
            send_count: Vec::new(),
            log: Vec::new(),
            delivered: 0,
            pauses: Vec::new(),
        }
    }

    /// When a packet due at `at` arrives, given the pauses.
    fn after_pauses(&self, at: SimTime) -> SimTime {
        self.pauses.iter().find(|&&(a, b)| a <= at && at < b).map_or(at, |&(_, b)| b)
    }

    fn push(&mut self, at: SimTime, ev: Ev) {
        self.order += 1;
        self.events.insert((at, self.order), ev);
    }

    fn transmit(&mut self) {
        loop {
            let (una, max) = (self.tcp.core().snd_una(), self.tcp.core().snd_max());
            let Some(t) = self.tcp.poll_transmit(self.now) else { break };
            // (A window probe with nothing outstanding repeats the last acknowledged segment.)
            let old_probe = t.cause == TxCause::Probe && t.seq + 1 == una && una == max;
            assert!(t.seq >= una || old_probe, "{t:?} below snd_una {una} at {}", self.now);
            assert!(t.seq <= max, "{t:?} leaves a gap above snd_max {max} at {}", self.now);
            assert_eq!(t.cause == TxCause::New, t.seq == max, "{t:?} with snd_max {max} at {}", self.now);
            if old_probe {
                self.log.push((self.now, t));
                let depart = self.link_free.max(self.now) + self.spacing;
                self.link_free = depart;
                if !(self.drop_data)(t.seq, 1) {
                    let at = self.after_pauses(depart + self.owd);
                    self.push(at, Ev::Data(t.seq));
                }
                continue;
            }
            if matches!(t.cause, TxCause::FastRetransmit | TxCause::Recovery) {
                assert!(
                    !self.tcp.core().scoreboard().is_sacked(t.seq),
                    "{t:?} was already SACKed at {}",
                    self.now
                );
            }
            self.log.push((self.now, t));
            let i = t.seq as usize;
            if self.send_count.len() <= i {
                self.send_count.resize(i + 1, 0);
            }
            let before = self.send_count[i];
            self.send_count[i] += 1;
            let depart = self.link_free.max(self.now) + self.spacing;
            self.link_free = depart;
            if (self.drop_data)(t.seq, before) {
                continue;
            }
            let extra = if self.jitter.0 > 0 {
                SimDuration(self.rng.below(self.jitter.0))
            } else {
                SimDuration::ZERO
            };
            let at = self.after_pauses(depart + self.owd + extra);
            self.push(at, Ev::Data(t.seq));
        }
    }

    /// Start sending at time zero.
    pub fn start(&mut self) {
        self.transmit();
    }

    /// The time of the next thing that happens, if anything does.
    pub fn next_time(&self) -> Option<SimTime> {
        let ev = self.events.keys().next().map(|k| k.0);
        [ev, self.tcp.next_timeout(), self.sink.next_timeout()].into_iter().flatten().min()
    }

    /// Process everything due at the next event time. Arrivals come before timers at equal
    /// times (the engine's documented order). Returns false when nothing is left to happen.
    pub fn step(&mut self) -> bool {
        let Some(t) = self.next_time() else { return false };
        assert!(t >= self.now, "time went backwards");
        self.now = t;
        while let Some(entry) = self.events.first_entry() {
            if entry.key().0 != t {
                break;
            }
            match entry.remove() {
                Ev::Data(seq) => {
                    let r = self.sink.on_data(t, seq);
                    self.delivered += r.delivered;
                    if let Some(a) = r.ack {
                        self.send_ack(a);
                    }
                }
                Ev::Ack(a) => {
                    let info = AckInfo { ack: a.ack, sack: a.sack, window: a.window, sig: a.sig };
                    self.tcp.on_ack(t, &info);
                    self.transmit();
                }
            }
        }
        if self.sink.next_timeout() == Some(t) {
            if let Some(a) = self.sink.on_timeout(t) {
                self.send_ack(a);
            }
        }
        if self.tcp.next_timeout() == Some(t) {
            self.tcp.on_timeout(t);
            self.transmit();
        }
        true
    }

    fn send_ack(&mut self, a: AckOut) {
        if (self.drop_ack)(&a) {
            return;
        }
        let at = self.after_pauses(self.now + self.owd);
        self.push(at, Ev::Ack(a));
    }

    /// A link event at the mobile node (the sink) at the current time: the ACKs the sink's
    /// policy sends go out as any other (the drop decision sees them).
    pub fn link_event(&mut self, ev: vhsim_tcp::SinkLinkEvent) {
        for a in self.sink.on_link_event(self.now, ev) {
            self.send_ack(a);
        }
    }

    /// Run until `until`, then set the clock to `until` (for a link event at that instant).
    pub fn run_to(&mut self, until: SimTime) {
        self.run_until(until);
        self.now = until;
    }

    /// Run until `until` or until nothing is left to happen.
    pub fn run_until(&mut self, until: SimTime) {
        while self.next_time().is_some_and(|t| t <= until) {
            self.step();
        }
    }

    /// Transmissions that were retransmissions, as (seq, cause).
    pub fn retransmissions(&self) -> Vec<(u64, TxCause)> {
        self.log.iter().filter(|(_, t)| t.cause.is_retransmission()).map(|(_, t)| (t.seq, t.cause)).collect()
    }
}

/// Invariants every sender must keep at every step of a [`Net`] run, whatever its parts:
/// sequence order, the application's and `window_`'s limits, cwnd >= 1, ssthresh >= 2, in-order
/// delivery without gaps, a future timer while data is outstanding, TCP-DCR's delay never
/// outliving the RTO (docs/references.md A5) nor running in recovery, and consistent counters.
/// `ctx` describes the case for failure messages.
#[track_caller]
pub fn check_sender_invariants(net: &Net, app_segments: u64, window: u32, ctx: &dyn Fn() -> String) {
    let c = net.tcp.core();
    assert!(c.snd_una() <= c.snd_nxt() && c.snd_nxt() <= c.snd_max(), "sequence order: {c:?} {}", ctx());
    assert!(c.snd_max() <= app_segments, "sent beyond the application's data: {}", ctx());
    assert!(c.snd_max() - c.snd_una() <= window as u64, "more than window_ outstanding: {}", ctx());
    assert!(net.tcp.cwnd() >= 1.0 && net.tcp.cwnd().is_finite(), "cwnd {}: {}", net.tcp.cwnd(), ctx());
    assert!(net.tcp.ssthresh() >= 2.0, "ssthresh {} < 2: {}", net.tcp.ssthresh(), ctx());
    assert!(c.snd_una() <= net.sink.rcv_nxt(), "sender saw an ACK beyond the receiver: {}", ctx());
    assert_eq!(net.delivered, net.sink.rcv_nxt(), "delivery must be in order without gaps: {}", ctx());
    if c.snd_max() > c.snd_una() {
        let d = net.tcp.next_timeout();
        assert!(d.is_some_and(|d| d > net.now), "data outstanding without a future timer ({d:?}): {}", ctx());
    }
    if let Some(d) = net.tcp.timer(vhsim_tcp::Timer::DcrDelay) {
        assert!(c.rtx_deadline().is_some_and(|r| r >= d), "RTO before tau (A5): {}", ctx());
        assert!(!c.in_recovery(), "a delay pending in recovery: {}", ctx());
    }
    let s = net.tcp.stats();
    assert_eq!(s.segments_sent, net.log.len() as u64);
    assert!(s.retransmissions <= s.segments_sent && u64::from(s.fast_retransmits) + u64::from(s.rto_count) <= s.retransmissions);
    assert!(s.spurious_rto_detected <= s.rto_count && s.wireless_losses <= s.fast_retransmits);
    assert!(s.dcr_reorderings <= s.dcr_delays, "{}", ctx());
}
