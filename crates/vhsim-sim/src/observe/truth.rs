//! Ground truth: the simulator knows the fate of every copy of every data segment, so each
//! retransmission can be labelled necessary or spurious and each RTO genuine or spurious.
//!
//! Definitions (issue #2 §5): a retransmission (the k-th copy of segment s, k ≥ 1) is
//! *spurious* if any earlier copy of s was not lost, i.e. was delivered to the receiver or was
//! still in the network at the end of the run; otherwise it is *necessary*. An RTO is spurious
//! if the retransmission it triggers is spurious: the segment it retransmits (and everything
//! before it, which was cumulatively acknowledged) had not been lost.
//!
//! A node agent may send a kept copy again (the Delivery Service's acknowledged service): that
//! is another instance of the same transmission, so copy k counts as lost only if no instance
//! of it was delivered (a drop of one instance and a delivery of another is not a loss).
//!
//! A segment's record is resolved once the sender's cumulative ACK has passed it and no copy is
//! in flight; the rest are resolved at the end of the run. Memory stays O(window).

use std::collections::VecDeque;
use vhsim_core::SimTime;

/// A retransmission awaiting its label.
#[derive(Clone, Copy, Debug)]
struct PendingRetx {
    tx_index: u32,
    from_rto: bool,
    trace_row: Option<u32>,
    sent_at: SimTime,
}

#[derive(Clone, Debug, Default)]
struct SegTruth {
    sent: u32,
    in_flight: u32,
    dropped_mask: u64,
    /// Copies of which an instance reached the receiver.
    delivered_mask: u64,
    /// Cause code (`DropCause as u8`) of the latest dropped copy; 0 = none dropped.
    last_drop_cause: u8,
    /// The retransmissions of this segment awaiting their labels; boxed and made at the first
    /// one, so the record of a segment sent once (nearly all) is small and drops nothing.
    retx: Option<Box<Vec<PendingRetx>>>,
}

impl SegTruth {
    fn retx(&self) -> &[PendingRetx] {
        self.retx.as_deref().map_or(&[], |r| r)
    }
}

/// Label of a resolved retransmission, reported to the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    /// Row of the retransmission in the packet trace, if traced.
    pub trace_row: Option<u32>,
    /// True if spurious.
    pub spurious: bool,
    /// When the retransmission was sent.
    pub sent_at: SimTime,
    /// Whether a timeout triggered it.
    pub from_rto: bool,
}

/// Counters of resolved labels (32-bit: at most one per retransmission, far fewer than 2^32 in
/// any run, and every flow's record carries them: issue #29, memory per flow).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TruthCounts {
    /// Spurious retransmissions.
    pub spurious_retransmissions: u32,
    /// Spurious RTOs.
    pub spurious_rtos: u32,
}

/// Ground truth of one flow's data segments.
#[derive(Clone, Debug, Default)]
pub struct FlowTruth {
    base: u64,
    segs: VecDeque<SegTruth>,
    /// Resolved counts.
    pub counts: TruthCounts,
}

impl FlowTruth {
    fn slot(&mut self, seq: u64) -> Option<&mut SegTruth> {
        let idx = seq.checked_sub(self.base)? as usize;
        while self.segs.len() <= idx {
            self.segs.push_back(SegTruth::default());
        }
        self.segs.get_mut(idx)
    }

    /// A prefetch hint (issue #29, the world's `world_prefetch.rs`): the record of data unit
    /// `seq`, or with `None` the oldest record (the next a cumulative ACK settles). Changes
    /// nothing.
    #[inline(always)]
    pub fn prefetch(&self, seq: Option<u64>) {
        let i = seq.map_or(Some(0), |s| s.checked_sub(self.base));
        if let Some(s) = i.and_then(|i| self.segs.get(i as usize)) {
            vhsim_core::prefetch::prefetch(s, usize::MAX);
        }
    }

