//! The receiver's own round-trip estimate, from the timestamps option (RFC 7323 §4): the
//! receiver stamps each ACK with its clock (TSval), the sender echoes the latest ACK's TSval in
//! the data it sends (TSecr), and a segment that arrives echoing T measured one round trip,
//! now − T: the ACK's way to the sender and the data's way back, queues included.
//!
//! Samples come from segments that bring new in-order data (a duplicate or a hole-filling
//! retransmission may echo an ACK sent long before it was sent); they are smoothed as RFC 6298
//! §2 smooths the sender's (SRTT = 7/8 SRTT + 1/8 sample; the first sample sets it), without
//! ns-2's clock ticks. A mobile node times its handover warning by it (`mobile.warning =
//! "srtt"`, docs/handover.md).

use vhsim_core::{SimDuration, SimTime};

/// The timestamps clock: 1 µs per tick, wrapping at 2^32 (about 71 minutes; differences are
/// taken modulo 2^32, RFC 7323 §5.2).
pub fn ts_clock(now: SimTime) -> u32 {
    // 0 means "no timestamp": the clock skips it.
    ((now.0 / 1_000) as u32).max(1)
}

/// Smoothed round-trip time measured at the receiver.
#[derive(Clone, Debug, Default)]
pub struct ReceiverRtt {
    /// Meaningful once `samples > 0` (no `Option` of its own: every sink carries one, issue
    /// #29, memory per flow).
    srtt_ns: f64,
    samples: u64,
}

impl ReceiverRtt {
    /// A segment that brought new in-order data arrived at `now` echoing `ts_ecr` (0: none).
    pub fn on_echo(&mut self, now: SimTime, ts_ecr: u32) {
        if ts_ecr == 0 {
            return;
        }
        let us = ts_clock(now).wrapping_sub(ts_ecr);
        let sample = us as f64 * 1_000.0;
        self.srtt_ns = match self.samples {
            0 => sample,
            _ => self.srtt_ns + (sample - self.srtt_ns) / 8.0,
        };
        self.samples += 1;
    }

    /// The smoothed RTT, once a sample came.
    pub fn srtt(&self) -> Option<SimDuration> {
        (self.samples > 0).then(|| SimDuration(self.srtt_ns.round() as u64))
    }

    /// Samples taken.
    pub fn samples(&self) -> u64 {
        self.samples
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn smooths_the_echoed_round_trips_as_rfc_6298() {
        let mut r = ReceiverRtt::default();
        assert_eq!(r.srtt(), None);
        r.on_echo(t(100), ts_clock(t(50))); // 50 ms
        assert_eq!(r.srtt(), Some(SimDuration::from_millis(50)));
        r.on_echo(t(200), ts_clock(t(120))); // 80 ms: 50 + 30/8 = 53.75 ms
        assert_eq!(r.srtt(), Some(SimDuration::from_micros(53_750)));
        r.on_echo(t(300), 0); // no timestamp: no sample
        assert_eq!(r.samples(), 2);
    }

    #[test]
    fn the_clock_wraps_without_breaking_a_sample() {
        let mut r = ReceiverRtt::default();
        let wrap_ms = (1u64 << 32) / 1_000;
        r.on_echo(t(wrap_ms + 10), ts_clock(t(wrap_ms - 30)));
        assert_eq!(r.srtt(), Some(SimDuration::from_millis(40)));
    }
}
