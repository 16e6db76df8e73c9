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
//!
//! **Events pushed ahead of time.** The world skips events whose only effect is to push
//! others (a link's `TxDone` when nothing waits behind the frame): it *reserves* the skipped
//! event's key ([`EventQueue::reserve`], a [`Moment`]) and pushes the event's children at once,
//! *as of* that moment ([`EventQueue::push_lane_as_of`]). A child waits with a provisional
//! sequence number, which orders it correctly unless another event of the same time and class
//! is pushed before the moment comes (a tie at the nanosecond, rare): the queue watches for
//! that, and when it reaches the moment (it is about to pop the first entry after the reserved
//! key, or, if the skipped event was pushed after all, it has processed it), a child that met
//! such a tie gets the sequence number it would have had, had the skipped event pushed it
//! then. So the order is the one without skipping, ties included. A child is due after its
//! parent, so it is never popped before its moment.

mod wheel;
mod store;
#[cfg(test)]
mod tests;

use crate::time::SimTime;
use wheel::TimerWheel;
use std::collections::VecDeque;
use store::{Entry, Slot, Store};

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

/// How many scheduled events [`EventQueue::peek_scheduled`] names at least, while that many wait.
pub const SCHEDULED_LOOKAHEAD: usize = wheel::LOOKAHEAD;

/// The full ordering key of a scheduled event: `(time, class, seq)`.
pub type EventKey = (SimTime, EventClass, u64);

/// The key packed into one integer whose order is the key's: time in the high 64 bits, the
/// class in the next 2, `seq` in the low 62 (2^62 events are never reached).
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

/// The last packed key of `time`.
fn end_of(time: SimTime) -> u128 {
    ((time.0 as u128) << 64) | u64::MAX as u128
}

/// The key of an event that was not pushed, reserved so that the events it would have pushed
/// are ordered as if it had ([`EventQueue::reserve`]); also the handle of such a child
/// ([`EventQueue::push_lane_as_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment(u128);

impl Moment {
    /// The key.
    pub fn key(self) -> EventKey {
        unpack(self.0)
    }
}

/// A child pushed as of a moment still to come, with its provisional key.
#[derive(Clone, Copy, Debug)]
struct Ahead {
    parent: u128,
    /// Its time and class (the bits above `SEQ_BITS`) are those another event may tie with.
    key: u128,
    lane: u32,
    /// An event of the same time and class was pushed before its moment: its provisional
    /// sequence number may misorder it, it takes its own at the moment.
    tied: bool,
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
/// pays nothing for it. Lanes, their heads and the events they hand to the store stay in the
/// packet events' store whatever their class (a lane's head must be found there). The
/// scheduled events' store is a timer wheel whose earliest entries wait sorted (`wheel.rs`),
/// so that the event loop can name the next few ([`EventQueue::peek_scheduled`]).
#[derive(Clone)]
pub struct EventQueue<E> {
    store: Store<E>,
    scheduled: TimerWheel<E>,
    /// The key of `scheduled`'s first entry (`u128::MAX` when it is empty, which no event's
    /// key is: its class bits would be 3): one comparison tells which store holds the next event.
    scheduled_first: u128,
    /// Whether the queue has split (`scheduled` in use).
    split: bool,
    lanes: Vec<VecDeque<(u128, E)>>,
    len: usize,
    next_seq: u64,
    popped: u64,
    /// Children pushed as of moments still to come.
    ahead: Vec<Ahead>,
    /// The earliest of their moments (`u128::MAX`: none).
    next_moment: u128,
    /// Its time, or 0 when `moment_now`: one 64-bit comparison per pop.
    next_moment_time: u64,
    /// The event reserved at `next_moment`, pushed after all, was popped last: its moment is
    /// now, after its processing.
    moment_now: bool,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            store: Store::default(),
            scheduled: TimerWheel::default(),
            scheduled_first: u128::MAX,
            split: false,
            lanes: Vec::new(),
            len: 0,
            next_seq: 0,
            popped: 0,
            ahead: Vec::new(),
            next_moment: u128::MAX,
            next_moment_time: u64::MAX,
            moment_now: false,
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
        self.watch(key);
        self.put(Entry { key, slot: Slot::Event(event) });
        self.len += 1;
    }

