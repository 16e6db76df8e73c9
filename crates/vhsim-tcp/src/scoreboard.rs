//! Per-segment state of the outstanding window `[snd_una, snd_max)`: when each segment was
//! sent, whether the receiver SACKed it, whether it was retransmitted.
//!
//! Like ns-2's `ScoreBoardRQ`, SACK information is cleared on every new cumulative ACK outside
//! recovery and rebuilt from the blocks of later ACKs (docs/references.md §1.3), unless the sender
//! keeps it (RFC 6675 §3's scoreboard, which RACK reads between ACKs).
//!
//! A loss detection that decides losses segment by segment (RACK, RFC 8985 §6.2) marks them
//! lost here; a segment marked lost and not retransmitted since needs a retransmission, and
//! one retransmitted after the mark counts once in the pipe again (RFC 6675 §4 SetPipe with
//! the detection's verdict for IsLost). It may also ask for the log of the segments each ACK
//! newly delivered (cumulatively or by SACK), with their send times.

use std::collections::VecDeque;
use vhsim_core::SimTime;

/// State of one outstanding segment.
#[derive(Clone, Copy, Debug)]
struct Seg {
    first_sent: SimTime,
    /// Time of the latest transmission (Vegas's fine-grained timer runs from it).
    last_sent: SimTime,
    /// Transmissions so far (ns-2 Vegas `v_transmits_`).
    transmissions: u32,
    sacked: bool,
    /// Retransmitted during the current recovery episode (ns-2 `MarkRetran`).
    retx_this_episode: bool,
    /// Never a valid RTT sample: retransmitted at some time (Karn's rule), or outstanding when
    /// the peer closed its window (its ACK may wait for the window to open).
    no_sample: bool,
    /// Deemed lost by the loss detection (cleared with the other episode marks).
    lost: bool,
}

/// A segment an ACK newly delivered (cumulatively or by SACK), as the scoreboard knew it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// Segment number.
    pub seq: u64,
    /// Its latest transmission.
    pub last_sent: SimTime,
    /// Transmissions so far.
    pub transmissions: u32,
}

/// Outstanding segments, indexed from `base` (= snd_una).
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    base: u64,
    segs: VecDeque<Seg>,
    /// SACKed segments at or above `base`.
    sacked: u64,
    /// Segments delivered by the current ACK, if a part asked for them (boxed: only RACK asks,
    /// and every sender carries a scoreboard: issue #29, memory per flow).
    log: Option<Box<Vec<Delivered>>>,
    /// Whether a segment may carry an episode mark (`sacked`, `retx_this_episode`, `lost`)
    /// since the last [`Scoreboard::clear`]: without one, the clear that every new ACK outside
    /// recovery makes has nothing to do (it walked the whole window per ACK).
    marked: bool,
}

impl Scoreboard {
    /// Record a transmission of `seq` at `now` (`seq` is either already outstanding or the
    /// next new segment `base + len`).
    pub fn on_send(&mut self, seq: u64, now: SimTime, retransmission: bool) {
        let end = self.base + self.segs.len() as u64;
        if seq >= end {
            debug_assert_eq!(seq, end, "segments are sent without gaps");
            self.segs.push_back(Seg {
                first_sent: now,
                last_sent: now,
                transmissions: 1,
                sacked: false,
                retx_this_episode: false,
                no_sample: false,
                lost: false,
            });
        } else if seq >= self.base && retransmission {
            let s = &mut self.segs[(seq - self.base) as usize];
            s.no_sample = true;
            s.last_sent = now;
            s.transmissions = s.transmissions.saturating_add(1);
            // A segment deemed lost is repaired by any retransmission (go-back-N's included).
            if s.lost {
                s.retx_this_episode = true;
                self.marked = true;
            }
        }
    }

    /// The peer closed its window: no outstanding segment gives an RTT sample any more.
    pub fn forbid_samples(&mut self) {
        for s in &mut self.segs {
            s.no_sample = true;
        }
    }

