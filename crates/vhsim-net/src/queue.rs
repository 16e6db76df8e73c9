//! Drop-tail queue in front of a link direction.
//!
//! The limit counts packets (or bytes) *waiting*, not the one being serialized, as in ns-2's
//! `Queue/DropTail` where the packet on the wire has left the queue. The packet being
//! serialized stays at the head of the queue's buffer ([`DropTailQueue::serve`]) until its
//! serialization ends ([`DropTailQueue::finish`]): a frame is not copied out of the queue and
//! into the link when it starts.

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
    /// The packet being served (if `serving`), then the waiting ones.
    packets: VecDeque<Packet>,
    /// Bytes of the waiting packets.
    bytes: u64,
    /// Whether the head is being served (on the wire).
    serving: bool,
}

impl DropTailQueue {
    /// An empty queue with this limit.
    pub fn new(limit: QueueLimit) -> Self {
        DropTailQueue { limit, packets: VecDeque::new(), bytes: 0, serving: false }
    }

    /// Append `pkt` to the waiting packets; gives it back if the queue is full.
    #[allow(clippy::result_large_err)] // the refused packet goes back to the caller, moved once
    pub fn push(&mut self, pkt: Packet) -> Result<(), Packet> {
        let fits = match self.limit {
            QueueLimit::Packets(n) => self.len() < n as usize,
            QueueLimit::Bytes(b) => self.bytes + pkt.size as u64 <= b,
        };
        if !fits {
            return Err(pkt);
        }
        self.bytes += pkt.size as u64;
        self.packets.push_back(pkt);
        Ok(())
    }

    /// Serve `pkt` at once, ahead of the waiting packets (an idle link's new packet, whose
    /// queue is empty; or a frame called back onto its link): whatever the limit, it is not
    /// waiting.
    pub fn serve_first(&mut self, pkt: Packet) {
        debug_assert!(!self.serving);
        self.packets.push_front(pkt);
        self.serving = true;
    }

    /// The head of the waiting packets starts being served; returns it, `None` if nothing
    /// waits.
    pub fn serve(&mut self) -> Option<&Packet> {
        debug_assert!(!self.serving, "one packet served at a time");
        let p = self.packets.front()?;
        self.bytes -= p.size as u64;
        self.serving = true;
        Some(p)
    }

    /// The packet being served, if any.
    pub fn served(&self) -> Option<&Packet> {
        if self.serving {
            self.packets.front()
        } else {
            None
        }
    }

    /// The packet being served leaves the queue.
    ///
    /// # Panics
    /// If none is being served.
    pub fn finish(&mut self) -> Packet {
        assert!(self.serving, "no packet is being served");
        self.serving = false;
        self.packets.pop_front().expect("the served packet is at the head")
    }

    /// Packets waiting.
    pub fn len(&self) -> usize {
        self.packets.len() - self.serving as usize
    }

    /// True if nothing waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addr::Addr;
    use crate::packet::{Payload, TraceTag};

    fn pkt(uid: u64) -> Packet {
        Packet { uid, flow: 0, src: Addr(0), dst: Addr(1), size: 100, tag: TraceTag::ack(uid), payload: Payload::Empty }
    }

    #[test]
    fn the_packet_being_served_does_not_count_against_the_limit() {
        let mut q = DropTailQueue::new(QueueLimit::Packets(1));
        q.serve_first(pkt(0)); // an idle link takes it, whatever the limit
        assert_eq!((q.len(), q.served().map(|p| p.uid)), (0, Some(0)));
        assert!(q.push(pkt(1)).is_ok());
        assert_eq!(q.push(pkt(2)).map_err(|p| p.uid), Err(2), "one waiting: full");
        assert_eq!(q.finish().uid, 0);
        assert_eq!((q.len(), q.served().is_none()), (1, true));
        assert_eq!(q.serve().map(|p| p.uid), Some(1));
        assert!(q.is_empty() && q.push(pkt(3)).is_ok());
    }

    #[test]
    fn a_byte_limit_counts_only_waiting_bytes() {
        let mut q = DropTailQueue::new(QueueLimit::Bytes(200));
        assert!(q.push(pkt(0)).is_ok() && q.push(pkt(1)).is_ok());
        assert!(q.push(pkt(2)).is_err());
        q.serve();
        assert!(q.push(pkt(2)).is_ok(), "the served packet's bytes left the limit");
    }
}
