//! The contract of `Endpoint::on_packet`'s answer (vhsim-net `Pending`): a `false` promises
//! that the poll it names finds nothing right after the packet, because the world then skips
//! that poll. Checked on a whole connection, sender and sink endpoints as the world drives
//! them, through slow start, a loss, SACK recovery and delayed ACKs.

mod common;

use common::{cfg, ms, sink_cfg};
use std::collections::VecDeque;
use vhsim_core::SimTime;
use vhsim_net::{Addr, Endpoint, Packet, Pending, Wiring};
use vhsim_tcp::{TcpSender, TcpSenderEndpoint, TcpSink, TcpSinkEndpoint};

/// How often each flag was false (the checks must have had something to check).
#[derive(Default)]
struct Skips {
    reports: u32,
    transmit: u32,
}

/// Hand `pkt` to `ep` at `now` and check its answer against the polls that follow; returns
/// the packets it sends.
fn input(ep: &mut impl Endpoint, now: SimTime, pkt: &Packet, skips: &mut Skips) -> Vec<Packet> {
    let Pending { reports, transmit } = ep.on_packet(now, pkt);
    let first_report = ep.poll_report();
    assert!(reports || first_report.is_none(), "at {now:?} a report came after reports = false");
    skips.reports += u32::from(!reports);
    while ep.poll_report().is_some() {}
    let sent: Vec<Packet> = std::iter::from_fn(|| ep.poll_transmit(now)).collect();
    assert!(transmit || sent.is_empty(), "at {now:?} a packet came after transmit = false");
    skips.transmit += u32::from(!transmit);
    sent
}

/// Every packet crosses in 10 ms; data segment `lost` is dropped once.
fn connection(sink_name: &str, delayed_ack: bool, lost: u64) -> (Skips, Skips, u64) {
    let (out, back) = (
        Wiring { flow: 0, local: Addr(0), peer: Addr(1) },
        Wiring { flow: 0, local: Addr(1), peer: Addr(0) },
    );
    let mut sender = TcpSenderEndpoint::new(TcpSender::new(cfg("sack"), 200), out);
    let mut sc = sink_cfg(sink_name);
    sc.delayed_ack = delayed_ack;
    let mut sink = TcpSinkEndpoint::new(TcpSink::new(sc), back, 1000, 40);
    let (mut at_sender, mut at_sink) = (Skips::default(), Skips::default());
    // (arrival time, towards the sink?, packet), in time order.
    let mut wire: VecDeque<(u64, bool, Packet)> =
        std::iter::from_fn(|| sender.poll_transmit(ms(0))).map(|p| (10, true, p)).collect();
    let mut dropped = false;
    let mut t = 0;
    while let Some((at, to_sink, pkt)) = wire.pop_front() {
        t = at;
        let now = ms(at);
        let sent = if to_sink {
            if pkt.tag.seq == lost && !dropped {
                dropped = true;
                continue;
            }
            input(&mut sink, now, &pkt, &mut at_sink)
        } else {
            input(&mut sender, now, &pkt, &mut at_sender)
        };
        wire.extend(sent.into_iter().map(|p| (at + 10, !to_sink, p)));
        if wire.is_empty() {
            // Only a delayed ACK left to come: its timer fires.
            if let Some(d) = sink.poll_timeout() {
                sink.on_timeout(d);
                let at = d.0 / 1_000_000;
                wire.extend(std::iter::from_fn(|| sink.poll_transmit(d)).map(|p| (at + 10, false, p)));
            }
        }
    }
    assert!(t > 0, "the connection ran");
    (at_sender, at_sink, sender.sender().core().snd_una())
}

#[test]
fn a_false_flag_means_the_poll_finds_nothing() {
    for (delayed_ack, lost) in [(false, 30), (true, 30), (true, u64::MAX)] {
        let (at_sender, at_sink, acked) = connection("sack", delayed_ack, lost);
        assert_eq!(acked, 200, "delayed_ack {delayed_ack}, lost {lost}: every segment acknowledged");
        // The sender reports nothing on a plain ACK (no classifier, no rule that decides).
        assert!(at_sender.reports > 0, "the sender's reports flag was never false");
        // The sender's sending is decided by its poll: its flag is always true.
        assert_eq!(at_sender.transmit, 0);
        // The sink sends nothing after the first segment of a delayed pair, and reports
        // nothing for a segment that arrives out of order.
        assert_eq!(
            at_sink.transmit > 0,
            delayed_ack,
            "delayed_ack {delayed_ack}: sink transmit skips {}",
            at_sink.transmit
        );
        assert_eq!(
            at_sink.reports > 0,
            lost != u64::MAX,
            "lost {lost}: sink report skips {}",
            at_sink.reports
        );
    }
}