    /// A prefetch hint (issue #29): the list of retransmissions of the oldest record (which a
    /// timeout's retransmission extends); to call only once that record was fetched (it is
    /// read). Changes nothing.
    #[inline(always)]
    pub fn prefetch_oldest_retx(&self) {
        if let Some(r) = self.segs.front().and_then(|s| s.retx.as_deref()) {
            vhsim_core::prefetch::prefetch(r, usize::MAX);
        }
    }

    /// A copy of `seq` is sent; returns its transmission index (0 = original).
    pub fn on_send(&mut self, seq: u64, from_rto: bool, trace_row: Option<u32>, sent_at: SimTime) -> u32 {
        let Some(s) = self.slot(seq) else { return u32::MAX };
        let k = s.sent;
        s.sent += 1;
        s.in_flight += 1;
        if k > 0 {
            s.retx.get_or_insert_with(Box::default).push(PendingRetx { tx_index: k, from_rto, trace_row, sent_at });
        }
        k
    }

    /// Copy `tx_index` of `seq` was dropped.
    pub fn on_drop(&mut self, seq: u64, tx_index: u32, cause: u8) {
        if let Some(s) = self.slot(seq) {
            s.in_flight = s.in_flight.saturating_sub(1);
            let bit = 1u64 << tx_index.min(63);
            if s.delivered_mask & bit == 0 {
                s.dropped_mask |= bit;
                s.last_drop_cause = cause;
            }
        }
    }

    /// A node agent sent another instance of a copy of `seq` (the same transmission).
    pub fn on_duplicate(&mut self, seq: u64) {
        if let Some(s) = self.slot(seq) {
            s.in_flight += 1;
        }
    }

    /// Cause code of the latest dropped copy of `seq` so far (0 = no copy was dropped: the
    /// segment was reordered or delayed, not lost). Segments already settled report 0.
    pub fn drop_cause(&self, seq: u64) -> u8 {
        seq.checked_sub(self.base)
            .and_then(|i| self.segs.get(i as usize))
            .map_or(0, |s| s.last_drop_cause)
    }

    /// Copy `tx_index` of `seq` reached the receiver: that copy was not lost, even if another
    /// instance of it was dropped.
    pub fn on_delivered(&mut self, seq: u64, tx_index: u32) {
        if let Some(s) = self.slot(seq) {
            s.in_flight = s.in_flight.saturating_sub(1);
            let bit = 1u64 << tx_index.min(63);
            s.delivered_mask |= bit;
            s.dropped_mask &= !bit;
        }
    }

    /// The sender's cumulative ACK is `snd_una`: resolve what can no longer change.
    pub fn settle(&mut self, snd_una: u64, labels: &mut Vec<Label>) {
        while self.base < snd_una {
            let Some(s) = self.segs.front_mut() else {
                // No record up to the ACK: nothing to resolve there.
                self.base = snd_una;
                break;
            };
            if s.in_flight > 0 {
                break;
            }
            // Only a segment sent more than once has labels to resolve; the record of one
            // sent once (nearly all) is dropped where it is, not moved out first.
            if let Some(retx) = s.retx.take() {
                let dropped_mask = s.dropped_mask;
                self.resolve(dropped_mask, &retx, labels);
            }
            self.segs.pop_front();
            self.base += 1;
        }
        // A flow with nothing in flight keeps no buffer (issue #29: memory per idle flow); a
        // bulk transfer's window never empties it, so it does not allocate again.
        if self.segs.is_empty() && self.segs.capacity() > 0 {
            self.segs = VecDeque::new();
        }
    }

    /// Whether a retransmission sent before `t` still awaits its label.
    pub fn retx_pending_before(&self, t: SimTime) -> bool {
        self.segs.iter().any(|s| s.retx().iter().any(|r| r.sent_at < t))
    }

    /// End of run: resolve everything (copies still in flight count as not lost).
    pub fn finish(&mut self, labels: &mut Vec<Label>) {
        while let Some(s) = self.segs.pop_front() {
            self.resolve(s.dropped_mask, s.retx(), labels);
            self.base += 1;
        }
    }

