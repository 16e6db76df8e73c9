//! Per-segment state of the outstanding window `[snd_una, snd_max)`: when each segment was
//! sent, whether the receiver SACKed it, whether it was retransmitted.
//!
//! Like ns-2's `ScoreBoardRQ`, SACK information is cleared on every new cumulative ACK outside
//! recovery and rebuilt from the blocks of later ACKs (protocol-facts §1.3).

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
}

/// Outstanding segments, indexed from `base` (= snd_una).
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    base: u64,
    segs: VecDeque<Seg>,
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
            });
        } else if seq >= self.base && retransmission {
            let s = &mut self.segs[(seq - self.base) as usize];
            s.no_sample = true;
            s.last_sent = now;
            s.transmissions = s.transmissions.saturating_add(1);
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
    pub fn advance(&mut self, ack: u64) -> Option<SimTime> {
        let mut last = None;
        let mut any_retx = false;
        while self.base < ack {
            match self.segs.pop_front() {
                Some(s) => {
                    any_retx |= s.no_sample;
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
                    changed = true;
                }
            }
        }
        changed
    }

    /// Forget SACK and retransmission marks (ns-2 `ClearScoreBoard`).
    pub fn clear(&mut self) {
        for s in &mut self.segs {
            s.sacked = false;
            s.retx_this_episode = false;
        }
    }

    /// Mark `seq` as retransmitted in this recovery episode.
    pub fn mark_retransmitted(&mut self, seq: u64) {
        if let Some(s) = self.get_mut(seq) {
            s.retx_this_episode = true;
            s.no_sample = true;
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
