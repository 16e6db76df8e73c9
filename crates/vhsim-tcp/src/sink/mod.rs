//! The sans-IO TCP sink (ns-2 `TCPSink`, `TCPSink/Sack1`, and their `DelAck` variants).
//!
//! In-order data is delivered to the application at once. ACKs are immediate, or with delayed
//! ACKs every second in-order segment or `delack_interval` after the first unacknowledged one
//! (RFC 5681 §4.2, ns-2 `interval_` 100 ms). Out-of-order segments, duplicates and segments
//! that fill a gap are acknowledged at once (RFC 5681 §4.2). SACK blocks (RFC 2018 §4): the
//! first block holds the most recently received segment, the others repeat the most recently
//! reported blocks, up to `max_sack_blocks`.
//!
//! With `dsack` (RFC 2883 §4), the ACK of a duplicate segment reports it in the first block (a
//! D-SACK: below the cumulative ACK, or inside the second block, which is then the
//! out-of-order block holding it). With `quickack` (Linux's quick-ack mode), the first
//! `quickack` ACKs of the connection, and as many after a duplicate segment, go out at once
//! instead of waiting for a second segment or the delayed-ACK timer.
//!
//! What the receiver does beyond that is its policy (the `SinkPolicy` axis): the window it
//! advertises and its reaction to link events at the mobile node ([`TcpSink::on_link_event`]).
//! The standard policy advertises the configured window and ignores link events (today's ns-2
//! sink); `freeze` sends Freeze-TCP's zero-window advertisement and TR-ACKs, `sig` sets
//! DEMO-Vegas's SIG bit during a handover.

use crate::config::SinkConfig;
use std::collections::BTreeMap;
use std::sync::Arc;
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::Engagement;

/// A link event at the mobile node, as the sink's policy sees it (the world maps its own link
/// events onto these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinkLinkEvent {
    /// A handover is expected in `eta`.
    Imminent {
        /// Time until it happens.
        eta: SimDuration,
    },
    /// The link in use went down.
    Down,
    /// A link came up.
    Up,
    /// The handover completed.
    Completed,
}

/// A receiver policy.
pub trait SinkPolicy {
    /// The window to advertise, given the configured one (segments).
    fn advertised_window(&self, configured: u32) -> u32 {
        configured
    }
    /// A link event at `now`: how many copies of the current ACK to send at once (0 = none).
    fn on_link_event(&mut self, _now: SimTime, _ev: &SinkLinkEvent) -> u32 {
        0
    }
    /// After the ACKs of [`SinkPolicy::on_link_event`] were made: how many more to send at
    /// once, made after this call changed the policy's state (DEMO-Vegas's SIG set, then
    /// cleared, at the same event).
    fn follow_up_acks(&mut self) -> u32 {
        0
    }
    /// Whether ACKs carry DEMO-Vegas's SIG bit now.
    fn sig(&self) -> bool {
        false
    }
    /// How often the policy acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// What the receiver does beyond acknowledging data (`policy`).
    config SinkPolicyConfig;
    /// The policy of one sink.
    state AnySinkPolicy;
    dispatch dispatch;
    settings SinkConfig;
    /// Advertise the configured window; ignore link events (ns-2's sinks).
    "standard" => Standard(standard::Standard),
    /// Freeze-TCP (Goff et al. 2000; docs/references.md §6): a zero-window ACK at the handover
    /// warning, `tr_acks` copies of the ACK with the window reopened when the new link is up.
    "freeze" => Freeze(freeze::Freeze) boxed,
    /// DEMO-Vegas (Ho, Chan & Chen 2005; docs/references.md §7.1, A17): the SIG bit in every ACK
    /// while a handover is in progress.
    "sig" => Sig(sig::Sig) boxed,
}

impl SinkPolicy for AnySinkPolicy {
    fn advertised_window(&self, configured: u32) -> u32 {
        dispatch!(self, p => p.advertised_window(configured))
    }
    fn on_link_event(&mut self, now: SimTime, ev: &SinkLinkEvent) -> u32 {
        dispatch!(self, p => p.on_link_event(now, ev))
    }
    fn follow_up_acks(&mut self) -> u32 {
        dispatch!(self, p => p.follow_up_acks())
    }
    fn sig(&self) -> bool {
        dispatch!(self, p => p.sig())
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}

/// An ACK the sink sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AckOut {
    /// Next segment expected.
    pub ack: u64,
    /// SACK blocks `(start, end)`, most recent first.
    pub sack: Vec<(u64, u64)>,
    /// Advertised window (segments).
    pub window: u32,
    /// DEMO-Vegas's SIG bit.
    pub sig: bool,
}

/// What a data segment did at the sink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    /// Segments newly delivered in order to the application.
    pub delivered: u64,
    /// An ACK to send now, if any.
    pub ack: Option<AckOut>,
}

/// The delayed-ACK deadline of a sink whose timer is not armed: the last instant, after any
/// run's end (a deadline computed to it by saturating arithmetic never comes either).
const NOT_ARMED: SimTime = SimTime::MAX;

