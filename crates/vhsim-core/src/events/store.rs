//! Where the queue keeps its entries: a sorted `Vec` while few wait, a 4-ary heap beyond.

use dary_heap::QuaternaryHeap;
use std::cmp::Ordering;

/// A queued entry with its key `(time, class, seq)` packed into one integer whose order is the
/// key's (see `pack`): one integer comparison per step of the store instead of three.
#[derive(Clone)]
pub(super) struct Entry<E> {
    pub key: u128,
    pub slot: Slot<E>,
}

/// What a stored entry stands for: an event, or the earliest event of a lane.
#[derive(Clone)]
pub(super) enum Slot<E> {
    Event(E),
    Lane(u32),
}

impl<E> Slot<E> {
    /// The lane, if it stands for a lane's head.
    #[inline(always)]
    pub fn lane(&self) -> Option<u32> {
        match self {
            Slot::Event(_) => None,
            Slot::Lane(l) => Some(*l),
        }
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

/// Few entries (a bulk run has ~10: a lane head per link, a pending `TxDone` per busy link, a
/// timer per endpoint): a `Vec` sorted by key from the latest to the earliest, so the next
/// event pops off its end and a new one, usually due soon, is inserted near the end. Many
/// (scenarios with many flows and links): a 4-ary heap. Keys are unique, so both give the same
/// order of events; the sorted `Vec` needs no sifting, the heap's largest cost
/// (docs/performance.md).
#[derive(Clone)]
pub(super) enum Store<E> {
    Few(Vec<Entry<E>>),
    Many(QuaternaryHeap<Entry<E>>),
}

/// More entries than this: the store becomes a heap ...
const FEW_MAX: usize = 48;
/// ... and a sorted `Vec` again below this (apart, so that a size near one threshold does not
/// convert back and forth).
const FEW_AGAIN: usize = 16;

/// Insert `e` into `v` (sorted from the latest key to the earliest): appended, then moved
/// towards the front past the entries due before it. Searched from the end, where the events
/// due soonest are, since a new event is usually due soon (a link's next `TxDone`); no
/// `memmove` call, as `Vec::insert` makes.
#[inline]
fn insert_from_end<E>(v: &mut Vec<Entry<E>>, e: Entry<E>) {
    let last = v.len();
    v.push(e);
    sift_to_place(v, last);
}

/// Move the entry at `at`, the only one out of order, towards the front to its place.
#[inline]
fn sift_to_place<E>(v: &mut [Entry<E>], mut at: usize) {
    let key = v[at].key;
    while at > 0 && v[at - 1].key < key {
        v.swap(at - 1, at);
        at -= 1;
    }
}

/// Where the entry with key `key` is in `v` (sorted from the latest key to the earliest).
fn position<E>(v: &[Entry<E>], key: u128) -> Option<usize> {
    v.binary_search_by(|e| key.cmp(&e.key)).ok()
}

impl<E> Default for Store<E> {
    fn default() -> Self {
        Store::Few(Vec::new())
    }
}

impl<E> Store<E> {
    /// Returns whether the store has just become a heap.
    #[inline(always)]
    pub fn push(&mut self, e: Entry<E>) -> bool {
        match self {
            Store::Few(v) => {
                insert_from_end(v, e);
                if v.len() > FEW_MAX {
                    *self = Store::Many(QuaternaryHeap::from(std::mem::take(v)));
                    return true;
                }
                false
            }
            Store::Many(h) => {
                h.push(e);
                false
            }
        }
    }

    #[inline(always)]
    pub fn peek(&self) -> Option<&Entry<E>> {
        match self {
            Store::Few(v) => v.last(),
            Store::Many(h) => h.peek(),
        }
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<Entry<E>> {
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
    pub fn rekey_first(&mut self, key: u128) {
        match self {
            Store::Few(v) => {
                // It moves towards the front (later keys first) past the entries due before
                // it, usually a few: cheaper than a pop and an insert (a `memmove` call).
                let last = v.len() - 1;
                v[last].key = key;
                sift_to_place(v, last);
            }
            Store::Many(h) => {
                if let Some(mut top) = h.peek_mut() {
                    top.key = key; // sifts down when `top` drops
                }
            }
        }
    }

    /// Give the entry with key `old` the later key `new` (a lane's head that got its final key).
    pub fn rekey(&mut self, old: u128, new: u128) {
        match self {
            Store::Few(v) => {
                // Moves towards the front (later keys first).
                let i = position(v, old).expect("the entry is stored");
                v[i].key = new;
                sift_to_place(v, i);
            }
            Store::Many(_) => {
                let mut e = self.remove(old).expect("the entry is stored");
                e.key = new;
                self.push(e);
            }
        }
    }

    /// Remove the entry with key `key` (rare: an event taken out of the order).
    pub fn remove(&mut self, key: u128) -> Option<Entry<E>> {
        match self {
            Store::Few(v) => position(v, key).map(|i| v.remove(i)),
            Store::Many(h) => {
                let mut taken = None;
                let mut rest = std::mem::take(h).into_vec();
                if let Some(i) = rest.iter().position(|e| e.key == key) {
                    taken = Some(rest.swap_remove(i));
                }
                *h = QuaternaryHeap::from(rest);
                taken
            }
        }
    }

    pub fn retain(&mut self, keep: impl FnMut(&Entry<E>) -> bool) {
        match self {
            Store::Few(v) => v.retain(keep),
            Store::Many(h) => h.retain(keep),
        }
    }

    #[inline(always)]
    pub fn is_many(&self) -> bool {
        matches!(self, Store::Many(_))
    }

    /// Remove and return the entries `out` selects.
    pub fn split_off(&mut self, out: impl Fn(&Entry<E>) -> bool) -> Vec<Entry<E>> {
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