    /// Store an event entry: once split, packet events apart from the others (see the type's
    /// docs).
    #[inline]
    fn put(&mut self, e: Entry<E>) {
        if self.split && (e.key as u64) >> SEQ_BITS != EventClass::Packet as u64 {
            self.push_scheduled(e);
        } else {
            self.store_push(e);
        }
    }

    /// Store an entry in `store`; split if it has just become a heap (see the type's docs):
    /// the test rides on the store's own test of its size.
    #[inline(always)]
    fn store_push(&mut self, e: Entry<E>) {
        if self.store.push(e) && !self.split {
            self.split_now();
        }
    }

    /// Split if the store is a heap (after entries were moved into it without
    /// [`EventQueue::store_push`]).
    fn split_if_many(&mut self) {
        if !self.split && self.store.is_many() {
            self.split_now();
        }
    }

    /// The store's event entries of other classes than `Packet` move to `scheduled`, and later
    /// ones go there.
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

    /// Out of line, as [`EventQueue::push_scheduled`]: `scheduled`'s first event.
    #[inline(never)]
    fn pop_scheduled(&mut self) -> E {
        let e = self.scheduled.pop().expect("scheduled_first names an entry");
        self.scheduled_first = self.scheduled.peek().map_or(u128::MAX, |e| e.key);
        let Slot::Event(event) = e.slot else { unreachable!("lanes stand in the packet events' store") };
        event
    }

    /// Schedule `event` at `time` in `class` on lane `lane` (see the type's docs): the same
    /// order as [`EventQueue::push`], cheaper when events of a lane come in time order.
    pub fn push_lane(&mut self, lane: u32, time: SimTime, class: EventClass, event: E) {
        let key = self.next_key(time, class);
        self.watch(key);
        self.enqueue_lane(lane, key, event);
    }

    /// Inlined into its two callers (a lane's push and a child's, each once per packet on a
    /// link): the call cost a fifth of its work.
    #[inline(always)]
    fn enqueue_lane(&mut self, lane: u32, key: u128, event: E) {
        let q = match self.lanes.get_mut(lane as usize) {
            Some(q) => q,
            None => self.new_lane(lane),
        };
        match q.back() {
            None => {
                q.push_back((key, event));
                self.store_push(Entry { key, slot: Slot::Lane(lane) });
            }
            Some(&(last, _)) if key > last => q.push_back((key, event)),
            Some(_) => {
                self.store_push(Entry { key, slot: Slot::Event(event) });
            }
        }
        self.len += 1;
    }

    /// The queue of lane `lane`, the first time it is used (lanes up to it are made).
    #[cold]
    #[inline(never)]
    fn new_lane(&mut self, lane: u32) -> &mut VecDeque<(u128, E)> {
        let l = lane as usize;
        self.lanes.resize_with(l + 1, VecDeque::new);
        &mut self.lanes[l]
    }

    /// Reserve the key an event scheduled at `time` in `class` now would get, for an event
    /// that is not pushed: its children are pushed as of its moment
    /// ([`EventQueue::push_lane_as_of`]); it may be pushed after all, with that key
    /// ([`EventQueue::push_reserved`]). The key must come after every key popped so far (in the
    /// world: a serialization's end, later than now), so that its moment is still to come.
    pub fn reserve(&mut self, time: SimTime, class: EventClass) -> Moment {
        let key = self.next_key(time, class);
        // Ordered now, should it be pushed after all.
        self.watch(key);
        Moment(key)
    }

    /// Push the event whose key was reserved after all (module docs).
    pub fn push_reserved(&mut self, moment: Moment, event: E) {
        self.put(Entry { key: moment.0, slot: Slot::Event(event) });
        self.len += 1;
    }

