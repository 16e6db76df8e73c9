//! Scripted drops of given data segments of one flow, for tests.

use crate::packet::{Packet, UnitKind};
use std::collections::BTreeSet;
use vhsim_core::SimTime;

/// Drops the first `copies` transmissions of each listed segment of one flow.
#[derive(Clone, Debug)]
pub struct DropList {
    flow: u32,
    seqs: BTreeSet<u64>,
    copies: u32,
}

impl DropList {
    /// Drop transmissions `0..copies` of each of `seqs` in flow `flow`.
    pub fn new(flow: u32, seqs: &[u64], copies: u32) -> Self {
        DropList { flow, seqs: seqs.iter().copied().collect(), copies }
    }

    /// True for a listed data unit whose transmission index is below `copies` (read from the
    /// packet's trace tag, so it works for every transport).
    pub fn drops(&mut self, _now: SimTime, pkt: &Packet) -> bool {
        let t = &pkt.tag;
        t.kind == UnitKind::Data && pkt.flow == self.flow && t.copy < self.copies && self.seqs.contains(&t.seq)
    }
}
