//! Loss recovery after a fast retransmit (the `RecoveryPolicy` axis, ARCHITECTURE.md §3).
//!
//! The sender calls [`RecoveryPolicy::enter`] when a fast retransmit is decided (at the
//! dupACK threshold, or when TCP-DCR's delay expires), [`RecoveryPolicy::on_ack`] for every ACK
//! while `in_recovery`, [`RecoveryPolicy::next_segment`] to fill the window, and
//! [`RecoveryPolicy::reset`] when a timeout ends the episode. Each algorithm starts with
//! [`SenderCore::start_fast_retransmit`] and leaves with [`SenderCore::exit_recovery`].

use crate::config::TcpConfig;
use crate::sender::{AckInfo, SenderCore, Transmit};
use vhsim_core::SimTime;
use vhsim_net::Engagement;

/// A loss-recovery algorithm.
pub trait RecoveryPolicy {
    /// A fast retransmit was decided and `recover` allows it. `congestion` = false (a loss
    /// classifier said wireless, or a handover policy keeps the window) keeps cwnd and ssthresh
    /// (Lim & Jang §4.3, Fig. 6); the lost segment is retransmitted either way.
    fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool);
    /// An ACK while in recovery.
    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo);
    /// The next segment the algorithm allows while in recovery.
    fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit>;
    /// A timeout ended recovery: forget the episode.
    fn reset(&mut self);
    /// Window inflation outside recovery, for duplicate ACKs that reached the threshold
    /// while `recover` blocked the fast retransmit (ns-2 NewReno's `exitFastRetrans_` false);
    /// none by default.
    fn blocked_inflation(&self, _c: &SenderCore) -> f64 {
        0.0
    }
    /// How often the algorithm's mechanisms acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// Loss recovery after a fast retransmit (`recovery`).
    config RecoveryConfig;
    /// The recovery algorithm of one sender.
    state AnyRecovery;
    dispatch dispatch;
    settings TcpConfig;
    /// ns-2 `Agent/TCP/Sack1`: pipe-based recovery over the SACK scoreboard (docs/references.md
    /// §1.3).
    "sack1" => Sack1(sack1::Sack1),
    /// NewReno (RFC 6582, ns-2 `Agent/TCP/Newreno`): stay in recovery until `recover` is
    /// acknowledged, partial ACKs retransmit.
    "new_reno" => NewReno(newreno::NewReno),
    /// Reno (RFC 5681 §3.2): window inflation, leave recovery on the first new ACK.
    "reno" => Reno(reno::Reno),
    /// RFC 6675 conservative SACK recovery (IsLost / SetPipe / NextSeg).
    "rfc6675" => Rfc6675(rfc6675::Rfc6675),
    /// Proportional Rate Reduction (RFC 6937): sndcnt per ACK from prr_delivered, then the
    /// Reduction Bound (`bound`: PRR-SSRB or PRR-CRB); retransmits what the loss detection
    /// deems lost.
    "prr" => Prr(prr::Prr) boxed,
}

impl AnyRecovery {
    /// PRR's state, if this is PRR.
    pub fn prr(&self) -> Option<&prr::Prr> {
        match self {
            AnyRecovery::Prr(p) => Some(p),
            _ => None,
        }
    }
}

impl RecoveryPolicy for AnyRecovery {
    fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        dispatch!(self, p => p.enter(c, now, congestion))
    }
    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        dispatch!(self, p => p.on_ack(c, now, ack))
    }
    fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        dispatch!(self, p => p.next_segment(c))
    }
    fn reset(&mut self) {
        dispatch!(self, p => p.reset())
    }
    fn blocked_inflation(&self, c: &SenderCore) -> f64 {
        dispatch!(self, p => p.blocked_inflation(c))
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}
