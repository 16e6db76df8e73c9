//! Reactions to a retransmission timeout (the `RtoResponse` axis) and to duplicate ACKs (the
//! `DupAckResponse` axis).
//!
//! Each algorithm is one file; [`AnyRtoResponse`] and [`AnyDupAckResponse`] dispatch by enum,
//! as [`crate::recovery::AnyRecovery`] does. The sender calls them in the order documented at
//! the top of [`crate::sender`].

mod dcr;
mod frto;

pub use dcr::Dcr;
pub use frto::{Frto, FrtoStep};

use crate::config::{DupAckResponseKind, RecoveryKind, RtoResponseKind, TcpConfig};
use crate::sender::{AckInfo, SenderCore};
use vhsim_core::{SimDuration, SimTime};

/// What an RTO response made of an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckOutcome {
    /// The response is idle: the sender processes the ACK as usual.
    Pass,
    /// The response processed the ACK (including the ordinary new-ACK steps, if it was one).
    Consumed,
    /// Processed, and the timeout was found spurious (F-RTO, RFC 5682 §2.1 step 3b).
    Spurious,
}

/// The timeout response of one sender.
#[derive(Clone, Debug)]
pub enum AnyRtoResponse {
    /// RFC 6298 §5.4-5.6 + RFC 5681 §3.1: cwnd = 1, go-back-N.
    Conventional,
    /// F-RTO (RFC 5682).
    Frto(Frto),
}

impl AnyRtoResponse {
    /// Build from the configuration.
    pub fn new(cfg: &TcpConfig) -> Self {
        match cfg.rto_response {
            RtoResponseKind::Conventional => AnyRtoResponse::Conventional,
            RtoResponseKind::Frto => AnyRtoResponse::Frto(Frto::new(cfg.frto)),
        }
    }

    /// The retransmission timer expired at `now`; `in_fast_recovery` tells whether the sender
    /// was in fast recovery when it did.
    pub fn on_timeout(&mut self, c: &mut SenderCore, now: SimTime, in_fast_recovery: bool) {
        match self {
            AnyRtoResponse::Conventional => conventional_timeout(c, now),
            AnyRtoResponse::Frto(f) => f.on_timeout(c, now, in_fast_recovery),
        }
    }

    /// An ACK arrives outside fast recovery (before the sender's ordinary processing).
    pub fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> AckOutcome {
        match self {
            AnyRtoResponse::Conventional => AckOutcome::Pass,
            AnyRtoResponse::Frto(f) => f.on_ack(c, now, ack),
        }
    }

    /// F-RTO's state, if this is F-RTO.
    pub fn frto(&self) -> Option<&Frto> {
        match self {
            AnyRtoResponse::Frto(f) => Some(f),
            AnyRtoResponse::Conventional => None,
        }
    }
}

/// The conventional response (RFC 6298 §5.4-5.6, RFC 5681 §3.1; ns-2 `timeout`): the common
/// timeout steps, then go-back-N from the first unacknowledged segment.
pub(crate) fn conventional_timeout(c: &mut SenderCore, now: SimTime) {
    c.start_rto(now);
    c.go_back_n();
}

/// What the sender does after a duplicate ACK was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupAckAction {
    /// Nothing beyond the usual limited-transmit allowance.
    None,
    /// Fast retransmit now (the loss classifier is consulted first).
    FastRetransmit,
}

/// The dupACK response of one sender.
#[derive(Clone, Debug)]
pub enum AnyDupAckResponse {
    /// Fast retransmit at the threshold (RFC 5681 §3.2).
    Immediate,
    /// TCP-DCR.
    Dcr(Dcr),
}

impl AnyDupAckResponse {
    /// Build from the configuration.
    pub fn new(cfg: &TcpConfig) -> Self {
        match cfg.dupack_response {
            DupAckResponseKind::Immediate => AnyDupAckResponse::Immediate,
            DupAckResponseKind::Dcr => AnyDupAckResponse::Dcr(Dcr::new(cfg.dcr)),
        }
    }

    /// A duplicate ACK was counted (`c.dupacks` includes it) at `now`. `allowed` = whether
    /// `recover` permits a new fast retransmit (RFC 6582 §3.2 step 1); `tau` = the delay TCP-DCR
    /// would arm.
    pub fn on_dupack(
        &mut self,
        c: &mut SenderCore,
        now: SimTime,
        allowed: bool,
        tau: SimDuration,
    ) -> DupAckAction {
        match self {
            AnyDupAckResponse::Immediate => {
                let threshold = c.cfg.dupack_threshold;
                // RFC 6675 §5 step (2): below DupThresh dupACKs, IsLost(HighACK + 1) (DupThresh
                // segments SACKed above it) also starts loss recovery.
                let is_lost_entry = c.cfg.recovery == RecoveryKind::Rfc6675
                    && c.dupacks < threshold
                    && c.sb.sacked_above(c.snd_una) >= threshold as usize;
                if (c.dupacks == threshold || is_lost_entry) && allowed {
                    DupAckAction::FastRetransmit
                } else {
                    DupAckAction::None
                }
            }
            AnyDupAckResponse::Dcr(d) => d.on_dupack(c, now, allowed, tau),
        }
    }

    /// A new cumulative ACK arrived: a pending delay is cancelled. Returns whether one was.
    pub fn on_new_ack(&mut self) -> bool {
        match self {
            AnyDupAckResponse::Immediate => false,
            AnyDupAckResponse::Dcr(d) => d.cancel(),
        }
    }

    /// The retransmission timer fired or recovery started: forget any pending delay.
    pub fn cancel(&mut self) {
        if let AnyDupAckResponse::Dcr(d) = self {
            d.cancel();
        }
    }

    /// When the delay expires, if one is pending.
    pub fn deadline(&self) -> Option<SimTime> {
        match self {
            AnyDupAckResponse::Immediate => None,
            AnyDupAckResponse::Dcr(d) => d.deadline(),
        }
    }

    /// Segments the window may exceed cwnd by after `c.dupacks` duplicate ACKs (limited
    /// transmit, RFC 3042; extended over TCP-DCR's delay).
    pub fn allowance(&self, c: &SenderCore) -> f64 {
        if let AnyDupAckResponse::Dcr(d) = self {
            if let Some(extra) = d.allowance(c) {
                return extra;
            }
        }
        if c.cfg.limited_transmit && c.dupacks < c.cfg.dupack_threshold {
            c.dupacks as f64
        } else {
            0.0
        }
    }

    /// TCP-DCR's state, if this is TCP-DCR.
    pub fn dcr(&self) -> Option<&Dcr> {
        match self {
            AnyDupAckResponse::Dcr(d) => Some(d),
            AnyDupAckResponse::Immediate => None,
        }
    }
}
