//! Processing of an arriving SACK by the sending half (RFC 4960 §6.2.1, §6.3.2, §7.2, §8.1,
//! §8.2), in this order:
//!
//! 1. A SACK whose Cumulative TSN Ack is below the Cumulative TSN Ack Point is stale and
//!    dropped (RFC 4960 and RFC 9260 §6.2.1 D i); so is one acknowledging a TSN never sent. A
//!    SACK with a Cumulative TSN Ack *equal* to the Ack Point cannot be dated by that rule: one
//!    that arrives from another peer address than the latest SACK taken, acknowledges nothing
//!    new and withdraws gap acks is taken for what it almost always is, an older SACK
//!    overtaken on a faster path (mSCTP's two paths differ by a second or more), and dropped
//!    too, instead of being read as the receiver reneging (D iii). Dropped SACKs are counted.
//! 2. Chunks up to the Cumulative TSN Ack leave the buffer; chunks inside Gap Ack Blocks are
//!    marked gap-acked; a chunk gap-acked by an earlier SACK but not by this one returns to the
//!    flight (the latest SACK is authoritative, §6.3.2 R4). Every newly acknowledged chunk
//!    counts toward its destination's acknowledged bytes, may end an RTT measurement (§6.3.1:
//!    only a timed chunk never retransmitted), clears its destination's error counter and the
//!    association's (§8.1, §8.2; not for a chunk already marked by a T3-rtx expiry, whose ACK
//!    may be a late one for a copy sent before a failure, as ns-2 guards), and un-marks it.
//! 3. Miss indications (§7.2.4, HTNA): +1 for every unacknowledged chunk below the highest TSN
//!    newly acknowledged by this SACK; in Fast Recovery, a SACK that advances the Cumulative
//!    TSN Ack Point adds one to every chunk reported missing; a chunk whose gap ack this SACK
//!    withdraws gets one (§6.2.1 D iii, "count one miss indication"), once per SACK whichever
//!    rule applies. With `split_fast_retransmit` (CMT's split fast retransmit, MT-mSCTP;
//!    docs/references.md §10) the first two count only TSNs sent to the chunk's own destination:
//!    reordering across paths is then no loss signal. A chunk reaching `fast_rtx_threshold`
//!    indications is marked for fast retransmission, at most once in its life.
//! 4. Fast Recovery ends when the Cumulative TSN Ack reaches its exit point.
//! 5. Window growth per destination (§7.2.1, §7.2.2, [`PathState::on_acked`]).
//! 6. Newly marked chunks outside Fast Recovery: the destinations they were last sent to cut
//!    their windows, Fast Recovery starts with exit point = highest TSN sent (§7.2.4 step 2).
//! 7. T3-rtx per destination (§6.3.2): stopped when nothing is in flight (R2), restarted when
//!    this SACK acknowledged the earliest outstanding chunk sent there (R3; marking a chunk for
//!    fast retransmission acknowledges nothing, so it restarts nothing), started if data is in
//!    flight and it is not running (R4, and D iii for a withdrawn gap ack).

use crate::config::SctpConfig;
use crate::outbound::{Mark, OutChunk, Outbound};
use crate::path::PathState;
use crate::wire::SackChunk;
use crate::Addr;
use vhsim_core::SimTime;

/// What a SACK did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackOutcome {
    /// The SACK advanced the Cumulative TSN Ack Point.
    pub cum_advanced: bool,
    /// Chunks were newly marked for fast retransmission: one packet of them goes out at once.
    pub fast_retransmit: bool,
}