/// No duplicate segment to report: no segment has this number.
const NO_DSACK: u64 = u64::MAX;

/// A TCP receiver.
#[derive(Clone, Debug)]
pub struct TcpSink {
    /// Shared by the flows of a population (issue #29, memory per flow).
    cfg: Arc<SinkConfig>,
    policy: AnySinkPolicy,
    rcv_nxt: u64,
    /// What arrived above a hole; `None` while nothing did (made at the first out-of-order
    /// segment and dropped when the hole is filled: an idle or loss-free flow keeps one word,
    /// issue #29, memory per flow).
    ooo: Option<Box<OutOfOrder>>,
    unacked_in_order: u32,
    /// When the delayed-ACK timer fires; [`NOT_ARMED`] when it is not (the two options below
    /// are plain words with a value that cannot occur: every sink carries them, issue #29,
    /// memory per flow).
    delack_deadline: SimTime,
    /// A duplicate segment to report in the next ACK's first block (RFC 2883); [`NO_DSACK`]
    /// when none.
    dsack: u64,
    /// Quick ACKs left (Linux `icsk_ack.quick`).
    quick: u32,
    /// Whether any data arrived yet (the first data starts quick-ack mode).
    started: bool,
    /// Engagement counters: ACKs that carried a D-SACK block, ACKs of in-order data that
    /// quick-ack mode sent at once instead of delaying them (32-bit: at most one per ACK, and
    /// every sink carries them).
    dsacks_sent: u32,
    quick_acks: u32,
}

/// The out-of-order segments of a sink, while there are any.
#[derive(Clone, Debug, Default)]
struct OutOfOrder {
    /// Out-of-order ranges above `rcv_nxt`: start -> end (exclusive), disjoint, non-adjacent,
    /// never empty.
    blocks: BTreeMap<u64, u64>,
    /// One segment per out-of-order block, ordered by the block's most recent arrival (newest
    /// first): the SACK blocks to report, in RFC 2018 §4 order.
    recent: Vec<u64>,
}

impl TcpSink {
    /// A sink expecting segment 0. The flows of a population pass one shared configuration
    /// (`Arc`), which no sink changes.
    pub fn new(cfg: impl Into<Arc<SinkConfig>>) -> Self {
        let cfg = cfg.into();
        let policy = AnySinkPolicy::new(&cfg.policy, &cfg);
        TcpSink {
            cfg,
            policy,
            rcv_nxt: 0,
            ooo: None,
            unacked_in_order: 0,
            delack_deadline: NOT_ARMED,
            dsack: NO_DSACK,
            quick: 0,
            started: false,
            dsacks_sent: 0,
            quick_acks: 0,
        }
    }

    /// The receiver policy (to inspect its state).
    pub fn policy(&self) -> &AnySinkPolicy {
        &self.policy
    }

    /// How often the receiver's mechanisms acted (engagement counters): its policy's, then
    /// `dsacks_sent` (with `dsack`) and `quick_acks` (with `quickack` and delayed ACKs).
    pub fn engagement(&self, out: &mut Engagement) {
        self.policy.engagement(out);
        if self.cfg.dsack {
            out.insert("dsacks_sent", u64::from(self.dsacks_sent));
        }
        if self.cfg.delayed_ack && self.cfg.quickack > 0 {
            out.insert("quick_acks", u64::from(self.quick_acks));
        }
    }

    /// Next segment expected.
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// When the delayed-ACK timer fires.
    pub fn next_timeout(&self) -> Option<SimTime> {
        (self.delack_deadline != NOT_ARMED).then_some(self.delack_deadline)
    }

    /// A data segment `seq` arrives at `now`.
    pub fn on_data(&mut self, now: SimTime, seq: u64) -> Received {
        if !self.started {
            self.started = true;
            self.quick = self.cfg.quickack;
        }
        if seq < self.rcv_nxt || self.contains_ooo(seq) {
            // Duplicate: acknowledge at once so the sender learns the state (with a D-SACK),
            // and, as Linux does for old data, ACK quickly for a while.
            if self.cfg.dsack {
                self.dsack = seq;
            }
            if seq < self.rcv_nxt {
                self.quick = self.cfg.quickack;
            }
            return Received { delivered: 0, ack: Some(self.make_ack()) };
        }
        if seq > self.rcv_nxt {
            let max_blocks = self.cfg.max_sack_blocks;
            self.ooo.get_or_insert_with(Box::default).insert(seq, max_blocks);
            return Received { delivered: 0, ack: Some(self.make_ack()) };
        }
        // In order.
        let filled_gap = self.ooo.is_some();
        self.rcv_nxt += 1;
        // (Only when there are out-of-order blocks: a look-up costs even in an empty map.)
        if let Some(o) = self.ooo.as_deref_mut() {
            if let Some(end) = o.blocks.remove(&self.rcv_nxt) {
                self.rcv_nxt = end;
            }
            let rcv_nxt = self.rcv_nxt;
            o.recent.retain(|&s| s >= rcv_nxt);
            if o.blocks.is_empty() {
                self.ooo = None;
            }
        }
        let delivered = self.rcv_nxt - seq;
        if filled_gap || !self.cfg.delayed_ack || self.quick > 0 {
            // Quick-ack mode acted if this ACK would otherwise wait for a second segment.
            let quick = !filled_gap && self.cfg.delayed_ack && self.unacked_in_order == 0;
            self.quick_acks += u32::from(quick);
            return Received { delivered, ack: Some(self.make_ack()) };
        }
        self.unacked_in_order += 1;
        if self.unacked_in_order >= 2 {
            return Received { delivered, ack: Some(self.make_ack()) };
        }
        if self.delack_deadline == NOT_ARMED {
            self.delack_deadline = now + self.cfg.delack_interval;
        }
        Received { delivered, ack: None }
    }

