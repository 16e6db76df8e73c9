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
use std::collections::VecDeque;

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
    slot: Slot<E>,
}

/// What a stored entry stands for: an event, or the earliest event of a lane.
#[derive(Clone)]
enum Slot<E> {
    Event(E),
    Lane(u32),
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
    // Reversed, so that the smallest key is the greatest entry: the top of the (max-)heap, and
    // the end of the `Few` vector, which `into_sorted_vec` leaves in ascending entry order.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key)
    }
}

/// Where the queue keeps its entries. Few (a bulk run has ~10: a lane head per link, a
/// pending `TxDone` per busy link, a timer per endpoint): a `Vec` sorted by key from the latest
/// to the earliest, so the next event pops off its end and a new one, usually due soon, is
/// inserted near the end. Many (scenarios with many flows and links): a 4-ary heap. Keys are
/// unique, so both give the same order of events; the sorted `Vec` needs no sifting, the
/// heap's largest cost (docs/performance.md).
#[derive(Clone)]
enum Store<E> {
    Few(Vec<Entry<E>>),
    Many(QuaternaryHeap<Entry<E>>),
}

/// More entries than this: the store becomes a heap ...
const FEW_MAX: usize = 48;
/// ... and a sorted `Vec` again below this (apart, so that a size near one threshold does not
/// convert back and forth).
const FEW_AGAIN: usize = 16;

/// Where `key` goes in `v` (sorted from the latest key to the earliest): searched from the
/// end, where the events due soonest are, since a new event is usually due soon (a link's
/// next `TxDone`).
#[inline]
fn slot_for<E>(v: &[Entry<E>], key: u128) -> usize {
    let mut at = v.len();
    while at > 0 && v[at - 1].key < key {
        at -= 1;
    }
    at
}

