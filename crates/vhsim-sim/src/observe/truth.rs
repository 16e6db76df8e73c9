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
    seq: u64,
    tx_index: u32,
    from_rto: bool,
    trace_row: Option<u32>,
    sent_at: SimTime,
}

#[derive(Clone, Debug, Default)]
struct SegTruth {
    /// Copies sent; more than one: the segment's retransmissions wait in the flow's `retx`.
    sent: u32,
    in_flight: u32,
    dropped_mask: u64,
    /// Copies of which an instance reached the receiver.
    delivered_mask: u64,
    /// Cause code (`DropCause as u8`) of the latest dropped copy; 0 = none dropped.
    last_drop_cause: u8,
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
/// any run; kept with the flow's retransmissions, made at its first).
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
    /// Made at the flow's first retransmission (boxed: a flow that never retransmits, such
    /// as an idle one, carries one pointer).
    retx: Option<Box<Retransmissions>>,
}

/// A flow's retransmissions: those awaiting their labels and the counts of those resolved.
#[derive(Clone, Debug, Default)]
struct Retransmissions {
    /// Of all segments, in the order they were sent (so a segment's in its copies' order).
    /// One list per flow, not one per segment retransmitted: a starved flow's timeouts made
    /// and freed two heap blocks per segment (issue #29, shape b's seventh step).
    pending: Vec<PendingRetx>,
    counts: TruthCounts,
}

impl FlowTruth {
    /// Resolved counts.
    pub fn counts(&self) -> TruthCounts {
        self.retx.as_ref().map_or_else(TruthCounts::default, |r| r.counts)
    }

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

    /// A prefetch hint (issue #29): the flow's retransmissions (the list's header), which a
    /// timeout's retransmission extends. Changes nothing.
    #[inline(always)]
    pub fn prefetch_retx(&self) {
        if let Some(r) = self.retx.as_deref() {
            vhsim_core::prefetch::prefetch(r, usize::MAX);
        }
    }

    /// A prefetch hint (issue #29): the end of the list of retransmissions, where a timeout's
    /// retransmission writes; to call only once [`FlowTruth::prefetch_retx`] fetched the
    /// list's header (it is read). Changes nothing.
    #[inline(always)]
    pub fn prefetch_retx_end(&self) {
        if let Some(last) = self.retx.as_deref().and_then(|r| r.pending.last()) {
            vhsim_core::prefetch::prefetch(last, usize::MAX);
        }
    }

    /// A copy of `seq` is sent; returns its transmission index (0 = original).
    pub fn on_send(&mut self, seq: u64, from_rto: bool, trace_row: Option<u32>, sent_at: SimTime) -> u32 {
        let Some(s) = self.slot(seq) else { return u32::MAX };
        let k = s.sent;
        s.sent += 1;
        s.in_flight += 1;
        if k > 0 {
            let retx = self.retx.get_or_insert_with(Box::default);
            retx.pending.push(PendingRetx { seq, tx_index: k, from_rto, trace_row, sent_at });
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
            if s.sent > 1 {
                let dropped_mask = s.dropped_mask;
                self.resolve_retx_of(self.base, dropped_mask, labels);
            }
            self.segs.pop_front();
            self.base += 1;
        }
    }

    /// Give back the buffers of a flow whose sender went idle (nothing outstanding, no timer:
    /// the world asks after its transmissions), so an idle flow keeps none (issue #29: memory
    /// per idle flow). Not at each `settle` that empties them: a starved flow's window of one
    /// segment empties at nearly every ACK and is refilled by the transmission that follows,
    /// which then made the buffer again (issue #29, shape b's seventh step).
    #[cold]
    #[inline(never)]
    pub fn release_if_idle(&mut self) {
        if self.segs.is_empty() && self.segs.capacity() > 0 {
            self.segs = VecDeque::new();
        }
        if let Some(r) = self.retx.as_mut().filter(|r| r.pending.is_empty()) {
            if r.counts == TruthCounts::default() {
                self.retx = None;
            } else if r.pending.capacity() > 0 {
                r.pending = Vec::new();
            }
        }
    }

