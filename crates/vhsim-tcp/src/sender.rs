//! The sans-IO TCP sender: sequence space, timers and the order in which parts are called.
//!
//! Per ACK:
//! 1. In fast recovery, the recovery part handles the ACK.
//! 2. Otherwise the RTO response sees it first ([`crate::response::AnyRtoResponse::on_ack`]):
//!    F-RTO in steps 2-3 consumes it (running the ordinary new-ACK steps itself) and may declare
//!    the timeout spurious, which the loss classifier hears of (Lim & Jang's handover reset).
//! 3. Otherwise a new cumulative ACK takes the RTT sample, restarts the timer (RFC 6298 §5.3),
//!    cancels a pending TCP-DCR delay (a reordering) and opens cwnd (window law); a duplicate
//!    ACK is counted (SACK senders count it only if it carries new SACK information, ns-2
//!    `CheckUpdate`) and handed to the dupACK response, which may ask for a fast retransmit
//!    (RFC 5681 §3.2 step 2, or TCP-DCR's delay with tau = 0) unless the ACK does not cover
//!    `recover` (RFC 6582 §3.2 step 1, ns-2 `bug_fix_`).
//! 4. Last, the loss classifier gets the ACK's RTT sample (if any) and the new `snd_una`.
//!
//! A fast retransmit ([`TcpSender::on_timeout`] for TCP-DCR, or step 3) first asks the loss
//! classifier: congestion halves as usual, wireless keeps cwnd; the recovery part then
//! retransmits. Each classification is queued for [`TcpSender::take_loss_classifications`].
//!
//! Per timer expiry ([`TcpSender::on_timeout`], called at [`TcpSender::next_timeout`], the
//! earliest of the retransmission timer and TCP-DCR's delay): the delay first (fast retransmit),
//! then, if its deadline has passed, the retransmission timer: recovery episode forgotten,
//! delay cancelled, the classifier told (LD resets Tmin), then the RTO response (conventional:
//! RFC 6298 §5.4-5.6, RFC 5681 §3.1; or F-RTO step 1).
//!
//! Sending: [`TcpSender::poll_transmit`] returns one segment at a time until nothing is allowed.

use crate::cc::AnyCc;
use crate::classify::{AnyLossClassifier, LossClass, LossClassification};
use crate::config::{DcrTau, RecoveryKind, TcpConfig};
use crate::handover::{AnyHandoverPolicy, HandoverNotice};
use crate::recovery::AnyRecovery;
use crate::response::{AckOutcome, AnyDupAckResponse, AnyRtoResponse, DupAckAction};
use crate::rtt::RttEstimator;
use crate::scoreboard::Scoreboard;
use std::collections::VecDeque;
use vhsim_core::{SimDuration, SimTime};

/// An acknowledgment as the sender sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AckInfo {
    /// Next segment expected by the receiver.
    pub ack: u64,
    /// SACK blocks `(start, end)`, most recent first.
    pub sack: Vec<(u64, u64)>,
    /// Advertised window in segments.
    pub window: u32,
}

/// Why a segment is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TxCause {
    /// First transmission of new data.
    New = 0,
    /// Fast retransmit at the dupACK threshold.
    FastRetransmit = 1,
    /// Retransmission during loss recovery (partial ACK, SACK hole).
    Recovery = 2,
    /// The retransmission a timeout triggers.
    Rto = 3,
    /// A later retransmission of go-back-N after a timeout.
    GoBackN = 4,
}

impl TxCause {
    /// True for every cause but `New`.
    pub fn is_retransmission(self) -> bool {
        self != TxCause::New
    }
}

/// One segment to put on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transmit {
    /// Segment number.
    pub seq: u64,
    /// Why it is sent.
    pub cause: TxCause,
}

