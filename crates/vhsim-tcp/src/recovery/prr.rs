//! Proportional Rate Reduction (RFC 6937): how much to send on each ACK of a recovery episode
//! so that the window comes down to ssthresh smoothly over one round trip (PRR) and, after
//! heavy losses, climbs back towards it no faster than the Reduction Bound allows.
//!
//! At the start of recovery (§3): ssthresh = the window law's (from the FlightSize, RFC 5681
//! eq. (4) / RFC 9438 §4.6, without the segments limited transmit sent, RFC 5681 §3.2 step 2);
//! prr_delivered = prr_out = 0; RecoverFS = that FlightSize. On every ACK of the episode (the
//! one that starts it included):
//!
//! ```text
//! DeliveredData = change_in(snd.una) + change_in(SACKd)
//! prr_delivered += DeliveredData
//! if pipe > ssthresh:  sndcnt = CEIL(prr_delivered · ssthresh / RecoverFS) − prr_out   (PRR)
//! else if conservative: sndcnt = MIN(ssthresh − pipe, prr_delivered − prr_out)        (PRR-CRB)
//! else:                 sndcnt = MIN(ssthresh − pipe,
//!                                   MAX(prr_delivered − prr_out, DeliveredData) + 1)  (PRR-SSRB)
//! ```
//!
//! and each segment sent adds one to prr_out. pipe is RFC 6675's (§4 SetPipe), computed when
//! the sender next asks what to send, after the loss detection has taken the ACK too. The
//! episode's first transmission is always allowed, so the fast retransmit goes out whatever
//! sndcnt says (as Linux's `tcp_cwnd_reduction` forces it). cwnd is kept at pipe + sndcnt for
//! the traces and set to ssthresh when recovery ends (ACK >= the recovery point).
//!
//! **What is sent** is outside RFC 6937 (§3.1): the lowest segment the loss detection marked
//! lost and not retransmitted yet, else new data (RFC 6675 §4 NextSeg rules 1 and 2). Which
//! segments are lost depends on how losses are detected:
//!
//! - a detection that marks losses itself (RACK-TLP): its marks;
//! - SACK without marks (`dupack` with `sack`, `rfc6675`): RFC 6675 IsLost, DupThresh SACKed
//!   segments above;
//! - no SACK (`dupack`, `vegas`): NewReno's rule (RFC 6582 §3.2): the first unacknowledged
//!   segment at the start and after every partial ACK. DeliveredData is then one segment per
//!   duplicate ACK, and a cumulative ACK counts what it acknowledges beyond the segments the
//!   duplicate ACKs already reported (at least one, as Linux's `tcp_remove_reno_sacks`); pipe is
//!   the FlightSize minus those reported segments, minus the first one while it awaits its
//!   retransmission.

use super::RecoveryPolicy;
use crate::config::TcpConfig;
use crate::detect::LossDetectionConfig;
use crate::part::{Part, PartConfig};
use crate::sender::{AckInfo, SenderCore, Transmit, TxCause};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::SimTime;
use vhsim_net::Engagement;

crate::named_enum! {
    /// PRR's Reduction Bound (RFC 6937 §3), used once pipe is at or below ssthresh.
    pub enum PrrBound {
        /// PRR-SSRB, the Slow Start Reduction Bound (the RFC's recommendation, §6).
        "ssrb" => Ssrb,
        /// PRR-CRB, the Conservative Reduction Bound (strict packet conservation).
        "crb" => Crb,
    }
}

/// Options of PRR.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PrrConfig {
    /// Reduction Bound: "ssrb" (default) or "crb".
    pub bound: PrrBound,
}

impl PartConfig for PrrConfig {}

/// How PRR learns which segments are lost (from the sender's loss detection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossMarks {
    /// The loss detection marks them (RACK-TLP).
    Detection,
    /// RFC 6675 IsLost over the SACK scoreboard.
    IsLost,
    /// No SACK: NewReno's rule.
    NewReno,
}

