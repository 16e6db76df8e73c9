//! Delivery-rate (bandwidth) estimate as Westwood+ samples and filters it (Grieco & Mascolo
//! 2004; docs/references.md §7.3).
//!
//! - **Delivered segments**: a duplicate ACK counts one segment (it reports one arrival); a
//!   cumulative ACK counts the segments it newly acknowledges minus the duplicate ACKs already
//!   counted for them (Westwood's accounting), so every delivered segment counts once.
//! - **One sample per round** (Westwood+'s "once per RTT"; a round ends when the first segment
//!   sent after its start is acknowledged): b_k = bytes delivered in the round / its length.
//! - **Filter** (ns-3's Tustin filter for Westwood+, alpha = 0.9):
//!   b̂_k = α·b̂_{k−1} + (1 − α)·(b_k + b_{k−1})/2.

use vhsim_core::SimTime;

/// Westwood+'s filter gain.
const ALPHA: f64 = 0.9;

/// The delivery-rate estimate of one sender.
#[derive(Clone, Debug)]
pub struct Bandwidth {
    segment_bytes: u32,
    delivered: u64,
    /// Duplicate ACKs counted as deliveries but not yet covered by a cumulative ACK.
    dupack_credit: u64,
    /// `delivered` and time at the start of the current round.
    round_start: Option<(u64, SimTime)>,
    last_sample: f64,
    estimate: Option<f64>,
}

impl Bandwidth {
    /// No delivery yet.
    pub fn new(segment_bytes: u32) -> Self {
        Bandwidth {
            segment_bytes,
            delivered: 0,
            dupack_credit: 0,
            round_start: None,
            last_sample: 0.0,
            estimate: None,
        }
    }

    /// An ACK that newly acknowledges `newly` segments cumulatively, or is a duplicate.
    #[inline]
    pub fn on_ack(&mut self, newly: u64, duplicate: bool) {
        if duplicate {
            self.delivered += 1;
            self.dupack_credit += 1;
        } else if newly > 0 {
            let already = self.dupack_credit.min(newly);
            self.dupack_credit -= already;
            self.delivered += newly - already;
        }
    }

    /// A round ended at `now` (after the ACK that ended it was counted): take the sample.
    pub fn end_round(&mut self, now: SimTime) {
        if let Some((d0, t0)) = self.round_start {
            let secs = now.saturating_since(t0).as_secs_f64();
            if secs > 0.0 {
                let b = (self.delivered - d0) as f64 * self.segment_bytes as f64 * 8.0 / secs;
                self.estimate = Some(match self.estimate {
                    None => b,
                    Some(prev) => ALPHA * prev + (1.0 - ALPHA) * (b + self.last_sample) / 2.0,
                });
                self.last_sample = b;
            }
        }
        self.round_start = Some((self.delivered, now));
    }

    /// Start afresh at `now` (Freeze-TCPv2's resume: the new cell's bandwidth is measured
    /// from the ACKs after the PACK): no estimate, deliveries counted from here, the current
    /// round starting now.
    pub fn restart(&mut self, now: SimTime) {
        *self = Bandwidth { round_start: Some((0, now)), ..Bandwidth::new(self.segment_bytes) };
    }

    /// The filtered estimate if a round has been measured since the start (or the restart),
    /// else the delivery rate over the round under way until `now` (after a restart: the ACKs
    /// counted during the first window after it, Park et al. §3.2); `None` before anything
    /// was delivered in a measurable time.
    pub fn estimate_at(&self, now: SimTime) -> Option<f64> {
        self.estimate.or_else(|| {
            let (d0, t0) = self.round_start?;
            let secs = now.saturating_since(t0).as_secs_f64();
            let segments = self.delivered - d0;
            (secs > 0.0 && segments > 0).then(|| segments as f64 * self.segment_bytes as f64 * 8.0 / secs)
        })
    }

    /// Segments delivered so far.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// The filtered delivery rate in bit/s (payload), once a round has been measured.
    pub fn estimate(&self) -> Option<f64> {
        self.estimate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn dupacks_count_once_and_the_cumulative_ack_counts_the_rest() {
        let mut b = Bandwidth::new(1000);
        b.on_ack(0, true);
        b.on_ack(0, true);
        assert_eq!(b.delivered(), 2);
        // The ACK that covers the hole and the two segments the dupACKs reported: 4 new, 2 counted.
        b.on_ack(4, false);
        assert_eq!(b.delivered(), 4);
    }

    #[test]
    fn after_a_restart_the_first_round_so_far_stands_in_for_the_estimate() {
        let mut b = Bandwidth::new(1000);
        b.end_round(t(0));
        b.on_ack(10, false);
        b.end_round(t(100));
        b.restart(t(500));
        assert_eq!(b.estimate(), None);
        assert_eq!(b.estimate_at(t(500)), None);
        b.on_ack(0, true); // a duplicate ACK: one segment delivered
        b.on_ack(4, false); // 3 more
        // 4 segments of 8000 bits in 50 ms: 640 kbit/s.
        assert_eq!(b.estimate_at(t(550)), Some(640_000.0));
        b.end_round(t(600)); // 4 segments in 100 ms: the first filtered sample, 320 kbit/s
        assert_eq!(b.estimate_at(t(700)), Some(320_000.0));
    }

    #[test]
    fn one_sample_per_round_through_the_tustin_filter() {
        let mut b = Bandwidth::new(1000);
        b.end_round(t(0));
        b.on_ack(10, false);
        b.end_round(t(100)); // 10 segments of 8000 bits in 0.1 s = 800 kbit/s
        assert_eq!(b.estimate(), Some(800_000.0));
        b.on_ack(20, false);
        b.end_round(t(200)); // 1.6 Mbit/s: 0.9 * 800k + 0.1 * (1.6M + 800k) / 2 = 840k
        let e = b.estimate().unwrap();
        assert!((e - 840_000.0).abs() < 1e-6, "{e}");
    }
}