    /// Label the retransmissions `retx` of a segment whose dropped copies are `dropped_mask`.
    fn resolve(&mut self, dropped_mask: u64, retx: &[PendingRetx], labels: &mut Vec<Label>) {
        for r in retx {
            let earlier = if r.tx_index >= 64 { u64::MAX } else { (1u64 << r.tx_index) - 1 };
            let spurious = dropped_mask & earlier != earlier;
            if spurious {
                self.counts.spurious_retransmissions += 1;
                if r.from_rto {
                    self.counts.spurious_rtos += 1;
                }
            }
            labels.push(Label { trace_row: r.trace_row, spurious, sent_at: r.sent_at, from_rto: r.from_rto });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retransmission_of_a_lost_segment_is_necessary() {
        let mut t = FlowTruth::default();
        let mut labels = vec![];
        assert_eq!(t.on_send(0, false, None, SimTime::ZERO), 0);
        t.on_drop(0, 0, 2);
        assert_eq!(t.on_send(0, true, Some(7), SimTime(5)), 1);
        t.on_delivered(0, 1);
        t.settle(1, &mut labels);
        assert_eq!(
            labels,
            vec![Label { trace_row: Some(7), spurious: false, sent_at: SimTime(5), from_rto: true }]
        );
        assert_eq!(t.counts, TruthCounts::default());
    }

    #[test]
    fn retransmission_of_a_delayed_segment_is_spurious_and_so_is_its_rto() {
        let mut t = FlowTruth::default();
        let mut labels = vec![];
        t.on_send(0, false, None, SimTime::ZERO);
        t.on_send(0, true, None, SimTime::ZERO);
        t.on_delivered(0, 0);
        t.settle(1, &mut labels); // second copy still in flight: not settled yet
        assert!(labels.is_empty());
        t.on_delivered(0, 1);
        t.settle(1, &mut labels);
        assert_eq!(labels.len(), 1);
        assert_eq!(t.counts, TruthCounts { spurious_retransmissions: 1, spurious_rtos: 1 });
    }

    #[test]
    fn a_copy_dropped_once_but_delivered_by_an_agents_second_instance_was_not_lost() {
        // The Delivery Service: copy 0 is dropped on the failed path, the DS sends its kept
        // instance by the other path, it arrives; the sender's timeout retransmission is spurious.
        let mut t = FlowTruth::default();
        let mut labels = vec![];
        t.on_send(0, false, None, SimTime::ZERO);
        t.on_duplicate(0);
        t.on_drop(0, 0, 3);
        t.on_send(0, true, None, SimTime(9));
        t.on_delivered(0, 0);
        t.on_delivered(0, 1);
        t.settle(1, &mut labels);
        assert_eq!(t.counts, TruthCounts { spurious_retransmissions: 1, spurious_rtos: 1 });
        // And the other order: delivered first, the second instance dropped later.
        let mut t = FlowTruth::default();
        t.on_send(0, false, None, SimTime::ZERO);
        t.on_duplicate(0);
        t.on_delivered(0, 0);
        t.on_drop(0, 0, 3);
        t.on_send(0, true, None, SimTime(9));
        t.on_delivered(0, 1);
        t.settle(1, &mut labels);
        assert_eq!(t.counts, TruthCounts { spurious_retransmissions: 1, spurious_rtos: 1 });
    }

    #[test]
    fn unresolved_copies_are_resolved_at_the_end() {
        let mut t = FlowTruth::default();
        let mut labels = vec![];
        t.on_send(3, false, None, SimTime::ZERO);
        t.on_drop(3, 0, 2);
        t.on_send(3, false, None, SimTime::ZERO);
        t.on_drop(3, 1, 2);
        t.on_send(3, false, None, SimTime::ZERO);
        t.finish(&mut labels);
        assert_eq!(labels.iter().filter(|l| l.spurious).count(), 0);
        assert_eq!(labels.len(), 2);
    }
}