impl Outbound {
    /// Process a SACK that arrived from the peer's address `from`; `None` if it was dropped as
    /// stale or invalid.
    pub fn on_sack(
        &mut self,
        now: SimTime,
        sack: &SackChunk,
        from: Addr,
        paths: &mut [PathState],
        cfg: &SctpConfig,
    ) -> Option<SackOutcome> {
        let cum = sack.cum_tsn_ack;
        if cum >= self.next_tsn {
            return None; // acknowledges a TSN never sent
        }
        let in_block = self.block_membership(sack);
        if cum < self.cum_ack || (cum == self.cum_ack && self.overtaken(from, &in_block)) {
            self.stats.stale_sacks += 1;
            return None;
        }
        self.last_sack_from = Some(from);
        self.stats.sacks += 1;
        let n = paths.len();
        let flight_before: Vec<u32> = paths.iter().map(|p| p.flight).collect();
        let earliest_before = self.earliest_outstanding(n);
        let mut acked = vec![0u32; n];
        let mut htna_dest: Vec<Option<u32>> = vec![None; n];
        let mut revoked = vec![false; n];
        let mut withdrawn: Vec<u32> = Vec::new();
        let mut highest_newly_acked: Option<u32> = None;
        let cum_advanced = cum > self.cum_ack;
        self.acked_fast_retransmitted = false;
        self.peer_a_rwnd = sack.a_rwnd;

        // Step 2: cumulative acknowledgement.
        let advanced_by = (cum - self.cum_ack) as usize;
        while self.chunks.front().is_some_and(|c| c.tsn <= cum) {
            let c = self.chunks.pop_front().expect("front checked");
            if !c.gap_acked {
                highest_newly_acked = Some(c.tsn);
                htna_dest[c.dest] = Some(c.tsn);
                self.newly_acked(&c, now, paths, &mut acked);
            }
        }
        self.cum_ack = cum;

        // Step 2: gap blocks (the latest SACK is authoritative).
        for (i, &in_block) in in_block[advanced_by..].iter().enumerate() {
            let tsn = self.chunks[i].tsn;
            let was = self.chunks[i].gap_acked;
            if in_block && !was {
                let c = self.chunks[i].clone();
                highest_newly_acked = Some(highest_newly_acked.map_or(tsn, |h| h.max(tsn)));
                htna_dest[c.dest] = Some(htna_dest[c.dest].map_or(tsn, |h| h.max(tsn)));
                self.newly_acked(&c, now, paths, &mut acked);
                let c = &mut self.chunks[i];
                c.gap_acked = true;
                c.mark = None;
            } else if !in_block && was {
                let c = &mut self.chunks[i];
                c.gap_acked = false;
                paths[c.dest].flight += c.size;
                revoked[c.dest] = true;
                withdrawn.push(tsn);
                self.stats.gap_acks_withdrawn += 1;
            }
        }

        // Step 3: miss indications (HTNA, Fast Recovery, withdrawn gap acks) and marking.
        let in_fr = self.fast_recovery_exit.is_some();
        let highest_reported = sack.highest_acked();
        let split = cfg.split_fast_retransmit;
        let mut reported_dest: Vec<Option<u32>> = vec![None; n];
        if split {
            for c in self.chunks.iter().filter(|c| c.gap_acked) {
                reported_dest[c.dest] = Some(c.tsn); // chunks are in TSN order
            }
        }
        let missed = |tsn: u32, htna: Option<u32>, reported: u32| {
            htna.is_some_and(|h| tsn < h) || (in_fr && cum_advanced && tsn < reported)
        };
        let mut cut = vec![false; n];
        for c in self.chunks.iter_mut() {
            if c.gap_acked || c.mark.is_some() || c.fast_retransmitted {
                continue;
            }
            let plain = missed(c.tsn, highest_newly_acked, highest_reported);
            let counted = if split {
                missed(c.tsn, htna_dest[c.dest], reported_dest[c.dest].unwrap_or(0))
            } else {
                plain
            };
            if plain && !counted {
                self.stats.split_misses_ignored += 1;
            }
            if !(counted || withdrawn.binary_search(&c.tsn).is_ok()) {
                continue;
            }
            c.misses += 1;
            if c.misses >= cfg.fast_rtx_threshold {
                c.mark = Some(Mark::Fast);
                let p = &mut paths[c.dest];
                p.flight -= c.size;
                if p.timed.is_some_and(|(t, _)| t == c.tsn) {
                    p.timed = None;
                }
                cut[c.dest] = true;
            }
        }
        let fast_retransmit = cut.iter().any(|&x| x);

        // Step 4: leaving Fast Recovery.
        if self.fast_recovery_exit.is_some_and(|exit| cum >= exit) {
            self.fast_recovery_exit = None;
        }

        // Step 5: window growth.
        let mtu = cfg.cc_mtu();
        let in_fr = self.fast_recovery_exit.is_some();
        for (d, p) in paths.iter_mut().enumerate() {
            p.on_acked(acked[d], flight_before[d], cum_advanced, in_fr, mtu);
        }

        // Step 6: entering Fast Recovery.
        if fast_retransmit && !in_fr {
            for (d, p) in paths.iter_mut().enumerate() {
                if cut[d] {
                    p.on_fast_retransmit(mtu);
                    // ns-2 (S. Baucke's fix): no RTT measurement across the loss.
                    p.timed = None;
                }
            }
            self.fast_recovery_exit = Some(self.next_tsn - 1);
            self.stats.fast_recoveries += 1;
        }

        // Step 7: T3-rtx and partial_bytes_acked reset.
        for (d, p) in paths.iter_mut().enumerate() {
            p.on_sack_done();
            let earliest_acked = earliest_before[d].is_some_and(|t| self.acknowledged(t));
            if p.flight == 0 {
                p.t3 = None;
            } else if earliest_acked {
                p.restart_t3(now);
            } else if revoked[d] || p.t3.is_none() {
                p.ensure_t3(now);
            }
        }
        Some(SackOutcome { cum_advanced, fast_retransmit })
    }

