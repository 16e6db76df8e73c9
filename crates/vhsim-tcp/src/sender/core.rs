//! The state a sender's parts share: sequence space, window, RTT estimator, scoreboard,
//! estimators, timers and counters. Its fields are private to the sender; parts read it and
//! change it only through the methods below, each of which names one step of a documented
//! rule (RFC 6298 timer restart, RFC 5681 fast retransmit, go-back-N, ...).

use super::persist::Persist;
use super::timers::{Timer, Timers};
use super::{SenderStats, Transmit, TxCause};
use crate::cc::{AckSample, AnyCc, CongestionControl, CongestionEvent, PathChange, Window};
use crate::config::TcpConfig;
use crate::estimate::Estimators;
use crate::optseq::OptSeq;
use crate::rtt::RttEstimator;
use crate::scoreboard::Scoreboard;
use crate::slowstart::{AnySlowStart, SlowStart};
use std::collections::VecDeque;
use std::sync::Arc;
use vhsim_core::{SimDuration, SimTime};

/// State shared by all parts of a sender.
#[derive(Clone, Debug)]
pub struct SenderCore {
    /// Shared by the flows of a population.
    pub(super) cfg: Arc<TcpConfig>,
    pub(super) cc: AnyCc,
    /// The slow-start exit (HyStart, HyStart++), called around the window law's growth.
    pub(super) ss: AnySlowStart,
    pub(super) window: Window,
    pub(super) rtt: RttEstimator,
    pub(super) sb: Scoreboard,
    pub(super) est: Estimators,
    pub(super) timers: Timers,
    /// Oldest unacknowledged segment.
    pub(super) snd_una: u64,
    /// Next segment to send (rewound by go-back-N after a timeout).
    pub(super) snd_nxt: u64,
    /// One past the highest segment ever sent.
    pub(super) snd_max: u64,
    /// Segments the application has made available (`u64::MAX` = infinite backlog).
    pub(super) app_limit: u64,
    /// Duplicate ACKs counted since the last new ACK.
    pub(super) dupacks: u32,
    /// RFC 6582 `recover` / ns-2 `recover_`, as one past the highest segment sent when the last
    /// recovery or timeout started; none = no restriction.
    pub(super) recover: OptSeq,
    pub(super) in_recovery: bool,
    /// Recovering from a timeout until `recover` is acknowledged.
    pub(super) in_rto_recovery: bool,
    /// ns-2 Sack1 `timeout_`: after a timeout, duplicate ACKs are ignored until a new ACK.
    pub(super) ignore_dupacks: bool,
    /// Segments to send before anything else, with their causes; made at the first
    /// retransmission (an idle or loss-free flow keeps one word: issue #29, memory per flow).
    pub(super) pending: Option<Box<VecDeque<Transmit>>>,
    /// Receiver's advertised window (segments).
    pub(super) peer_window: u32,
    /// Whether an ACK has told the window yet (the first ACK cannot "change" it).
    pub(super) peer_window_known: bool,
    /// Segments sent by limited transmit since the last new cumulative ACK: RFC 5681 §3.2
    /// step 2 leaves them out of the FlightSize that is halved at a fast retransmit.
    pub(super) limited_transmit_sent: u32,
    /// The per-ACK RTT sample of the last new cumulative ACK: (first send time, RTT),
    /// unquantized; none ([`NO_SAMPLE`]) from an ACK that fills a hole
    /// ([`SenderCore::take_new_ack`]).
    pub(super) ack_sample: (SimTime, SimDuration),
    /// Segments the last new cumulative ACK acknowledged.
    pub(super) last_acked: u64,
    /// Whether the ACK being processed ended a round.
    pub(super) round_start: bool,
    /// The last ACK carried DEMO-Vegas's SIG bit (a reserved header bit a standard sender
    /// ignores; a handover policy may read it).
    pub(super) peer_sig: bool,
    /// A handover policy stops the sender as a zero window would (DEMO-Vegas while SIG is set).
    pub(super) halted: bool,
    pub(super) persist: Persist,
    /// The ACK point and arrival time of the ACK that ended persist mode, until the next new
    /// ACK (the point none then): its repeats within half a round trip are copies of it, not
    /// duplicate ACKs (A6).
    pub(super) reopened: (OptSeq, SimTime),
    /// The scoreboard keeps SACK information across new cumulative ACKs, as RFC 6675 §3's
    /// scoreboard does (set for loss detections that read it between ACKs, RACK); otherwise it
    /// is cleared on every new ACK outside recovery as ns-2's `ClearScoreBoard` does.
    pub(super) keep_sack: bool,
    /// `snd_una` and the SACKed count before the ACK being processed (DeliveredData, RFC 6937).
    pub(super) ack_start: (u64, u64),
    pub(super) stats: SenderStats,
    /// Segments sent since the last input (ns-2 `maxburst_`; the sender's, kept here where
    /// the core's small fields leave room for it).
    pub(super) burst: u32,
}

