//! Tests of the event queue: its order, lanes, the store's two forms, and events pushed ahead
//! of time against a reference that really pushes the skipped events.

use super::*;
use crate::SimDuration;
use std::collections::BTreeMap;

/// xorshift64: a deterministic stream for the randomized tests.
fn stream(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

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

/// The order the queue must reproduce: every skipped event is really pushed (at its reserved
/// moment) and, when popped, pushes its children then, as the world did before it skipped it.
#[derive(Default)]
struct Reference {
    map: BTreeMap<(SimTime, EventClass, u64), Item>,
    seq: u64,
    /// Children of a skipped event that was pushed after all and has just been popped: they
    /// follow whatever its processing pushes.
    after: Vec<(SimTime, EventClass, u32)>,
}

enum Item {
    Event(u32),
    /// A skipped event: its children, and its own id if it was pushed after all.
    Skipped { children: Vec<(SimTime, EventClass, u32)>, real: Option<u32> },
}

impl Reference {
    fn push(&mut self, t: SimTime, c: EventClass, item: Item) -> (SimTime, EventClass, u64) {
        let k = (t, c, self.seq);
        self.seq += 1;
        self.map.insert(k, item);
        k
    }

    fn skipped(&mut self, k: &(SimTime, EventClass, u64)) -> (&mut Vec<(SimTime, EventClass, u32)>, &mut Option<u32>) {
        match self.map.get_mut(k) {
            Some(Item::Skipped { children, real }) => (children, real),
            _ => panic!("not a waiting skipped event"),
        }
    }

    fn pop(&mut self) -> Option<(SimTime, u32)> {
        for (t, c, id) in std::mem::take(&mut self.after) {
            self.push(t, c, Item::Event(id));
        }
        loop {
            let ((t, _, _), item) = self.map.pop_first()?;
            match item {
                Item::Event(id) => return Some((t, id)),
                Item::Skipped { children, real: None } => {
                    for (t, c, id) in children {
                        self.push(t, c, Item::Event(id));
                    }
                }
                Item::Skipped { children, real: Some(id) } => {
                    self.after = children;
                    return Some((t, id));
                }
            }
        }
    }
}

/// A skipped event of the randomized test: its key in the queue and in the reference, its
/// children's keys in the queue.
struct Skip {
    key: Moment,
    reference: (SimTime, EventClass, u64),
    children: Vec<Moment>,
    materialized: bool,
}

fn class_of(r: u64) -> EventClass {
    [EventClass::Timeline, EventClass::Packet, EventClass::Timer][(r % 3) as usize]
}

#[test]
fn events_pushed_ahead_of_time_pop_as_if_their_skipped_parent_had_pushed_them() {
    // Random streams of pushes (plain, lane), skipped events with children pushed ahead of
    // time, some of them pushed after all or with a child cancelled, over a short time range
    // so that ties of (time, class) are frequent. After every pop, the queue and the
    // reference must agree.
    for seed in 1..=40u64 {
        let mut next = stream(0x9e37_79b9_7f4a_7c15 ^ seed);
        let mut q: EventQueue<u32> = EventQueue::new();
        let mut reference = Reference::default();
        let mut skips: Vec<Skip> = Vec::new();
        let mut id = 0u32;
        let mut fresh = || {
            id += 1;
            id
        };
        let spread = 1 + seed % 6; // small spreads: many ties
        for _ in 0..3 {
            let (t, c, n) = (SimTime(next() % spread), class_of(next()), fresh());
            q.push(t, c, n);
            reference.push(t, c, Item::Event(n));
        }
        let mut popped = 0;
        let mut peeked = 0;
        while popped < 3_000 {
            // A peek names the event the pop returns, or nothing (a tied child's moment first).
            let peek = q.peek().map(|(t, &e)| (t, e));
            let got = q.pop();
            if peek.is_some() {
                assert_eq!(peek, got, "seed {seed}, peek before pop {popped}");
                peeked += 1;
            }
            assert_eq!(got, reference.pop(), "seed {seed}, pop {popped}");
            let Some((now, _)) = got else { break };
            popped += 1;
            if seed % 3 == 0 && popped == 500 {
                // A population's timers arrive: the store becomes a heap and the queue splits
                // (packet events apart) amid children waiting for their moments.
                for i in 0..60 {
                    let (t, c, n) = (now + SimDuration(1_000_000 + i), EventClass::Timer, fresh());
                    q.push(t, c, n);
                    reference.push(t, c, Item::Event(n));
                }
                assert!(q.split, "seed {seed}: 60 more waiting events split the queue");
            }
            // Skipped events whose moment has passed are forgotten.
            skips.retain(|s| !q.passed(s.key) && reference.map.contains_key(&s.reference));
            for _ in 0..1 + next() % 3 {
                let r = next();
                match r % 10 {
                    0..=2 => {
                        let (t, c, n) = (now + SimDuration(r % spread), class_of(r >> 8), fresh());
                        q.push(t, c, n);
                        reference.push(t, c, Item::Event(n));
                    }
                    3..=4 => {
                        let (t, c, n) = (now + SimDuration(1 + r % spread), class_of(r >> 8), fresh());
                        q.push_lane(((r >> 16) % 3) as u32, t, c, n);
                        reference.push(t, c, Item::Event(n));
                    }
                    5..=7 => {
                        let (t, c) = (now + SimDuration(1 + r % spread), class_of(r >> 8));
                        let key = q.reserve(t, c);
                        let rk = reference.push(t, c, Item::Skipped { children: Vec::new(), real: None });
                        let mut children = Vec::new();
                        for j in 0..1 + (r >> 20) % 2 {
                            let ct = t + SimDuration((r >> (24 + j)) % spread);
                            let cc = if ct == t { class_of(r >> (30 + j)).max(c) } else { class_of(r >> (30 + j)) };
                            let n = fresh();
                            children.push(q.push_lane_as_of(key, ((r >> 40) % 3) as u32, ct, cc, n));
                            reference.skipped(&rk).0.push((ct, cc, n));
                        }
                        skips.push(Skip { key, reference: rk, children, materialized: false });
                    }
                    8 if !skips.is_empty() => {
                        // The skipped event is pushed after all, with its reserved key.
                        let s = (r >> 8) as usize % skips.len();
                        if !skips[s].materialized {
                            skips[s].materialized = true;
                            let n = fresh();
                            q.push_reserved(skips[s].key, n);
                            *reference.skipped(&skips[s].reference).1 = Some(n);
                        }
                    }
                    9 if !skips.is_empty() && r & (1 << 50) != 0 => {
                        // One more child of a skipped event, pushed later.
                        let s = (r >> 8) as usize % skips.len();
                        let (t, c, _) = skips[s].key.key();
                        let ct = t + SimDuration((r >> 24) % spread);
                        let cc = if ct == t { class_of(r >> 30).max(c) } else { class_of(r >> 30) };
                        let n = fresh();
                        let child = q.push_lane_as_of(skips[s].key, ((r >> 40) % 3) as u32, ct, cc, n);
                        skips[s].children.push(child);
                        reference.skipped(&skips[s].reference).0.push((ct, cc, n));
                    }
                    9 if !skips.is_empty() => {
                        let s = (r >> 8) as usize % skips.len();
                        if let Some(child) = skips[s].children.pop() {
                            let n = q.cancel(child).expect("a child whose moment has not come is waiting");
                            let (kids, _) = reference.skipped(&skips[s].reference);
                            let at = kids.iter().position(|k| k.2 == n).expect("the same child");
                            kids.remove(at);
                        }
                    }
                    _ => {}
                }
            }
            if popped % 64 == 0 {
                assert_eq!(q.len(), reference.map.len() - skips_without_real(&reference) + waiting_children(&reference), "seed {seed}: len");
            }
        }
        assert!(popped > 100, "seed {seed}: the stream died out after {popped} pops");
        // (Ties are frequent by design here; in a run they are rare.)
        assert!(peeked * 2 > popped, "seed {seed}: only {peeked} of {popped} pops were peeked");
    }
}

/// Skipped events in the reference that stand for no event of the queue.
fn skips_without_real(r: &Reference) -> usize {
    r.map.values().filter(|i| matches!(i, Item::Skipped { real: None, .. })).count()
}

/// Children the reference has not pushed yet (the queue holds them already).
fn waiting_children(r: &Reference) -> usize {
    r.after.len() + r.map.values().map(|i| if let Item::Skipped { children, .. } = i { children.len() } else { 0 }).sum::<usize>()
}

#[test]
fn a_child_tied_with_a_later_push_follows_it() {
    // The skipped parent P (t=10) has child A at t=20; another event X at t=20 in the same
    // class is pushed before P's moment: as without skipping, X pops before A.
    let mut q = EventQueue::new();
    q.push(SimTime(1), EventClass::Packet, "start");
    assert_eq!(q.pop(), Some((SimTime(1), "start")));
    let p = q.reserve(SimTime(10), EventClass::Packet);
    q.push_lane_as_of(p, 0, SimTime(20), EventClass::Packet, "A");
    q.push(SimTime(20), EventClass::Packet, "X");
    q.push(SimTime(5), EventClass::Packet, "Y");
    assert_eq!(q.pop(), Some((SimTime(5), "Y")));
    assert!(!q.passed(p));
    q.push(SimTime(20), EventClass::Packet, "Z"); // before P's moment: before A too
    // P's moment comes first and A met a tie: a peek names nothing rather than guess.
    assert_eq!(q.peek(), None);
    let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    assert_eq!(order, ["X", "Z", "A"]);
    assert!(q.passed(p));
}

#[test]
fn pop_due_and_pop_before_stop_at_their_bound() {
    let mut q = EventQueue::new();
    q.push(SimTime(5), EventClass::Timer, 1);
    q.push(SimTime(6), EventClass::Timeline, 2);
    assert_eq!(q.pop_before((SimTime(5), EventClass::Timer, 0)), None);
    assert_eq!(q.pop_due(SimTime(5)), Some((SimTime(5), 1)));
    assert_eq!(q.pop_due(SimTime(5)), None);
    assert_eq!(q.pop_before((SimTime(6), EventClass::Packet, 0)), Some((SimTime(6), 2)));
    assert!(q.is_empty());
}

#[test]
fn a_bounded_pop_leaves_children_waiting_for_events_pushed_before_their_moment() {
    // A branch stops its trunk before a key, then pushes an event with that key (vhsim-sim
    // `branch`); a child waiting for its parent's moment must still follow what that event
    // pushes.
    let mut q = EventQueue::new();
    q.push(SimTime(1), EventClass::Packet, "start");
    q.pop();
    let p = q.reserve(SimTime(10), EventClass::Packet);
    q.push_lane_as_of(p, 0, SimTime(20), EventClass::Packet, "A");
    q.push(SimTime(20), EventClass::Packet, "X"); // before P's moment: before A
    let moved = (SimTime(10), EventClass::Timeline, 0);
    assert_eq!(q.pop_before(moved), None);
    q.push_keyed(moved, "M");
    assert_eq!(q.pop(), Some((SimTime(10), "M")));
    q.push(SimTime(20), EventClass::Packet, "Y"); // pushed by M, before P's moment
    let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    assert_eq!(order, ["X", "Y", "A"]);
}

#[test]
fn moments_passed_on_the_way_to_the_next_entry_are_reached_one_by_one() {
    // Two frames left early (moments at 10 and 12, a child each, no tie) and the next entry
    // waits at 30: a pop bounded at 11 reaches the first moment only, the next pop the second
    // one and then returns the entry it looked at.
    let mut q = EventQueue::new();
    q.push(SimTime(1), EventClass::Packet, "start");
    q.pop();
    let p1 = q.reserve(SimTime(10), EventClass::Packet);
    q.push_lane_as_of(p1, 0, SimTime(40), EventClass::Packet, "A");
    let p2 = q.reserve(SimTime(12), EventClass::Packet);
    q.push_lane_as_of(p2, 1, SimTime(41), EventClass::Packet, "B");
    q.push(SimTime(30), EventClass::Timer, "T");
    assert_eq!(q.pop_due(SimTime(11)), None);
    assert!(q.passed(p1) && !q.passed(p2));
    assert_eq!(q.pop(), Some((SimTime(30), "T")));
    assert!(q.passed(p2));
    let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    assert_eq!(order, ["A", "B"]);
}

#[test]
fn lanes_emptied_into_the_store_by_take_where_split_the_queue_as_a_push_would() {
    // 60 events in a lane and a timer: the store holds two entries until `take_where` moves
    // the lane's events into it, which makes it a heap; the queue splits then (as the next
    // push did before the store's push told when it became a heap) and keeps the order.
    let mut q = EventQueue::new();
    for i in 0..60u64 {
        q.push_lane(0, SimTime(10 + i), EventClass::Packet, i);
    }
    q.push(SimTime(5), EventClass::Timer, 1000);
    assert!(!q.split);
    assert_eq!(q.take_where(|&e| e == 30).len(), 1);
    assert!(q.split, "60 entries in the store: a heap, the timer apart");
    let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    let mut want = vec![1000];
    want.extend((0..60).filter(|&i| i != 30));
    assert_eq!(order, want);
}

#[test]
fn events_apart_pop_in_the_order_of_one_store() {
    // 10,000 timers wait (one per endpoint of a population) while packet and timeline
    // events come and go a few at a time, with ties of time across the classes; every pop
    // is the earliest (time, class, insertion) waiting, as a BTreeMap of the keys says.
    // (The reference's first key stands for the queue's, which has no peek.)
    let mut q = EventQueue::new();
    let mut reference = BTreeMap::new();
    let mut pushed = 0u64;
    let mut push = |q: &mut EventQueue<u64>, r: &mut BTreeMap<_, _>, t: u64, class| {
        q.push(SimTime(t), class, pushed);
        r.insert((SimTime(t), class, pushed), pushed);
        pushed += 1;
    };
    for i in 0..10_000u64 {
        push(&mut q, &mut reference, 1_000 + (i * 7919) % 5_000, EventClass::Timer);
    }
    assert!(q.split, "10,000 waiting events split the queue");
    for i in 0..30_000u64 {
        let t = reference.first_key_value().map(|(k, _)| k.0 .0).unwrap();
        push(&mut q, &mut reference, t + i % 3, EventClass::Packet);
        if i % 4 == 0 {
            push(&mut q, &mut reference, t + i % 2, EventClass::Timeline);
        }
        if i % 5 == 0 {
            push(&mut q, &mut reference, t + 1 + i % 700, EventClass::Timer);
        }
        assert_eq!(q.pop().map(|(_, e)| e), reference.pop_first().map(|(_, e)| e));
    }
    while let Some((_, e)) = reference.pop_first() {
        assert_eq!(q.pop().map(|(_, e)| e), Some(e));
    }
    assert!(q.is_empty() && q.pop().is_none());
}

#[test]
fn a_peek_names_what_the_pop_returns_with_lanes_ties_and_stores_apart() {
    // Plain and lane pushes with many ties of (time, class), through the store's two forms and
    // the split: before every pop, the peek names the same event and time.
    let mut q = EventQueue::new();
    let mut next = stream(77);
    let mut peeks = 0;
    assert_eq!(q.peek(), None);
    for i in 0..20_000u64 {
        let r = next();
        let t = SimTime(i / 4 + r % 3);
        let class = class_of(r >> 4);
        if r.is_multiple_of(3) {
            q.push(t, class, i);
        } else {
            q.push_lane((r % 5) as u32, t, class, i);
        }
        if i == 5_000 {
            for j in 0..100 {
                q.push(SimTime(10_000 + j), EventClass::Timer, 1_000_000 + j);
            }
        }
        if r.is_multiple_of(2) {
            let peek = q.peek().map(|(t, &e)| (t, e));
            assert_eq!(peek, q.pop(), "push {i}");
            peeks += 1;
        }
    }
    while let Some(peek) = q.peek().map(|(t, &e)| (t, e)) {
        assert_eq!(Some(peek), q.pop());
        peeks += 1;
    }
    assert!(q.is_empty() && peeks > 20_000);
}

#[test]
fn a_lane_peeked_in_depth_pops_in_that_order() {
    // Lane 0 gets events in time order, lane 1 others in between, one lane-0 event out of its
    // lane's order goes to the store: peek_lane sees the lane's own events, in pop order.
    let mut q = EventQueue::new();
    for (t, lane, e) in [(10, 0, "a"), (12, 1, "x"), (15, 0, "b"), (16, 1, "y"), (20, 0, "c"), (14, 0, "late")] {
        q.push_lane(lane, SimTime(t), EventClass::Packet, e);
    }
    let lane0: Vec<_> = (0..4).map(|d| q.peek_lane(0, d).copied()).collect();
    assert_eq!(lane0, [Some("a"), Some("b"), Some("c"), None]);
    assert_eq!(q.peek_lane(1, 1), Some(&"y"));
    assert_eq!(q.peek_lane(7, 0), None);
    let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    assert_eq!(order, ["a", "x", "late", "b", "y", "c"]);
}

#[test]
fn the_scheduled_front_pops_and_peeks_in_key_order() {
    // The scheduled events' store alone (wheel.rs), against a BTreeMap of the keys: pushes due
    // in a slot already in the front, in the ring's slots, beyond them (`far`), ties of time,
    // removals from the front, the ring and `far`, a retain, and pops that empty it several
    // times; before every pop, each depth it names is the reference's entry there, and it names
    // at least LOOKAHEAD while that many wait.
    use super::wheel::{TimerWheel, LOOKAHEAD};
    use super::store::{Entry, Slot};
    let mut f = TimerWheel::default();
    let mut reference = BTreeMap::new();
    let mut next = stream(4242);
    let mut seq = 0u64;
    let mut now = 0u64;
    let check = |f: &TimerWheel<u64>, r: &BTreeMap<u128, u64>| {
        let mut named = 0;
        for (d, (&k, &v)) in r.iter().enumerate().take(40) {
            match f.peek_at(d) {
                Some(e) => {
                    assert_eq!((e.key, matches!(e.slot, Slot::Event(x) if x == v)), (k, true), "depth {d}");
                    named += 1;
                }
                None => break,
            }
        }
        assert!(named >= LOOKAHEAD.min(r.len()), "names {named} of {}", r.len());
    };
    for round in 0..6u64 {
        for _ in 0..(3_000 - 400 * round) {
            let r = next();
            // Mostly later than the next few (a timer: up to 3 s, or beyond the ring's 68.7 s),
            // sometimes due at once or tied.
            let t = match r % 8 {
                0 => now,
                1 => now + r % 5,
                2 => now + r % 40_000,
                3 => now + (r % 100) * 1_000_000_000,
                _ => now + (r % 3_000) * 1_000_000,
            };
            let class = class_of(r >> 5);
            let key = pack((SimTime(t), class, seq));
            f.push(Entry { key, slot: Slot::Event(seq) });
            reference.insert(key, seq);
            seq += 1;
            if r % 3 == 0 {
                check(&f, &reference);
                let e = f.pop().expect("waiting");
                let (k, v) = reference.pop_first().expect("waiting");
                now = (k >> 64) as u64;
                assert!(e.key == k && matches!(e.slot, Slot::Event(x) if x == v));
            }
            if r % 97 == 0 {
                // Remove one at some depth (the front's or the heap's).
                let depth = (r >> 20) as usize % reference.len();
                let k = *reference.keys().nth(depth).unwrap();
                assert_eq!(f.remove(k).map(|e| e.key), Some(k));
                reference.remove(&k);
            }
        }
        if round == 2 {
            f.retain(|e| e.key % 5 != 0);
            reference.retain(|k, _| k % 5 != 0);
        }
        while reference.len() > (round as usize * 7) % 20 {
            check(&f, &reference);
            let e = f.pop().expect("waiting");
            assert_eq!(Some(e.key), reference.pop_first().map(|(k, _)| k));
            now = (e.key >> 64) as u64;
        }
    }
    // Steady state with few waiting: time runs on past entries that waited beyond the ring
    // while new ones keep joining it.
    for _ in 0..20_000 {
        let r = next();
        let t = if r % 10 == 0 { now + (r % 100) * 1_000_000_000 } else { now + (r % 3_000) * 1_000_000 };
        let key = pack((SimTime(t), EventClass::Timer, seq));
        f.push(Entry { key, slot: Slot::Event(seq) });
        reference.insert(key, seq);
        seq += 1;
        if reference.len() > 40 {
            check(&f, &reference);
            let e = f.pop().expect("waiting");
            assert_eq!(Some(e.key), reference.pop_first().map(|(k, _)| k));
            now = (e.key >> 64) as u64;
        }
    }
    assert!(now > 1_000 * 1_000_000_000, "time ran past many far entries: {now}");
    while let Some((k, _)) = reference.pop_first() {
        assert_eq!(f.pop().map(|e| e.key), Some(k));
    }
    assert!(f.pop().is_none() && f.peek().is_none());
}

#[test]
fn scheduled_events_peeked_in_depth_pop_in_that_order() {
    // 10,000 timers and flow starts (the split queue's scheduled events) with packet events
    // coming and going: what `peek_scheduled` names at depths 0, 1, ... are the scheduled
    // events to pop next, in that order (packet events in between); it names at least
    // SCHEDULED_LOOKAHEAD while that many wait, and the peek of the whole queue stays exact.
    let mut q = EventQueue::new();
    let mut next = stream(99);
    let mut pushed = 0u64;
    let mut scheduled_waiting = 0usize;
    for i in 0..10_000u64 {
        let class = if i % 4 == 0 { EventClass::Timeline } else { EventClass::Timer };
        q.push(SimTime(1_000 + (i * 7919) % 50_000 * 100_000), class, (pushed, true));
        pushed += 1;
        scheduled_waiting += 1;
    }
    assert!(q.split);
    // The scheduled events named and not popped yet, in the order named.
    let mut named: VecDeque<u64> = VecDeque::new();
    let mut now = 1_000;
    let mut checked = 0;
    while !q.is_empty() {
        let now_named: VecDeque<u64> = (0..64).map_while(|d| q.peek_scheduled(d).map(|&(e, _)| e)).collect();
        assert!(now_named.len() >= SCHEDULED_LOOKAHEAD.min(scheduled_waiting), "{} named of {scheduled_waiting}", now_named.len());
        // Names given before still come first, in the same order (the front grows behind them).
        assert!(now_named.iter().zip(&named).all(|(a, b)| a == b) && now_named.len() >= named.len().min(SCHEDULED_LOOKAHEAD));
        checked += named.len();
        named = now_named;
        let r = next();
        if r % 3 == 0 && pushed < 40_000 {
            q.push(SimTime(now + r % 7), EventClass::Packet, (pushed, false));
            pushed += 1;
        }
        if r % 5 == 0 && pushed < 40_000 {
            // A new timer, perhaps due before some named ones: the names start again.
            q.push(SimTime(now + r % 30_000 * 100_000), EventClass::Timer, (pushed, true));
            pushed += 1;
            scheduled_waiting += 1;
            named.clear();
        }
        let peek = q.peek().map(|(t, &e)| (t, e));
        let popped = q.pop();
        assert_eq!(peek, popped);
        let (t, (e, scheduled)) = popped.expect("waiting");
        now = t.0;
        if scheduled {
            scheduled_waiting -= 1;
            if let Some(first) = named.pop_front() {
                assert_eq!(e, first, "the first scheduled event named pops first");
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn the_timer_wheel_does_not_keep_every_passed_slot_s_allocation() {
    // 1,000 timers in flight, each re-armed 50 ms after it fires, for 600 s of simulated time:
    // 36,000 slots pass through the ring, each holding about 330 entries. A drained bucket that
    // kept its allocation would leave every one of the ring's 4,096 slots sized for its busiest
    // moment (over a million entries' room); with spares reused, the room stays about what is in
    // flight (issue #29: memory linear in the flows, not in the time).
    use super::store::{Entry, Slot};
    use super::wheel::TimerWheel;
    let mut w = TimerWheel::default();
    let mut seq = 0u64;
    let key = |t: u64, seq: u64| pack((SimTime(t), class_of(0), seq));
    for i in 0..1_000u64 {
        w.push(Entry { key: key(i * 50_000, seq), slot: Slot::Event(seq) });
        seq += 1;
    }
    let mut fired = 0u64;
    while let Some(e) = w.pop() {
        let t = (e.key >> 64) as u64;
        if t >= 600_000_000_000 {
            break;
        }
        w.push(Entry { key: key(t + 50_000_000, seq), slot: Slot::Event(seq) });
        seq += 1;
        fired += 1;
    }
    assert!(fired > 11_000_000, "fired {fired}");
    assert!(w.ring_capacity() < 20_000, "room for {} entries", w.ring_capacity());
}

#[test]
fn the_packet_events_store_pops_in_key_order_through_every_operation() {
    // The packet events' store alone (store.rs: a sorted `Vec` while few wait, a heap beyond),
    // against a BTreeMap of the keys: pushes of events and lane entries,
    // pops, the first entry re-keyed later (a lane's next event), an entry re-keyed later at
    // some depth, removals, a retain and a split; the size swings across FEW_MAX and FEW_AGAIN
    // both ways, and long stretches stay few. Before each operation the first entry and its
    // slot are the reference's.
    use super::store::{Entry, Slot, Store};
    let mut s: Store<u64> = Store::default();
    let mut reference: BTreeMap<u128, (bool, u64)> = BTreeMap::new();
    let mut next = stream(90210);
    let mut seq = 0u64;
    let mut now = 0u64;
    let slot_of = |lane: bool, v: u64| if lane { Slot::Lane(v as u32) } else { Slot::Event(v) };
    let same = |slot: &Slot<u64>, (lane, v): (bool, u64)| match slot {
        Slot::Event(x) => !lane && *x == v,
        Slot::Lane(l) => lane && *l as u64 == v,
    };
    let new_key = |seq: &mut u64, t: u64, r: u64| {
        *seq += 1;
        pack((SimTime(t), class_of(r >> 9), *seq))
    };
    for round in 0..40u64 {
        // Rounds 0-3 and every eighth grow past FEW_MAX; the others stay few.
        let target = if round < 4 || round % 8 == 0 { 120 } else { 5 + round as usize % 30 };
        for _ in 0..2_000 {
            let r = next();
            match s.peek() {
                Some(e) => {
                    let (&rk, &rv) = reference.first_key_value().expect("same size");
                    assert!(e.key == rk && same(&e.slot, rv), "round {round}");
                }
                None => assert!(reference.is_empty()),
            }
            match r % 16 {
                0..=6 if reference.len() < target => {
                    let t = now + r % 30_000;
                    let key = new_key(&mut seq, t, r);
                    let lane = r % 3 == 0;
                    s.push(Entry { key, slot: slot_of(lane, seq) });
                    reference.insert(key, (lane, seq));
                }
                7..=10 if !reference.is_empty() => {
                    let e = s.pop().expect("waiting");
                    let (k, v) = reference.pop_first().expect("waiting");
                    assert!(e.key == k && same(&e.slot, v));
                    now = (k >> 64) as u64;
                }
                11 | 12 if !reference.is_empty() => {
                    let (k, v) = reference.pop_first().expect("waiting");
                    let later = new_key(&mut seq, (k >> 64) as u64 + r % 5_000, r);
                    s.rekey_first(later);
                    reference.insert(later, v);
                }
                13 if !reference.is_empty() => {
                    let depth = (r >> 20) as usize % reference.len();
                    let old = *reference.keys().nth(depth).expect("depth");
                    let later = new_key(&mut seq, (old >> 64) as u64 + r % 5_000, r);
                    s.rekey(old, later);
                    let v = reference.remove(&old).expect("stored");
                    reference.insert(later, v);
                }
                14 if !reference.is_empty() => {
                    let depth = (r >> 20) as usize % reference.len();
                    let k = *reference.keys().nth(depth).expect("depth");
                    let e = s.remove(k).expect("stored");
                    let v = reference.remove(&k).expect("stored");
                    assert!(e.key == k && same(&e.slot, v));
                    assert!(s.remove(k).is_none());
                }
                15 if r % 7 == 0 => {
                    let m = 2 + (r >> 30) % 4;
                    s.retain(|e| !(matches!(e.slot, Slot::Event(v) if v % m == 0) && e.key % 3 != 0));
                    reference.retain(|k, (lane, v)| !(!*lane && *v % m == 0 && k % 3 != 0));
                }
                15 if r % 11 == 0 => {
                    let mut out: Vec<_> = s.split_off(|e| matches!(e.slot, Slot::Lane(l) if l % 2 == 0)).into_iter().map(|e| e.key).collect();
                    out.sort_unstable();
                    let expected: Vec<_> = reference.iter().filter(|(_, (lane, v))| *lane && v % 2 == 0).map(|(&k, _)| k).collect();
                    reference.retain(|_, (lane, v)| !(*lane && *v % 2 == 0));
                    assert_eq!(out, expected);
                }
                _ => {}
            }
        }
    }
    while let Some((k, v)) = reference.pop_first() {
        let e = s.pop().expect("waiting");
        assert!(e.key == k && same(&e.slot, v));
    }
    assert!(s.pop().is_none());
}
