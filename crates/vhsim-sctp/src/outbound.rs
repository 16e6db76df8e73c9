//! The sending half of an endpoint: the outbound stream, the chunks sent and not yet
//! cumulatively acknowledged, and the choice of destination (RFC 4960 §6.1, §6.4).
//!
//! SACK processing lives in [`crate::sack`], retransmission (T3-rtx expiry, marked chunks) in
//! [`crate::retransmit`]. Chunks are numbered from TSN 1 (ns-2; the model never wraps TSNs, a
//! run would need 2^32 chunks), so the Cumulative TSN Ack Point starts at 0.

use crate::config::{RtxToAlt, SctpConfig};
use crate::path::PathState;
use crate::wire::{padded, DataChunk};
use std::collections::VecDeque;
use vhsim_core::SimTime;
use vhsim_net::RetxCause;

/// Why a chunk waits for retransmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Three miss indications (§7.2.4).
    Fast,
    /// Its destination's T3-rtx expired (§6.3.3).
    Timeout,
    /// HR-mSCTP's handover retransmission (Kim & Koh §3 Step 3): outstanding on the old
    /// primary at the switch; it goes to the new primary.
    Handover,
}

/// A DATA chunk sent and not yet cumulatively acknowledged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutChunk {
    /// Its TSN.
    pub tsn: u32,
    /// Its stream sequence number.
    pub ssn: u16,
    /// User data bytes.
    pub payload: u32,
    /// Chunk length (header + user data): what flight size and windows count.
    pub size: u32,
    /// Destination (path index) of its latest transmission.
    pub dest: usize,
    /// Transmissions so far.
    pub tx_count: u32,
    /// Acknowledged by a Gap Ack Block of the latest SACK.
    pub gap_acked: bool,
    /// Waiting for retransmission.
    pub mark: Option<Mark>,
    /// Miss indications (§7.2.4).
    pub misses: u32,
    /// Fast-retransmitted once already: never again (only T3-rtx may resend it).
    pub fast_retransmitted: bool,
}

/// DATA chunks for one packet, with where and why they go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataTx {
    /// Destination path index.
    pub dest: usize,
    /// Chunks with contiguous TSNs, all sent for the same reason.
    pub chunks: Vec<DataChunk>,
    /// Why they are sent.
    pub cause: RetxCause,
}

/// Counters of the sending half.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutboundStats {
    /// SACKs processed (stale ones excluded).
    pub sacks: u64,
    /// Fast Recovery episodes entered.
    pub fast_recoveries: u64,
    /// SACKs dropped as stale (§6.2.1 D i, and overtaken SACKs: [`crate::sack`] step 1).
    pub stale_sacks: u64,
    /// Gap acks a later SACK withdrew (§6.2.1 D iii).
    pub gap_acks_withdrawn: u64,
    /// Miss indications the plain HTNA rule would have counted and split fast retransmit did not.
    pub split_misses_ignored: u64,
    /// Fast-retransmitted chunks sent to another destination than the one they were last sent to.
    pub fast_retransmits_to_alternate: u64,
}

/// The sending half.
#[derive(Clone, Debug)]
pub struct Outbound {
    /// Next TSN to assign.
    pub next_tsn: u32,
    /// Cumulative TSN Ack Point.
    pub cum_ack: u32,
    /// Chunks with TSN `cum_ack + 1 .. next_tsn`, in TSN order (no holes).
    pub chunks: VecDeque<OutChunk>,
    /// Next SSN of the single outbound stream.
    pub next_ssn: u16,
    /// Data units (full chunks) the application offered and that are not yet sent.
    pub backlog: u64,
    /// The application has offered data at least once (this endpoint is a sender).
    pub offered: bool,
    /// a_rwnd of the latest SACK (initially the peer's receive buffer, as INIT would carry).
    pub peer_a_rwnd: u32,
    /// Fast Recovery exit point (highest TSN outstanding when it was entered).
    pub fast_recovery_exit: Option<u32>,
    /// Association error counter (§8.1).
    pub assoc_errors: u32,
    /// The latest SACK acknowledged a fast-retransmitted chunk (ns-2 Max.Burst trigger).
    pub acked_fast_retransmitted: bool,
    /// The peer address the latest SACK taken came from.
    pub last_sack_from: Option<crate::Addr>,
    /// Counters.
    pub stats: OutboundStats,
}

