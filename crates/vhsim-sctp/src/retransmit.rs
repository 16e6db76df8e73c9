//! Retransmission: T3-rtx expiry (RFC 4960 §6.3.3, §7.2.3, §8.1, §8.2) and sending chunks
//! marked for retransmission (§6.1 C, §6.3.3 E3, §7.2.4 step 3).
//!
//! T3-rtx expiry of destination d: ssthresh = max(cwnd/2, 4·MTU), cwnd = 1·MTU (E1), RTO
//! doubled (E2), d's and the association's error counters +1 (d becomes inactive above
//! Path.Max.Retrans, the association fails above Association.Max.Retrans), and every chunk
//! last sent to d and not gap-acked is marked for retransmission and leaves d's flight; the
//! RTT measurement of d is abandoned (Karn; ns-2). The caller then sends one packet of the
//! earliest of those chunks at once, ignoring cwnd (E3).
//!
//! A packet of marked chunks holds the lowest-TSN marked chunk and the following chunks while
//! they are marked for the same reason, go to the same destination and fit the MTU, so its
//! TSNs are contiguous and its trace tag exact (RFC 4960 would also bundle non-contiguous
//! ones). Its destination follows `rtx_to_alt` ([`Outbound::rtx_dest`]). The chunks move to
//! that destination's flight; a chunk fast-retransmitted once is never fast-retransmitted
//! again (§7.2.4).

use crate::config::SctpConfig;
use crate::outbound::{DataTx, Mark, Outbound};
use crate::path::PathState;
use crate::wire::{padded, DataChunk};
use vhsim_core::SimTime;
use vhsim_net::RetxCause;

/// What a T3-rtx expiry did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct T3Outcome {
    /// The destination has just become inactive.
    pub became_inactive: bool,
    /// The association error counter exceeded Association.Max.Retrans.
    pub association_failed: bool,
}

/// Which marked chunks a retransmission packet may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtxSelect {
    /// The T3-rtx retransmission of destination `d` (§6.3.3 E3): its earliest marked chunks,
    /// cwnd ignored.
    TimerExpiry(usize),
    /// The fast retransmission (§7.2.4 step 3): the earliest marked chunks, cwnd ignored.
    FastRetransmit,
    /// A later retransmission (§6.1 C): the earliest marked chunks, within the cwnd of their
    /// retransmission destination.
    WithinCwnd,
}

impl Outbound {
    /// T3-rtx of destination `d` expired (call at or after its deadline).
    pub fn on_t3_expiry(&mut self, d: usize, paths: &mut [PathState], cfg: &SctpConfig) -> T3Outcome {
        let p = &mut paths[d];
        p.t3 = None;
        p.stats.t3_expiries += 1;
        p.on_t3_window(cfg.cc_mtu());
        p.rto.back_off();
        p.timed = None;
        p.decay_at = None;
        let became_inactive = p.count_error(cfg.path_max_retrans);
        self.assoc_errors += 1;
        for c in self.chunks.iter_mut().filter(|c| c.dest == d && !c.gap_acked) {
            if c.mark.is_none() {
                p.flight -= c.size;
            }
            c.mark = Some(Mark::Timeout);
            c.misses = 0;
        }
        debug_assert_eq!(p.flight, 0, "every chunk in flight on the expired destination is marked");
        T3Outcome { became_inactive, association_failed: self.assoc_errors > cfg.association_max_retrans }
    }

    /// One packet of marked chunks as `select` allows, if any (`primary`: where handover
    /// retransmissions go).
    pub fn retransmission(
        &mut self,
        now: SimTime,
        select: RtxSelect,
        primary: usize,
        paths: &mut [PathState],
        cfg: &SctpConfig,
    ) -> Option<DataTx> {
        let from_filter = |dest: usize| match select {
            RtxSelect::TimerExpiry(d) => dest == d,
            _ => true,
        };
        let first = self.chunks.iter().position(|c| c.mark.is_some() && from_filter(c.dest))?;
        let mark = self.chunks[first].mark.expect("position found a marked chunk");
        let to = Self::rtx_dest(cfg.rtx_to_alt, self.chunks[first].dest, mark, primary, paths);
        if select == RtxSelect::WithinCwnd && paths[to].flight >= paths[to].cwnd {
            return None;
        }
        let cause = match (select, mark) {
            (RtxSelect::TimerExpiry(_), _) => RetxCause::Timeout,
            (RtxSelect::FastRetransmit, _) => RetxCause::FastRetransmit,
            (RtxSelect::WithinCwnd, Mark::Fast | Mark::Handover) => RetxCause::Recovery,
            (RtxSelect::WithinCwnd, Mark::Timeout) => RetxCause::GoBackN,
        };
        let mut room = cfg.cc_mtu();
        let mut chunks = Vec::new();
        for i in first..self.chunks.len() {
            let c = &self.chunks[i];
            let same_kind = c.mark == Some(mark)
                && from_filter(c.dest)
                && Self::rtx_dest(cfg.rtx_to_alt, c.dest, mark, primary, paths) == to;
            if !same_kind || padded(c.size) > room {
                break;
            }
            room -= padded(c.size);
            let c = &mut self.chunks[i];
            let old = &mut paths[c.dest];
            if old.timed.is_some_and(|(t, _)| t == c.tsn) {
                old.timed = None; // Karn: never measure a retransmitted chunk
            }
            let from = c.dest;
            c.mark = None;
            c.dest = to;
            c.tx_count += 1;
            c.misses = 0;
            let p = &mut paths[to];
            p.flight += c.size;
            match mark {
                Mark::Fast => {
                    c.fast_retransmitted = true;
                    p.stats.fast_retransmissions += 1;
                    if from != to {
                        self.stats.fast_retransmits_to_alternate += 1;
                    }
                }
                Mark::Timeout => p.stats.timeout_retransmissions += 1,
                Mark::Handover => p.stats.handover_retransmissions += 1,
            }
            chunks.push(DataChunk {
                tsn: c.tsn,
                stream: 0,
                ssn: c.ssn,
                ppid: 0,
                payload_len: c.payload,
                unordered: false,
                beginning: true,
                ending: true,
            });
        }
        // §6.3.2 R1, and §7.2.4 step 4: restart T3 when the first chunk in flight there is resent.
        let lowest_in_flight = self.chunks.iter().find(|c| c.dest == to && !c.gap_acked && c.mark.is_none());
        if lowest_in_flight.is_some_and(|c| c.tsn == chunks[0].tsn) {
            paths[to].restart_t3(now);
        } else {
            paths[to].ensure_t3(now);
        }
        Some(DataTx { dest: to, chunks, cause })
    }
}
