//! RACK-TLP loss detection (RFC 8985): losses decided by time, not by counting duplicate ACKs.
//!
//! RACK ("recent ACK", §6.2) keeps the most recently *sent* segment that has been delivered
//! (cumulatively or by SACK): its send time RACK.xmit_ts, its end RACK.end_seq and the RTT
//! measured with it, RACK.rtt. On every ACK, after the sender took it:
//!
//! 1. the ACK's SACK blocks go into the scoreboard (which keeps SACK information across ACKs
//!    with this detection, RFC 8985 §4);
//! 2. RACK_update: among the segments this ACK newly delivered, the most recently sent one
//!    gives RACK.rtt and, if sent later than RACK's, becomes RACK's segment; a retransmitted
//!    segment last sent less than min_RTT ago is ambiguous and skipped (condition 2; vhsim
//!    sends no timestamps, so condition 1 cannot apply);
//! 3. RACK_detect_reordering: a never-retransmitted segment delivered below RACK.fack, the
//!    highest delivered end, was reordered: RACK.reordering_seen;
//! 4. RACK_update_reo_wnd: a D-SACK (RFC 2883) in a new round (RACK.dsack_round passed) raises
//!    RACK.reo_wnd_mult by one and sets RACK.reo_wnd_persist = 16; each recovery that ends
//!    lowers reo_wnd_persist, and at 0 the multiplier returns to 1. reo_wnd = 0 while no
//!    reordering was seen and either recovery is under way or DupThresh segments are SACKed
//!    (RACK then acts like the DupAck rule); otherwise reo_wnd = min(reo_wnd_mult ·
//!    min_RTT/4, SRTT);
//! 5. RACK_detect_loss: every unacknowledged segment sent before RACK's segment is lost once
//!    now >= its send time + RACK.rtt + reo_wnd (marked on the scoreboard, so recovery
//!    retransmits it, retransmissions included: a lost retransmission is detected like any
//!    loss); for the others the reordering timer is armed at the latest such deadline, and when
//!    it fires the check runs again (§6.2 step 5, RACK_detect_loss_and_arm_timer).
//!
//! A segment marked lost outside fast and RTO recovery starts fast recovery (§3.3: RACK-TLP
//! decides, the congestion control -- PRR -- sends). min_RTT is the connection's smallest RTT
//! sample (Linux filters it over 300 s; the RFC asks for a windowed minimum). After a timeout the
//! sender goes back N from the first unacknowledged segment, which retransmits everything §6.3
//! would mark lost.
//!
//! The tail loss probe (§7) is [`super::tlp`].

use super::tlp::Tlp;
use super::LossDetection;
use crate::config::TcpConfig;
use crate::part::{Part, PartConfig};
use crate::sender::{AckInfo, SenderCore, Timer, Transmit};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::units::{as_duration, Duration};
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::Engagement;

/// Options of RACK-TLP (defaults: RFC 8985, and Linux's `tcp_recovery` = 1, `tcp_early_retrans`
/// = 3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RackConfig {
    /// Grow the reordering window on D-SACKs (§6.2 step 4; default true; false = Linux's
    /// `tcp_recovery` bit 0x2, a static min_RTT/4).
    pub dsack_adaptation: bool,
    /// No reordering window before reordering was seen, in recovery or with DupThresh segments
    /// SACKed (§6.2 step 4; default true; false = Linux's bit 0x4).
    pub dupthresh: bool,
    /// The tail loss probe (§7; default true; Linux `tcp_early_retrans` = 0 turns it off).
    pub tlp: bool,
    /// TLP.max_ack_delay, added to the PTO when one segment is in flight (§7.2; "200ms", the
    /// worst-case delayed-ACK timer Linux also adds).
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub max_ack_delay: SimDuration,
    /// Recoveries without D-SACK after which the window shrinks back (§6.2 step 4: 16; >= 1).
    pub persist_recoveries: u32,
}

impl Default for RackConfig {
    fn default() -> Self {
        RackConfig {
            dsack_adaptation: true,
            dupthresh: true,
            tlp: true,
            max_ack_delay: SimDuration::from_millis(200),
            persist_recoveries: 16,
        }
    }
}