impl Outbound {
    /// Nothing sent; the peer's window is its configured receive buffer.
    pub fn new(cfg: &SctpConfig) -> Self {
        Outbound {
            next_tsn: 1,
            cum_ack: 0,
            chunks: VecDeque::new(),
            next_ssn: 0,
            backlog: 0,
            offered: false,
            peer_a_rwnd: cfg.receive_buffer,
            fast_recovery_exit: None,
            assoc_errors: 0,
            acked_fast_retransmitted: false,
            last_sack_from: None,
            stats: OutboundStats::default(),
        }
    }

    /// Bytes in flight on all destinations.
    pub fn total_flight(paths: &[PathState]) -> u32 {
        paths.iter().map(|p| p.flight).sum()
    }

    /// The peer's receive window as the sender sees it (§6.2.1): the latest a_rwnd minus the
    /// bytes in flight (marked chunks have left the flight, §6.2.1 C).
    pub fn peer_rwnd(&self, paths: &[PathState]) -> u32 {
        self.peer_a_rwnd.saturating_sub(Self::total_flight(paths))
    }

    /// Whether any chunk waits for retransmission.
    pub fn has_marked(&self) -> bool {
        self.chunks.iter().any(|c| c.mark.is_some())
    }

    /// Where new DATA goes (§6.4, §6.4.1): the primary while it is usable (active, confirmed,
    /// not deleted), otherwise the next usable destination after it.
    pub fn data_dest(primary: usize, paths: &[PathState]) -> usize {
        if paths[primary].usable() {
            primary
        } else {
            next_active(primary, paths)
        }
    }

    /// Where a marked chunk last sent to `from` is retransmitted (ns-2 `rtxToAlt_`, §6.4); a
    /// handover retransmission goes where new data goes.
    pub fn rtx_dest(policy: RtxToAlt, from: usize, mark: Mark, primary: usize, paths: &[PathState]) -> usize {
        if mark == Mark::Handover {
            return Self::data_dest(primary, paths);
        }
        let keep = paths[from].usable()
            && match policy {
                RtxToAlt::Same => true,
                RtxToAlt::Alternate => false,
                RtxToAlt::TimeoutsOnly => mark == Mark::Fast,
            };
        if keep {
            from
        } else {
            next_active(from, paths)
        }
    }

    /// One packet of new DATA for `dest`, if the rules of §6.1 allow it: nothing waits for
    /// retransmission (C), the destination's flight is below its cwnd (B: a packet may then
    /// exceed cwnd by less than one MTU), and the peer's window takes the first chunk, or
    /// nothing is in flight at all (A: the zero-window probe).
    pub fn new_data(
        &mut self,
        now: SimTime,
        dest: usize,
        paths: &mut [PathState],
        cfg: &SctpConfig,
    ) -> Option<DataTx> {
        if self.backlog == 0 || self.has_marked() || paths[dest].flight >= paths[dest].cwnd {
            return None;
        }
        let size = cfg.data_chunk_size;
        let mut rwnd = self.peer_rwnd(paths);
        if rwnd < size && Self::total_flight(paths) > 0 {
            return None;
        }
        let mut room = cfg.cc_mtu();
        let mut chunks = Vec::new();
        while self.backlog > 0 && padded(size) <= room && (chunks.is_empty() || rwnd >= size) {
            let d = DataChunk {
                tsn: self.next_tsn,
                stream: 0,
                ssn: self.next_ssn,
                ppid: 0,
                payload_len: cfg.chunk_payload(),
                unordered: false,
                beginning: true,
                ending: true,
            };
            self.chunks.push_back(OutChunk {
                tsn: d.tsn,
                ssn: d.ssn,
                payload: d.payload_len,
                size,
                dest,
                tx_count: 1,
                gap_acked: false,
                mark: None,
                misses: 0,
                fast_retransmitted: false,
            });
            self.next_tsn += 1;
            self.next_ssn = self.next_ssn.wrapping_add(1);
            self.backlog -= 1;
            room -= padded(size);
            rwnd = rwnd.saturating_sub(size);
            chunks.push(d);
        }
        let p = &mut paths[dest];
        if p.timed.is_none() {
            // §6.3.1 C4: time one chunk per round trip per destination.
            p.timed = Some((chunks[0].tsn, now));
        }
        p.flight += size * chunks.len() as u32;
        p.stats.new_chunks += chunks.len() as u64;
        p.ensure_t3(now); // §6.3.2 R1
        Some(DataTx { dest, chunks, cause: RetxCause::New })
    }
}

/// The first usable destination after `from` in path order (wrapping); `from` itself when no
/// other is usable (ns-2's `GetNextDest`; with every destination inactive the data stays).
pub fn next_active(from: usize, paths: &[PathState]) -> usize {
    let n = paths.len();
    (1..n).map(|k| (from + k) % n).find(|&j| paths[j].usable()).unwrap_or(from)
}
