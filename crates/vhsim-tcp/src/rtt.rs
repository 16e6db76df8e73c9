//! RTT estimation and the retransmission timeout (RFC 6298 with ns-2's knobs, docs/references.md §1.2).
//!
//! Samples are quantized to the clock granularity G the way ns-2 does without timestamps
//! (`rtt_update`: the number of clock ticks between the send tick and the ACK tick, at least 1).
//! SRTT and RTTVAR follow RFC 6298 §2 (gains 1/8 and 1/4, first sample R -> SRTT = R,
//! RTTVAR = R/2); RTO = SRTT + max(G, 4·RTTVAR) (RFC 6298 §2.3), clamped to `min` *before*
//! backoff (ns-2 `rfc2988_`), multiplied by the backoff, capped at `max`, never below 2·G.

use crate::config::{RtoConfig, RttTiming};
use std::num::NonZeroU64;
use vhsim_core::{SimDuration, SimTime};

/// RTT estimator, RTT-sample timing and exponential backoff of one sender.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    cfg: RtoConfig,
    /// Every sample is at least 1 ns (`quantize`), and so is SRTT: the zero that `NonZeroU64`
    /// leaves free stands for "none", so the option costs no word of its own (every sender
    /// carries one: issue #29, memory per flow).
    srtt: Option<NonZeroU64>,
    rttvar: u64,
    /// RTO before clamping and backoff (ns-2 `t_rtxcur_`): recomputed only by a sample, so
    /// clearing SRTT after many backoffs does not change the running timer's base.
    rtxcur: u64,
    backoff: u32,
    /// One-per-RTT timing: the timed segment and when it was sent.
    timed: Timed,
    /// Latest sample, for traces (at least 1 ns, as `srtt`).
    latest: Option<NonZeroU64>,
}

/// One-per-RTT timing's timed segment and when it was sent; segment [`Timed::NONE`] = none
/// (no segment has that number), 16 bytes where an `Option` of the pair takes 24.
#[derive(Clone, Copy, Debug)]
struct Timed {
    seq: u64,
    sent: SimTime,
}

impl Timed {
    const NONE: u64 = u64::MAX;
    const CLEAR: Timed = Timed { seq: Timed::NONE, sent: SimTime::ZERO };

    fn get(self) -> Option<(u64, SimTime)> {
        (self.seq != Timed::NONE).then_some((self.seq, self.sent))
    }
}

/// A sample or SRTT (ns) as stored: at least 1 ns by construction (`quantize`).
fn nonzero(ns: u64) -> NonZeroU64 {
    NonZeroU64::new(ns).expect("an RTT sample is at least 1 ns")
}

impl RttEstimator {
    /// No sample yet: the RTO is `cfg.initial`.
    pub fn new(cfg: RtoConfig) -> Self {
        RttEstimator {
            cfg,
            srtt: None,
            rttvar: 0,
            rtxcur: cfg.initial.0,
            backoff: 1,
            timed: Timed::CLEAR,
            latest: None,
        }
    }

    /// Settings.
    pub fn config(&self) -> &RtoConfig {
        &self.cfg
    }

