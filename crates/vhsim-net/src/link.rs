//! One simplex link direction: drop-tail queue -> serialization at `rate` -> error model ->
//! propagation `delay` -> the next node.
//!
//! The link is passive: the world calls [`Link::offer`] when a packet arrives at the link and
//! [`Link::finish_transmission`] when the serialization it was told about ends; the link answers
//! with what happened, and the world schedules the events. The link never sees the event queue.

use crate::error::ErrorModel;
use crate::packet::{DropCause, Packet};
use crate::queue::{DropTailQueue, QueueLimit};
use vhsim_core::{Rate, SimDuration, SimTime};

/// Rate and delay of a link direction (may change during a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkParams {
    /// Transmission rate.
    pub rate: Rate,
    /// One-way propagation delay.
    pub delay: SimDuration,
}

/// What happened to a packet offered to the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The link was idle: serialization starts now and ends at the given time.
    Transmitting(SimTime),
    /// The packet waits in the queue.
    Queued,
    /// The packet was dropped.
    Dropped(DropCause),
}

/// Outcome of a finished serialization.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The packet that finished: `Ok(arrival time at the next node)` or `Err(cause)` if lost.
    pub outcome: Result<SimTime, DropCause>,
    /// The packet itself.
    pub packet: Packet,
    /// If another packet started serializing, when it ends.
    pub next_done: Option<SimTime>,
}

/// A simplex link direction with its queue and error model.
#[derive(Clone, Debug)]
pub struct Link {
    params: LinkParams,
    up: bool,
    queue: DropTailQueue,
    error: ErrorModel,
    on_wire: Option<Packet>,
    /// Packets that finished serialization (lost or not).
    pub packets_sent: u64,
}

impl Link {
    /// A link direction, up, idle, with an empty queue.
    pub fn new(params: LinkParams, limit: QueueLimit, error: ErrorModel) -> Self {
        Link { params, up: true, queue: DropTailQueue::new(limit), error, on_wire: None, packets_sent: 0 }
    }

    /// Current rate and delay.
    pub fn params(&self) -> LinkParams {
        self.params
    }

    /// Change rate and/or delay; applies to serializations that start afterwards.
    pub fn set_params(&mut self, params: LinkParams) {
        self.params = params;
    }

    /// Whether the link is up.
    pub fn is_up(&self) -> bool {
        self.up
    }

    /// Bring the link up or down. While down, every packet offered to it or finishing
    /// serialization on it is dropped with [`DropCause::LinkDown`].
    pub fn set_up(&mut self, up: bool) {
        self.up = up;
    }

    /// Packets waiting in the queue.
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// A packet arrives at the link at `now`.
    pub fn offer(&mut self, now: SimTime, pkt: Packet) -> Offer {
        if !self.up {
            return Offer::Dropped(DropCause::LinkDown);
        }
        if self.on_wire.is_none() {
            self.on_wire = Some(pkt);
            return Offer::Transmitting(now + self.params.rate.serialization(pkt.size as u64));
        }
        match self.queue.push(pkt) {
            Ok(()) => Offer::Queued,
            Err(_) => Offer::Dropped(DropCause::QueueOverflow),
        }
    }

    /// The serialization in progress ends at `now`: decide the packet's fate and start the next.
    ///
    /// # Panics
    /// If nothing was being serialized (a world bookkeeping bug).
    pub fn finish_transmission(&mut self, now: SimTime) -> Finished {
        let packet = self.on_wire.take().expect("finish_transmission on an idle link");
        self.packets_sent += 1;
        let outcome = if !self.up {
            Err(DropCause::LinkDown)
        } else if self.error.drops(now, &packet) {
            Err(DropCause::ErrorModel)
        } else {
            Ok(now + self.params.delay)
        };
        let next_done = self.queue.pop().map(|next| {
            let done = now + self.params.rate.serialization(next.size as u64);
            self.on_wire = Some(next);
            done
        });
        Finished { outcome, packet, next_done }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorModel;
    use crate::packet::PacketKind;

    fn pkt(uid: u64, size: u32) -> Packet {
        Packet { uid, flow: 0, src: 0, dst: 1, size, kind: PacketKind::Data { seq: uid, tx_index: 0 } }
    }

    #[test]
    fn serializes_back_to_back_and_overflows_the_queue() {
        let params = LinkParams { rate: Rate::kbps(6400), delay: SimDuration::from_millis(9) };
        let mut l = Link::new(params, QueueLimit::Packets(1), ErrorModel::None);
        let t0 = SimTime::ZERO;
        assert_eq!(l.offer(t0, pkt(0, 1500)), Offer::Transmitting(SimTime(1_875_000)));
        assert_eq!(l.offer(t0, pkt(1, 1500)), Offer::Queued);
        assert_eq!(l.offer(t0, pkt(2, 1500)), Offer::Dropped(DropCause::QueueOverflow));
        let f = l.finish_transmission(SimTime(1_875_000));
        assert_eq!(f.outcome, Ok(SimTime(1_875_000 + 9_000_000)));
        assert_eq!(f.next_done, Some(SimTime(3_750_000)));
        let f = l.finish_transmission(SimTime(3_750_000));
        assert_eq!(f.packet.uid, 1);
        assert_eq!(f.next_done, None);
    }

    #[test]
    fn a_down_link_drops_with_cause_link_down() {
        let params = LinkParams { rate: Rate::mbps(1), delay: SimDuration::ZERO };
        let mut l = Link::new(params, QueueLimit::Packets(10), ErrorModel::None);
        l.set_up(false);
        assert_eq!(l.offer(SimTime::ZERO, pkt(0, 100)), Offer::Dropped(DropCause::LinkDown));
    }
}
