//! The sans-IO TCP sender: the order in which parts are called.
//!
//! | event | parts, in order |
//! |---|---|
//! | ACK | estimators (delivery, rounds); in fast recovery: recovery `on_ack`; else RTO response `on_ack` (F-RTO may consume it, or find the timeout spurious: loss classifier `on_spurious_rto`, window law `on_undo`); else a new ACK: dupACK response `on_new_ack` (cancels TCP-DCR's delay), RTT sample, timer restart, window law `on_ack`; a duplicate ACK (not a copy of the window-reopening ACK, A6): loss detection `counts`, then `lost`, then dupACK response `on_dupack`, which may ask for a fast retransmit (allowed only if the ACK covers `recover`, RFC 6582 §3.2 step 1); if `snd_una` advanced and recovery is over: loss detection `on_new_ack` (Vegas may name a segment to retransmit at once); loss detection `on_ack` (RACK-TLP; may start fast recovery outside fast and RTO recovery); then handover policy `on_ack`; loss classifier `on_sample`, `on_ack`; persist mode entered or left (zero window or a halt; window law `on_freeze` / `on_resume`) |
//! | fast retransmit | loss classifier `classify` (congestion halves, wireless keeps cwnd), recovery `enter`, handover policy `on_fast_recovery` |
//! | timer | TCP-DCR's delay (fast retransmit); the loss detection's timer (RACK's reordering timer or the tail loss probe; may start fast recovery); then the RTO: recovery `reset`, dupACK response `cancel`, loss classifier `on_rto`, RTO response `on_timeout` (which runs the window law's `on_rto`), loss detection `on_rto`, handover policy `on_rto`; then the persist timer (a window probe) |
//! | notification | handover policy `on_notice`, window law and estimators `on_path_change` |
//! | sending | persist mode: only a due window probe; else queued retransmissions, then the recovery part's choice in recovery, else new data within min(⌊cwnd⌋ + allowance, window caps), the allowance being limited transmit's, TCP-DCR's, or the recovery part's inflation for dupACKs a blocked fast retransmit left (NewReno `exit_fast_retrans` false) |
//!
//! [`TcpSender::poll_transmit`] returns one segment at a time until nothing is allowed;
//! [`TcpSender::next_timeout`] is the earliest timer of the table ([`Timer`]).

mod core;
mod persist;
mod timers;

pub use self::core::SenderCore;
pub use timers::{Timer, Timers};

use crate::cc::CongestionControl;
use crate::classify::{AnyLossClassifier, LossClass, LossClassification, LossClassifier};
use crate::config::{ReopeningCopies, TcpConfig};
use crate::detect::{AnyLossDetection, LossDetection};
use crate::handover::{AnyHandoverPolicy, HandoverNotice, HandoverPolicy};
use crate::recovery::{AnyRecovery, RecoveryPolicy};
use crate::response::{
    AckOutcome, AnyDupAckResponse, AnyRtoResponse, DcrTau, DupAckAction, DupAckResponse,
    DupAckResponseConfig, RtoResponse,
};
use crate::slowstart::SlowStart;
use std::sync::Arc;
use vhsim_core::{SimDuration, SimTime, TracedVar};

/// An acknowledgment as the sender sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AckInfo {
    /// Next segment expected by the receiver.
    pub ack: u64,
    /// SACK blocks `(start, end)`, most recent first.
    pub sack: Vec<(u64, u64)>,
    /// Advertised window in segments.
    pub window: u32,
    /// DEMO-Vegas's SIG bit (a reserved header bit; a standard sender ignores it).
    pub sig: bool,
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
    /// A zero-window probe that re-sends the first unacknowledged segment (a probe carrying a
    /// never-sent segment is `New`).
    Probe = 5,
    /// The retransmission a handover notification triggers at once (Daniel & Kojo's A3, in
    /// RTO recovery): not a timeout's, so the ground truth does not count it as an RTO.
    Notified = 6,
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

/// Counters of one sender. The counts of rarer events are 32-bit (each needs a timeout, a fast
/// retransmit, a loss or a handover, far fewer than 2^32 in any run): every sender carries them
/// (issue #29, memory per flow).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    /// Retransmitted segments.
    pub retransmissions: u64,
    /// Fast retransmits (recovery episodes entered by dupACKs).
    pub fast_retransmits: u32,
    /// Retransmission timeouts.
    pub rto_count: u32,
    /// Timeouts the RTO response declared spurious (F-RTO, RFC 5682 step 3b).
    pub spurious_rto_detected: u32,
    /// TCP-DCR delays armed.
    pub dcr_delays: u32,
    /// TCP-DCR delays cancelled by a new ACK before tau (reordering, Lim & Jang Fig. 5).
    pub dcr_reorderings: u32,
    /// Fast retransmits the loss classifier called wireless (cwnd kept).
    pub wireless_losses: u32,
    /// Persist-mode episodes: the peer closed its window (Freeze-TCP's ZWA) or a handover
    /// policy halted the sender (DEMO-Vegas's SIG).
    pub persist_episodes: u32,
    /// Window probes the persist timer sent.
    pub window_probes: u32,
}