/// Congestion-avoidance state, as Linux names them (for traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CaState {
    /// No loss suspected.
    Open = 0,
    /// Duplicate ACKs below the threshold.
    Disorder = 1,
    /// Fast recovery.
    Recovery = 2,
    /// Recovering from a timeout.
    Loss = 3,
}

impl CaState {
    /// Names in code order.
    pub const NAMES: [&'static str; 4] = ["open", "disorder", "recovery", "loss"];
}

/// Counters of one sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    /// Retransmitted segments.
    pub retransmissions: u64,
    /// Fast retransmits (recovery episodes entered by dupACKs).
    pub fast_retransmits: u64,
    /// Retransmission timeouts.
    pub rto_count: u64,
    /// Timeouts the RTO response declared spurious (F-RTO, RFC 5682 step 3b).
    pub spurious_rto_detected: u64,
    /// TCP-DCR delays armed.
    pub dcr_delays: u64,
    /// TCP-DCR delays cancelled by a new ACK before tau (reordering, Lim & Jang Fig. 5).
    pub dcr_reorderings: u64,
    /// Fast retransmits the loss classifier called wireless (cwnd kept).
    pub wireless_losses: u64,
}

/// State shared by all parts of a sender. Parts read and change it in the documented order.
#[derive(Clone, Debug)]
pub struct SenderCore {
    /// Configuration.
    pub cfg: TcpConfig,
    /// Window law.
    pub cc: AnyCc,
    /// RTT estimator and backoff.
    pub rtt: RttEstimator,
    /// Outstanding-segment state.
    pub sb: Scoreboard,
    /// Oldest unacknowledged segment.
    pub snd_una: u64,
    /// Next segment to send (rewound by go-back-N after a timeout).
    pub snd_nxt: u64,
    /// One past the highest segment ever sent.
    pub snd_max: u64,
    /// Segments the application has made available (`u64::MAX` = infinite backlog).
    pub app_limit: u64,
    /// Duplicate ACKs counted since the last new ACK.
    pub dupacks: u32,
    /// RFC 6582 `recover` / ns-2 `recover_`, as one past the highest segment sent when the last
    /// recovery or timeout started; `None` = no restriction.
    pub recover: Option<u64>,
    /// In fast recovery.
    pub in_recovery: bool,
    /// Recovering from a timeout until `recover` is acknowledged.
    pub in_rto_recovery: bool,
    /// ns-2 Sack1 `timeout_`: after a timeout, duplicate ACKs are ignored until a new ACK.
    pub ignore_dupacks: bool,
    /// Retransmission-timer deadline.
    pub rtx_deadline: Option<SimTime>,
    /// Segments to send before anything else, with their causes.
    pub pending: VecDeque<Transmit>,
    /// Receiver's advertised window (segments).
    pub peer_window: u32,
    /// Whether an ACK has told the window yet (the first ACK cannot "change" it).
    pub peer_window_known: bool,
    /// Segments sent by limited transmit since the last new cumulative ACK: RFC 5681 §3.2
    /// step 2 leaves them out of the FlightSize that is halved at a fast retransmit.
    pub limited_transmit_sent: u32,
    /// The RTT sample of the last new cumulative ACK, if its last segment was never
    /// retransmitted: (first send time, RTT). Unquantized; for the loss classifier.
    pub ack_sample: Option<(SimTime, SimDuration)>,
    /// Counters.
    pub stats: SenderStats,
}

impl SenderCore {
    /// Segments sent and not cumulatively acknowledged.
    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// min(cwnd, window cap, advertised window): ns-2 `window()` before truncation.
    pub fn window(&self) -> f64 {
        self.cc.cwnd().min(self.cap())
    }

    /// The fixed caps on the window: `window_` and the advertised window.
    pub fn cap(&self) -> f64 {
        self.cfg.window.min(self.peer_window) as f64
    }

    /// Restart the retransmission timer with the current RTO (RFC 6298 §5.3).
    pub fn restart_timer(&mut self, now: SimTime) {
        self.rtx_deadline = Some(now + self.rtt.rto());
    }

