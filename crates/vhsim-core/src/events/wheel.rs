//! The store of the scheduled events once the queue has split (timers, flow starts: about two
//! per flow in a run of many flows): a timer wheel whose earliest entries wait sorted in a
//! front of their own, so that the next few can be named (issue #29, docs/performance.md
//! "Issue #29: timers at 10,000 flows").
//!
//! A heap orders nothing beyond its first entry, so the event loop could see one timer ahead
//! only, and with 20,000 waiting timers each pop sifted through seven levels (about 400
//! instructions and 5 first-level misses per pop, callgrind). Here time is cut into slots of
//! `2^SHIFT` ns; an entry due in one of the next `SLOTS` slots waits, unsorted, in that slot's
//! bucket of a ring (a push appends), a later one in a heap (`far`) until the ring comes near
//! its slot. When the front runs low, the next bucket that holds entries is sorted into it
//! whole, so a pop takes the front's first entry and the loop can read the next `LOOKAHEAD` or
//! more. Every key of the front is before every key of the ring and `far` (the front holds the
//! slots before `cur`, the ring the next `SLOTS` from `cur`, `far` the rest), so the order of
//! events is the order of their keys, whatever the width of a slot: that width only sets the
//! cost. An entry due within the slots already in the front (sooner than a slot's width ahead,
//! such as a 1 ms CBR write) is inserted in the front in order, moving the entries on its
//! shorter side: cheap while a slot holds tens or hundreds of events, as in the runs measured.

use super::store::Entry;
use dary_heap::QuaternaryHeap;
use std::collections::VecDeque;

/// A slot is `2^SHIFT` ns (16.8 ms): about twenty timers each at 10,000 flows in backoff, a
/// few hundred when they all send; ...
const SHIFT: u32 = 24;
/// ... the ring covers `SLOTS` slots (68.7 s: every retransmission timeout up to RFC 6298's
/// 60 s maximum).
const SLOTS: u64 = 4096;
/// The front is refilled while it holds fewer than this: the depth the loop can always see
/// while that many wait.
pub(super) const LOOKAHEAD: usize = 8;
/// Emptied buckets kept for reuse: a drained bucket gives its allocation back here instead of
/// keeping it in its slot, where every slot the run passes would hold its largest size for good
/// (16.5 MB at 10,000 flows of `vhsim bench --scale` shape a); a slot's first push takes one.
const SPARES: usize = 8;

/// The slot of a packed key (its time is the high 64 bits).
#[inline(always)]
fn slot(key: u128) -> u64 {
    ((key >> 64) as u64) >> SHIFT
}

/// A timer wheel with a sorted front (module docs).
#[derive(Clone)]
pub(super) struct TimerWheel<E> {
    /// The entries of the slots before `cur`, in ascending key order; holds `LOOKAHEAD` or more
    /// unless nothing else waits.
    front: VecDeque<Entry<E>>,
    /// Bucket `s % SLOTS` holds the entries of slot `s`, for `cur <= s < cur + SLOTS`, in no
    /// order (allocated at the first push).
    ring: Vec<Vec<Entry<E>>>,
    /// The first slot not moved to the front.
    cur: u64,
    /// Entries in the ring.
    in_ring: usize,
    /// Emptied buckets' allocations, at most `SPARES`.
    spare: Vec<Vec<Entry<E>>>,
    /// Entries of the slots from `cur + SLOTS` on (the heap's `Ord` is reversed: it pops the
    /// smallest key first).
    far: QuaternaryHeap<Entry<E>>,
}

impl<E> Default for TimerWheel<E> {
    fn default() -> Self {
        TimerWheel {
            front: VecDeque::new(),
            ring: Vec::new(),
            cur: 0,
            in_ring: 0,
            spare: Vec::new(),
            far: QuaternaryHeap::new(),
        }
    }
}