    /// Whether a retransmission sent before `t` still awaits its label.
    pub fn retx_pending_before(&self, t: SimTime) -> bool {
        self.retx.as_ref().is_some_and(|r| r.pending.iter().any(|p| p.sent_at < t))
    }

    /// End of run: resolve everything (copies still in flight count as not lost).
    pub fn finish(&mut self, labels: &mut Vec<Label>) {
        while let Some(s) = self.segs.pop_front() {
            if s.sent > 1 {
                self.resolve_retx_of(self.base, s.dropped_mask, labels);
            }
            self.base += 1;
        }
    }

    /// Label the retransmissions of segment `seq`, whose dropped copies are `dropped_mask`, in
    /// the order they were sent, and forget them (out of line: few segments are retransmitted).
    #[inline(never)]
    fn resolve_retx_of(&mut self, seq: u64, dropped_mask: u64, labels: &mut Vec<Label>) {
        let Some(retx) = self.retx.as_deref_mut() else { return };
        let (pending, counts) = (&mut retx.pending, &mut retx.counts);
        let mut kept = 0;
        for i in 0..pending.len() {
            let r = pending[i];
            if r.seq != seq {
                pending[kept] = r;
                kept += 1;
                continue;
            }
            let earlier = if r.tx_index >= 64 { u64::MAX } else { (1u64 << r.tx_index) - 1 };
            let spurious = dropped_mask & earlier != earlier;
            if spurious {
                counts.spurious_retransmissions += 1;
                if r.from_rto {
                    counts.spurious_rtos += 1;
                }
            }
            labels.push(Label { trace_row: r.trace_row, spurious, sent_at: r.sent_at, from_rto: r.from_rto });
        }
        pending.truncate(kept);
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
        assert_eq!(t.counts(), TruthCounts::default());
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
        assert_eq!(t.counts(), TruthCounts { spurious_retransmissions: 1, spurious_rtos: 1 });
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
        assert_eq!(t.counts(), TruthCounts { spurious_retransmissions: 1, spurious_rtos: 1 });
        // And the other order: delivered first, the second instance dropped later.
        let mut t = FlowTruth::default();
        t.on_send(0, false, None, SimTime::ZERO);
        t.on_duplicate(0);
        t.on_delivered(0, 0);
        t.on_drop(0, 0, 3);
        t.on_send(0, true, None, SimTime(9));
        t.on_delivered(0, 1);
        t.settle(1, &mut labels);
        assert_eq!(t.counts(), TruthCounts { spurious_retransmissions: 1, spurious_rtos: 1 });
    }

    #[test]
    fn labels_come_segment_by_segment_in_each_segments_copy_order_and_survive_release() {
        // Go-back-N after two timeouts: the flow's list holds 0, 1, 0 (sent in that order).
        let mut t = FlowTruth::default();
        let mut labels = vec![];
        t.on_send(0, false, None, SimTime(0));
        t.on_send(1, false, None, SimTime(0));
        t.on_drop(0, 0, 2);
        t.on_delivered(1, 0);
        assert_eq!(t.on_send(0, true, Some(1), SimTime(1)), 1);
        assert_eq!(t.on_send(1, true, Some(2), SimTime(2)), 1);
        t.on_drop(0, 1, 2);
        assert_eq!(t.on_send(0, true, Some(3), SimTime(3)), 2);
        assert!(t.retx_pending_before(SimTime(2)));
        t.on_delivered(0, 2);
        t.on_delivered(1, 1);
        t.settle(2, &mut labels);
        let rows: Vec<_> = labels.iter().map(|l| (l.trace_row, l.spurious)).collect();
        assert_eq!(rows, [(Some(1), false), (Some(3), false), (Some(2), true)]);
        assert!(!t.retx_pending_before(SimTime(9)));
        // An idle flow gives its buffers back and keeps its counts.
        t.release_if_idle();
        assert_eq!((t.segs.capacity(), t.counts()), (0, TruthCounts { spurious_retransmissions: 1, spurious_rtos: 1 }));
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