/// A TCP sender with its parts.
#[derive(Clone, Debug)]
pub struct TcpSender {
    core: SenderCore,
    detection: AnyLossDetection,
    recovery: AnyRecovery,
    rto_response: AnyRtoResponse,
    dupack_response: AnyDupAckResponse,
    classifier: AnyLossClassifier,
    handover: AnyHandoverPolicy,
    /// The loss classifier's verdicts since the world last took them, oldest first; made when
    /// the first is queued (most senders have no classifier: issue #29, memory per flow).
    classifications: Option<Box<Vec<LossClassification>>>,
}

impl TcpSender {
    /// A sender with nothing sent yet; `app_limit` = segments available (`u64::MAX` = bulk).
    /// The flows of a population pass one shared configuration (`Arc`), which no sender
    /// changes.
    pub fn new(cfg: impl Into<Arc<TcpConfig>>, app_limit: u64) -> Self {
        let cfg = cfg.into();
        TcpSender {
            detection: AnyLossDetection::new(&cfg.loss_detection, &cfg),
            recovery: AnyRecovery::new(&cfg.recovery, &cfg),
            rto_response: AnyRtoResponse::new(&cfg.rto_response, &cfg),
            dupack_response: AnyDupAckResponse::new(&cfg.dupack_response, &cfg),
            classifier: AnyLossClassifier::new(&cfg.loss_classifier, &cfg),
            handover: AnyHandoverPolicy::new(&cfg.handover, &cfg),
            classifications: None,
            core: SenderCore::new(cfg, app_limit),
        }
    }

    /// A prefetch hint (issue #29): what a timeout reads beyond the sender's own bytes (its
    /// oldest outstanding segment's record). Changes nothing.
    #[inline(always)]
    pub fn prefetch_timeout(&self) {
        self.core.sb.prefetch_oldest();
    }

    /// The sender went idle (nothing outstanding, no timer): give back the buffers it would
    /// only make again for new data (issue #29: memory per idle flow).
    pub fn release_if_idle(&mut self) {
        self.core.sb.release_if_empty();
    }

    /// Read access to the shared state.
    pub fn core(&self) -> &SenderCore {
        &self.core
    }

    /// Configuration.
    pub fn config(&self) -> &TcpConfig {
        &self.core.cfg
    }

    /// Congestion window in segments.
    pub fn cwnd(&self) -> f64 {
        self.core.window.cwnd
    }

    /// Slow-start threshold in segments.
    pub fn ssthresh(&self) -> f64 {
        self.core.window.ssthresh
    }

    /// Counters.
    pub fn stats(&self) -> SenderStats {
        self.core.stats
    }

    /// Oldest unacknowledged segment.
    pub fn snd_una(&self) -> u64 {
        self.core.snd_una
    }

    /// One past the highest segment sent.
    pub fn snd_max(&self) -> u64 {
        self.core.snd_max
    }

    /// Segments the application has made available.
    pub fn app_limit(&self) -> u64 {
        self.core.app_limit
    }

    /// Deadline of timer `t`.
    pub fn timer(&self, t: Timer) -> Option<SimTime> {
        self.core.timers.get(t)
    }

    /// Congestion-avoidance state.
    pub fn ca_state(&self) -> CaState {
        let c = &self.core;
        if c.in_recovery {
            CaState::Recovery
        } else if c.in_rto_recovery {
            CaState::Loss
        } else if c.dupacks > 0 {
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
            self.core.burst = 0;
        }
        self.core.app_limit = segments;
    }

    /// When the sender next needs [`TcpSender::on_timeout`]: the earliest armed timer.
    pub fn next_timeout(&self) -> Option<SimTime> {
        self.core.timers.earliest()
    }

    /// Process an ACK arriving at `now`.
    pub fn on_ack(&mut self, now: SimTime, ack: &AckInfo) {
        self.core.burst = 0;
        let c = &mut self.core;
        c.note_ack_start();
        c.ack_sample = self::core::NO_SAMPLE;
        c.round_start = ack.ack <= c.snd_max && c.est.on_ack(now, ack.ack, c.snd_una, c.snd_max);
        let una_before = c.snd_una;
        self.process_ack(now, ack);
        let c = &mut self.core;
        // Vegas: the first ACKs after a retransmission check the next segment's fine-grained
        // timer (Brakmo & Peterson §3.1); other detections never ask.
        if c.snd_una > una_before && !c.in_recovery {
            if let Some(seq) = self.detection.on_new_ack(c, now) {
                c.queue_retransmission(seq, TxCause::Recovery);
            }
        }
        // RACK-TLP decides on every ACK, once the sender has taken it (RFC 8985 §6.2).
        let c = &mut self.core;
        if self.detection.on_ack(c, now, ack) && !c.in_recovery && !c.in_rto_recovery {
            self.fast_retransmit(now);
        }
        self.handover.on_ack(&mut self.core, now);
        let c = &mut self.core;
        if let Some((sent_at, rtt)) = c.ack_sample() {
            self.classifier.on_sample(sent_at, rtt);
        }
        self.classifier.on_ack(c.snd_una, c.snd_max);
        c.update_persist(now);
    }