    /// For every chunk in the buffer (TSN order), whether a Gap Ack Block or the Cumulative TSN
    /// Ack of `sack` covers it.
    fn block_membership(&self, sack: &SackChunk) -> Vec<bool> {
        let mut ranges: Vec<(u32, u32)> = sack.acked_ranges().collect();
        ranges.sort_unstable();
        let mut r = 0;
        let mut out = Vec::with_capacity(self.chunks.len());
        for c in &self.chunks {
            while r < ranges.len() && ranges[r].1 < c.tsn {
                r += 1;
            }
            out.push(c.tsn <= sack.cum_tsn_ack || (r < ranges.len() && ranges[r].0 <= c.tsn));
        }
        out
    }

    /// Step 1's second rule: a SACK with the current Cumulative TSN Ack, from another address
    /// than the latest SACK taken, that acknowledges nothing new and withdraws a gap ack is an
    /// older SACK that was overtaken (`in_block`: [`Self::block_membership`]).
    fn overtaken(&self, from: Addr, in_block: &[bool]) -> bool {
        if self.last_sack_from.is_none() || self.last_sack_from == Some(from) {
            return false;
        }
        let pairs = || self.chunks.iter().zip(in_block);
        let news = pairs().any(|(c, &b)| b && !c.gap_acked);
        let withdraws = pairs().any(|(c, &b)| !b && c.gap_acked);
        !news && withdraws
    }

    /// Whether TSN `tsn` is acknowledged (cumulatively or by a gap block of the latest SACK).
    fn acknowledged(&self, tsn: u32) -> bool {
        tsn <= self.cum_ack || self.chunks.get((tsn - self.cum_ack - 1) as usize).is_some_and(|c| c.gap_acked)
    }

    /// Bookkeeping for a chunk acknowledged for the first time.
    fn newly_acked(&mut self, c: &OutChunk, now: SimTime, paths: &mut [PathState], acked: &mut [u32]) {
        let p = &mut paths[c.dest];
        acked[c.dest] += c.size;
        if c.mark.is_none() {
            p.flight -= c.size;
        }
        if let Some((tsn, sent)) = p.timed {
            if tsn == c.tsn {
                if c.tx_count == 1 && c.mark != Some(Mark::Timeout) {
                    p.rto.measure(now - sent);
                }
                p.timed = None;
            }
        }
        if c.mark != Some(Mark::Timeout) {
            p.clear_errors();
            self.assoc_errors = 0;
        }
        if c.fast_retransmitted {
            self.acked_fast_retransmitted = true;
        }
    }

    /// Per destination, the lowest TSN outstanding there: last sent there and not acknowledged
    /// (marked chunks included: a mark is no acknowledgement, §6.3.2 R3).
    fn earliest_outstanding(&self, n: usize) -> Vec<Option<u32>> {
        let mut out = vec![None; n];
        for c in &self.chunks {
            if !c.gap_acked && out[c.dest].is_none() {
                out[c.dest] = Some(c.tsn);
            }
        }
        out
    }
}