    /// Cumulative ACK up to `ack` (exclusive). Returns the first-send time of segment `ack - 1`
    /// if it was acknowledged now and no segment this ACK acknowledges is barred from giving a
    /// sample (retransmitted, or held by a zero window):
    /// Karn's rule (RFC 6298 §3) over the whole acknowledged range, since an ACK that also
    /// covers a repaired hole measures the time `ack - 1` waited for the repair in the
    /// receiver's reassembly buffer, not its round trip (issue #18 item 2).
    #[inline]
    pub fn advance(&mut self, ack: u64) -> Option<SimTime> {
        let mut last = None;
        let mut any_retx = false;
        while self.base < ack {
            match self.segs.pop_front() {
                Some(s) => {
                    any_retx |= s.no_sample;
                    if s.sacked {
                        self.sacked -= 1;
                    } else if let Some(log) = &mut self.log {
                        log.push(Delivered {
                            seq: self.base,
                            last_sent: s.last_sent,
                            transmissions: s.transmissions,
                        });
                    }
                    last = Some(s);
                }
                None => {
                    self.base = ack;
                    break;
                }
            }
            self.base += 1;
        }
        last.filter(|_| !any_retx).map(|s| s.first_sent)
    }

    /// Mark the segments of SACK blocks; returns true if any was not SACKed before
    /// (ns-2 `CheckUpdate`).
    pub fn apply_sack(&mut self, blocks: impl IntoIterator<Item = (u64, u64)>) -> bool {
        let mut changed = false;
        let end = self.base + self.segs.len() as u64;
        for (start, stop) in blocks {
            for seq in start.max(self.base)..stop.min(end) {
                let s = &mut self.segs[(seq - self.base) as usize];
                if !s.sacked {
                    s.sacked = true;
                    self.marked = true;
                    changed = true;
                    self.sacked += 1;
                    if let Some(log) = &mut self.log {
                        log.push(Delivered { seq, last_sent: s.last_sent, transmissions: s.transmissions });
                    }
                }
            }
        }
        changed
    }

    /// Give back the buffer if nothing is outstanding, so an idle or application-limited flow
    /// keeps none (issue #29: memory per idle flow). The world asks once the sender has sent
    /// what it could and has no timer, not at each ACK that empties the window: a starved
    /// flow's window of one segment empties at nearly every ACK and is refilled by the
    /// transmission that follows, which then made the buffer again (issue #29, shape b's
    /// seventh step).
    #[cold]
    #[inline(never)]
    pub fn release_if_empty(&mut self) {
        if self.segs.is_empty() && self.segs.capacity() > 0 {
            self.segs = VecDeque::new();
        }
    }

    /// A prefetch hint (issue #29, the world's `world_prefetch.rs`): the record of the oldest
    /// outstanding segment, which a timeout's retransmission marks. Changes nothing.
    #[inline(always)]
    pub fn prefetch_oldest(&self) {
        if let Some(s) = self.segs.front() {
            vhsim_core::prefetch::prefetch(s, usize::MAX);
        }
    }

    /// Forget SACK and retransmission marks (ns-2 `ClearScoreBoard`).
    pub fn clear(&mut self) {
        if !std::mem::take(&mut self.marked) {
            debug_assert!(self.segs.iter().all(|s| !s.sacked && !s.retx_this_episode && !s.lost) && self.sacked == 0);
            return;
        }
        for s in &mut self.segs {
            s.sacked = false;
            s.retx_this_episode = false;
            s.lost = false;
        }
        self.sacked = 0;
    }

    /// Forget every lost mark (an undone loss response: those segments were not lost).
    pub fn clear_lost(&mut self) {
        for s in &mut self.segs {
            s.lost = false;
        }
    }

    /// Mark `seq` lost: it needs a retransmission, even if it was retransmitted before (a lost
    /// retransmission, RFC 8985 §6.2 step 5).
    pub fn mark_lost(&mut self, seq: u64) {
        if let Some(s) = self.get_mut(seq) {
            s.lost = true;
            s.retx_this_episode = false;
            self.marked = true;
        }
    }

    /// Whether `seq` is marked lost.
    pub fn is_lost(&self, seq: u64) -> bool {
        self.get(seq).is_some_and(|s| s.lost)
    }

    /// Whether `seq` is marked lost, not SACKed and not retransmitted since the mark.
    pub fn needs_retransmission(&self, seq: u64) -> bool {
        self.get(seq).is_some_and(|s| s.lost && !s.sacked && !s.retx_this_episode)
    }

    /// The lowest segment that needs a retransmission.
    pub fn first_needing_retransmission(&self) -> Option<u64> {
        self.segs
            .iter()
            .position(|s| s.lost && !s.sacked && !s.retx_this_episode)
            .map(|i| self.base + i as u64)
    }