impl PartConfig for RackConfig {
    fn validate(&self) -> Result<(), crate::config::ConfigError> {
        if self.persist_recoveries == 0 {
            return Err(crate::config::ConfigError::new("persist_recoveries", "must be at least 1"));
        }
        Ok(())
    }
}

/// RACK's segment: the most recently sent segment delivered so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RackSegment {
    /// RACK.xmit_ts.
    xmit_ts: SimTime,
    /// RACK.end_seq.
    end_seq: u64,
    /// Sent once: then every segment from RACK.end_seq on was sent after it (first sends go in
    /// sequence order), and step 5 need not look beyond it.
    original: bool,
}

/// Whether the loss timer holds RACK's reordering deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    None,
    Reorder,
}

/// RACK-TLP's state.
#[derive(Clone, Debug)]
pub struct Rack {
    cfg: RackConfig,
    dupthresh: u64,
    /// RACK.xmit_ts and RACK.end_seq (None before the first delivery).
    segment: Option<RackSegment>,
    /// RACK.rtt.
    rtt: SimDuration,
    /// RACK.fack.
    fack: u64,
    reordering_seen: bool,
    reo_wnd: SimDuration,
    reo_wnd_mult: u32,
    reo_wnd_persist: u32,
    dsack_round: Option<u64>,
    /// In fast or RTO recovery at the last ACK (to see a recovery end).
    recovering: bool,
    pending: Pending,
    tlp: Tlp,
    logging: bool,
    marked_lost: u64,
    reorder_timeouts: u64,
    dsacks: u64,
    /// D-SACKs that raised reo_wnd_mult (step 4).
    reo_wnd_raises: u64,
}

impl Part for Rack {
    type Config = RackConfig;
    type Settings = TcpConfig;
    fn new(cfg: &RackConfig, tcp: &TcpConfig) -> Self {
        Rack {
            cfg: cfg.clone(),
            dupthresh: tcp.dupack_threshold as u64,
            segment: None,
            rtt: SimDuration::ZERO,
            fack: 0,
            reordering_seen: false,
            reo_wnd: SimDuration::ZERO,
            reo_wnd_mult: 1,
            reo_wnd_persist: cfg.persist_recoveries,
            dsack_round: None,
            recovering: false,
            pending: Pending::None,
            tlp: Tlp::default(),
            logging: false,
            marked_lost: 0,
            reorder_timeouts: 0,
            dsacks: 0,
            reo_wnd_raises: 0,
        }
    }
}

/// RFC 8985 §6.2 RACK_sent_after: (t1, seq1) was sent after (t2, seq2).
fn sent_after(t1: SimTime, seq1: u64, t2: SimTime, seq2: u64) -> bool {
    t1 > t2 || (t1 == t2 && seq1 > seq2)
}

/// RFC 2883 §4: the first SACK block is a D-SACK if the cumulative ACK covers it or it lies
/// inside the second block.
pub fn has_dsack(ack: &AckInfo) -> bool {
    match ack.sack.as_slice() {
        [] => false,
        [(_, end), ..] if *end <= ack.ack => true,
        [(s0, e0), (s1, e1), ..] => s1 <= s0 && e0 <= e1,
        _ => false,
    }
}

impl Rack {
    /// Segments marked lost so far.
    pub fn marked_lost(&self) -> u64 {
        self.marked_lost
    }

    /// Tail loss probes sent.
    pub fn tlp_probes(&self) -> u64 {
        self.tlp.probes()
    }

    /// Losses a retransmitted probe repaired (RFC 8985 §7.4.2).
    pub fn tlp_repairs(&self) -> u64 {
        self.tlp.repaired()
    }

    /// Times the reordering timer fired.
    pub fn reorder_timeouts(&self) -> u64 {
        self.reorder_timeouts
    }

    /// ACKs that carried a D-SACK.
    pub fn dsacks(&self) -> u64 {
        self.dsacks
    }

    /// The current reordering window.
    pub fn reo_wnd(&self) -> SimDuration {
        self.reo_wnd
    }