    /// Smoothed RTT, if any sample was taken (and it was not cleared after many backoffs).
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt.map(|s| SimDuration(s.get()))
    }

    /// RTT variation.
    pub fn rttvar(&self) -> SimDuration {
        SimDuration(self.rttvar)
    }

    /// Latest RTT sample.
    pub fn latest(&self) -> Option<SimDuration> {
        self.latest.map(|s| SimDuration(s.get()))
    }

    /// Current backoff multiplier (1 = none).
    pub fn backoff(&self) -> u32 {
        self.backoff
    }

    /// The timeout the retransmission timer is set to now.
    pub fn rto(&self) -> SimDuration {
        self.rto_with_backoff(self.backoff)
    }

    /// The RTO with backoff `backoff`, clamped like [`RttEstimator::rto`].
    fn rto_with_backoff(&self, backoff: u32) -> SimDuration {
        let g = self.cfg.granularity.0;
        // ns-2 rfc2988_: clamp to minrto before applying the backoff.
        let clamped = self.rtxcur.max(self.cfg.min.0);
        let t = clamped.saturating_mul(backoff as u64).min(self.cfg.max.0).max(2 * g);
        SimDuration(t)
    }

    /// One round-trip time, for a delay of "one RTT" (TCP-DCR's tau): SRTT; once SRTT has
    /// been cleared after many backoffs, the latest valid sample; before any sample, the RTO
    /// without backoff. Never the backed-off timer: after a long outage the backoff can reach
    /// tens of seconds, which is no estimate of the path's round trip (issue #18 item 1; ns-2's
    /// DCR reads `t_srtt_`, and Bhandarkar et al. wait "one RTT").
    pub fn round_trip(&self) -> SimDuration {
        self.srtt().or(self.latest()).unwrap_or_else(|| self.rto_with_backoff(1))
    }

    /// A segment `seq` is sent for the first time at `now`: with one-per-RTT timing, time it if
    /// no sample is pending (ns-2 `output`: `rtt_active_`, `rtt_seq_`).
    pub fn on_first_transmission(&mut self, now: SimTime, seq: u64) {
        if self.cfg.timing == RttTiming::OnePerRtt && self.timed.get().is_none() {
            self.timed = Timed { seq, sent: now };
        }
    }

    /// Karn's rule (RFC 6298 §3): a retransmission cancels the pending sample. The sender calls
    /// this at a fast retransmit and a timeout (ns-2 `reset_rtx_timer` clears `rtt_active_`).
    pub fn on_retransmission(&mut self) {
        self.timed = Timed::CLEAR;
    }

    /// Segment `seq` is sent again. Karn's rule (RFC 6298 §3) forbids a sample only from the
    /// retransmitted segment itself: a timed segment that was sent once stays timed while
    /// other segments are retransmitted during recovery (ns-2 `output()` leaves `rtt_active_`
    /// alone for retransmissions), so the sender still gets one sample per RTT.
    pub fn on_resend(&mut self, seq: u64) {
        if self.timed.get().is_some_and(|(s, _)| s == seq) {
            self.timed = Timed::CLEAR;
        }
    }

    /// A cumulative ACK `ack` (next expected) newly acknowledged data. `sent_at` is the first
    /// transmission time of segment `ack - 1` if it was never retransmitted (used by
    /// every-ACK timing). Returns whether a sample was taken.
    pub fn on_new_ack(&mut self, now: SimTime, ack: u64, sent_at: Option<SimTime>) -> bool {
        let send_time = match self.cfg.timing {
            RttTiming::OnePerRtt => match self.timed.get() {
                Some((seq, t)) if ack > seq => {
                    self.timed = Timed::CLEAR;
                    Some(t)
                }
                _ => None,
            },
            RttTiming::EveryAck => sent_at,
        };
        let Some(sent) = send_time else { return false };
        // A valid sample ends the backoff (ns-2 newack: t_backoff_ = 1).
        self.backoff = 1;
        self.sample(self.quantize(sent, now));
        true
    }

    /// Number of clock ticks between sending and the ACK, at least one (ns-2 `rtt_update`).
    fn quantize(&self, sent: SimTime, now: SimTime) -> u64 {
        let g = self.cfg.granularity.0;
        if g == 0 {
            return (now - sent).0.max(1);
        }
        let ticks = (now.0 / g).saturating_sub(sent.0 / g).max(1);
        ticks * g
    }

    /// RFC 6298 §2.2/2.3 update with sample `r` (ns).
    fn sample(&mut self, r: u64) {
        self.latest = Some(nonzero(r));
        // With SRTT cleared (None), the sample restarts the estimate (RFC 6298 §5 note, ns-2
        // rtt_update when t_srtt_ == 0).
        let srtt = match self.srtt {
            None => {
                self.rttvar = r / 2;
                r
            }
            Some(srtt) => {
                let srtt = srtt.get();
                let err = srtt.abs_diff(r);
                // RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'| (old SRTT), then SRTT <- 7/8 SRTT + 1/8 R'
                // (at least 1 ns when SRTT and R' are).
                self.rttvar = (3 * self.rttvar + err) / 4;
                (7 * srtt + r) / 8
            }
        };
        self.srtt = Some(nonzero(srtt));
        self.rtxcur = srtt + self.cfg.granularity.0.max(4 * self.rttvar);
    }

    /// The timer expired: double the backoff (RFC 6298 §5.5) while it is below `max_backoff`
    /// or the RTO is below `max` (ns-2 rtt_backoff with rfc2988_:
    /// `t_backoff_ < 64 || rtt_timeout() < maxrto_`; the RTO itself is capped at `max`).
    /// After more than 8 backoffs ns-2 folds SRTT into RTTVAR and clears SRTT (allowed by
    /// RFC 6298 §5): the running RTO base is kept and the next sample restarts the estimate.
    pub fn on_timeout(&mut self) {
        self.timed = Timed::CLEAR;
        if self.backoff < self.cfg.max_backoff || self.rto() < self.cfg.max {
            self.backoff = self.backoff.saturating_mul(2);
        }
        if self.backoff > 8 {
            if let Some(srtt) = self.srtt.take() {
                self.rttvar += srtt.get();
            }
        }
    }

    /// A partial ACK covering the timed segment ends the timing without a sample and resets
    /// the backoff (ns-2 NewReno `partialnewack`).
    pub fn abandon_if_covered(&mut self, ack: u64) {
        if self.timed.get().is_some_and(|(seq, _)| ack > seq) {
            self.timed = Timed::CLEAR;
            self.backoff = 1;
        }
    }

    /// Reset the backoff to 1 (ns-2 does this on partial ACKs in SACK recovery).
    pub fn reset_backoff(&mut self) {
        self.backoff = 1;
    }

    /// Forget all samples, as for a new connection (used by handover policies).
    pub fn reinitialize(&mut self) {
        self.reinitialize_with(self.cfg.initial);
    }

    /// Forget all samples, as for a new connection whose RTO before the first sample is
    /// `initial` (Daniel & Kojo re-initialise with RFC 2988's 3 s; docs/references.md A13).
    pub fn reinitialize_with(&mut self, initial: SimDuration) {
        self.srtt = None;
        self.rttvar = 0;
        self.rtxcur = initial.0;
        self.backoff = 1;
        self.timed = Timed::CLEAR;
        self.latest = None;
    }

    /// Take a sample now from a segment first sent at `sent` (quantized like every sample),
    /// outside the one-per-RTT timing (a handover policy's "update the RTT variables when the
    /// ACK for new data arrives").
    pub fn sample_now(&mut self, sent: SimTime, now: SimTime) {
        self.backoff = 1;
        self.sample(self.quantize(sent, now));
    }

    /// The lower bound on the RTO (`minrto`).
    pub fn min_rto(&self) -> SimDuration {
        self.cfg.min
    }

    /// Change the lower bound on the RTO (Daniel & Kojo's A1).
    pub fn set_min_rto(&mut self, min: SimDuration) {
        self.cfg.min = min;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;

    fn est() -> RttEstimator {
        // ns-2.35's settings (200 ms minimum, 10 ms ticks): the tests check ns-2's arithmetic.
        RttEstimator::new(preset("sack").unwrap().configs(crate::Defaults::Ns2_35).0.rto())
    }

    #[test]
    fn first_sample_sets_srtt_and_half_rttvar() {
        let mut e = est();
        assert_eq!(e.rto(), SimDuration::from_secs(3));
        e.on_first_transmission(SimTime::ZERO, 0);
        assert!(e.on_new_ack(SimTime(405_000_000), 1, None));
        // 405 ms quantized to 10 ms ticks = 40 ticks = 400 ms; RTTVAR = 200 ms.
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(400)));
        assert_eq!(e.rttvar(), SimDuration::from_millis(200));
        assert_eq!(e.rto(), SimDuration::from_millis(1200));
    }

    #[test]
    fn min_rto_applies_before_backoff_and_backoff_doubles() {
        let mut e = est();
        e.on_first_transmission(SimTime::ZERO, 0);
        e.on_new_ack(SimTime(20_000_000), 1, None); // 20 ms: RTO = 20 + 40 = 60 ms -> 200 ms
        assert_eq!(e.rto(), SimDuration::from_millis(200));
        e.on_timeout();
        assert_eq!(e.rto(), SimDuration::from_millis(400));
        e.on_timeout();
        assert_eq!(e.rto(), SimDuration::from_millis(800));
    }

    #[test]
    fn karn_rule_cancels_the_pending_sample() {
        let mut e = est();
        e.on_first_transmission(SimTime::ZERO, 0);
        e.on_retransmission();
        assert!(!e.on_new_ack(SimTime(50_000_000), 1, None));
        assert_eq!(e.srtt(), None);
    }
}
