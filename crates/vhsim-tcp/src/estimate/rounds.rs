//! Round counting: a round ends when the first segment sent after its start is acknowledged
//! (one round trip of the ACK clock; Vegas's "once per RTT", Lim & Jang's round of suspension).

use vhsim_core::SimTime;

/// Rounds since the start of the connection.
#[derive(Clone, Debug, Default)]
pub struct Rounds {
    count: u64,
    /// The segment whose acknowledgment ends the current round (the next one to be sent when
    /// it started).
    end: u64,
    started: SimTime,
}

impl Rounds {
    /// An ACK for `ack` (next expected) at `now`, with `snd_max` = one past the highest segment
    /// sent so far. Returns whether the ACK ends the current round (and starts the next).
    #[inline]
    pub fn on_ack(&mut self, now: SimTime, ack: u64, snd_max: u64) -> bool {
        if ack <= self.end {
            return false;
        }
        self.count += 1;
        self.end = snd_max;
        self.started = now;
        true
    }

    /// Rounds completed.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// When the current round started.
    pub fn started(&self) -> SimTime {
        self.started
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_ends_when_the_first_segment_sent_after_its_start_is_acknowledged() {
        let mut r = Rounds::default();
        // Round 0 ends with the ACK of segment 0; 0..4 were sent then, so round 1 ends with
        // the ACK of segment 4.
        assert!(r.on_ack(SimTime(10), 1, 4));
        assert!(!r.on_ack(SimTime(11), 3, 6));
        assert!(!r.on_ack(SimTime(12), 4, 8));
        assert!(r.on_ack(SimTime(13), 5, 9));
        assert_eq!((r.count(), r.started()), (2, SimTime(13)));
    }
}
