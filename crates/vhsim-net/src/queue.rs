//! Drop-tail queue in front of a link direction.
//!
//! The limit counts packets (or bytes) *waiting*, not the one being serialized, as in ns-2's
//! `Queue/DropTail` where the packet on the wire has left the queue.

use crate::packet::Packet;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Capacity of a drop-tail queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueLimit {
    /// At most this many packets waiting.
    Packets(u32),
    /// At most this many bytes waiting.
    Bytes(u64),
}

/// A FIFO that refuses packets beyond its limit.
#[derive(Clone, Debug)]
pub struct DropTailQueue {
    limit: QueueLimit,
    packets: VecDeque<Packet>,
    bytes: u64,
}

impl DropTailQueue {
    /// An empty queue with this limit.
    pub fn new(limit: QueueLimit) -> Self {
        DropTailQueue { limit, packets: VecDeque::new(), bytes: 0 }
    }

    /// Append `pkt`; gives it back if the queue is full.
    pub fn push(&mut self, pkt: Packet) -> Result<(), Packet> {
        let fits = match self.limit {
            QueueLimit::Packets(n) => self.packets.len() < n as usize,
            QueueLimit::Bytes(b) => self.bytes + pkt.size as u64 <= b,
        };
        if !fits {
            return Err(pkt);
        }
        self.bytes += pkt.size as u64;
        self.packets.push_back(pkt);
        Ok(())
    }

    /// Remove the head.
    pub fn pop(&mut self) -> Option<Packet> {
        let p = self.packets.pop_front()?;
        self.bytes -= p.size as u64;
        Some(p)
    }

    /// Packets waiting.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// True if nothing waits.
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
}
