//! Congestion control of one destination (RFC 4960 §7.2; docs/references.md §9.2).
//!
//! All quantities are bytes; `mtu` is [`crate::SctpConfig::cc_mtu`].

use crate::path::PathState;

impl PathState {
    /// A SACK newly acknowledged `acked` bytes last sent to this destination. `flight_before`
    /// is the destination's flight size before the SACK, `cum_advanced` whether the SACK moved
    /// the Cumulative TSN Ack Point, `in_fast_recovery` whether the sender is (still) in Fast
    /// Recovery after the SACK.
    pub fn on_acked(
        &mut self,
        acked: u32,
        flight_before: u32,
        cum_advanced: bool,
        in_fast_recovery: bool,
        mtu: u32,
    ) {
        if acked == 0 || !cum_advanced {
            // §7.2.1/§7.2.2: growth needs a SACK that advances the Cumulative TSN Ack Point.
            return;
        }
        let fully_used = flight_before >= self.cwnd;
        if self.cwnd <= self.ssthresh {
            // §7.2.1 slow start: only while cwnd is fully used and not in Fast Recovery;
            // cwnd += min(bytes acknowledged, MTU).
            if fully_used && !in_fast_recovery {
                self.cwnd += acked.min(mtu);
            }
        } else {
            // §7.2.2 congestion avoidance: pba += bytes acknowledged; when pba >= cwnd and cwnd
            // was fully used, cwnd += MTU and pba -= cwnd (the cwnd before the increase, ns-2).
            self.partial_bytes_acked += acked;
            if self.partial_bytes_acked >= self.cwnd && fully_used {
                self.partial_bytes_acked -= self.cwnd;
                self.cwnd += mtu;
            }
        }
    }

    /// After a SACK: §7.2.2 "when all of the data transmitted has been acknowledged,
    /// partial_bytes_acked is initialized to 0".
    pub fn on_sack_done(&mut self) {
        if self.flight == 0 {
            self.partial_bytes_acked = 0;
        }
    }

    /// §7.2.4 step 2 (entering Fast Recovery): ssthresh = max(cwnd/2, 4·MTU), cwnd = ssthresh,
    /// partial_bytes_acked = 0.
    pub fn on_fast_retransmit(&mut self, mtu: u32) {
        self.ssthresh = (self.cwnd / 2).max(4 * mtu);
        self.cwnd = self.ssthresh;
        self.partial_bytes_acked = 0;
        self.stats.window_cuts += 1;
    }

    /// §7.2.3 (T3-rtx expiry): ssthresh = max(cwnd/2, 4·MTU), cwnd = 1·MTU, pba = 0.
    pub fn on_t3_window(&mut self, mtu: u32) {
        self.ssthresh = (self.cwnd / 2).max(4 * mtu);
        self.cwnd = mtu;
        self.partial_bytes_acked = 0;
    }

    /// RFC 4960 / RFC 9260 §7.2.1: one RTO without DATA sent here: cwnd = max(cwnd/2, 4·MTU), never raising
    /// it (ns-2's CwndDegradeTimer would raise a cwnd below 4·MTU). Returns whether a further
    /// decay can change anything.
    pub fn on_idle_rto(&mut self, mtu: u32) -> bool {
        let decayed = (self.cwnd / 2).max(4 * mtu);
        if decayed < self.cwnd {
            self.cwnd = decayed;
            self.stats.idle_cwnd_decays += 1;
        }
        self.cwnd > 4 * mtu
    }
}

#[cfg(test)]
mod tests {
    use crate::path::PathState;
    use crate::{Addr, SctpConfig};

    const MTU: u32 = 1468;

    fn path(cwnd: u32, ssthresh: u32) -> PathState {
        let mut p = PathState::new(Addr(1), Addr(0), &SctpConfig::default());
        p.cwnd = cwnd;
        p.ssthresh = ssthresh;
        p
    }

    #[test]
    fn slow_start_adds_at_most_one_mtu_and_needs_a_full_window() {
        let mut p = path(4380, 65536);
        p.on_acked(2 * MTU, 4404, true, false, MTU);
        assert_eq!(p.cwnd, 4380 + MTU);
        p.on_acked(500, 4000, true, false, MTU);
        assert_eq!(p.cwnd, 4380 + MTU, "cwnd was not fully used");
        p.on_acked(MTU, 9000, false, false, MTU);
        assert_eq!(p.cwnd, 4380 + MTU, "no cumulative-ack advance");
        p.on_acked(MTU, 9000, true, true, MTU);
        assert_eq!(p.cwnd, 4380 + MTU, "in fast recovery");
    }

    #[test]
    fn congestion_avoidance_adds_one_mtu_per_cwnd_acknowledged() {
        let mut p = path(4 * MTU, 2 * MTU);
        for _ in 0..3 {
            p.on_acked(MTU, 4 * MTU, true, false, MTU);
        }
        assert_eq!((p.cwnd, p.partial_bytes_acked), (4 * MTU, 3 * MTU));
        p.on_acked(MTU, 4 * MTU, true, false, MTU);
        assert_eq!((p.cwnd, p.partial_bytes_acked), (5 * MTU, 0));
    }

    #[test]
    fn cuts_and_decay() {
        let mut p = path(20 * MTU, 65536);
        p.on_fast_retransmit(MTU);
        assert_eq!((p.ssthresh, p.cwnd), (10 * MTU, 10 * MTU));
        p.on_t3_window(MTU);
        assert_eq!((p.ssthresh, p.cwnd), (5 * MTU, MTU));
        p.on_t3_window(MTU);
        assert_eq!((p.ssthresh, p.cwnd), (4 * MTU, MTU), "floor of 4 MTU");
        let mut q = path(10 * MTU, 65536);
        assert!(q.on_idle_rto(MTU));
        assert_eq!(q.cwnd, 5 * MTU);
        assert!(!q.on_idle_rto(MTU));
        assert_eq!(q.cwnd, 4 * MTU);
        let mut small = path(3 * MTU, 65536);
        small.on_idle_rto(MTU);
        assert_eq!(small.cwnd, 3 * MTU, "never raised");
    }
}
