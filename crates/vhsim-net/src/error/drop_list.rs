//! Scripted drops of given data segments of one flow, for tests.

use crate::packet::{Packet, PacketKind};
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

    /// True for a listed data segment whose transmission index is below `copies`.
    pub fn drops(&mut self, _now: SimTime, pkt: &Packet) -> bool {
        match pkt.kind {
            PacketKind::Data { seq, tx_index } => {
                pkt.flow == self.flow && tx_index < self.copies && self.seqs.contains(&seq)
            }
            PacketKind::Ack { .. } => false,
        }
    }
}