    /// ns-2 `newtimer`: restart if data remains outstanding, else stop (RFC 6298 §5.2/5.3).
    pub fn restart_or_stop_timer(&mut self, now: SimTime) {
        if self.snd_nxt > self.snd_una || self.snd_max > self.snd_una {
            self.restart_timer(now);
        } else {
            self.rtx_deadline = None;
        }
    }

    /// Advance `snd_una` to `ack`, take an RTT sample, clear the dupACK count
    /// (ns-2 `newack`). Returns the number of newly acknowledged segments.
    ///
    /// Per-ACK samples (every-ACK timing, LD, handover policies) time segment `ack - 1` from
    /// its first send, so an ACK that fills a hole gives none: one that acknowledges a
    /// retransmitted segment ([`Scoreboard::advance`]), or one that follows duplicate ACKs
    /// (the receiver held `ack - 1` out of order while it waited for the hole, RFC 5681 §4.2).
    /// ns-2 takes no sample there either: the fast retransmit clears `rtt_active_`, and with
    /// timestamps TSecr echoes the segment that filled the hole (issue #18 item 2).
    pub fn take_new_ack(&mut self, now: SimTime, ack: u64) -> u64 {
        let newly = ack - self.snd_una;
        let fills_hole = self.dupacks > 0;
        let sent_at = self.sb.advance(ack).filter(|_| !fills_hole);
        self.ack_sample = sent_at.map(|s| (s, now.saturating_since(s)));
        self.rtt.on_new_ack(now, ack, sent_at);
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        self.dupacks = 0;
        self.limited_transmit_sent = 0;
        if self.in_rto_recovery && self.recover.is_some_and(|r| ack >= r) {
            self.in_rto_recovery = false;
        }
        self.restart_or_stop_timer(now);
        newly
    }

    /// The ordinary steps for a new cumulative ACK outside recovery: take it (RTT sample, timer),
    /// stop ignoring dupACKs, clear the scoreboard (ns-2 `ClearScoreBoard`), open cwnd.
    pub fn open_new_ack(&mut self, now: SimTime, ack: u64) {
        self.take_new_ack(now, ack);
        self.ignore_dupacks = false;
        self.sb.clear();
        self.cc.on_ack();
    }

    /// The steps every timeout response takes (RFC 6298 §5.5-5.6, RFC 5681 §3.1; ns-2
    /// `timeout`): leave fast recovery, ssthresh = max(2, ⌊window/2⌋), cwnd = 1, back off and
    /// restart the timer, `recover` = highest sent, ignore dupACKs until a new ACK (ns-2 Sack1
    /// `timeout_`). What is retransmitted is the response's choice.
    pub fn start_rto(&mut self, now: SimTime) {
        self.stats.rto_count += 1;
        self.dupacks = 0;
        self.limited_transmit_sent = 0;
        self.in_recovery = false;
        self.in_rto_recovery = true;
        self.ignore_dupacks = true;
        self.recover = Some(self.snd_max);
        self.sb.clear();
        self.pending.clear();
        let w = self.window();
        self.cc.on_rto(w);
        self.rtt.on_timeout();
        self.rtt.on_retransmission();
        self.restart_timer(now);
    }

    /// Go-back-N from the first unacknowledged segment (RFC 6298 §5.4), which is retransmitted
    /// at once.
    pub fn go_back_n(&mut self) {
        self.snd_nxt = self.snd_una;
        self.queue_retransmission(self.snd_una, TxCause::Rto);
    }

    /// Advance `snd_una` without an RTT sample (partial ACKs in recovery).
    pub fn advance_una(&mut self, ack: u64) {
        self.sb.advance(ack);
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
    }

    /// Queue a retransmission of `seq` ahead of everything else.
    pub fn queue_retransmission(&mut self, seq: u64, cause: TxCause) {
        self.pending.push_back(Transmit { seq, cause });
    }