    /// RACK.reo_wnd_mult.
    pub fn reo_wnd_mult(&self) -> u32 {
        self.reo_wnd_mult
    }

    /// RACK.reordering_seen.
    pub fn reordering_seen(&self) -> bool {
        self.reordering_seen
    }

    /// RACK.rtt.
    pub fn rack_rtt(&self) -> SimDuration {
        self.rtt
    }

    /// Steps 2 and 3 over the segments the ACK newly delivered. Returns whether RACK's segment
    /// or RTT changed.
    fn update(&mut self, c: &SenderCore, now: SimTime) -> bool {
        let min_rtt = c.estimators().min_rtt.get();
        let log = c.scoreboard().deliveries();
        // In sequence order (cumulative deliveries come first and in order; SACKed ones follow
        // in block order), so that RACK.fack grows as step 3 expects.
        let sorted;
        let delivered = if log.windows(2).all(|w| w[0].seq < w[1].seq) {
            log
        } else {
            let mut v = log.to_vec();
            v.sort_by_key(|d| d.seq);
            sorted = v;
            &sorted[..]
        };
        let mut newest: Option<RackSegment> = None;
        for d in delivered {
            let end = d.seq + 1;
            // Step 3.
            if end > self.fack {
                self.fack = end;
            } else if d.transmissions == 1 {
                self.reordering_seen = true;
            }
            // Step 2: skip an ambiguous retransmission.
            if d.transmissions > 1 && min_rtt.is_some_and(|m| now.saturating_since(d.last_sent) < m) {
                continue;
            }
            if newest.is_none_or(|n| sent_after(d.last_sent, end, n.xmit_ts, n.end_seq)) {
                newest =
                    Some(RackSegment { xmit_ts: d.last_sent, end_seq: end, original: d.transmissions == 1 });
            }
        }
        let Some(n) = newest else { return false };
        self.rtt = now.saturating_since(n.xmit_ts);
        if self.segment.is_none_or(|r| sent_after(n.xmit_ts, n.end_seq, r.xmit_ts, r.end_seq)) {
            self.segment = Some(n);
        }
        true
    }

    /// Step 4.
    fn update_reo_wnd(&mut self, c: &SenderCore, dsack: bool, recovering: bool) {
        if self.dsack_round.is_some_and(|r| c.snd_una() >= r) {
            self.dsack_round = None;
        }
        if self.cfg.dsack_adaptation && self.dsack_round.is_none() && dsack {
            self.dsack_round = Some(c.snd_max());
            self.reo_wnd_mult += 1;
            self.reo_wnd_raises += 1;
            self.reo_wnd_persist = self.cfg.persist_recoveries;
        } else if self.recovering && !recovering {
            self.reo_wnd_persist = self.reo_wnd_persist.saturating_sub(1);
            if self.reo_wnd_persist == 0 {
                self.reo_wnd_mult = 1;
            }
        }
        let sacked = c.scoreboard().sacked_count();
        self.reo_wnd =
            if self.cfg.dupthresh && !self.reordering_seen && (recovering || sacked >= self.dupthresh) {
                SimDuration::ZERO
            } else {
                let quarter = c.estimators().min_rtt.get().map_or(0, |m| m.0 / 4);
                let srtt = c.rtt().srtt().map_or(u64::MAX, |s| s.0);
                SimDuration((quarter * self.reo_wnd_mult as u64).min(srtt))
            };
    }

    /// Step 5: mark what has waited long enough, arm the reordering timer for the rest.
    fn detect_and_arm(&mut self, c: &mut SenderCore, now: SimTime) {
        let Some(rack) = self.segment else { return };
        let wait = self.rtt + self.reo_wnd;
        let mut lost = Vec::new();
        let mut deadline: Option<SimTime> = None;
        let candidates =
            c.scoreboard().unacknowledged().take_while(|&(seq, _, _)| !rack.original || seq < rack.end_seq);
        for (seq, sent, _) in candidates {
            if !sent_after(rack.xmit_ts, rack.end_seq, sent, seq + 1) {
                continue;
            }
            let due = sent + wait;
            if due <= now {
                lost.push(seq);
            } else {
                deadline = Some(deadline.map_or(due, |d| d.max(due)));
            }
        }
        self.marked_lost += lost.len() as u64;
        for seq in lost {
            c.scoreboard_mut().mark_lost(seq);
        }
        match deadline {
            Some(at) => {
                self.tlp.disarm();
                c.set_timer(Timer::Loss, at);
                self.pending = Pending::Reorder;
            }
            None if self.pending == Pending::Reorder => {
                c.clear_timer(Timer::Loss);
                self.pending = Pending::None;
            }
            None => {}
        }
    }

