//! Path heartbeats (RFC 4960 §8.3): probing idle destinations, counting unanswered probes as
//! errors, and measuring the RTT from HEARTBEAT-ACKs.
//!
//! A destination is idle when no DATA chunk and no HEARTBEAT has been sent to it for one
//! heartbeat period: HB.interval + RTO·(1 + u), u drawn once per period uniformly from
//! [-hb_jitter, +hb_jitter) by the caller (RFC 4960 §8.3: RTO + HB.interval, jittered by ±50%
//! of the RTO). The RTO is the destination's current one, so backoff lengthens the period.
//! A HEARTBEAT unanswered after one RTO counts as an error of the destination and of the
//! association, and doubles the RTO (§8.3 "exponential backoff of the RTO if the previous
//! HEARTBEAT is unanswered"). A HEARTBEAT-ACK clears the destination's error counter, marks it
//! active and is an RTT measurement (§8.3).
//!
//! With `hb_on_inactive` (ns-2), a destination that has just become inactive is probed at
//! once and again at every unanswered probe's timeout, until one is answered. An unconfirmed
//! destination (added by ASCONF) is probed the same way, heartbeats on or off, until a
//! HEARTBEAT-ACK confirms it (RFC 4960 §5.4).

use crate::config::SctpConfig;
use crate::path::PathState;
use vhsim_core::{SimDuration, SimTime};

/// Heartbeat bookkeeping of one destination.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeartbeatState {
    /// Last DATA or HEARTBEAT sent to the destination (`None` before the association starts).
    pub last_activity: Option<SimTime>,
    /// The jitter draw u of the current period.
    pub jitter: f64,
    /// The outstanding HEARTBEAT: (sent at, unanswered after).
    pub pending: Option<(SimTime, SimTime)>,
    /// Probe at once (an inactive destination under `hb_on_inactive`).
    pub probe_now: bool,
}

/// What the timeout of an outstanding HEARTBEAT did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeartbeatTimeout {
    /// The destination has just become inactive.
    pub became_inactive: bool,
}

impl PathState {
    /// When the next HEARTBEAT is due, if heartbeats are on and none is outstanding.
    pub fn hb_due(&self, cfg: &SctpConfig) -> Option<SimTime> {
        // Heartbeats off: only an unconfirmed destination is still probed (path verification).
        if self.deleted || self.hb.pending.is_some() || (!cfg.heartbeat && self.confirmed) {
            return None;
        }
        let last = self.hb.last_activity?;
        if self.hb.probe_now {
            return Some(last);
        }
        let rto = self.rto.rto().0 as f64;
        let jittered = (rto * (1.0 + self.hb.jitter)).round() as u64;
        Some(last + cfg.hb_interval + SimDuration(jittered))
    }

    /// The earliest heartbeat deadline: the outstanding probe's timeout or the next probe.
    pub fn hb_deadline(&self, cfg: &SctpConfig) -> Option<SimTime> {
        match self.hb.pending {
            Some((_, timeout)) => Some(timeout),
            None => self.hb_due(cfg),
        }
    }

    /// DATA was sent to the destination: the idle period restarts.
    pub fn hb_note_activity(&mut self, now: SimTime) {
        self.hb.last_activity = Some(now);
    }

    /// A HEARTBEAT is sent now; `jitter` is the draw for the next period.
    pub fn hb_sent(&mut self, now: SimTime, jitter: f64) {
        self.hb.pending = Some((now, now + self.rto.rto()));
        self.hb.last_activity = Some(now);
        self.hb.jitter = jitter;
        self.hb.probe_now = false;
        self.stats.heartbeats_sent += 1;
    }

    /// The outstanding HEARTBEAT went unanswered for an RTO (call when its timeout passed):
    /// error counted, RTO doubled.
    pub fn hb_timed_out(&mut self, cfg: &SctpConfig) -> HeartbeatTimeout {
        self.hb.pending = None;
        self.stats.heartbeat_timeouts += 1;
        self.rto.back_off();
        let became_inactive = self.count_error(cfg.path_max_retrans);
        // An unconfirmed address is probed once per RTO until confirmed (RFC 4960 §5.4).
        if (cfg.hb_on_inactive && !self.active) || !self.confirmed {
            self.hb.probe_now = true;
        }
        HeartbeatTimeout { became_inactive }
    }

    /// A HEARTBEAT-ACK for a probe sent at `sent_at` arrived now: errors cleared, destination
    /// active, RTT measured.
    pub fn hb_acked(&mut self, now: SimTime, sent_at: SimTime) {
        self.hb.pending = None;
        self.hb.probe_now = false;
        self.stats.heartbeat_acks += 1;
        self.clear_errors();
        self.confirmed = true;
        self.rto.measure(now - sent_at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Addr;

    #[test]
    fn period_is_interval_plus_jittered_rto() {
        let cfg = SctpConfig::default();
        let mut p = PathState::new(Addr(1), Addr(0), &cfg);
        assert_eq!(p.hb_due(&cfg), None, "not started");
        p.hb_note_activity(SimTime(0));
        // RTO.Initial 1 s (RFC 9260 §16), u = 0: 30 s + 1 s.
        assert_eq!(p.hb_due(&cfg), Some(SimTime(31_000_000_000)));
        p.hb.jitter = -0.5;
        assert_eq!(p.hb_due(&cfg), Some(SimTime(30_500_000_000)));
        p.hb_sent(SimTime(30_500_000_000), 0.25);
        assert_eq!(p.hb_deadline(&cfg), Some(SimTime(31_500_000_000)), "the probe times out after one RTO");
        let t = p.hb_timed_out(&cfg);
        assert!(!t.became_inactive);
        assert_eq!((p.error_count, p.rto.rto()), (1, SimDuration::from_secs(2)));
        // Next period from the probe: 30 s + 2 s · 1.25.
        assert_eq!(p.hb_due(&cfg), Some(SimTime(30_500_000_000 + 32_500_000_000)));
        p.hb_sent(SimTime(69_000_000_000), 0.0);
        p.hb_acked(SimTime(69_200_000_000), SimTime(69_000_000_000));
        assert_eq!((p.error_count, p.rto.rto()), (0, SimDuration::from_secs(1)));
    }
}
