//! Reactions to duplicate ACKs (the `DupAckResponse` axis): what the sender does once the loss
//! detection ([`crate::detect`]) has counted a duplicate ACK and said whether the first
//! unacknowledged segment is lost.

use crate::config::TcpConfig;
use crate::sender::SenderCore;
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::Engagement;

/// What the sender does after a duplicate ACK was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupAckAction {
    /// Nothing beyond the usual limited-transmit allowance.
    None,
    /// Fast retransmit now (the loss classifier is consulted first).
    FastRetransmit,
}

/// A dupACK response.
pub trait DupAckResponse {
    /// A duplicate ACK was counted (`c.dupacks()` includes it) at `now`. `lost` = the loss
    /// detection deems the first unacknowledged segment lost; `allowed` = `recover` permits a
    /// new fast retransmit (RFC 6582 §3.2 step 1); `tau` = one RTT, or LD's Tavg, as the
    /// configuration asks (TCP-DCR's delay).
    fn on_dupack(
        &mut self,
        c: &mut SenderCore,
        now: SimTime,
        lost: bool,
        allowed: bool,
        tau: SimDuration,
    ) -> DupAckAction;
    /// A new cumulative ACK arrived (outside recovery): returns whether a pending delay was
    /// cancelled by it (a reordering).
    fn on_new_ack(&mut self, c: &mut SenderCore) -> bool;
    /// The retransmission timer fired or recovery started: forget any pending delay.
    fn cancel(&mut self, c: &mut SenderCore);
    /// Segments the window may exceed cwnd by after `c.dupacks()` duplicate ACKs, if this
    /// response decides it; `None` = limited transmit (RFC 3042) as configured.
    fn allowance(&self, c: &SenderCore) -> Option<f64>;
    /// The response's delay expired and the sender fast-retransmits now (TCP-DCR).
    fn on_delayed_retransmit(&mut self) {}
    /// How often the response's mechanisms acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// Reaction to duplicate ACKs (`dupack_response`).
    config DupAckResponseConfig;
    /// The dupACK response of one sender.
    state AnyDupAckResponse;
    dispatch dispatch;
    settings TcpConfig;
    /// Fast retransmit as soon as the loss detection says lost (RFC 5681 §3.2 step 2).
    "immediate" => Immediate(immediate::Immediate),
    /// TCP-DCR (Bhandarkar et al., IEEE TMC 4(5) 2005): delay the fast retransmit by tau,
    /// sending one new segment per dupACK meanwhile (`trigger`, `tau`).
    "dcr" => Dcr(dcr::Dcr) boxed,
}

impl DupAckResponse for AnyDupAckResponse {
    fn on_dupack(
        &mut self,
        c: &mut SenderCore,
        now: SimTime,
        lost: bool,
        allowed: bool,
        tau: SimDuration,
    ) -> DupAckAction {
        dispatch!(self, p => p.on_dupack(c, now, lost, allowed, tau))
    }
    fn on_new_ack(&mut self, c: &mut SenderCore) -> bool {
        dispatch!(self, p => p.on_new_ack(c))
    }
    fn cancel(&mut self, c: &mut SenderCore) {
        dispatch!(self, p => p.cancel(c))
    }
    fn allowance(&self, c: &SenderCore) -> Option<f64> {
        dispatch!(self, p => p.allowance(c))
    }
    fn on_delayed_retransmit(&mut self) {
        dispatch!(self, p => p.on_delayed_retransmit())
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}

impl AnyDupAckResponse {
    /// TCP-DCR's state, if this is TCP-DCR.
    pub fn dcr(&self) -> Option<&dcr::Dcr> {
        match self {
            AnyDupAckResponse::Dcr(d) => Some(d),
            _ => None,
        }
    }
}
