//! Zero-window persist mode (RFC 9293 §3.8.6.1, RFC 1122 §4.2.2.17; docs/references.md §6).
//!
//! - An ACK advertising a zero window puts the sender in persist mode: neither new data nor
//!   queued retransmissions go out, and the retransmission timer stops, so it neither expires
//!   nor backs off while the peer's window is closed (Freeze-TCP's "frozen" timer). Segments
//!   outstanding then give no RTT sample (their ACKs may wait for the window to open). The
//!   persist timer is armed one RTO ahead (RFC 1122: the first probe after one RTO).
//! - When it expires, the sender sends one window probe: the first queued retransmission if
//!   one waits, else a copy of the first unacknowledged segment if there is one
//!   ([`TxCause::Probe`]), else a copy of the last acknowledged segment (RFC 9293 lets a
//!   retransmission be the probe; a whole new segment lost in a disconnection would leave a
//!   hole), else -- nothing acknowledged yet -- the next new segment, which later probes then
//!   repeat; with nothing to send, none. The interval then doubles (exponential backoff), capped at
//!   `max_rto`. Probes do not start the retransmission timer.
//! - A handover policy may halt the sender the same way (DEMO-Vegas while the peer's ACKs
//!   carry SIG, docs/references.md §7.1): persist mode lasts while the window is zero *or* the
//!   sender is halted.
//! - The window law hears of both edges ([`crate::cc::CongestionControl::on_freeze`],
//!   `on_resume`), after the ACK that caused them was processed (Freeze-TCPv2 saves its RTT
//!   there).
//! - Repeats of the ACK that ended persist mode arriving within half the smallest RTT of it
//!   are copies of that window update (Freeze-TCP's three TR-ACKs, docs/references.md A6), not
//!   duplicate ACKs: no segment sent at the reopening can have been acknowledged yet.
//! - An ACK advertising a non-zero window ends persist mode: the persist timer stops, the
//!   retransmission timer restarts if data is outstanding (RFC 6298 §5.3), and sending resumes
//!   with cwnd and ssthresh as they were before (nothing in persist mode changes them).

use super::core::SenderCore;
use super::timers::Timer;
use super::{Transmit, TxCause};
use crate::cc::CongestionControl;
use crate::optseq::OptSeq;
use vhsim_core::SimTime;

/// Persist-mode state.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Persist {
    /// The peer advertises a zero window.
    pub(super) active: bool,
    /// Probes sent in this episode (the backoff exponent).
    probes: u32,
    /// The persist timer expired and a probe is to be sent.
    probe_due: bool,
}

impl SenderCore {
    /// After an ACK was processed: enter or leave persist mode as the advertised window says.
    #[inline]
    pub(super) fn update_persist(&mut self, now: SimTime) {
        let closed = self.peer_window == 0 || self.halted;
        if closed && !self.persist.active {
            self.persist = Persist { active: true, probes: 0, probe_due: false };
            self.stats.persist_episodes += 1;
            self.timers.clear(Timer::Rto);
            // The ACKs of what is outstanding may wait for the window to open: no RTT sample
            // from them (as Karn's rule for retransmissions).
            self.rtt.on_retransmission();
            self.sb.forbid_samples();
            self.arm_persist(now);
            self.cc.on_freeze(&mut self.window, now, &self.rtt);
        } else if !closed && self.persist.active {
            self.persist = Persist::default();
            self.timers.clear(Timer::Persist);
            self.restart_or_stop_timer(now);
            self.reopened = (OptSeq::some(self.snd_una), now);
            self.est.on_resume(now);
            self.cc.on_resume(&mut self.window, now, self.snd_nxt);
        }
    }

    /// Whether an ACK for `ack` arriving at `now` repeats the window-reopening ACK (Freeze-TCP's
    /// TR-ACKs, A6): the same ACK point, sooner than half the smallest RTT after it -- before
    /// any segment sent at the reopening could have been acknowledged. Such a copy is a window
    /// update, not a duplicate ACK.
    pub(super) fn repeats_reopening(&self, ack: u64, now: SimTime) -> bool {
        let (a, at) = self.reopened;
        a.get().is_some_and(|a| {
            let half_rtt = self.est.min_rtt.get().map_or(vhsim_core::SimDuration::ZERO, |r| vhsim_core::SimDuration(r.0 / 2));
            a == ack && now.saturating_since(at) < half_rtt
        })
    }

    /// The persist timer expired at `now`: a probe is due, and the timer re-armed with twice
    /// the interval.
    pub(super) fn on_persist_timer(&mut self, now: SimTime) {
        self.timers.clear(Timer::Persist);
        if !self.persist.active {
            return;
        }
        self.persist.probe_due = true;
        self.persist.probes = self.persist.probes.saturating_add(1);
        self.arm_persist(now);
    }

    /// RTO · 2^probes, capped at `max_rto` (RFC 1122 §4.2.2.17: exponential backoff).
    fn arm_persist(&mut self, now: SimTime) {
        let factor = 1u64.checked_shl(self.persist.probes).unwrap_or(u64::MAX);
        let interval = self.rtt.rto().saturating_mul(factor).min(self.cfg.max_rto);
        self.timers.set(Timer::Persist, now + interval);
    }

    /// The window probe, if one is due and there is something to probe with.
    pub(super) fn take_probe(&mut self) -> Option<Transmit> {
        if !std::mem::take(&mut self.persist.probe_due) {
            return None;
        }
        self.stats.window_probes += 1;
        if let Some(queued) = self.pop_pending() {
            Some(queued)
        } else if self.snd_max > self.snd_una {
            Some(Transmit { seq: self.snd_una, cause: TxCause::Probe })
        } else if self.snd_una > 0 {
            // Nothing outstanding: repeat the last acknowledged segment (RFC 9293 §3.8.6.1
            // allows a retransmission as the probe). A never-sent segment lost with the link
            // the receiver is about to lose would leave a hole that costs a fast retransmit and
            // a halving when the window opens (Freeze-TCP's ZWA acknowledges everything).
            Some(Transmit { seq: self.snd_una - 1, cause: TxCause::Probe })
        } else if self.snd_nxt < self.app_limit {
            Some(Transmit { seq: self.snd_nxt, cause: TxCause::New })
        } else {
            None
        }
    }
}