impl<E> TimerWheel<E> {
    pub fn push(&mut self, e: Entry<E>) {
        let s = slot(e.key);
        if s < self.cur {
            // Due in a slot already in the front (rare: a timer due sooner than the next few).
            let at = self.front.partition_point(|x| x.key < e.key);
            self.front.insert(at, e);
        } else if s < self.cur + SLOTS {
            self.put_in_ring(s, e);
            if self.front.len() < LOOKAHEAD {
                self.refill();
            }
        } else {
            self.far.push(e);
            if self.front.len() < LOOKAHEAD {
                self.refill();
            }
        }
    }

    #[inline(always)]
    pub fn peek(&self) -> Option<&Entry<E>> {
        self.front.front()
    }

    /// The entry `depth` places behind the first, if the front holds it (always when
    /// `depth < LOOKAHEAD` and that many wait).
    #[inline(always)]
    pub fn peek_at(&self, depth: usize) -> Option<&Entry<E>> {
        self.front.get(depth)
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<Entry<E>> {
        let e = self.front.pop_front()?;
        if self.front.len() < LOOKAHEAD {
            self.refill();
        }
        Some(e)
    }

    /// Move the next slots that hold entries, each sorted, to the front's end until it holds
    /// `LOOKAHEAD` or nothing else waits.
    #[inline(never)]
    fn refill(&mut self) {
        while self.front.len() < LOOKAHEAD {
            if self.in_ring == 0 {
                // Nothing in the ring's slots: on to the first slot of `far`.
                let Some(first) = self.far.peek() else { return };
                self.cur = slot(first.key);
                self.bring_near();
            }
            let bucket = &mut self.ring[(self.cur % SLOTS) as usize];
            if !bucket.is_empty() {
                let mut taken = std::mem::take(bucket);
                taken.sort_unstable_by_key(|e| e.key);
                self.in_ring -= taken.len();
                self.front.extend(taken.drain(..));
                if self.spare.len() < SPARES {
                    self.spare.push(taken);
                }
            }
            self.cur += 1;
            self.bring_near();
        }
    }

    /// The entries of `far` whose slots the ring now covers move into it.
    fn bring_near(&mut self) {
        while self.far.peek().is_some_and(|e| slot(e.key) < self.cur + SLOTS) {
            let e = self.far.pop().expect("peeked");
            self.put_in_ring(slot(e.key), e);
        }
    }

    /// Put `e`, of slot `s` (within the ring's span), into its bucket; a bucket without an
    /// allocation takes a spare one.
    fn put_in_ring(&mut self, s: u64, e: Entry<E>) {
        if self.ring.is_empty() {
            self.ring.resize_with(SLOTS as usize, Vec::new);
        }
        let bucket = &mut self.ring[(s % SLOTS) as usize];
        if bucket.capacity() == 0 {
            if let Some(spare) = self.spare.pop() {
                *bucket = spare;
            }
        }
        bucket.push(e);
        self.in_ring += 1;
    }

    /// Remove the entry with key `key` (rare: an event taken out of the order).
    pub fn remove(&mut self, key: u128) -> Option<Entry<E>> {
        let s = slot(key);
        let taken = if s < self.cur {
            let i = self.front.iter().position(|e| e.key == key)?;
            self.front.remove(i)
        } else if s < self.cur + SLOTS {
            let bucket = self.ring.get_mut((s % SLOTS) as usize)?;
            let i = bucket.iter().position(|e| e.key == key)?;
            self.in_ring -= 1;
            Some(bucket.swap_remove(i))
        } else {
            let mut far = std::mem::take(&mut self.far).into_vec();
            let taken = far.iter().position(|e| e.key == key).map(|i| far.swap_remove(i));
            self.far = QuaternaryHeap::from(far);
            taken
        };
        self.refill();
        taken
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&Entry<E>) -> bool) {
        self.front.retain(&mut keep);
        for bucket in &mut self.ring {
            let before = bucket.len();
            bucket.retain(&mut keep);
            self.in_ring -= before - bucket.len();
        }
        self.far.retain(keep);
        self.refill();
    }
}

#[cfg(test)]
impl<E> TimerWheel<E> {
    /// Entries the ring's buckets and spares have room for (their allocations).
    pub fn ring_capacity(&self) -> usize {
        self.ring.iter().chain(&self.spare).map(Vec::capacity).sum()
    }
}