/// No per-ACK RTT sample: no segment is sent at the last instant. (A word with an impossible
/// value instead of an `Option` of the pair: 16 bytes instead of 24, and every sender carries
/// it, issue #29.)
pub(super) const NO_SAMPLE: (SimTime, SimDuration) = (SimTime::MAX, SimDuration::ZERO);

impl SenderCore {
    pub(super) fn new(cfg: Arc<TcpConfig>, app_limit: u64) -> Self {
        let mut cc = AnyCc::new(&cfg.congestion_control, &cfg);
        let ss = AnySlowStart::new(&cfg.slow_start, &cfg);
        let keep_sack = cfg.loss_detection.keeps_sack_information();
        let mut window = Window {
            cwnd: cfg.initial_window as f64,
            ssthresh: cfg.initial_ssthresh.unwrap_or(cfg.window) as f64,
        };
        cc.init(&mut window);
        SenderCore {
            cc,
            ss,
            window,
            rtt: RttEstimator::new(cfg.rto()),
            sb: Scoreboard::default(),
            est: Estimators::new(
                cfg.segment_size,
                cfg.congestion_control.reads_delivery_rate(),
                cfg.congestion_control.reads_estimates_since_resume(),
            ),
            timers: Timers::default(),
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            app_limit,
            dupacks: 0,
            recover: OptSeq::NONE,
            in_recovery: false,
            in_rto_recovery: false,
            ignore_dupacks: false,
            pending: None,
            peer_window: u32::MAX,
            peer_window_known: false,
            limited_transmit_sent: 0,
            ack_sample: NO_SAMPLE,
            last_acked: 0,
            round_start: false,
            peer_sig: false,
            halted: false,
            persist: Persist::default(),
            reopened: (OptSeq::NONE, SimTime::ZERO),
            keep_sack,
            ack_start: (0, 0),
            stats: SenderStats::default(),
            burst: 0,
            cfg,
        }
    }

    // ------------------------------------------------------------------ reading