    /// Whether fast recovery should start: a segment awaits its retransmission. TLP's episode
    /// ends with it (§7.1).
    fn wants_recovery(&mut self, c: &SenderCore) -> bool {
        let wants = !c.in_recovery()
            && !c.in_rto_recovery()
            && c.scoreboard().first_needing_retransmission().is_some();
        if wants {
            self.tlp.reset();
        }
        wants
    }
}

impl LossDetection for Rack {
    /// RFC 6675 §2's DupAck: an ACK that carries new SACK information.
    fn counts(&mut self, c: &mut SenderCore, ack: &AckInfo, _window_changed: bool) -> bool {
        c.scoreboard_mut().apply_sack(ack.sack.iter().copied())
    }

    /// RACK decides on the whole ACK ([`LossDetection::on_ack`]), not on a duplicate count.
    fn lost(&mut self, _: &SenderCore, _: SimTime) -> bool {
        false
    }

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> bool {
        c.scoreboard_mut().apply_sack(ack.sack.iter().copied());
        let dsack = has_dsack(ack);
        self.dsacks += u64::from(dsack);
        let recovering = c.in_recovery() || c.in_rto_recovery();
        self.update(c, now);
        self.update_reo_wnd(c, dsack, recovering);
        self.recovering = recovering;
        if self.cfg.tlp && self.tlp.on_ack(c, ack, dsack) && !recovering {
            // From the window in effect (the flight may be empty by now).
            let window = c.window();
            c.reduce_window(now, window);
        }
        self.detect_and_arm(c, now);
        if self.cfg.tlp && self.pending == Pending::None {
            if c.newly_acked() > 0 {
                self.tlp.schedule(c, now, self.cfg.max_ack_delay);
            } else {
                self.tlp.revalidate(c);
            }
        }
        self.wants_recovery(c)
    }

    fn on_timer(&mut self, c: &mut SenderCore, now: SimTime) -> bool {
        if self.pending == Pending::Reorder {
            self.pending = Pending::None;
            self.reorder_timeouts += 1;
            self.detect_and_arm(c, now);
            return self.wants_recovery(c);
        }
        if self.tlp.armed() {
            self.tlp.fire(c, now);
        }
        false
    }

    fn on_rto(&mut self, c: &mut SenderCore, _now: SimTime) {
        self.tlp.reset();
        self.tlp.cancel(c);
        if self.pending == Pending::Reorder {
            c.clear_timer(Timer::Loss);
            self.pending = Pending::None;
        }
    }

    /// `rack_marked_lost`, `rack_reorder_timeouts`, `rack_reo_wnd_raises` (with
    /// `dsack_adaptation`), `tlp_probes`, `tlp_repairs` (with `tlp`).
    fn engagement(&self, out: &mut Engagement) {
        out.insert("rack_marked_lost", self.marked_lost);
        out.insert("rack_reorder_timeouts", self.reorder_timeouts);
        if self.cfg.dsack_adaptation {
            out.insert("rack_reo_wnd_raises", self.reo_wnd_raises);
        }
        if self.cfg.tlp {
            out.insert("tlp_probes", self.tlp.probes());
            out.insert("tlp_repairs", self.tlp.repaired());
        }
    }

    fn on_sent(&mut self, c: &mut SenderCore, now: SimTime, tx: Transmit) {
        if !self.logging {
            self.logging = true;
            c.scoreboard_mut().enable_delivery_log();
        }
        if self.cfg.tlp && self.pending == Pending::None {
            self.tlp.on_sent(c, now, tx.seq, tx.cause, self.cfg.max_ack_delay);
        }
    }
}