    fn process_ack(&mut self, now: SimTime, ack: &AckInfo) {
        let c = &mut self.core;
        let window_changed = c.peer_window_known && ack.window != c.peer_window;
        c.peer_window = ack.window;
        c.peer_window_known = true;
        c.peer_sig = ack.sig;
        if ack.ack > c.snd_max {
            return; // acknowledges data never sent: ignore (RFC 793 SEG.ACK > SND.NXT)
        }
        if c.in_recovery {
            self.recovery.on_ack(c, now, ack);
            return;
        }
        match self.rto_response.on_ack(c, now, ack) {
            AckOutcome::Pass => {}
            AckOutcome::Consumed => return,
            AckOutcome::Spurious => {
                self.classifier.on_spurious_rto(c.snd_max);
                c.undo(now);
                return;
            }
        }
        if ack.ack > c.snd_una {
            if self.dupack_response.on_new_ack(c) {
                c.stats.dcr_reorderings += 1;
            }
            c.open_new_ack(now, ack.ack);
        } else if ack.ack == c.snd_una
            && c.snd_max > c.snd_una
            && !c.ignore_dupacks
            && !(c.cfg.reopening_copies == ReopeningCopies::WindowUpdate && c.repeats_reopening(ack.ack, now))
        {
            if !self.detection.counts(c, ack, window_changed) {
                return;
            }
            c.dupacks += 1;
            let lost = self.detection.lost(c, now);
            let allowed = c.recover.get().is_none_or(|r| c.snd_una > r);
            let tau = self.dcr_tau();
            let c = &mut self.core;
            if self.dupack_response.on_dupack(c, now, lost, allowed, tau) == DupAckAction::FastRetransmit {
                self.fast_retransmit(now);
            }
        }
    }

    /// TCP-DCR's delay: one RTT ([`crate::rtt::RttEstimator::round_trip`]: srtt, else the
    /// latest valid sample, else the RTO without backoff), or LD's Tavg (Lim & Jang §4.2).
    fn dcr_tau(&self) -> SimDuration {
        let c = &self.core;
        let srtt = || c.rtt.round_trip();
        match &c.cfg.dupack_response {
            DupAckResponseConfig::Dcr(d) if d.tau == DcrTau::Tavg => {
                self.classifier.tavg().unwrap_or_else(srtt)
            }
            _ => srtt(),
        }
    }