    /// Schedule `event` on `lane` at `time` in `class` as the event reserved at `parent` would
    /// when popped: it gets its final key at that moment (module docs). Returns its handle for
    /// [`EventQueue::cancel`], valid until that moment.
    pub fn push_lane_as_of(&mut self, parent: Moment, lane: u32, time: SimTime, class: EventClass, event: E) -> Moment {
        debug_assert!(parent.0 >= self.next_moment || self.ahead.iter().all(|a| a.parent != parent.0));
        let key = self.next_key(time, class);
        debug_assert!(key > parent.0, "a child is due after its parent");
        let tied = self.watch(key);
        self.enqueue_lane(lane, key, event);
        self.ahead.push(Ahead { parent: parent.0, key, lane, tied });
        if parent.0 < self.next_moment {
            self.set_next_moment(parent.0);
        }
        Moment(key)
    }

    fn set_next_moment(&mut self, p: u128) {
        self.next_moment = p;
        self.next_moment_time = if self.moment_now { 0 } else { (p >> 64) as u64 };
    }

    /// An event with key `key` is pushed now: children waiting for their moment with the same
    /// time and class are marked tied. Returns whether there was one.
    #[inline]
    fn watch(&mut self, key: u128) -> bool {
        let mut any = false;
        for a in self.ahead.iter_mut() {
            // The same time and class: equal bits above the sequence number.
            if (a.key ^ key) >> SEQ_BITS == 0 {
                a.tied = true;
                any = true;
            }
        }
        any
    }

    /// Whether the reserved `moment`, which has a child, has passed: an event with that key
    /// would have been popped. (Moments come in key order, and every moment after it is still
    /// to come.)
    pub fn passed(&self, moment: Moment) -> bool {
        moment.0 < self.next_moment
    }

    /// Remove a child pushed as of a moment that has not come yet (by its handle); `None` if
    /// it is not waiting.
    pub fn cancel(&mut self, child: Moment) -> Option<E> {
        let i = self.ahead.iter().position(|a| a.key == child.0)?;
        let a = self.ahead.swap_remove(i);
        self.set_next_moment(self.ahead.iter().map(|a| a.parent).min().unwrap_or(u128::MAX));
        let event = self.take_out(a.key, a.lane);
        self.len -= event.is_some() as usize;
        event
    }

    /// Remove the queued event with key `key`, pushed on `lane` (rare).
    fn take_out(&mut self, key: u128, lane: u32) -> Option<E> {
        if let Some(q) = self.lanes.get_mut(lane as usize) {
            if let Some(i) = q.iter().rposition(|(k, _)| *k == key) {
                let (_, event) = q.remove(i).expect("found");
                if i == 0 {
                    // It was the lane's head, standing in the store.
                    self.store.remove(key).expect("a lane's head stands in the store");
                    if let Some(&(next, _)) = q.front() {
                        self.store_push(Entry { key: next, slot: Slot::Lane(lane) });
                    }
                }
                return Some(event);
            }
        }
        // Out of its lane's order, or moved to the store by `take_where` (and perhaps on to
        // `scheduled` when the queue split).
        let entry = match self.store.remove(key) {
            Some(e) => e,
            None => {
                let e = self.scheduled.remove(key)?;
                self.scheduled_first = self.scheduled.peek().map_or(u128::MAX, |e| e.key);
                e
            }
        };
        match entry.slot {
            Slot::Event(event) => Some(event),
            Slot::Lane(_) => unreachable!("a lane's entry has its head's key, found in the lane"),
        }
    }

    /// The moment `p` has come: its tied children get the keys they would have had, had the
    /// event reserved at `p` pushed them now, in the order they were pushed (usually there is
    /// one child, not tied: it keeps its key).
    /// Returns whether a child got a new key (the stores changed).
    #[inline(never)]
    fn reach_moment(&mut self, p: u128) -> bool {
        self.moment_now = false;
        if let [a] = self.ahead[..] {
            // The usual case: one child of one moment.
            self.ahead.clear();
            self.set_next_moment(u128::MAX);
            self.place(a);
            return a.tied;
        }
        // Children that met no tie keep their keys: they only stop waiting. One pass finds the
        // next moment of the others, and whether a child of this one met a tie (rare).
        let (mut next, mut tied, mut i) = (u128::MAX, false, 0);
        while i < self.ahead.len() {
            let a = self.ahead[i];
            if a.parent != p {
                next = next.min(a.parent);
            } else if !a.tied {
                self.ahead.swap_remove(i);
                continue;
            } else {
                tied = true;
            }
            i += 1;
        }
        if !tied {
            self.set_next_moment(next);
            return false;
        }
        let mut placed = false;
        while let Some(i) = (0..self.ahead.len()).filter(|&i| self.ahead[i].parent == p).min_by_key(|&i| self.ahead[i].key) {
            let a = self.ahead.swap_remove(i);
            self.place(a);
            placed = true;
        }
        self.set_next_moment(self.ahead.iter().map(|a| a.parent).min().unwrap_or(u128::MAX));
        placed
    }