    /// Whether `seq` may go out under a window of `allowed` segments counted from `snd_una`
    /// (ns-2 `t_seqno_ <= highest_ack_ + win`).
    pub fn fits(&self, seq: u64, allowed: f64) -> bool {
        (seq + 1 - self.snd_una) as f64 <= allowed
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
    pub fn next_in_window(&self, extra: f64) -> Option<Transmit> {
        self.next_in_window_capped((self.cc.cwnd() + extra).floor().min(self.cap()))
    }
}

/// A TCP sender with its parts.
#[derive(Clone, Debug)]
pub struct TcpSender {
    core: SenderCore,
    recovery: AnyRecovery,
    rto_response: AnyRtoResponse,
    dupack_response: AnyDupAckResponse,
    classifier: AnyLossClassifier,
    handover: AnyHandoverPolicy,
    classifications: VecDeque<LossClassification>,
    burst: u32,
}

impl TcpSender {
    /// A sender with nothing sent yet; `app_limit` = segments available (`u64::MAX` = bulk).
    pub fn new(cfg: TcpConfig, app_limit: u64) -> Self {
        let core = SenderCore {
            cc: AnyCc::new(&cfg),
            rtt: RttEstimator::new(cfg.rto),
            sb: Scoreboard::default(),
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            app_limit,
            dupacks: 0,
            recover: None,
            in_recovery: false,
            in_rto_recovery: false,
            ignore_dupacks: false,
            rtx_deadline: None,
            pending: VecDeque::new(),
            peer_window: u32::MAX,
            peer_window_known: false,
            limited_transmit_sent: 0,
            ack_sample: None,
            stats: SenderStats::default(),
            cfg,
        };
        TcpSender {
            recovery: AnyRecovery::new(core.cfg.recovery),
            rto_response: AnyRtoResponse::new(&core.cfg),
            dupack_response: AnyDupAckResponse::new(&core.cfg),
            classifier: AnyLossClassifier::new(&core.cfg),
            handover: AnyHandoverPolicy::new(&core.cfg),
            classifications: VecDeque::new(),
            burst: 0,
            core,
        }
    }

    /// Read access to the shared state.
    pub fn core(&self) -> &SenderCore {
        &self.core
    }

    /// Congestion window in segments.
    pub fn cwnd(&self) -> f64 {
        self.core.cc.cwnd()
    }

    /// Slow-start threshold in segments.
    pub fn ssthresh(&self) -> f64 {
        self.core.cc.ssthresh()
    }

    /// Counters.
    pub fn stats(&self) -> SenderStats {
        self.core.stats
    }

    /// Congestion-avoidance state.
    pub fn ca_state(&self) -> CaState {
        if self.core.in_recovery {
            CaState::Recovery
        } else if self.core.in_rto_recovery {
            CaState::Loss
        } else if self.core.dupacks > 0 {
            CaState::Disorder
        } else {
            CaState::Open
        }
    }

    /// The application makes more data available (or stops: set it to what was written).
    ///
    /// More data starts a new burst: ns-2's `TcpAgent::sendmsg` calls
    /// `send_much(0, 0, maxburst_)`, so each application write has its own `maxburst_` budget.
    pub fn set_app_limit(&mut self, segments: u64) {
        if segments > self.core.app_limit {
            self.burst = 0;
        }
        self.core.app_limit = segments;
    }