    /// The pipe by marks (RFC 6675 §4 SetPipe with the loss detection's marks for IsLost):
    /// every outstanding unSACKed segment counts 1 unless marked lost, and 1 more if
    /// retransmitted in this episode.
    pub fn pipe_by_marks(&self) -> u64 {
        self.segs
            .iter()
            .filter(|s| !s.sacked)
            .map(|s| u64::from(!s.lost) + u64::from(s.retx_this_episode))
            .sum()
    }

    /// SACKed segments in the outstanding window.
    pub fn sacked_count(&self) -> u64 {
        self.sacked
    }

    /// Keep a log of the segments each ACK newly delivers ([`Scoreboard::deliveries`]).
    pub fn enable_delivery_log(&mut self) {
        self.log.get_or_insert_with(Box::default);
    }

    /// A new ACK arrives: the delivery log starts empty.
    #[inline]
    pub fn start_ack(&mut self) {
        if let Some(log) = &mut self.log {
            log.clear();
        }
    }

    /// The segments delivered since the ACK arrived, in the order they were taken (cumulative
    /// ones first, in sequence order; empty unless the log is enabled).
    pub fn deliveries(&self) -> &[Delivered] {
        self.log.as_deref().map_or(&[], Vec::as_slice)
    }

    /// Outstanding segments that are neither SACKed nor marked lost awaiting a retransmission,
    /// as (seq, latest transmission, transmissions): RACK's candidates (RFC 8985 §6.2 step 5).
    pub fn unacknowledged(&self) -> impl Iterator<Item = (u64, SimTime, u32)> + '_ {
        self.segs
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.sacked && !(s.lost && !s.retx_this_episode))
            .map(move |(i, s)| (self.base + i as u64, s.last_sent, s.transmissions))
    }

    /// Mark `seq` as retransmitted in this recovery episode.
    pub fn mark_retransmitted(&mut self, seq: u64) {
        if let Some(s) = self.get_mut(seq) {
            s.retx_this_episode = true;
            s.no_sample = true;
            self.marked = true;
        }
    }

    /// Whether `seq` is SACKed.
    pub fn is_sacked(&self, seq: u64) -> bool {
        self.get(seq).is_some_and(|s| s.sacked)
    }

    /// Whether `seq` was retransmitted in this recovery episode.
    pub fn is_retransmitted(&self, seq: u64) -> bool {
        self.get(seq).is_some_and(|s| s.retx_this_episode)
    }

    /// When outstanding segment `seq` was last sent and how many times it has been sent.
    pub fn sent_info(&self, seq: u64) -> Option<(SimTime, u32)> {
        self.get(seq).map(|s| (s.last_sent, s.transmissions))
    }

    /// One past the highest SACKed segment.
    pub fn highest_sacked_end(&self) -> Option<u64> {
        self.segs.iter().rposition(|s| s.sacked).map(|i| self.base + i as u64 + 1)
    }

    /// ns-2 `GetNextRetran`: the lowest segment below the highest SACKed one that is neither
    /// SACKed nor retransmitted in this episode.
    pub fn next_hole(&self) -> Option<u64> {
        let hi = self.highest_sacked_end()?;
        (self.base..hi).find(|&q| {
            let s = &self.segs[(q - self.base) as usize];
            !s.sacked && !s.retx_this_episode
        })
    }

    /// Number of SACKed segments above `seq` (RFC 6675 IsLost uses it).
    pub fn sacked_above(&self, seq: u64) -> usize {
        let from = (seq + 1).saturating_sub(self.base) as usize;
        self.segs.iter().skip(from).filter(|s| s.sacked).count()
    }

    /// Iterate over `(seq, sacked, retransmitted this episode)` of the outstanding window.
    pub fn iter(&self) -> impl Iterator<Item = (u64, bool, bool)> + '_ {
        self.segs.iter().enumerate().map(move |(i, s)| (self.base + i as u64, s.sacked, s.retx_this_episode))
    }

    fn get(&self, seq: u64) -> Option<&Seg> {
        seq.checked_sub(self.base).and_then(|i| self.segs.get(i as usize))
    }

    fn get_mut(&mut self, seq: u64) -> Option<&mut Seg> {
        seq.checked_sub(self.base).and_then(move |i| self.segs.get_mut(i as usize))
    }
}