/// PRR's episode state.
#[derive(Clone, Debug)]
pub struct Prr {
    bound: PrrBound,
    marks: LossMarks,
    ssthresh: f64,
    recover_fs: u64,
    prr_delivered: u64,
    prr_out: u64,
    /// DeliveredData of the last ACK.
    delivered: u64,
    /// Segments still allowed for the last ACK (computed at the first request after it).
    sndcnt: u64,
    fresh_ack: bool,
    /// No SACK: duplicate ACKs not yet matched by a cumulative ACK (segments that left).
    reported: u64,
    /// Engagement counters: episodes entered, ACKs whose sndcnt the Reduction Bound set
    /// (pipe <= ssthresh).
    episodes: u64,
    bound_acks: u64,
}

impl Part for Prr {
    type Config = PrrConfig;
    type Settings = TcpConfig;
    fn new(cfg: &PrrConfig, tcp: &TcpConfig) -> Self {
        let marks = match &tcp.loss_detection {
            LossDetectionConfig::Rack(_) => LossMarks::Detection,
            LossDetectionConfig::Rfc6675(_) => LossMarks::IsLost,
            LossDetectionConfig::DupAck(d) if d.sack => LossMarks::IsLost,
            _ => LossMarks::NewReno,
        };
        Prr {
            bound: cfg.bound,
            marks,
            ssthresh: 0.0,
            recover_fs: 0,
            prr_delivered: 0,
            prr_out: 0,
            delivered: 0,
            sndcnt: 0,
            fresh_ack: false,
            reported: 0,
            episodes: 0,
            bound_acks: 0,
        }
    }
}

impl Prr {
    /// How lost segments are known.
    pub fn marks(&self) -> LossMarks {
        self.marks
    }

    /// Recovery episodes entered.
    pub fn episodes(&self) -> u64 {
        self.episodes
    }

    /// (prr_delivered, prr_out, RecoverFS) of the current episode.
    pub fn counters(&self) -> (u64, u64, u64) {
        (self.prr_delivered, self.prr_out, self.recover_fs)
    }

    /// RFC 6675 SetPipe (§4) with this episode's lost segments; without SACK, FlightSize minus
    /// the segments duplicate ACKs reported.
    pub fn pipe(&self, c: &SenderCore) -> u64 {
        let pipe = c.scoreboard().pipe_by_marks();
        if self.marks == LossMarks::NewReno {
            pipe.saturating_sub(self.reported)
        } else {
            pipe
        }
    }

    /// Mark what the loss detection does not: IsLost segments, or NewReno's first segment.
    fn mark_losses(&self, c: &mut SenderCore) {
        match self.marks {
            LossMarks::Detection => {}
            LossMarks::NewReno => {
                let una = c.snd_una();
                if !c.scoreboard().is_lost(una) {
                    c.scoreboard_mut().mark_lost(una);
                }
            }
            LossMarks::IsLost => {
                let threshold = c.config().dupack_threshold as usize;
                let lost: Vec<u64> = {
                    let sb = c.scoreboard();
                    let mut sacked_above = 0;
                    let mut lost = Vec::new();
                    for (seq, sacked, _) in sb.iter().collect::<Vec<_>>().into_iter().rev() {
                        if sacked {
                            sacked_above += 1;
                        } else if sacked_above >= threshold && !sb.is_lost(seq) {
                            lost.push(seq);
                        }
                    }
                    lost
                };
                for seq in lost {
                    c.scoreboard_mut().mark_lost(seq);
                }
            }
        }
    }

    /// The DeliveredData of an ACK without SACK: one per duplicate ACK; a cumulative ACK of `n`
    /// segments counts those the duplicate ACKs did not report, at least one.
    fn delivered_without_sack(&mut self, newly: u64) -> u64 {
        if newly == 0 {
            self.reported += 1;
            return 1;
        }
        let matched = self.reported.min(newly - 1);
        self.reported -= matched;
        newly - matched
    }

