//! A minimal event loop around one [`Link`], scheduling exactly what the link asks for, the way
//! vhsim-sim's world does: `TxDone` and `Arrive` in the packet class, wake-ups in the timer
//! class (after packet events of the same time), FIFO within a class.

#![allow(dead_code)]

use vhsim_core::{EventClass, EventQueue, SimTime};
use vhsim_net::{DropCause, Link, Outcome, Packet, PacketKind};

/// A data packet of flow 0 with segment number `seq` and `size` bytes.
pub fn data(seq: u64, size: u32) -> Packet {
    Packet { uid: seq, flow: 0, src: 0, dst: 1, size, kind: PacketKind::Data { seq, tx_index: 0 } }
}

/// Segment number of a data packet.
pub fn seq_of(p: &Packet) -> u64 {
    match p.kind {
        PacketKind::Data { seq, .. } => seq,
        PacketKind::Ack { ack, .. } => ack,
    }
}

enum Ev {
    Offer(Packet),
    TxDone,
    Wake,
    Arrive(Packet),
}

/// A frame whose fate was decided (delivered, held or dropped), not a retried attempt.
#[derive(Clone, Copy, Debug)]
pub struct Decided {
    /// When its last attempt ended.
    pub at: SimTime,
    /// Attempts it used.
    pub attempts: u32,
    /// What happened.
    pub outcome: Outcome,
    /// The frame.
    pub packet: Packet,
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
                vhsim_net::Offer::Dropped(c) => out.drops.push((now, p, c)),
            },
            Ev::TxDone => {
                let f = link.finish_transmission(now);
                if let Some(done) = f.next_done {
                    q.push(done, EventClass::Packet, Ev::TxDone);
                }
                if let Some(t) = f.wake {
                    q.push(t, EventClass::Timer, Ev::Wake);
                }
                for d in f.arrivals() {
                    q.push(d.at, EventClass::Packet, Ev::Arrive(d.packet));
                }
                if let Some(c) = f.dropped() {
                    out.drops.push((now, f.packet, c));
                }
                if f.outcome != Outcome::Retrying {
                    out.decided.push(Decided {
                        at: now,
                        attempts: f.attempts,
                        outcome: f.outcome,
                        packet: f.packet,
                    });
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
