//! Loss recovery after a fast retransmit (the `LossDetection` + `RecoveryPolicy` axes).
//!
//! Each algorithm is one file; [`AnyRecovery`] dispatches by enum. The sender calls
//! [`AnyRecovery::enter`] at the dupACK threshold, [`AnyRecovery::on_ack_in_recovery`] for every
//! ACK while `core.in_recovery`, and [`AnyRecovery::next_segment`] to fill the window.

mod newreno;
mod reno;
mod rfc6675;
mod sack1;

pub use newreno::NewReno;
pub use reno::Reno;
pub use rfc6675::Rfc6675;
pub use sack1::Sack1;

use crate::config::RecoveryKind;
use crate::sender::{AckInfo, SenderCore, Transmit, TxCause};
use vhsim_core::SimTime;

/// The recovery algorithm of one sender.
#[derive(Clone, Debug)]
pub enum AnyRecovery {
    /// Reno fast recovery.
    Reno(Reno),
    /// NewReno.
    NewReno(NewReno),
    /// ns-2 Sack1.
    Sack1(Sack1),
    /// RFC 6675.
    Rfc6675(Rfc6675),
}

impl AnyRecovery {
    /// Build the algorithm named by the configuration.
    pub fn new(kind: RecoveryKind) -> Self {
        match kind {
            RecoveryKind::Reno => AnyRecovery::Reno(Reno::default()),
            RecoveryKind::NewReno => AnyRecovery::NewReno(NewReno::default()),
            RecoveryKind::Sack1 => AnyRecovery::Sack1(Sack1::default()),
            RecoveryKind::Rfc6675 => AnyRecovery::Rfc6675(Rfc6675::default()),
        }
    }

    /// Whether duplicate ACKs count only when they carry new SACK information.
    pub fn uses_sack(&self) -> bool {
        matches!(self, AnyRecovery::Sack1(_) | AnyRecovery::Rfc6675(_))
    }

    /// A fast retransmit was decided (dupACK threshold, or TCP-DCR's delay expired) and
    /// `recover` allows it. `congestion` = false (a loss classifier said wireless) keeps cwnd
    /// and ssthresh (Lim & Jang §4.3, Fig. 6); the lost segment is retransmitted either way.
    pub fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        match self {
            AnyRecovery::Reno(r) => r.enter(c, now, congestion),
            AnyRecovery::NewReno(r) => r.enter(c, now, congestion),
            AnyRecovery::Sack1(r) => r.enter(c, now, congestion),
            AnyRecovery::Rfc6675(r) => r.enter(c, now, congestion),
        }
    }

    /// An ACK while in recovery.
    pub fn on_ack_in_recovery(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        match self {
            AnyRecovery::Reno(r) => r.on_ack(c, now, ack),
            AnyRecovery::NewReno(r) => r.on_ack(c, now, ack),
            AnyRecovery::Sack1(r) => r.on_ack(c, now, ack),
            AnyRecovery::Rfc6675(r) => r.on_ack(c, now, ack),
        }
    }

    /// The next segment the algorithm allows while in recovery.
    pub fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        match self {
            AnyRecovery::Reno(r) => r.next_segment(c),
            AnyRecovery::NewReno(r) => r.next_segment(c),
            AnyRecovery::Sack1(r) => r.next_segment(c),
            AnyRecovery::Rfc6675(r) => r.next_segment(c),
        }
    }

    /// A timeout ended recovery: forget episode state.
    pub fn reset(&mut self) {
        *self = match self {
            AnyRecovery::Reno(_) => AnyRecovery::Reno(Reno::default()),
            AnyRecovery::NewReno(_) => AnyRecovery::NewReno(NewReno::default()),
            AnyRecovery::Sack1(_) => AnyRecovery::Sack1(Sack1::default()),
            AnyRecovery::Rfc6675(_) => AnyRecovery::Rfc6675(Rfc6675::default()),
        };
    }
}

/// Steps every algorithm takes at the threshold (RFC 5681 §3.2 steps 2-3, ns-2 `dupack_action`):
/// remember `recover`, halve with the window law given `window` (only for a congestion loss),
/// restart the timer without backoff (ns-2 `reset_rtx_timer(1,0)`), and queue the
/// retransmission of the first unacknowledged segment.
fn start_fast_retransmit(c: &mut SenderCore, now: SimTime, window: f64, congestion: bool) {
    c.recover = Some(c.snd_max);
    c.in_recovery = true;
    if congestion {
        c.cc.on_congestion(window);
    }
    c.rtt.on_retransmission();
    c.restart_timer(now);
    c.sb.mark_retransmitted(c.snd_una);
    c.queue_retransmission(c.snd_una, TxCause::FastRetransmit);
}

/// Leave recovery on an ACK covering `recover` (ns-2 `newack`).
fn exit_recovery(c: &mut SenderCore, now: SimTime, ack: u64) {
    c.in_recovery = false;
    c.take_new_ack(now, ack);
    c.ignore_dupacks = false;
    c.sb.clear();
}
