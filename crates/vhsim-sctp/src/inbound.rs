//! The receiving half of an endpoint (RFC 4960 §6.2, §6.7): TSN tracking, in-order delivery
//! to the application, the receive window, and when to SACK.
//!
//! Chunks above the cumulative TSN wait in the receive buffer; in-order data is handed to the
//! application at once (one stream, every chunk a whole message, so TSN order is SSN order),
//! so a_rwnd = receive buffer - bytes waiting out of order. A chunk that does not fit the
//! remaining window is dropped, unless held chunks above it can make room ([`Inbound`]'s
//! `make_room`, RFC 9260 §6.2).
//!
//! A SACK is sent at once for the first DATA chunk of the association (§5.1), for a packet
//! with only duplicate chunks (§6.2), when a chunk was dropped (RFC 9260 §6.2), whenever a gap
//! exists after the packet (§6.7); optionally when a packet fills the last gap
//! (`sack_on_gap_fill`). Otherwise every `sack_every`-th packet carrying DATA is SACKed and the
//! others within `sack_delay` (§6.2); without delayed SACKs, every packet is.

use crate::config::SctpConfig;
use crate::wire::{DataChunk, SackChunk, DUP_TSN_LEN, GAP_BLOCK_LEN, SACK_HEADER_LEN};
use crate::Addr;
use std::collections::BTreeMap;
use vhsim_core::SimTime;

/// Counters of the receiving half.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InboundStats {
    /// DATA chunks received, duplicates included.
    pub data_chunks: u64,
    /// Duplicate DATA chunks.
    pub duplicates: u64,
    /// Chunks dropped for lack of receive window.
    pub dropped: u64,
    /// SACKs built.
    pub sacks: u64,
}

/// The receiving half.
#[derive(Clone, Debug, Default)]
pub struct Inbound {
    /// Highest TSN received in sequence (0: none; TSNs start at 1).
    pub cum: u32,
    /// Chunks received above `cum + 1`: TSN -> (chunk length, user data bytes).
    pub above: BTreeMap<u32, (u32, u32)>,
    /// Bytes held in `above`.
    pub held: u32,
    /// Duplicate TSNs received since the last SACK.
    pub dups: Vec<u32>,
    /// Packets carrying DATA since the last SACK.
    pub packets_unacked: u32,
    /// Delayed-SACK deadline.
    pub sack_at: Option<SimTime>,
    /// Where the SACK goes: (local address the DATA arrived at, address it came from).
    pub reply: Option<(Addr, Addr)>,
    /// Next SSN expected on stream 0.
    pub next_ssn: u16,
    /// Application bytes delivered in order so far.
    pub delivered_bytes: u64,
    /// Chunks delivered in order so far.
    pub delivered_units: u64,
    /// Bytes and chunks delivered since the caller last took them.
    pub undelivered_report: (u64, u64),
    /// Counters.
    pub stats: InboundStats,
}

impl Inbound {
    /// The window this receiver advertises: buffer minus bytes waiting out of order.
    pub fn a_rwnd(&self, cfg: &SctpConfig) -> u32 {
        cfg.receive_buffer.saturating_sub(self.held)
    }

    /// The DATA chunks of one packet that arrived at `local` from `remote`. Returns whether a
    /// SACK must go out now.
    pub fn on_data(
        &mut self,
        now: SimTime,
        data: &[DataChunk],
        local: Addr,
        remote: Addr,
        cfg: &SctpConfig,
    ) -> bool {
        let first_ever = self.stats.data_chunks == 0;
        let had_gap = !self.above.is_empty();
        let dropped_before = self.stats.dropped;
        let (mut new, mut dup) = (false, false);
        for d in data {
            self.stats.data_chunks += 1;
            if d.tsn <= self.cum || self.above.contains_key(&d.tsn) {
                self.stats.duplicates += 1;
                self.dups.push(d.tsn);
                dup = true;
            } else if !self.make_room(d, cfg) {
                self.stats.dropped += 1;
            } else {
                new = true;
                if d.tsn == self.cum + 1 {
                    self.cum = d.tsn;
                    self.deliver(d.ssn, d.payload_len);
                    while let Some((len, payload)) = self.above.remove(&(self.cum + 1)) {
                        self.cum += 1;
                        self.held -= len;
                        let ssn = self.next_ssn;
                        self.deliver(ssn, payload);
                    }
                } else {
                    self.above.insert(d.tsn, (d.chunk_len(), d.payload_len));
                    self.held += d.chunk_len();
                }
            }
        }
        self.reply = Some((local, remote));
        let dropped = self.stats.dropped > dropped_before;
        let gap_now = !self.above.is_empty();
        let immediate = !cfg.delayed_sack
            || first_ever
            || (dup && !new)
            || dropped
            || gap_now
            || (had_gap && cfg.sack_on_gap_fill);
        if immediate {
            return true;
        }
        self.packets_unacked += 1;
        if self.packets_unacked >= cfg.sack_every {
            return true;
        }
        if self.sack_at.is_none() {
            self.sack_at = Some(now + cfg.sack_delay);
        }
        false
    }

    /// Whether `d` fits the receive window, after dropping held chunks above it if needed:
    /// with the window full, a chunk above every held TSN is dropped, one below the highest
    /// held TSN is accepted in place of the highest held ones (RFC 9260 §6.2, the RFC 4960
    /// errata text). A dropped held chunk was gap-acked: the sender sees the revocation.
    fn make_room(&mut self, d: &DataChunk, cfg: &SctpConfig) -> bool {
        while d.chunk_len() > self.a_rwnd(cfg) {
            match self.above.last_key_value() {
                Some((&high, &(len, _))) if high > d.tsn => {
                    self.above.remove(&high);
                    self.held -= len;
                    self.stats.dropped += 1;
                }
                _ => return false,
            }
        }
        true
    }

    /// In-order delivery of one chunk (SSN checked: one stream, ordered).
    fn deliver(&mut self, ssn: u16, payload: u32) {
        debug_assert_eq!(ssn, self.next_ssn, "stream 0 delivered out of SSN order");
        self.next_ssn = ssn.wrapping_add(1);
        self.delivered_bytes += payload as u64;
        self.delivered_units += 1;
        self.undelivered_report.0 += payload as u64;
        self.undelivered_report.1 += 1;
    }

    /// The SACK to send now (gap blocks and duplicates as many as fit one packet, lowest
    /// first); resets the delayed-SACK state.
    pub fn build_sack(&mut self, cfg: &SctpConfig) -> SackChunk {
        let room = cfg.cc_mtu().saturating_sub(SACK_HEADER_LEN);
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for &tsn in self.above.keys() {
            match ranges.last_mut() {
                Some(r) if r.1 + 1 == tsn => r.1 = tsn,
                _ => ranges.push((tsn, tsn)),
            }
        }
        let max_blocks = (room / GAP_BLOCK_LEN) as usize;
        let mut sack = SackChunk::from_received(self.cum, self.a_rwnd(cfg), ranges, max_blocks);
        let left = room - GAP_BLOCK_LEN * sack.gap_blocks.len() as u32;
        let max_dups = (left / DUP_TSN_LEN) as usize;
        sack.dup_tsns = self.dups.iter().copied().take(max_dups).collect();
        self.dups.clear();
        self.packets_unacked = 0;
        self.sack_at = None;
        self.stats.sacks += 1;
        sack
    }

    /// Bytes and chunks delivered since the last call.
    pub fn take_delivered(&mut self) -> (u64, u64) {
        std::mem::take(&mut self.undelivered_report)
    }
}