    /// A child whose moment has come: if it met a tie, it takes the next sequence number.
    fn place(&mut self, a: Ahead) {
        if a.tied {
            // Same time and class, the next sequence number.
            let key = (a.key & !(SEQ_MASK as u128)) | self.next_seq as u128;
            self.next_seq += 1;
            self.rekey(a.key, a.lane, key);
        }
    }

    /// Give the queued event with key `old`, pushed on `lane`, the later key `new`.
    fn rekey(&mut self, old: u128, lane: u32, new: u128) {
        if let Some(q) = self.lanes.get_mut(lane as usize) {
            // Usually the lane's last entry: the link's latest arrival.
            if let Some(i) = q.iter().rposition(|(k, _)| *k == old) {
                if q.get(i + 1).is_none_or(|&(next, _)| new < next) {
                    q[i].0 = new;
                    if i == 0 {
                        self.store.rekey(old, new);
                    }
                    return;
                }
            }
        }
        // Not (or no longer) in lane order: to the store with its new key.
        let event = self.take_out(old, lane).expect("a child waiting for its moment is queued");
        self.put(Entry { key: new, slot: Slot::Event(event) });
    }

    /// The earliest event, removed from the queue.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_through(u128::MAX)
    }

    /// The earliest event if it is due at or before `end`.
    #[inline(always)]
    pub fn pop_due(&mut self, end: SimTime) -> Option<(SimTime, E)> {
        self.pop_through(end_of(end))
    }

    /// The earliest event if its key is before `key`.
    pub fn pop_before(&mut self, key: EventKey) -> Option<(SimTime, E)> {
        pack(key).checked_sub(1).and_then(|last| self.pop_through(last))
    }

    /// The earliest event if its packed key is at most `last`.
    #[inline(always)]
    fn pop_through(&mut self, last: u128) -> Option<(SimTime, E)> {
        'peek: loop {
            // The earlier first entry of the two stores (`scheduled` only once split).
            // (`lane`: the lane whose head the store's first entry stands for, if it does.)
            let (key, lane, scheduled) = match self.store.peek() {
                // (`scheduled_first` is u128::MAX while `scheduled` is empty or unused.)
                Some(e) if e.key < self.scheduled_first => (e.key, e.slot.lane(), false),
                _ if self.scheduled_first != u128::MAX => (self.scheduled_first, None, true),
                _ => return None,
            };
            // Reserved moments come before the next entry pops, unless the bound stops before
            // them; for a reserved event pushed after all, once it was processed. Reaching one
            // changes the stores only when a child met a tie (rare): otherwise `key` is still
            // the next entry's, not looked up again.
            let mut reserved_on_top = false;
            while self.next_moment_time <= (key >> 64) as u64 {
                let p = self.next_moment;
                if !((p < key || self.moment_now) && p <= last) {
                    reserved_on_top = p == key;
                    break;
                }
                match self.ahead[..] {
                    // The usual case: one child, not tied, keeps its key.
                    [a] if !a.tied => {
                        self.ahead.clear();
                        self.moment_now = false;
                        self.set_next_moment(u128::MAX);
                    }
                    _ => {
                        if self.reach_moment(p) {
                            continue 'peek;
                        }
                    }
                }
            }
            if key > last {
                return None;
            }
            if reserved_on_top {
                self.moment_now = true;
                self.next_moment_time = 0;
            }
            let event = if scheduled { self.pop_scheduled() } else { self.pop_top(lane) };
            self.len -= 1;
            self.popped += 1;
            return Some((SimTime((key >> 64) as u64), event));
        }
    }

    /// The event the next [`EventQueue::pop`] would return, left in the queue: for the event
    /// loop to prefetch what that event will touch while it handles the current one. `None`
    /// when the queue is empty, or when a reserved moment comes before that event and one of
    /// the children waiting for it met a tie (reaching the moment may then give it a later key:
    /// rare, and a hint is all the caller needs).
    #[inline(always)]
    pub fn peek(&self) -> Option<(SimTime, &E)> {
        let (key, scheduled) = match self.store.peek() {
            Some(e) if e.key < self.scheduled_first => (e.key, false),
            _ if self.scheduled_first != u128::MAX => (self.scheduled_first, true),
            _ => return None,
        };
        if self.next_moment_time <= (key >> 64) as u64
            && (self.next_moment < key || self.moment_now)
            && self.ahead.iter().any(|a| a.tied)
        {
            return None;
        }
        let top = if scheduled { self.scheduled.peek() } else { self.store.peek() }?;
        let event = match &top.slot {
            Slot::Event(e) => e,
            Slot::Lane(l) => &self.lanes[*l as usize].front()?.1,
        };
        Some((SimTime((key >> 64) as u64), event))
    }

    /// The event `depth` places behind the first of the scheduled events (0: that one) once the
    /// queue has split (see the type's docs: the classes `Timeline` and `Timer`, such as
    /// endpoint timers and flow starts), if it is among those the store keeps sorted (at least
    /// the first [`SCHEDULED_LOOKAHEAD`] while that many wait). They pop in that order among themselves,
    /// with packet events in between, so the event loop can prefetch for them further ahead
    /// than [`EventQueue::peek`] sees. `None` before the split.
    #[inline(always)]
    pub fn peek_scheduled(&self, depth: usize) -> Option<&E> {
        match &self.scheduled.peek_at(depth)?.slot {
            Slot::Event(e) => Some(e),
            Slot::Lane(_) => None,
        }
    }

    /// The event `depth` places behind the head of lane `lane` (0: its head), if that many
    /// wait there: it pops after the `depth` events before it in the lane (a lane is FIFO), so
    /// the event loop can prefetch for it further ahead than [`EventQueue::peek`] sees.
    #[inline(always)]
    pub fn peek_lane(&self, lane: u32, depth: usize) -> Option<&E> {
        self.lanes.get(lane as usize)?.get(depth).map(|(_, e)| e)
    }

    /// Inlined into the pop (one call site in the event loop): its call's register saves and
    /// restores cost more than its work when the next event stands alone in the store.
    /// `lane`: what the pop's peek found the first entry to stand for (no second look).
    #[inline(always)]
    fn pop_top(&mut self, lane: Option<u32>) -> E {
        match lane {
            None => match self.store.pop().map(|e| e.slot) {
                Some(Slot::Event(e)) => e,
                _ => unreachable!("peeked as an event"),
            },
            Some(l) => {
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
        }
    }

    /// The run is over at `end`: every moment up to it has passed.
    pub fn pass_through(&mut self, end: SimTime) {
        while self.next_moment <= end_of(end) {
            self.reach_moment(self.next_moment);
        }
    }

    /// Remove every queued event `pick` selects, with its key (for moving an event to another
    /// time while it keeps its place among events of equal time and class: see
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
        let mut keep = |e: &Entry<E>| match &e.slot {
            Slot::Event(ev) if pick(ev) => {
                taken.push((unpack(e.key), ev.clone()));
                false
            }
            _ => true,
        };
        self.store.retain(&mut keep);
        self.scheduled.retain(&mut keep);
        taken.sort_unstable_by_key(|&(key, _)| key);
        self.scheduled_first = self.scheduled.peek().map_or(u128::MAX, |e| e.key);
        self.len -= taken.len();
        // (As the next push would: the lanes' events may have made the store a heap.)
        self.split_if_many();
        taken
    }

    /// Schedule `event` with an explicit key (its `seq` one the queue assigned before, so the
    /// total order stays what it would have been had the event been pushed when that `seq` was
    /// assigned, with that time).
    pub fn push_keyed(&mut self, key: EventKey, event: E) {
        self.put(Entry { key: pack(key), slot: Slot::Event(event) });
        self.len += 1;
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