    /// Start loss recovery for the first unacknowledged segment: classify the loss, then let
    /// the recovery part retransmit, halving only for congestion (Lim & Jang §4.3, Figs. 6-7).
    fn fast_retransmit(&mut self, now: SimTime) {
        let c = &mut self.core;
        self.dupack_response.cancel(c);
        let congestion = match self.classifier.classify(now, c.snd_una) {
            Some(rec) => {
                self.classifications.get_or_insert_with(Box::default).push(rec);
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
    /// retransmission timer (RFC 6298 §5.4-5.7; ns-2 `timeout`), then the persist timer.
    pub fn on_timeout(&mut self, now: SimTime) {
        self.core.burst = 0;
        if self.core.timers.due(Timer::DcrDelay, now) {
            self.dupack_response.cancel(&mut self.core);
            if !self.core.in_recovery {
                self.dupack_response.on_delayed_retransmit();
                self.fast_retransmit(now);
            }
        }
        if self.core.timers.due(Timer::Loss, now) {
            let c = &mut self.core;
            c.timers.clear(Timer::Loss);
            if self.detection.on_timer(c, now) && !c.in_recovery && !c.in_rto_recovery {
                self.fast_retransmit(now);
            }
        }
        if self.core.timers.due(Timer::Rto, now) {
            let c = &mut self.core;
            let in_fast_recovery = c.in_recovery;
            let first = !c.in_rto_recovery;
            self.recovery.reset();
            self.dupack_response.cancel(c);
            self.classifier.on_rto(now);
            self.rto_response.on_timeout(c, now, in_fast_recovery);
            self.detection.on_rto(c, now);
            self.handover.on_rto(c, first);
        }
        if self.core.timers.due(Timer::Persist, now) {
            self.core.on_persist_timer(now);
        }
    }

    /// The next segment to send at `now`, or `None` if the windows allow nothing more.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Transmit> {
        let max_burst = self.core.cfg.max_burst;
        if max_burst > 0 && self.core.burst >= max_burst {
            return None;
        }
        let c = &mut self.core;
        let tx = if c.persist.active {
            c.take_probe()
        } else {
            match c.pop_pending() {
                Some(t) => Some(t),
                None if c.in_recovery => self.recovery.next_segment(c),
                None => {
                    let lt = match self.dupack_response.allowance(c) {
                        Some(extra) => extra,
                        None if c.cfg.limited_transmit && c.dupacks < c.cfg.dupack_threshold => {
                            c.dupacks as f64
                        }
                        None => self.recovery.blocked_inflation(c),
                    };
                    let tx = c.next_in_window(lt)?;
                    if lt > 0.0 && !c.fits(tx.seq, c.window.cwnd.floor().min(c.cap())) {
                        c.limited_transmit_sent += 1;
                    }
                    Some(tx)
                }
            }
        }?;
        self.core.burst += 1;
        self.record_send(now, tx);
        Some(tx)
    }

    /// The loss classifications made since the last call, oldest first (empty unless a loss
    /// classifier is configured). The world compares each with the ground truth of
    /// `seq`'s drop (queue overflow = congestion, link error = wireless).
    pub fn take_loss_classifications(&mut self) -> impl Iterator<Item = LossClassification> + '_ {
        self.classifications.iter_mut().flat_map(|q| q.drain(..))
    }

    /// The loss detection part.
    pub fn loss_detection(&self) -> &AnyLossDetection {
        &self.detection
    }

    /// The recovery part.
    pub fn recovery(&self) -> &AnyRecovery {
        &self.recovery
    }

    /// The timeout response (e.g. to read F-RTO's step).
    pub fn rto_response(&self) -> &AnyRtoResponse {
        &self.rto_response
    }

    /// The dupACK response.
    pub fn dupack_response(&self) -> &AnyDupAckResponse {
        &self.dupack_response
    }

    /// The loss classifier (e.g. to trace LD's Tcur and threshold, Lim & Jang Figs. 2-3).
    pub fn loss_classifier(&self) -> &AnyLossClassifier {
        &self.classifier
    }

    /// The handover policy (e.g. to read what a recording policy kept).
    pub fn handover_policy(&self) -> &AnyHandoverPolicy {
        &self.handover
    }

    /// The sender's traced variables, in column order: cwnd and ssthresh (segments), srtt (s;
    /// recorded only with rows other variables start), rto (s), flight (segments), state
    /// ([`CaState`] code), then each part's own (LD: `ld_tcur`, `ld_threshold`).
    pub fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        let c = &self.core;
        out.push(TracedVar::new("cwnd", "pkts", c.window.cwnd));
        out.push(TracedVar::new("ssthresh", "pkts", c.window.ssthresh));
        out.push(TracedVar::passive("srtt", "s", c.rtt.srtt().map_or(f64::NAN, |d| d.as_secs_f64())));
        out.push(TracedVar::new("rto", "s", c.rtt.rto().as_secs_f64()));
        out.push(TracedVar::new("flight", "pkts", c.flight_size() as f64));
        out.push(TracedVar::new("state", "code", self.ca_state() as u8 as f64));
        c.cc.traced_vars(out);
        c.ss.traced_vars(out);
        self.classifier.traced_vars(out);
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
        if c.timers.get(Timer::Rto).is_none() {
            c.restart_timer(now);
        }
        self.detection.on_sent(c, now, tx);
    }

    /// The oldest decision of the sender's rules not taken yet (the cross-layer algorithms';
    /// [`vhsim_net::Decision`]).
    pub fn take_decision(&mut self) -> Option<vhsim_net::Decision> {
        self.handover.next_decision()
    }

    /// How often each mechanism of the sender acted (engagement counters; docs/schemes.md
    /// "Engagement counters"): persist mode, which every sender has, then each part's own.
    pub fn engagement(&self, out: &mut vhsim_net::Engagement) {
        let stats = &self.core.stats;
        out.insert("persist_episodes", u64::from(stats.persist_episodes));
        out.insert("window_probes", u64::from(stats.window_probes));
        self.core.cc.engagement(out);
        self.core.ss.engagement(out);
        self.detection.engagement(out);
        self.recovery.engagement(out);
        self.rto_response.engagement(out);
        self.dupack_response.engagement(out);
        self.classifier.engagement(out);
        self.handover.engagement(out);
    }

    /// A cross-layer handover notification arrives at `now`: the handover policy, then the
    /// window law and the estimators (a path change).
    pub fn on_handover_notice(&mut self, now: SimTime, notice: &HandoverNotice) {
        self.core.burst = 0;
        self.handover.on_notice(&mut self.core, now, notice);
        self.core.path_change(now, notice);
    }
}
