//! A minimal event loop around one [`Link`], scheduling exactly what the link asks for, the way
//! vhsim-sim's world does: `TxDone` and `Arrive` in the packet class, wake-ups in the timer
//! class (after packet events of the same time), FIFO within a class.

#![allow(dead_code)]

use vhsim_core::{EventClass, EventQueue, SimTime};
use vhsim_net::{Addr, DropCause, Link, Outcome, Packet, Payload, RetxCause, TraceTag};

/// A data packet of flow 0 with segment number `seq` and `size` bytes.
pub fn data(seq: u64, size: u32) -> Packet {
    let tag = TraceTag::data(seq, size, RetxCause::New);
    Packet { uid: seq, flow: 0, src: Addr(0), dst: Addr(1), size, tag, payload: Payload::Empty }
}

/// Segment number (data) or cumulative ACK of a packet.
pub fn seq_of(p: &Packet) -> u64 {
    p.tag.seq
}

enum Ev {
    Offer(Packet),
    TxDone,
    Wake,
    Arrive(Packet),
}

/// What became of a frame whose fate was decided (delivered, held or dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// It arrives at the next node at this time.
    Arrives(SimTime),
    /// It was lost.
    Dropped(DropCause),
    /// The reordering model holds it.
    Held,
}

/// A frame whose fate was decided (delivered, held or dropped), not a retried attempt.
#[derive(Clone, Copy, Debug)]
pub struct Decided {
    /// When its last attempt ended.
    pub at: SimTime,
    /// Attempts it used.
    pub attempts: u32,
    /// What happened.
    pub fate: Fate,
    /// The frame's uid.
    pub uid: u64,
    /// The frame's segment number.
    pub seq: u64,
}

/// Output of a run.
#[derive(Default)]
pub struct Run {
    /// Packets in the order they arrived at the next node, with their arrival times.
    pub arrivals: Vec<(SimTime, Packet)>,
    /// Frames dropped, with the time and cause.
    pub drops: Vec<(SimTime, Packet, DropCause)>,
    /// Every frame's decision, in order.
    pub decided: Vec<Decided>,
}

/// Offer each `(time, packet)` to `link` and run until nothing is left.
pub fn run(link: &mut Link, offers: impl IntoIterator<Item = (SimTime, Packet)>) -> Run {
    let mut q = EventQueue::new();
    for (t, p) in offers {
        q.push(t, EventClass::Timeline, Ev::Offer(p));
    }
    let mut out = Run::default();
    while let Some((now, ev)) = q.pop() {
        match ev {
            Ev::Offer(p) => match link.offer(now, p) {
                vhsim_net::Offer::Transmitting(done) => q.push(done, EventClass::Packet, Ev::TxDone),
                vhsim_net::Offer::Queued => {}
                vhsim_net::Offer::Dropped(p, c) => out.drops.push((now, p, c)),
            },
            Ev::TxDone => {
                let f = link.finish_transmission(now);
                if let Some(done) = f.next_done {
                    q.push(done, EventClass::Packet, Ev::TxDone);
                }
                if let Some(t) = f.wake {
                    q.push(t, EventClass::Timer, Ev::Wake);
                }
                let fate = match &f.outcome {
                    Outcome::Arrives(d) => Some(Fate::Arrives(d.at)),
                    Outcome::Dropped(_, c) => Some(Fate::Dropped(*c)),
                    Outcome::Held => Some(Fate::Held),
                    Outcome::Retrying => None,
                };
                if let Some(fate) = fate {
                    out.decided.push(Decided { at: now, attempts: f.attempts, fate, uid: f.uid, seq: f.tag.seq });
                }
                let (arrivals, dropped) = f.into_parts();
                for d in arrivals {
                    q.push(d.at, EventClass::Packet, Ev::Arrive(d.packet));
                }
                if let Some((p, c)) = dropped {
                    out.drops.push((now, p, c));
                }
            }
            Ev::Wake => {
                if let Some(d) = link.wake(now) {
                    q.push(d.at, EventClass::Packet, Ev::Arrive(d.packet));
                }
            }
            Ev::Arrive(p) => out.arrivals.push((now, p)),
        }
    }
    out
}
