//! Tail Loss Probe (RFC 8985 §7), the half of RACK-TLP that acts when ACKs stop coming: after
//! a probe timeout (PTO) without ACKs, send one segment -- new data if the receive window
//! allows, else the highest segment sent -- to draw an ACK that lets RACK detect the tail loss
//! instead of waiting for the retransmission timeout.
//!
//! - **Scheduling** (§7.2): after sending new data (not the probe itself) and on an ACK that
//!   acknowledges new data, unless in fast or RTO recovery, with segments SACKed, or with a
//!   RACK reordering timer pending (§8: one timer at a time). PTO = 2·SRTT, plus
//!   TLP.max_ack_delay when one segment is in flight, 1 s without an SRTT; never later than
//!   the RTO would fire.
//! - **Sending** (§7.3): one probe at a time (TLP.end_seq = SND.NXT after it) and only after an
//!   RTT sample since the previous probe; the retransmission timer is re-armed.
//! - **The probe's ACK** (§7.4): an ACK at or beyond TLP.end_seq ends the episode; if the probe
//!   was a retransmission and neither a D-SACK for it nor a bare duplicate ACK says the
//!   original arrived, an ACK beyond TLP.end_seq means the probe repaired a loss, and the
//!   window law reduces the window as for a loss (§7.4.2).
//! - TLP.end_seq and TLP.is_retrans are reset at fast recovery and at a timeout (§7.1).

use crate::sender::{AckInfo, SenderCore, Timer, TxCause};
use vhsim_core::{SimDuration, SimTime};

/// The tail loss probe's state.
#[derive(Clone, Debug, Default)]
pub struct Tlp {
    /// TLP.end_seq: SND.NXT when the outstanding probe was sent.
    end_seq: Option<u64>,
    /// TLP.is_retrans.
    is_retrans: bool,
    /// The new segment queued as a probe (its sending must not re-arm the PTO).
    probe_seq: Option<u64>,
    /// An RTT sample arrived since the last probe (or the start).
    sampled: bool,
    /// Whether the PTO (rather than RACK's reordering timer) is what [`Timer::Loss`] holds.
    armed: bool,
    probes: u64,
    repaired: u64,
}

impl Tlp {
    /// Probes sent.
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// Losses a retransmitted probe repaired (§7.4.2).
    pub fn repaired(&self) -> u64 {
        self.repaired
    }

    /// Whether the PTO is armed.
    pub fn armed(&self) -> bool {
        self.armed
    }

    /// §7.1: forget the episode (fast recovery or a timeout starts).
    pub fn reset(&mut self) {
        self.end_seq = None;
        self.is_retrans = false;
        self.probe_seq = None;
    }

    /// The PTO is no longer what the loss timer holds (RACK armed its reordering timer).
    pub fn disarm(&mut self) {
        self.armed = false;
    }

    /// §7.2: whether a probe may be scheduled now.
    fn eligible(c: &SenderCore) -> bool {
        !c.in_recovery()
            && !c.in_rto_recovery()
            && !c.persisting()
            && c.scoreboard().sacked_count() == 0
            && c.flight_size() > 0
    }

    /// §7.2: start or restart the PTO, or cancel it where no probe may be scheduled.
    pub fn schedule(&mut self, c: &mut SenderCore, now: SimTime, max_ack_delay: SimDuration) {
        if !Self::eligible(c) {
            self.cancel(c);
            return;
        }
        let pto = match c.rtt().srtt() {
            Some(srtt) => {
                let base = srtt + srtt;
                if c.flight_size() == 1 {
                    base + max_ack_delay
                } else {
                    base
                }
            }
            None => SimDuration::from_secs(1),
        };
        let at = c.rtx_deadline().map_or(now + pto, |rto| (now + pto).min(rto));
        c.set_timer(Timer::Loss, at);
        self.armed = true;
    }

    /// Cancel a pending PTO that may no longer be scheduled (§7.2's conditions changed).
    pub fn revalidate(&mut self, c: &mut SenderCore) {
        if self.armed && !Self::eligible(c) {
            self.cancel(c);
        }
    }

    /// Cancel a pending PTO.
    pub fn cancel(&mut self, c: &mut SenderCore) {
        if self.armed {
            c.clear_timer(Timer::Loss);
            self.armed = false;
        }
    }

    /// A segment was sent: new data (other than the probe) restarts the PTO.
    pub fn on_sent(
        &mut self,
        c: &mut SenderCore,
        now: SimTime,
        seq: u64,
        cause: TxCause,
        max_ack_delay: SimDuration,
    ) {
        if cause != TxCause::New {
            return;
        }
        if self.probe_seq == Some(seq) {
            self.probe_seq = None;
        } else {
            self.schedule(c, now, max_ack_delay);
        }
    }

    /// §7.3: the PTO fired.
    pub fn fire(&mut self, c: &mut SenderCore, now: SimTime) {
        self.armed = false;
        if self.end_seq.is_some() || !self.sampled || c.flight_size() == 0 || c.persisting() {
            return;
        }
        let next = c.snd_nxt();
        if next == c.snd_max() && next < c.app_limit() && c.fits(next, c.cap()) {
            c.queue_new(next);
            self.probe_seq = Some(next);
            self.is_retrans = false;
            self.end_seq = Some(next + 1);
        } else {
            let last = c.snd_max() - 1;
            c.scoreboard_mut().mark_retransmitted(last);
            c.queue_retransmission(last, TxCause::Recovery);
            self.is_retrans = true;
            self.end_seq = Some(c.snd_max());
        }
        self.sampled = false;
        self.probes += 1;
        c.restart_timer(now);
    }

    /// §7.4 for an ACK the sender has taken (`dsack` = its first block is a D-SACK). Returns
    /// whether the probe repaired a loss (the caller reduces the window).
    pub fn on_ack(&mut self, c: &SenderCore, ack: &AckInfo, dsack: bool) -> bool {
        if c.ack_sample().is_some() {
            self.sampled = true;
        }
        let Some(end) = self.end_seq else { return false };
        if ack.ack < end {
            return false;
        }
        if !self.is_retrans {
            self.end_seq = None;
            false
        } else if dsack && ack.sack.first().is_some_and(|&(_, e)| e == end) {
            self.end_seq = None; // the original and the probe both arrived
            false
        } else if ack.ack > end {
            self.end_seq = None;
            self.repaired += 1;
            true
        } else if ack.sack.is_empty() && c.delivered_by_ack() == 0 {
            self.end_seq = None; // a bare duplicate ACK: the original arrived too
            false
        } else {
            false
        }
    }
}