    /// The delayed-ACK timer fired at `now`.
    pub fn on_timeout(&mut self, now: SimTime) -> Option<AckOut> {
        match self.next_timeout() {
            Some(d) if d <= now => Some(self.make_ack()),
            _ => None,
        }
    }

    /// A link event at the mobile node arrives at `now`: the ACKs the policy sends at once
    /// (none with the standard policy).
    pub fn on_link_event(&mut self, now: SimTime, ev: SinkLinkEvent) -> Vec<AckOut> {
        let copies = self.policy.on_link_event(now, &ev);
        let mut acks: Vec<AckOut> = (0..copies).map(|_| self.make_ack()).collect();
        let more = self.policy.follow_up_acks();
        acks.extend((0..more).map(|_| self.make_ack()));
        acks
    }

    fn make_ack(&mut self) -> AckOut {
        self.unacked_in_order = 0;
        self.delack_deadline = NOT_ARMED;
        self.quick = self.quick.saturating_sub(1);
        let mut sack = Vec::new();
        let dup = std::mem::replace(&mut self.dsack, NO_DSACK);
        if dup != NO_DSACK {
            // RFC 2883 §4: the D-SACK block first, then the out-of-order block holding it.
            self.dsacks_sent += 1;
            sack.push((dup, dup + 1));
            sack.extend(self.block_containing(dup));
        }
        if let (true, Some(o)) = (self.cfg.sack, self.ooo.as_deref()) {
            for &s in &o.recent {
                if sack.len() >= self.cfg.max_sack_blocks as usize {
                    break;
                }
                if let Some(block) = self.block_containing(s) {
                    if !sack.contains(&block) {
                        sack.push(block);
                    }
                }
            }
            sack.truncate(self.cfg.max_sack_blocks as usize);
        }
        AckOut {
            ack: self.rcv_nxt,
            sack,
            window: self.policy.advertised_window(self.cfg.advertised_window),
            sig: self.policy.sig(),
        }
    }

    fn block_containing(&self, seq: u64) -> Option<(u64, u64)> {
        self.ooo.as_deref().and_then(|o| block_in(&o.blocks, seq))
    }

    fn contains_ooo(&self, seq: u64) -> bool {
        self.block_containing(seq).is_some()
    }
}

impl OutOfOrder {
    /// Segment `seq` arrived above a hole: add it to its block (merging with its neighbours)
    /// and note the block as the most recent.
    fn insert(&mut self, seq: u64, max_sack_blocks: u32) {
        let mut start = seq;
        let mut end = seq + 1;
        if let Some((&s, &e)) = self.blocks.range(..seq).next_back() {
            if e == seq {
                start = s;
                self.blocks.remove(&s);
            }
        }
        if let Some(e) = self.blocks.remove(&end) {
            end = e;
        }
        self.blocks.insert(start, end);
        self.note_recent(seq, start, end, max_sack_blocks);
    }

    /// `seq` was just added to the out-of-order block `[start, end)`. Its block moves to the
    /// front; every other block keeps one entry, so a long run of segments extending one block
    /// cannot push older blocks out of the report (RFC 2018 §4: after the first block, repeat
    /// the most recently reported blocks).
    fn note_recent(&mut self, seq: u64, start: u64, end: u64, max_sack_blocks: u32) {
        // The blocks are disjoint: a segment is in `seq`'s block exactly when it lies within
        // its bounds (no search of the map per recent entry).
        self.recent.retain(|&s| !(start..end).contains(&s));
        self.recent.insert(0, seq);
        // Keep a few more blocks than one ACK reports, in case reported blocks merge later.
        self.recent.truncate(4 * max_sack_blocks.max(1) as usize);
    }
}

/// The out-of-order block of `ooo` that contains `seq`.
fn block_in(ooo: &BTreeMap<u64, u64>, seq: u64) -> Option<(u64, u64)> {
    ooo.range(..=seq).next_back().filter(|&(_, &end)| seq < end).map(|(&s, &e)| (s, e))
}