    /// When the sender next needs [`TcpSender::on_timeout`]: the earliest of the retransmission
    /// timer and TCP-DCR's delay.
    pub fn next_timeout(&self) -> Option<SimTime> {
        match (self.core.rtx_deadline, self.dupack_response.deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Process an ACK arriving at `now`.
    pub fn on_ack(&mut self, now: SimTime, ack: &AckInfo) {
        self.burst = 0;
        self.core.ack_sample = None;
        self.process_ack(now, ack);
        self.handover.on_ack(&mut self.core, now);
        let c = &mut self.core;
        if let Some((sent_at, rtt)) = c.ack_sample.take() {
            self.classifier.on_sample(sent_at, rtt);
        }
        self.classifier.on_ack(c.snd_una, c.snd_max);
    }

    fn process_ack(&mut self, now: SimTime, ack: &AckInfo) {
        let c = &mut self.core;
        let window_changed = c.peer_window_known && ack.window != c.peer_window;
        c.peer_window = ack.window;
        c.peer_window_known = true;
        if ack.ack > c.snd_max {
            return; // acknowledges data never sent: ignore (RFC 793 SEG.ACK > SND.NXT)
        }
        if c.in_recovery {
            self.recovery.on_ack_in_recovery(c, now, ack);
            return;
        }
        match self.rto_response.on_ack(c, now, ack) {
            AckOutcome::Pass => {}
            AckOutcome::Consumed => return,
            AckOutcome::Spurious => {
                self.classifier.on_spurious_rto(c.snd_max);
                return;
            }
        }
        if ack.ack > c.snd_una {
            if self.dupack_response.on_new_ack() {
                c.stats.dcr_reorderings += 1;
            }
            c.open_new_ack(now, ack.ack);
        } else if ack.ack == c.snd_una && c.snd_max > c.snd_una && !c.ignore_dupacks {
            // SACK senders count a dupACK only if it carries new SACK information (ns-2
            // CheckUpdate, RFC 6675 §2). Others use RFC 5681 §2: a duplicate ACK leaves the
            // advertised window unchanged, so a pure window update is not one.
            let counted = if self.recovery.uses_sack() {
                c.sb.apply_sack(ack.sack.iter().copied())
            } else {
                !window_changed
            };
            if !counted {
                return;
            }
            c.dupacks += 1;
            let allowed = c.recover.is_none_or(|r| c.snd_una > r);
            let tau = self.dcr_tau();
            let c = &mut self.core;
            if self.dupack_response.on_dupack(c, now, allowed, tau) == DupAckAction::FastRetransmit {
                self.fast_retransmit(now);
            }
        }
    }

    /// TCP-DCR's delay: one RTT ([`RttEstimator::round_trip`]: srtt, else the latest valid
    /// sample, else the RTO without backoff), or LD's Tavg (Lim & Jang §4.2).
    fn dcr_tau(&self) -> SimDuration {
        let c = &self.core;
        let srtt = || c.rtt.round_trip();
        match c.cfg.dcr.tau {
            DcrTau::Srtt => srtt(),
            DcrTau::Tavg => self.classifier.tavg().unwrap_or_else(srtt),
        }
    }

    /// Start loss recovery for the first unacknowledged segment: classify the loss, then let
    /// the recovery part retransmit, halving only for congestion (Lim & Jang §4.3, Figs. 6-7).
    fn fast_retransmit(&mut self, now: SimTime) {
        let c = &mut self.core;
        self.dupack_response.cancel();
        let congestion = match self.classifier.classify(now, c.snd_una) {
            Some(rec) => {
                self.classifications.push_back(rec);
                rec.class == LossClass::Congestion
            }
            None => true,
        };
        c.stats.fast_retransmits += 1;
        if !congestion {
            c.stats.wireless_losses += 1;
        }
        // Daniel & Kojo's A2: after a window reduction at a handover, pre-handoff losses do
        // not cut cwnd and ssthresh again.
        let halve = congestion && !self.handover.keeps_window();
        self.recovery.enter(c, now, halve);
        self.handover.on_fast_recovery(c, now);
    }

    /// A timer is due at `now` (call at [`TcpSender::next_timeout`]): TCP-DCR's delay, then the
    /// retransmission timer (RFC 6298 §5.4-5.7; ns-2 `timeout`).
    pub fn on_timeout(&mut self, now: SimTime) {
        self.burst = 0;
        if self.dupack_response.deadline().is_some_and(|d| d <= now) {
            self.dupack_response.cancel();
            if !self.core.in_recovery {
                self.fast_retransmit(now);
            }
        }
        let c = &mut self.core;
        match c.rtx_deadline {
            Some(d) if d <= now => {}
            _ => return,
        }
        let in_fast_recovery = c.in_recovery;
        let first = !c.in_rto_recovery;
        self.recovery.reset();
        self.dupack_response.cancel();
        self.classifier.on_rto(now);
        self.rto_response.on_timeout(c, now, in_fast_recovery);
        self.handover.on_rto(&mut self.core, first);
    }

    /// The next segment to send at `now`, or `None` if the windows allow nothing more.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Transmit> {
        let max_burst = self.core.cfg.max_burst;
        if max_burst > 0 && self.burst >= max_burst {
            return None;
        }
        let c = &mut self.core;
        let tx = match c.pending.pop_front() {
            Some(t) => Some(t),
            None if c.in_recovery => self.recovery.next_segment(c),
            None => {
                let lt = self.dupack_response.allowance(c);
                let tx = c.next_in_window(lt)?;
                if lt > 0.0 && !c.fits(tx.seq, c.cc.cwnd().floor().min(c.cap())) {
                    c.limited_transmit_sent += 1;
                }
                Some(tx)
            }
        }?;
        self.burst += 1;
        self.record_send(now, tx);
        Some(tx)
    }

    /// The loss classifications made since the last call, oldest first (empty unless a loss
    /// classifier is configured). The world compares each with the ground truth of
    /// `seq`'s drop (queue overflow = congestion, link error = wireless).
    pub fn take_loss_classifications(&mut self) -> impl Iterator<Item = LossClassification> + '_ {
        self.classifications.drain(..)
    }