    /// sndcnt for the last ACK (§3), once per ACK.
    fn allowance(&mut self, c: &mut SenderCore) {
        let pipe = self.pipe(c) as f64;
        let (pd, po) = (self.prr_delivered as f64, self.prr_out as f64);
        let sndcnt = if pipe > self.ssthresh {
            (pd * self.ssthresh / self.recover_fs.max(1) as f64).ceil() - po
        } else {
            self.bound_acks += 1;
            let limit = match self.bound {
                PrrBound::Crb => pd - po,
                PrrBound::Ssrb => (pd - po).max(self.delivered as f64) + 1.0,
            };
            (self.ssthresh - pipe).min(limit)
        };
        // The fast retransmit goes out whatever the arithmetic says.
        let floor = if self.prr_out == 0 { 1.0 } else { 0.0 };
        self.sndcnt = sndcnt.max(floor) as u64;
        c.set_cwnd((pipe + self.sndcnt as f64).max(1.0));
    }
}

impl RecoveryPolicy for Prr {
    fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        let flight = c.flight_size().saturating_sub(c.limited_transmit_sent() as u64);
        c.start_recovery(now, flight as f64, congestion);
        self.episodes += 1;
        self.ssthresh = c.ssthresh();
        self.recover_fs = flight;
        self.prr_delivered = 0;
        self.prr_out = 0;
        self.reported = 0;
        // The ACK that starts recovery is the episode's first (§3.1's examples count it).
        self.delivered = if self.marks == LossMarks::NewReno {
            // Every counted duplicate ACK reported a segment that left the network.
            self.reported = c.dupacks() as u64;
            1
        } else {
            c.delivered_by_ack().max(0) as u64
        };
        self.prr_delivered = self.delivered;
        let una = c.snd_una();
        if self.marks != LossMarks::Detection && !c.scoreboard().is_lost(una) {
            // The fast retransmit's segment (RFC 5681 §3.2 step 2).
            c.scoreboard_mut().mark_lost(una);
        }
        self.mark_losses(c);
        self.fresh_ack = true;
    }

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        c.scoreboard_mut().apply_sack(ack.sack.iter().copied());
        let recovery_point = c.recover().unwrap_or(0);
        let newly = ack.ack.saturating_sub(c.snd_una());
        if ack.ack >= recovery_point {
            c.exit_recovery(now, ack.ack);
            c.clear_recover();
            let ssthresh = c.ssthresh();
            c.set_cwnd(ssthresh);
            return;
        }
        if newly > 0 {
            c.advance_una(ack.ack);
            c.restart_or_stop_timer(now);
        } else if ack.ack == c.snd_una() {
            c.count_dupack();
        }
        self.delivered = if self.marks == LossMarks::NewReno {
            self.delivered_without_sack(newly)
        } else {
            c.delivered_by_ack().max(0) as u64
        };
        self.prr_delivered += self.delivered;
        if self.marks == LossMarks::NewReno && newly > 0 {
            // RFC 6582 §3.2 step 3: a partial ACK means the next segment is lost too.
            let una = c.snd_una();
            if !c.scoreboard().is_lost(una) {
                c.scoreboard_mut().mark_lost(una);
            }
        } else {
            self.mark_losses(c);
        }
        self.fresh_ack = true;
    }

    fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        if self.fresh_ack {
            self.fresh_ack = false;
            self.allowance(c);
        }
        if self.sndcnt == 0 {
            return None;
        }
        let tx = match c.scoreboard().first_needing_retransmission() {
            Some(seq) => {
                c.scoreboard_mut().mark_retransmitted(seq);
                let cause = if self.prr_out == 0 { TxCause::FastRetransmit } else { TxCause::Recovery };
                Transmit { seq, cause }
            }
            None => c.next_in_window_capped(c.cap())?,
        };
        self.sndcnt -= 1;
        self.prr_out += 1;
        Some(tx)
    }

    fn reset(&mut self) {
        self.sndcnt = 0;
        self.fresh_ack = false;
        self.reported = 0;
    }

    /// `prr_episodes`, `prr_reduction_bound_acks`.
    fn engagement(&self, out: &mut Engagement) {
        out.insert("prr_episodes", self.episodes);
        out.insert("prr_reduction_bound_acks", self.bound_acks);
    }
}
