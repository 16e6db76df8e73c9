//! Reactions to a retransmission timeout (the `RtoResponse` axis).
//!
//! The sender calls [`RtoResponse::on_timeout`] when the retransmission timer expires (after
//! the recovery episode was forgotten and the classifier told), and [`RtoResponse::on_ack`]
//! first for every ACK outside fast recovery.

use crate::config::TcpConfig;
use crate::sender::{AckInfo, SenderCore};
use vhsim_core::SimTime;
use vhsim_net::Engagement;

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

/// A timeout response.
pub trait RtoResponse {
    /// The retransmission timer expired at `now`; `in_fast_recovery` tells whether the sender
    /// was in fast recovery when it did.
    fn on_timeout(&mut self, c: &mut SenderCore, now: SimTime, in_fast_recovery: bool);
    /// An ACK arrives outside fast recovery (before the sender's ordinary processing).
    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> AckOutcome;
    /// How often the response's mechanisms acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// Reaction to a retransmission timeout (`rto_response`).
    config RtoResponseConfig;
    /// The timeout response of one sender.
    state AnyRtoResponse;
    dispatch dispatch;
    settings TcpConfig;
    /// RFC 6298 §5.4-5.6 and RFC 5681 §3.1: cwnd = 1, go-back-N from the first unacknowledged
    /// segment.
    "conventional" => Conventional(conventional::Conventional),
    /// F-RTO (RFC 5682): after the timeout retransmission, probe with new data to tell a
    /// spurious timeout from a genuine one (`variant`, `response`).
    "frto" => Frto(frto::Frto) boxed,
}

impl RtoResponse for AnyRtoResponse {
    fn on_timeout(&mut self, c: &mut SenderCore, now: SimTime, in_fast_recovery: bool) {
        dispatch!(self, p => p.on_timeout(c, now, in_fast_recovery))
    }
    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> AckOutcome {
        dispatch!(self, p => p.on_ack(c, now, ack))
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}

impl AnyRtoResponse {
    /// F-RTO's state, if this is F-RTO.
    pub fn frto(&self) -> Option<&frto::Frto> {
        match self {
            AnyRtoResponse::Frto(f) => Some(f),
            _ => None,
        }
    }
}
