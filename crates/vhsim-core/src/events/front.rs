//! The store of the scheduled events once the queue has split (timers, flow starts: about two
//! per flow in a run of many flows): a 4-ary heap whose earliest entries wait apart, sorted, so
//! that the next few can be named (issue #29, docs/performance.md "Issue #29: timers at 10,000
//! flows").
//!
//! A heap orders nothing beyond its first entry, so the event loop could see one timer ahead
//! only, and every timer of a run of many flows finds its flow's state cold. With the earliest
//! `FRONT` entries sorted in a ring of their own, the loop reads the next `LOOKAHEAD` or more
//! and fetches their flows' state several events before they pop. Every key of the front is
//! before every key of the heap, so a pop takes the front's first entry and the order of
//! events is the heap's; each entry leaves the heap once, when the front runs low (in key
//! order, so it joins the front's end), and a new entry joins the heap unless it is due before
//! the front's last one (rare: a new timer is usually due later than the next few).

use super::store::Entry;
use dary_heap::QuaternaryHeap;
use std::collections::VecDeque;

/// The earliest entries kept sorted ...
const FRONT: usize = 16;
/// ... refilled from the heap when fewer remain than this: the depth the loop can always see
/// while that many wait.
pub(super) const LOOKAHEAD: usize = 8;

/// A heap with its earliest entries sorted apart (module docs).
#[derive(Clone)]
pub(super) struct Fronted<E> {
    /// The earliest entries in ascending key order, each before every entry of `rest`; empty
    /// only when `rest` is.
    front: VecDeque<Entry<E>>,
    /// The others (the heap's `Ord` is reversed: it pops the smallest key first).
    rest: QuaternaryHeap<Entry<E>>,
}

impl<E> Default for Fronted<E> {
    fn default() -> Self {
        Fronted { front: VecDeque::new(), rest: QuaternaryHeap::new() }
    }
}

impl<E> Fronted<E> {
    pub fn push(&mut self, e: Entry<E>) {
        match self.front.back() {
            Some(last) if e.key > last.key && (self.front.len() >= FRONT || !self.rest.is_empty()) => {
                self.rest.push(e)
            }
            _ => {
                // Before the front's last entry, or room at its end with nothing behind it.
                let at = self.front.partition_point(|x| x.key < e.key);
                self.front.insert(at, e);
                if self.front.len() > FRONT {
                    // The front's last entry, before every entry of the heap, leads it now.
                    let last = self.front.pop_back().expect("more than FRONT");
                    self.rest.push(last);
                }
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

    /// The heap's earliest entries, in key order, to the front's end until it is full.
    #[inline(never)]
    fn refill(&mut self) {
        while self.front.len() < FRONT {
            match self.rest.pop() {
                Some(e) => self.front.push_back(e),
                None => break,
            }
        }
    }

    /// Remove the entry with key `key` (rare: an event taken out of the order).
    pub fn remove(&mut self, key: u128) -> Option<Entry<E>> {
        let taken = match self.front.iter().position(|e| e.key == key) {
            Some(i) => self.front.remove(i),
            None => {
                let mut rest = std::mem::take(&mut self.rest).into_vec();
                let taken = rest.iter().position(|e| e.key == key).map(|i| rest.swap_remove(i));
                self.rest = QuaternaryHeap::from(rest);
                taken
            }
        };
        self.refill();
        taken
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&Entry<E>) -> bool) {
        self.front.retain(&mut keep);
        self.rest.retain(keep);
        self.refill();
    }
}
