//! The event queue and its total order.
//!
//! Events are ordered by the key `(time, class, seq)`:
//! 1. earlier `time` first;
//! 2. at the same time, by [`EventClass`]: timeline actions, then packet events
//!    (link transmissions finishing, packets arriving), then endpoint timers. So a route change
//!    scheduled for `t` applies to a packet arriving at `t`, and an ACK arriving at the very
//!    nanosecond a retransmission timer expires is processed before the timer (as a real host
//!    would have processed the ACK that was already in its input queue);
//! 3. within a class, in insertion order (`seq` is a counter the queue assigns), i.e. FIFO.
//!
//! Nothing depends on hash-map iteration order, so the order is total and machine-independent.

use crate::time::SimTime;
use std::cmp::Ordering;
use dary_heap::QuaternaryHeap;

/// Same-time priority classes (lower runs first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum EventClass {
    /// Scenario timeline actions (link up/down, rate changes, handovers).
    Timeline = 0,
    /// Packet events: a link finished serializing, a packet arrived at a node.
    Packet = 1,
    /// Endpoint timers (retransmission, delayed ACK, ...).
    Timer = 2,
}

/// A queued event with its key `(time, class, seq)` packed into one integer whose order is the
/// key's: time in the high 64 bits, the class in the next 2, `seq` in the low 62 (2^62 events
/// are never reached). One integer comparison per heap step instead of three: the queue is the
/// hottest structure of a run (docs/performance.md).
#[derive(Clone)]
struct Entry<E> {
    key: u128,
    event: E,
}

/// The full ordering key of a scheduled event: `(time, class, seq)`.
pub type EventKey = (SimTime, EventClass, u64);

const SEQ_BITS: u32 = 62;
const SEQ_MASK: u64 = (1 << SEQ_BITS) - 1;

fn pack((time, class, seq): EventKey) -> u128 {
    debug_assert!(seq <= SEQ_MASK, "event sequence number overflow");
    ((time.0 as u128) << 64) | ((class as u128) << SEQ_BITS) | seq as u128
}

fn unpack(key: u128) -> EventKey {
    let low = key as u64;
    let class = match low >> SEQ_BITS {
        0 => EventClass::Timeline,
        1 => EventClass::Packet,
        _ => EventClass::Timer,
    };
    (SimTime((key >> 64) as u64), class, low & SEQ_MASK)
}

impl<E> Entry<E> {
    fn key(&self) -> EventKey {
        unpack(self.key)
    }
}
impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    // BinaryHeap is a max-heap: reverse so the smallest key pops first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key)
    }
}

/// A priority queue of events in the total order described in the module docs.
#[derive(Clone)]
pub struct EventQueue<E> {
    heap: QuaternaryHeap<Entry<E>>,
    next_seq: u64,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: QuaternaryHeap::new(), next_seq: 0, popped: 0 }
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedule `event` at `time` in `class`.
    pub fn push(&mut self, time: SimTime, class: EventClass, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { key: pack((time, class, seq)), event });
    }

    /// The earliest event, removed from the queue.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = self.heap.pop()?;
        self.popped += 1;
        Some((SimTime((e.key >> 64) as u64), e.event))
    }

    /// The key of the earliest event.
    pub fn peek_key(&self) -> Option<EventKey> {
        self.heap.peek().map(Entry::key)
    }

    /// Remove every event `pick` selects, with its key (for moving an event to another time
    /// while it keeps its place among events of equal time and class: see
    /// [`EventQueue::push_keyed`]).
    pub fn take_where(&mut self, mut pick: impl FnMut(&E) -> bool) -> Vec<(EventKey, E)>
    where
        E: Clone,
    {
        let mut taken = Vec::new();
        self.heap.retain(|e| {
            if pick(&e.event) {
                taken.push((e.key(), e.event.clone()));
                false
            } else {
                true
            }
        });
        taken
    }

    /// Schedule `event` with an explicit key (its `seq` one the queue assigned before, so the
    /// total order stays what it would have been had the event been pushed with that time).
    pub fn push_keyed(&mut self, key: EventKey, event: E) {
        self.heap.push(Entry { key: pack(key), event });
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| SimTime((e.key >> 64) as u64))
    }

    /// Number of events popped so far (the run's event count).
    pub fn popped(&self) -> u64 {
        self.popped
    }

    /// Number of events waiting.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True if no event is waiting.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_class_then_insertion() {
        let mut q = EventQueue::new();
        q.push(SimTime(10), EventClass::Timer, "timer@10");
        q.push(SimTime(10), EventClass::Packet, "pkt-a@10");
        q.push(SimTime(5), EventClass::Timer, "timer@5");
        q.push(SimTime(10), EventClass::Packet, "pkt-b@10");
        q.push(SimTime(10), EventClass::Timeline, "handover@10");
        let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["timer@5", "handover@10", "pkt-a@10", "pkt-b@10", "timer@10"]);
        assert_eq!(q.popped(), 5);
    }

    #[test]
    fn a_packed_key_unpacks_to_itself_and_orders_as_the_tuple() {
        let keys = [
            (SimTime(0), EventClass::Timeline, 0),
            (SimTime(0), EventClass::Timer, SEQ_MASK),
            (SimTime(1), EventClass::Timeline, 7),
            (SimTime(1), EventClass::Packet, 3),
            (SimTime(u64::MAX), EventClass::Timer, 5),
        ];
        for a in keys {
            assert_eq!(unpack(pack(a)), a);
            for b in keys {
                assert_eq!(pack(a).cmp(&pack(b)), a.cmp(&b), "{a:?} vs {b:?}");
            }
        }
    }
}