impl<E> Store<E> {
    fn push(&mut self, e: Entry<E>) {
        match self {
            Store::Few(v) => {
                v.insert(slot_for(v, e.key), e);
                if v.len() > FEW_MAX {
                    *self = Store::Many(QuaternaryHeap::from(std::mem::take(v)));
                }
            }
            Store::Many(h) => h.push(e),
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<&Entry<E>> {
        match self {
            Store::Few(v) => v.last(),
            Store::Many(h) => h.peek(),
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<Entry<E>> {
        match self {
            Store::Few(v) => v.pop(),
            Store::Many(h) => {
                let e = h.pop();
                if h.len() < FEW_AGAIN {
                    // Ascending in the entries' (reversed) order: latest key first, as `Few` keeps them.
                    *self = Store::Few(std::mem::take(h).into_sorted_vec());
                }
                e
            }
        }
    }

    /// Give the earliest entry the later key `key` (a lane's next event).
    fn rekey_first(&mut self, key: u128) {
        match self {
            Store::Few(v) => {
                let mut e = v.pop().expect("rekeyed entry present");
                e.key = key;
                v.insert(slot_for(v, key), e);
            }
            Store::Many(h) => {
                if let Some(mut top) = h.peek_mut() {
                    top.key = key; // sifts down when `top` drops
                }
            }
        }
    }

    fn retain(&mut self, keep: impl FnMut(&Entry<E>) -> bool) {
        match self {
            Store::Few(v) => v.retain(keep),
            Store::Many(h) => h.retain(keep),
        }
    }

    #[inline(always)]
    fn is_many(&self) -> bool {
        matches!(self, Store::Many(_))
    }

    /// Remove and return the entries `out` selects.
    fn split_off(&mut self, out: impl Fn(&Entry<E>) -> bool) -> Vec<Entry<E>> {
        let (moved, kept): (Vec<_>, Vec<_>) = match std::mem::replace(self, Store::Few(Vec::new())) {
            Store::Few(v) => v.into_iter().partition(&out),
            Store::Many(h) => h.into_vec().into_iter().partition(&out),
        };
        for e in kept {
            self.push(e);
        }
        moved
    }
}

/// A priority queue of events in the total order described in the module docs.
///
/// **Lanes.** Most events of a run are packets arriving at the end of a link, and a link's
/// arrivals are scheduled in the order they arrive (constant delay, FIFO serialization). Such
/// events can go to a *lane* ([`EventQueue::push_lane`]): a FIFO per link whose earliest event
/// alone stands in the store. The store then holds a few entries per link instead of every
/// packet in flight, and an arrival behind others costs no store operation. An event whose key
/// is not after its lane's last one (the link's delay fell) goes to the store directly. Keys are
/// assigned exactly as by [`EventQueue::push`], so the order of events is the same whether or
/// not lanes are used.
///
/// **Packet events apart.** A run of N flows has about one waiting timer per endpoint (2N)
/// and, until they start, N flow starts, but only a few packet events (lane heads and
/// `TxDone`s: a few per link). In one heap, the timers made every packet event's push and pop
/// sift through log N levels, though a bulk transfer fires a timer per ~50 packet events
/// (issue #29). So once the store outgrows a sorted `Vec` (many entries wait), events of the
/// classes `Timeline` and `Timer` (flow starts, application writes, endpoint and agent timers,
/// link wake-ups) move to a store of their own, `scheduled`, and go there from then on: the
/// packet events' store stays as small as the links make it, and only the scheduled events pay
/// for the number of flows. A pop takes the earlier of the two stores' first entries; keys are
/// unique, so the order is the same as with one store. A run of a few flows never splits and
/// pays nothing for it.
#[derive(Clone)]
pub struct EventQueue<E> {
    store: Store<E>,
    scheduled: Store<E>,
    /// The key of `scheduled`'s first entry (`u128::MAX` when it is empty, which no event's
    /// key is: its class bits would be 3): one comparison tells which store holds the next event.
    scheduled_first: u128,
    /// Whether the queue has split (`scheduled` in use).
    split: bool,
    lanes: Vec<VecDeque<(u128, E)>>,
    len: usize,
    next_seq: u64,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            store: Store::Few(Vec::new()),
            scheduled: Store::Few(Vec::new()),
            scheduled_first: u128::MAX,
            split: false,
            lanes: Vec::new(),
            len: 0,
            next_seq: 0,
            popped: 0,
        }
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    fn next_key(&mut self, time: SimTime, class: EventClass) -> u128 {
        let seq = self.next_seq;
        self.next_seq += 1;
        pack((time, class, seq))
    }

    /// Schedule `event` at `time` in `class`.
    pub fn push(&mut self, time: SimTime, class: EventClass, event: E) {
        let key = self.next_key(time, class);
        self.push_entry(class, Entry { key, slot: Slot::Event(event) });
    }

    /// Store an event entry: once split, packet events apart from the others (see the type's
    /// docs).
    #[inline]
    fn push_entry(&mut self, class: EventClass, e: Entry<E>) {
        if self.split && class != EventClass::Packet {
            self.push_scheduled(e);
        } else {
            self.store.push(e);
            self.split_if_many();
        }
        self.len += 1;
    }

    /// Split when the store has become a heap (see the type's docs).
    #[inline(always)]
    fn split_if_many(&mut self) {
        if !self.split && self.store.is_many() {
            self.split_now();
        }
    }

    /// The store's entries of other classes than `Packet` move to `scheduled`, and later ones
    /// go there.
    #[cold]
    #[inline(never)]
    fn split_now(&mut self) {
        self.split = true;
        let packet = EventClass::Packet as u64;
        for e in self.store.split_off(|e| matches!(e.slot, Slot::Event(_)) && (e.key as u64) >> SEQ_BITS != packet) {
            self.push_scheduled(e);
        }
    }

    /// Out of line, so that the packet events' path stays as it was without `scheduled`.
    #[inline(never)]
    fn push_scheduled(&mut self, e: Entry<E>) {
        self.scheduled_first = self.scheduled_first.min(e.key);
        self.scheduled.push(e);
    }

    /// Out of line, as [`EventQueue::push_scheduled`].
    #[inline(never)]
    fn pop_scheduled(&mut self) -> (SimTime, E) {
        let e = self.scheduled.pop().expect("scheduled_first names an entry");
        self.scheduled_first = self.scheduled.peek().map_or(u128::MAX, |e| e.key);
        let Slot::Event(event) = e.slot else { unreachable!("lanes stand in the packet events' store") };
        self.len -= 1;
        self.popped += 1;
        (SimTime((e.key >> 64) as u64), event)
    }

    /// Whether the earliest entry is `scheduled`'s.
    #[inline]
    fn scheduled_due(&self) -> bool {
        self.split && self.scheduled_first < self.store.peek().map_or(u128::MAX, |e| e.key)
    }

    /// The earliest entry of both stores.
    #[inline]
    fn first(&self) -> Option<&Entry<E>> {
        if self.scheduled_due() {
            self.scheduled.peek()
        } else {
            self.store.peek()
        }
    }

    /// Schedule `event` at `time` in `class` on lane `lane` (see the type's docs): the same
    /// order as [`EventQueue::push`], cheaper when events of a lane come in time order.
    pub fn push_lane(&mut self, lane: u32, time: SimTime, class: EventClass, event: E) {
        let key = self.next_key(time, class);
        let l = lane as usize;
        if l >= self.lanes.len() {
            self.lanes.resize_with(l + 1, VecDeque::new);
        }
        let q = &mut self.lanes[l];
        match q.back() {
            None => {
                q.push_back((key, event));
                self.store.push(Entry { key, slot: Slot::Lane(lane) });
                self.split_if_many();
            }
            Some(&(last, _)) if key > last => q.push_back((key, event)),
            Some(_) => {
                self.store.push(Entry { key, slot: Slot::Event(event) });
                self.split_if_many();
            }
        }
        self.len += 1;
    }

    /// The earliest event, removed from the queue.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        if self.scheduled_due() {
            return Some(self.pop_scheduled());
        }
        let top = self.store.peek()?;
        let key = top.key;
        let event = match top.slot {
            Slot::Event(_) => match self.store.pop().map(|e| e.slot) {
                Some(Slot::Event(e)) => e,
                _ => unreachable!("peeked as an event"),
            },
            Slot::Lane(l) => {
                let q = &mut self.lanes[l as usize];
                let (_, e) = q.pop_front().expect("a lane in the store holds its head");
                match q.front() {
                    Some(&(next, _)) => self.store.rekey_first(next),
                    None => {
                        self.store.pop();
                    }
                }
                e
            }
        };
        self.len -= 1;
        self.popped += 1;
        Some((SimTime((key >> 64) as u64), event))
    }

    /// The key of the earliest event.
    pub fn peek_key(&self) -> Option<EventKey> {
        self.first().map(Entry::key)
    }

    /// Remove every event `pick` selects, with its key (for moving an event to another time
    /// while it keeps its place among events of equal time and class: see
    /// [`EventQueue::push_keyed`]).
    pub fn take_where(&mut self, mut pick: impl FnMut(&E) -> bool) -> Vec<(EventKey, E)>
    where
        E: Clone,
    {
        // Rare (branching): lanes are first emptied into the store, which keeps the order.
        self.store.retain(|e| matches!(e.slot, Slot::Event(_)));
        for q in &mut self.lanes {
            for (key, event) in q.drain(..) {
                self.store.push(Entry { key, slot: Slot::Event(event) });
            }
        }
        let mut taken = Vec::new();
        for store in [&mut self.store, &mut self.scheduled] {
            store.retain(|e| match &e.slot {
                Slot::Event(ev) if pick(ev) => {
                    taken.push((e.key(), ev.clone()));
                    false
                }
                _ => true,
            });
        }
        taken.sort_unstable_by_key(|&(key, _)| key);
        self.scheduled_first = self.scheduled.peek().map_or(u128::MAX, |e| e.key);
        self.len -= taken.len();
        taken
    }

    /// Schedule `event` with an explicit key (its `seq` one the queue assigned before, so the
    /// total order stays what it would have been had the event been pushed with that time).
    pub fn push_keyed(&mut self, key: EventKey, event: E) {
        self.push_entry(key.1, Entry { key: pack(key), slot: Slot::Event(event) });
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<SimTime> {
        if !self.split {
            return self.store.peek().map(|e| SimTime((e.key >> 64) as u64));
        }
        // The earlier first key of the two stores (an empty one counts as u128::MAX).
        let key = self.scheduled_first.min(self.store.peek().map_or(u128::MAX, |e| e.key));
        (key != u128::MAX).then_some(SimTime((key >> 64) as u64))
    }

    /// Number of events popped so far (the run's event count).
    pub fn popped(&self) -> u64 {
        self.popped
    }

    /// Number of events waiting.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if no event is waiting.
    pub fn is_empty(&self) -> bool {
        self.len == 0
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
    fn lanes_give_the_order_of_plain_pushes() {
        // A pseudo-random mix of lane and plain pushes (with ties, out-of-order lane times and
        // pops in between) pops in exactly the order of the same pushes without lanes.
        let mut plain = EventQueue::new();
        let mut laned = EventQueue::new();
        let mut x: u64 = 12345;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for i in 0..20_000u64 {
            let r = next();
            let t = SimTime(i / 3 + r % 7);
            let class = if r % 5 == 0 { EventClass::Timer } else { EventClass::Packet };
            plain.push(t, class, i);
            if r % 3 == 0 {
                laned.push(t, class, i);
            } else {
                laned.push_lane((r % 4) as u32, t, class, i);
            }
            if r % 2 == 0 {
                a.push(plain.pop());
                b.push(laned.pop());
            }
            if i == 10_000 {
                let ta = plain.take_where(|e| e % 7 == 0);
                let tb = laned.take_where(|e| e % 7 == 0);
                assert_eq!(ta.len(), tb.len());
                for ((k, e), (k2, e2)) in ta.into_iter().zip(tb) {
                    plain.push_keyed(k, e);
                    laned.push_keyed(k2, e2);
                }
            }
            assert_eq!(plain.len(), laned.len());
        }
        while let Some(e) = plain.pop() {
            a.push(Some(e));
        }
        while let Some(e) = laned.pop() {
            b.push(Some(e));
        }
        assert!(laned.is_empty());
        assert_eq!(a, b);
    }

    #[test]
    fn the_store_pops_in_key_order_as_it_changes_form() {
        // The number of waiting events swings between a few and ~250 several times, across
        // FEW_MAX and FEW_AGAIN both ways, with lane and plain pushes; every pop must be the
        // earliest (time, class, insertion) not yet popped (a BTreeMap is the reference).
        let mut q = EventQueue::new();
        let mut reference = std::collections::BTreeMap::new();
        let (mut x, mut pushed, mut lane_time) = (7u64, 0u64, [0u64; 3]);
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..8u64 {
            for _ in 0..(250 - 25 * round) {
                let r = next();
                let class = if r % 4 == 0 { EventClass::Timer } else { EventClass::Packet };
                let t = if r % 3 == 0 {
                    let l = ((r >> 8) % 3) as usize;
                    lane_time[l] += r % 50;
                    q.push_lane(l as u32, SimTime(lane_time[l]), class, pushed);
                    SimTime(lane_time[l])
                } else {
                    let t = SimTime(r % 5_000);
                    q.push(t, class, pushed);
                    t
                };
                reference.insert((t, class, pushed), pushed);
                pushed += 1;
                if r % 5 == 0 {
                    assert_eq!(q.pop().map(|(_, e)| e), reference.pop_first().map(|(_, e)| e));
                }
            }
            while q.len() > (round % 3) as usize {
                assert_eq!(q.pop().map(|(_, e)| e), reference.pop_first().map(|(_, e)| e));
            }
        }
        while let Some((_, e)) = reference.pop_first() {
            assert_eq!(q.pop().map(|(_, e)| e), Some(e));
        }
        assert!(q.is_empty() && q.pop().is_none());
    }

    #[test]
    fn events_apart_pop_in_the_order_of_one_store() {
        // 10,000 timers wait (one per endpoint of a population) while packet and timeline
        // events come and go a few at a time, with ties of time across the classes; every pop
        // is the earliest (time, class, insertion) waiting, as a BTreeMap of the keys says.
        let mut q = EventQueue::new();
        let mut reference = std::collections::BTreeMap::new();
        let mut pushed = 0u64;
        let mut push = |q: &mut EventQueue<u64>, r: &mut std::collections::BTreeMap<_, _>, t: u64, class| {
            q.push(SimTime(t), class, pushed);
            r.insert((SimTime(t), class, pushed), pushed);
            pushed += 1;
        };
        for i in 0..10_000u64 {
            push(&mut q, &mut reference, 1_000 + (i * 7919) % 5_000, EventClass::Timer);
        }
        for i in 0..30_000u64 {
            let t = q.peek_time().unwrap().0;
            push(&mut q, &mut reference, t + i % 3, EventClass::Packet);
            if i % 4 == 0 {
                push(&mut q, &mut reference, t + i % 2, EventClass::Timeline);
            }
            if i % 5 == 0 {
                push(&mut q, &mut reference, t + 1 + i % 700, EventClass::Timer);
            }
            assert_eq!(q.peek_key(), reference.first_key_value().map(|(k, _)| *k));
            assert_eq!(q.pop().map(|(_, e)| e), reference.pop_first().map(|(_, e)| e));
        }
        while let Some((_, e)) = reference.pop_first() {
            assert_eq!(q.pop().map(|(_, e)| e), Some(e));
        }
        assert!(q.is_empty() && q.pop().is_none());
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