    /// The timeout response (e.g. to read F-RTO's step).
    pub fn rto_response(&self) -> &AnyRtoResponse {
        &self.rto_response
    }

    /// The dupACK response (e.g. to read TCP-DCR's pending delay).
    pub fn dupack_response(&self) -> &AnyDupAckResponse {
        &self.dupack_response
    }

    /// The loss classifier (e.g. to trace LD's Tcur and threshold, Lim & Jang Figs. 2-3).
    pub fn loss_classifier(&self) -> &AnyLossClassifier {
        &self.classifier
    }

    fn record_send(&mut self, now: SimTime, tx: Transmit) {
        let c = &mut self.core;
        let retx = tx.seq < c.snd_max;
        c.stats.segments_sent += 1;
        if retx {
            c.stats.retransmissions += 1;
            // Karn's rule: only a resend of the timed segment itself cancels its sample (the
            // fast retransmit and the timeout cancel any pending sample themselves).
            c.rtt.on_resend(tx.seq);
        } else {
            c.rtt.on_first_transmission(now, tx.seq);
        }
        c.sb.on_send(tx.seq, now, retx);
        if c.snd_nxt <= tx.seq {
            c.snd_nxt = tx.seq + 1;
        }
        c.snd_max = c.snd_max.max(tx.seq + 1);
        // RFC 6298 §5.1: start the timer when sending if it is not running.
        if c.rtx_deadline.is_none() {
            c.restart_timer(now);
        }
    }

    /// A cross-layer handover notification arrives at `now` (the `HandoverPolicy` axis).
    pub fn on_handover_notice(&mut self, now: SimTime, notice: &HandoverNotice) {
        self.burst = 0;
        self.handover.on_notice(&mut self.core, now, notice);
    }

    /// The handover policy (e.g. to read what a recording policy kept).
    pub fn handover_policy(&self) -> &AnyHandoverPolicy {
        &self.handover
    }

    /// Which recovery algorithm runs.
    pub fn recovery_kind(&self) -> RecoveryKind {
        self.core.cfg.recovery
    }
}