    /// Configuration.
    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }

    /// Oldest unacknowledged segment.
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }

    /// Next segment to send.
    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }

    /// One past the highest segment ever sent.
    pub fn snd_max(&self) -> u64 {
        self.snd_max
    }

    /// Segments the application has made available (`u64::MAX` = infinite backlog).
    pub fn app_limit(&self) -> u64 {
        self.app_limit
    }

    /// Segments sent and not cumulatively acknowledged.
    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// Duplicate ACKs counted since the last new ACK.
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }

    /// RFC 6582 `recover`, if set.
    pub fn recover(&self) -> Option<u64> {
        self.recover.get()
    }

    /// In fast recovery.
    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    /// Recovering from a timeout (until `recover` is acknowledged).
    pub fn in_rto_recovery(&self) -> bool {
        self.in_rto_recovery
    }

    /// The RTT estimator.
    pub fn rtt(&self) -> &RttEstimator {
        &self.rtt
    }

    /// The outstanding-segment scoreboard.
    pub fn scoreboard(&self) -> &Scoreboard {
        &self.sb
    }

    /// The shared estimators.
    pub fn estimators(&self) -> &Estimators {
        &self.est
    }

    /// Congestion window (segments).
    pub fn cwnd(&self) -> f64 {
        self.window.cwnd
    }

    /// Slow-start threshold (segments).
    pub fn ssthresh(&self) -> f64 {
        self.window.ssthresh
    }

    /// min(cwnd, window caps): ns-2 `window()` before truncation.
    pub fn window(&self) -> f64 {
        self.window.cwnd.min(self.cap())
    }

    /// The fixed caps on the window: `window_` and the advertised window.
    pub fn cap(&self) -> f64 {
        self.cfg.window.min(self.peer_window) as f64
    }

    /// The receiver's advertised window (segments; `u32::MAX` before the first ACK).
    pub fn peer_window(&self) -> u32 {
        self.peer_window
    }

    /// Deadline of timer `t`.
    pub fn timer(&self, t: Timer) -> Option<SimTime> {
        self.timers.get(t)
    }

    /// The retransmission timer's deadline.
    pub fn rtx_deadline(&self) -> Option<SimTime> {
        self.timers.get(Timer::Rto)
    }

    /// Segments sent by limited transmit since the last new cumulative ACK.
    pub fn limited_transmit_sent(&self) -> u32 {
        self.limited_transmit_sent
    }

    /// The last new ACK's per-ACK RTT sample: (first send time of the timed segment, RTT).
    #[inline]
    pub fn ack_sample(&self) -> Option<(SimTime, SimDuration)> {
        (self.ack_sample.0 != NO_SAMPLE.0).then_some(self.ack_sample)
    }

    /// Whether `seq` is queued for sending.
    pub fn is_queued(&self, seq: u64) -> bool {
        self.pending.as_deref().is_some_and(|q| q.iter().any(|t| t.seq == seq))
    }

    /// The first segment queued for sending, taken from the queue.
    #[inline]
    pub(super) fn pop_pending(&mut self) -> Option<Transmit> {
        self.pending.as_deref_mut().and_then(VecDeque::pop_front)
    }

    /// Counters.
    pub fn stats(&self) -> &SenderStats {
        &self.stats
    }

    /// Whether the sender is in persist mode (the peer advertises a zero window, or a handover
    /// policy halted it).
    pub fn persisting(&self) -> bool {
        self.persist.active
    }

    /// The window law (to read its own state: Vegas's BaseRTT, Freeze-TCPv2's phase).
    pub fn congestion_control(&self) -> &AnyCc {
        &self.cc
    }

    /// Whether the last ACK carried the SIG bit (DEMO-Vegas).
    pub fn peer_sig(&self) -> bool {
        self.peer_sig
    }

    /// Whether a handover policy halts the sender.
    pub fn halted(&self) -> bool {
        self.halted
    }

    /// The slow-start exit (to read HyStart's or HyStart++'s state).
    pub fn slow_start(&self) -> &AnySlowStart {
        &self.ss
    }

    /// Segments the ACK being processed acknowledged cumulatively so far.
    pub fn newly_acked(&self) -> u64 {
        self.snd_una - self.ack_start.0
    }

    /// Segments this ACK reported delivered: the change in `snd_una` plus the change in the
    /// number of SACKed segments since the ACK arrived (RFC 6937 §2 DeliveredData; negative
    /// if SACK information was withdrawn).
    pub fn delivered_by_ack(&self) -> i64 {
        let (una, sacked) = self.ack_start;
        (self.snd_una - una) as i64 + self.sb.sacked_count() as i64 - sacked as i64
    }

    // ------------------------------------------------------------------ parts' handles

    /// The RTT estimator, to change (handover policies restart it, change minrto).
    pub(crate) fn rtt_mut(&mut self) -> &mut RttEstimator {
        &mut self.rtt
    }

    /// The scoreboard, to change (SACK blocks, retransmission marks).
    pub(crate) fn scoreboard_mut(&mut self) -> &mut Scoreboard {
        &mut self.sb
    }

    /// Counters, to count.
    pub(crate) fn stats_mut(&mut self) -> &mut SenderStats {
        &mut self.stats
    }

    /// Set cwnd and ssthresh (recovery algorithms, F-RTO, handover policies).
    pub(crate) fn set_window(&mut self, cwnd: f64, ssthresh: f64) {
        self.window = Window { cwnd, ssthresh };
    }

    /// Set cwnd only.
    pub(crate) fn set_cwnd(&mut self, cwnd: f64) {
        self.window.cwnd = cwnd;
    }

    /// Stop sending as for a zero window (`true`) or allow it again (DEMO-Vegas's SIG). Takes
    /// effect when the ACK has been processed (persist mode, [`super::persist`]).
    pub(crate) fn set_halted(&mut self, halted: bool) {
        self.halted = halted;
    }

    /// Measure the base RTT anew (DEMO-Vegas after a handover, docs/references.md A17): the shared
    /// estimator and the window law forget their minimum.
    pub(crate) fn restart_base_rtt(&mut self, now: SimTime) {
        self.est.base_rtt.reset();
        self.cc.on_base_rtt_restart(now);
    }

    /// The window law's reaction to an undone loss response (after F-RTO set the window).
    pub(crate) fn undo(&mut self, now: SimTime) {
        // The segments the undone response deemed lost were not (Linux clears its lost marks
        // on an undo too); only loss detections that mark segments set them.
        self.sb.clear_lost();
        self.cc.on_undo(&mut self.window, now);
    }

    /// The window law's and the estimators' reaction to a path change.
    pub(crate) fn path_change(&mut self, now: SimTime, change: &PathChange) {
        self.est.on_path_change();
        self.cc.on_path_change(&mut self.window, now, change);
    }

    /// Arm a timer other than the retransmission timer (whose rules are below).
    pub(crate) fn set_timer(&mut self, t: Timer, at: SimTime) {
        debug_assert_ne!(t, Timer::Rto);
        self.timers.set(t, at);
    }

    /// Disarm a timer other than the retransmission timer; returns whether it was armed.
    pub(crate) fn clear_timer(&mut self, t: Timer) -> bool {
        debug_assert_ne!(t, Timer::Rto);
        self.timers.clear(t)
    }

    /// Count one more duplicate ACK.
    pub(crate) fn count_dupack(&mut self) {
        self.dupacks += 1;
    }

    /// Forget the duplicate ACKs counted (NewReno's partial ACK).
    pub(crate) fn reset_dupacks(&mut self) {
        self.dupacks = 0;
    }

    /// Set `recover` (F-RTO's RecoveryPoint, RFC 5682 §2.1 step 2).
    pub(crate) fn set_recover(&mut self, seq: u64) {
        self.recover = OptSeq::some(seq);
    }

    /// Clear `recover` (ns-2 Sack1 `recover_ = 0` after recovery).
    pub(crate) fn clear_recover(&mut self) {
        self.recover = OptSeq::NONE;
    }

    /// The timeout was spurious (F-RTO step 3b): RTO recovery ends, `recover` is cleared so a
    /// later fast retransmit is not blocked, and duplicate ACKs count again.
    pub(crate) fn end_rto_recovery(&mut self) {
        self.recover = OptSeq::NONE;
        self.in_rto_recovery = false;
        self.ignore_dupacks = false;
    }

    /// Send from `seq` again (go-back-N resumes there).
    pub(crate) fn rewind_to(&mut self, seq: u64) {
        self.snd_nxt = seq;
    }

    /// The ACK being processed starts now: remember where `snd_una` and the SACKed count
    /// stood (RFC 6937 DeliveredData).
    #[inline]
    pub(crate) fn note_ack_start(&mut self) {
        self.ack_start = (self.snd_una, self.sb.sacked_count());
        self.sb.start_ack();
    }

    /// Queue a first transmission of `seq` ahead of the window (F-RTO's two probes).
    pub(crate) fn queue_new(&mut self, seq: u64) {
        self.pending.get_or_insert_with(Box::default).push_back(Transmit { seq, cause: TxCause::New });
    }

    // ------------------------------------------------------------------ rules

    /// Restart the retransmission timer with the current RTO (RFC 6298 §5.3). The timer stays
    /// stopped in persist mode (it restarts when the window opens).
    pub(crate) fn restart_timer(&mut self, now: SimTime) {
        if !self.persist.active {
            self.timers.set(Timer::Rto, now + self.rtt.rto());
        }
    }

    /// ns-2 `newtimer`: restart if data remains outstanding, else stop (RFC 6298 §5.2/5.3).
    pub(crate) fn restart_or_stop_timer(&mut self, now: SimTime) {
        if self.snd_nxt > self.snd_una || self.snd_max > self.snd_una {
            self.restart_timer(now);
        } else {
            self.timers.clear(Timer::Rto);
        }
    }

    /// Keep the retransmission timer from expiring before `at` (TCP-DCR's tau,
    /// docs/references.md A5): a running timer due earlier is moved to `at`.
    pub(crate) fn defer_rto_to(&mut self, at: SimTime) {
        if self.timers.get(Timer::Rto).is_some_and(|d| d < at) {
            self.timers.set(Timer::Rto, at);
        }
    }

    /// Advance `snd_una` to `ack`, take the RTT sample, clear the dupACK count (ns-2
    /// `newack`). Returns the number of newly acknowledged segments.
    ///
    /// Per-ACK samples (every-ACK timing, LD, handover policies, the base RTT) time segment
    /// `ack - 1` from its first send, so an ACK that fills a hole gives none: one that
    /// acknowledges a retransmitted segment ([`Scoreboard::advance`]), or one that follows
    /// duplicate ACKs (the receiver held `ack - 1` out of order while it waited for the hole,
    /// RFC 5681 §4.2). ns-2 takes no sample there either: the fast retransmit clears
    /// `rtt_active_`, and with timestamps TSecr echoes the segment that filled the hole
    /// (issue #18 item 2).
    pub(crate) fn take_new_ack(&mut self, now: SimTime, ack: u64) -> u64 {
        let newly = ack - self.snd_una;
        let fills_hole = self.dupacks > 0;
        let sent_at = self.sb.advance(ack).filter(|_| !fills_hole);
        self.ack_sample = sent_at.map_or(NO_SAMPLE, |s| (s, now.saturating_since(s)));
        if let Some((_, rtt)) = self.ack_sample() {
            self.est.on_rtt_sample(rtt);
        }
        self.rtt.on_new_ack(now, ack, sent_at);
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        self.dupacks = 0;
        self.limited_transmit_sent = 0;
        self.last_acked = newly;
        self.reopened.0 = OptSeq::NONE;
        if self.in_rto_recovery && self.recover.get().is_some_and(|r| ack >= r) {
            self.in_rto_recovery = false;
        }
        self.restart_or_stop_timer(now);
        newly
    }

    /// The window law's step for an ACK of new data (ns-2 `opencwnd`), with the sample of the
    /// last [`SenderCore::take_new_ack`].
    pub(crate) fn open_cwnd(&mut self, now: SimTime) {
        let ack_sample = self.ack_sample();
        let sample = AckSample {
            acked: self.last_acked,
            newest_sent: ack_sample.map(|s| s.0),
            rtt: ack_sample.map(|s| s.1),
            in_flight: self.flight_size(),
            round_start: self.round_start,
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
        };
        let before = self.window;
        self.ss.before_growth(&mut self.window, now, &sample);
        self.cc.on_ack(&mut self.window, now, &sample, &self.rtt, &self.est);
        self.ss.after_growth(before, &mut self.window, now, &sample);
    }

    /// The ordinary steps for a new cumulative ACK outside recovery: take it (RTT sample, timer),
    /// stop ignoring dupACKs, clear the scoreboard (ns-2 `ClearScoreBoard`), open cwnd.
    pub(crate) fn open_new_ack(&mut self, now: SimTime, ack: u64) {
        self.take_new_ack(now, ack);
        self.ignore_dupacks = false;
        if !self.keep_sack {
            self.sb.clear();
        }
        self.open_cwnd(now);
    }

    /// The steps every timeout response takes (RFC 6298 §5.5-5.6, RFC 5681 §3.1; ns-2
    /// `timeout`): leave fast recovery, the window law's timeout step (ssthresh halved,
    /// cwnd = 1 for Reno), back off and restart the timer, `recover` = highest sent, ignore
    /// dupACKs until a new ACK (ns-2 Sack1 `timeout_`). What is retransmitted is the response's
    /// choice.
    pub(crate) fn start_rto(&mut self, now: SimTime) {
        self.stats.rto_count += 1;
        self.dupacks = 0;
        self.limited_transmit_sent = 0;
        self.in_recovery = false;
        self.in_rto_recovery = true;
        self.ignore_dupacks = true;
        self.recover = OptSeq::some(self.snd_max);
        self.sb.clear();
        if let Some(q) = self.pending.as_deref_mut() {
            q.clear();
        }
        let ev = self.congestion_event(self.window(), self.sb.sent_info(self.snd_una));
        self.cc.on_rto(&mut self.window, now, &ev);
        self.ss.on_loss(true);
        self.rtt.on_timeout();
        self.rtt.on_retransmission();
        self.restart_timer(now);
    }

    /// Steps every recovery algorithm takes at a fast retransmit (RFC 5681 §3.2 steps 2-3,
    /// ns-2 `dupack_action`): remember `recover`, the window law's congestion step from
    /// `window` (only for a congestion loss), restart the timer without backoff (ns-2
    /// `reset_rtx_timer(1,0)`), and queue the retransmission of the first unacknowledged
    /// segment.
    pub(crate) fn start_fast_retransmit(&mut self, now: SimTime, window: f64, congestion: bool) {
        self.start_recovery(now, window, congestion);
        self.sb.mark_retransmitted(self.snd_una);
        self.queue_retransmission(self.snd_una, TxCause::FastRetransmit);
    }

    /// [`SenderCore::start_fast_retransmit`] without choosing what to retransmit: for recovery
    /// algorithms that send the segments the loss detection marked lost themselves (PRR).
    pub(crate) fn start_recovery(&mut self, now: SimTime, window: f64, congestion: bool) {
        self.recover = OptSeq::some(self.snd_max);
        self.in_recovery = true;
        if congestion {
            self.reduce_window(now, window);
        }
        self.rtt.on_retransmission();
        self.restart_timer(now);
    }

    /// The window law's congestion response from `window`, without entering recovery (also
    /// RACK-TLP's response to a loss its probe repaired, RFC 8985 §7.4.2).
    pub(crate) fn reduce_window(&mut self, now: SimTime, window: f64) {
        let ev = self.congestion_event(window, self.sb.sent_info(self.snd_una));
        self.cc.on_congestion(&mut self.window, now, &ev);
        self.ss.on_loss(false);
    }

    /// What a window law learns of a loss: the window to reduce from, the lost segment's last
    /// send, and the shared estimators' delivery rate and minimum RTT.
    fn congestion_event(&self, window: f64, lost: Option<(SimTime, u32)>) -> CongestionEvent {
        CongestionEvent {
            window,
            in_flight: self.flight_size(),
            lost,
            bandwidth: self.est.bandwidth.as_ref().and_then(|b| b.estimate()),
            min_rtt: self.est.min_rtt.get(),
        }
    }

    /// Leave recovery on an ACK covering `recover` (ns-2 `newack`).
    pub(crate) fn exit_recovery(&mut self, now: SimTime, ack: u64) {
        self.in_recovery = false;
        self.take_new_ack(now, ack);
        self.ignore_dupacks = false;
        if !self.keep_sack {
            self.sb.clear();
        }
    }

    /// Go-back-N from the first unacknowledged segment (RFC 6298 §5.4), which is retransmitted
    /// at once: the timeout's retransmission.
    pub(crate) fn go_back_n(&mut self) {
        self.go_back_n_for(TxCause::Rto);
    }

    /// Go-back-N as [`SenderCore::go_back_n`], the first segment retransmitted for `cause`
    /// (A3: [`TxCause::Notified`], the notification's retransmission, which no timeout
    /// triggered and the ground truth must not count as an RTO's).
    pub(crate) fn go_back_n_for(&mut self, cause: TxCause) {
        self.snd_nxt = self.snd_una;
        self.queue_retransmission(self.snd_una, cause);
    }

    /// Advance `snd_una` without an RTT sample (partial ACKs in recovery).
    pub(crate) fn advance_una(&mut self, ack: u64) {
        self.sb.advance(ack);
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
    }

    /// Queue a retransmission of `seq` ahead of everything else.
    pub(crate) fn queue_retransmission(&mut self, seq: u64, cause: TxCause) {
        self.pending.get_or_insert_with(Box::default).push_back(Transmit { seq, cause });
    }

    /// Whether `seq` may go out under a window of `allowed` segments counted from `snd_una`
    /// (ns-2 `t_seqno_ <= highest_ack_ + win`).
    pub fn fits(&self, seq: u64, allowed: f64) -> bool {
        // A count of segments far below 2^63: converted from a signed integer, one instruction
        // on x86-64 (an unsigned one takes a branch and several), the same value.
        let n = seq + 1 - self.snd_una;
        debug_assert!(n <= i64::MAX as u64);
        n as i64 as f64 <= allowed
    }

    /// The next new (or go-back-N) segment if it fits within `allowed` segments from `snd_una`,
    /// regardless of cwnd (SACK recovery sends new data by `pipe`, bounded by `window_`).
    pub fn next_in_window_capped(&self, allowed: f64) -> Option<Transmit> {
        if self.snd_nxt < self.app_limit && self.fits(self.snd_nxt, allowed) {
            let cause = if self.snd_nxt < self.snd_max { TxCause::GoBackN } else { TxCause::New };
            Some(Transmit { seq: self.snd_nxt, cause })
        } else {
            None
        }
    }

    /// The next segment under the ordinary window (new data, or go-back-N after a timeout),
    /// with `extra` segments of allowance (limited transmit, window inflation).
    /// The window is not floored (ns-2's `int(cwnd_)`): [`SenderCore::fits`] compares a whole
    /// number of segments n with it, and n <= floor(w) exactly when n <= w (a libm call per
    /// segment sent saved on targets without a rounding instruction).
    pub fn next_in_window(&self, extra: f64) -> Option<Transmit> {
        self.next_in_window_capped((self.window.cwnd + extra).min(self.cap()))
    }
}
