//! TCP-DCR, delayed congestion response (Bhandarkar, Sadry, Reddy & Vaidya, IEEE TMC 4(5), 2005;
//! protocol-facts §4).
//!
//! - **Trigger**: the `trigger`-th counted duplicate ACK arms a delay tau (TCP-DCR: the first
//!   dupACK and one RTT; Lim & Jang §4.2-4.3: the third dupACK and tau = Tavg; protocol-facts
//!   A5). It is armed only if `recover` allows a new fast retransmit (RFC 6582 §3.2 step 1).
//! - **During the delay**: no retransmission and no cwnd change; each duplicate ACK lets one
//!   more new segment out (limited transmit, RFC 3042, extended over the whole delay).
//! - **A new cumulative ACK before tau** (it covers the hole): the delay is cancelled and cwnd
//!   is left alone; the sender counts a reordering (Lim & Jang Fig. 5).
//! - **tau expires**: fast retransmit and the base recovery (Lim & Jang Figs. 6-7: after the
//!   loss classifier).
//! - **RTO timer**: kept from expiring before tau (protocol-facts A5): arming moves an earlier
//!   deadline to tau's, and at equal times the delay is handled first, so the fast retransmit
//!   restarts the timer. A timeout that does run cancels the delay.

use super::DupAckAction;
use crate::config::DcrConfig;
use crate::sender::SenderCore;
use vhsim_core::{SimDuration, SimTime};

/// TCP-DCR's state: the pending delay, if any.
#[derive(Clone, Debug)]
pub struct Dcr {
    cfg: DcrConfig,
    deadline: Option<SimTime>,
}

impl Dcr {
    /// Idle.
    pub fn new(cfg: DcrConfig) -> Self {
        Dcr { cfg, deadline: None }
    }

    /// When the pending delay expires.
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// Settings.
    pub fn config(&self) -> &DcrConfig {
        &self.cfg
    }

    pub(super) fn on_dupack(
        &mut self,
        c: &mut SenderCore,
        now: SimTime,
        allowed: bool,
        tau: SimDuration,
    ) -> DupAckAction {
        if self.deadline.is_some() || c.dupacks != self.cfg.trigger.0 || !allowed {
            return DupAckAction::None;
        }
        c.stats.dcr_delays += 1;
        if tau == SimDuration::ZERO {
            return DupAckAction::FastRetransmit; // nothing to wait for (e.g. Tavg still 0)
        }
        let deadline = now + tau;
        self.deadline = Some(deadline);
        // Protocol-facts A5: the RTO must not expire before tau.
        if c.rtx_deadline.is_some_and(|d| d < deadline) {
            c.rtx_deadline = Some(deadline);
        }
        DupAckAction::None
    }

    /// Drop the pending delay; returns whether one was pending.
    pub(super) fn cancel(&mut self) -> bool {
        self.deadline.take().is_some()
    }

    /// While the delay is pending: one segment beyond cwnd per duplicate ACK. With limited
    /// transmit on, the dupACKs before the trigger already had their allowance (RFC 3042), so
    /// all count; with it off, counting starts at the trigger.
    pub(super) fn allowance(&self, c: &SenderCore) -> Option<f64> {
        self.deadline?;
        let uncounted = if c.cfg.limited_transmit { 0 } else { self.cfg.trigger.0 - 1 };
        Some(c.dupacks.saturating_sub(uncounted) as f64)
    }
}
