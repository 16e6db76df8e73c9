//! A forced handover's two options (docs/handover.md "Forced handovers"), each combination
//! scripted through the world with the Delivery Service pair: which packets reach the mobile
//! node, when it starts sending by the new interface, and when its first ACK leaves by it.
//!
//! Topology (harness `mobile_world`): cn -(100 Mb/s, 5 ms)- r, r -> mn by `acc_a` (10 Mb/s,
//! 10 ms; interface `a`, initial) and `acc_b` (10 Mb/s, 20 ms; `b`). A NewReno flow carries a
//! 1000-byte write every 10 ms (1040 B segments; by 1.9 s segment k leaves at k x 10 ms, the
//! window being open). Segment k reaches r at k x 10 ms + 5.0832 ms, finishes serialization on
//! acc_a 0.832 ms later and reaches mn at k x 10 ms + 15.9152 ms; mn's 40 B DS acknowledgement
//! is back at r 10.032 ms after that. `acc_a` fails at 2 s; the anchor's DS times out 50 ms after
//! its last acknowledgement.
//!
//! At 2 s segment 199 is propagating on acc_a (it arrives at 2005.9152 ms), the DS
//! acknowledgement of 198 is propagating on the uplink (due at r at 2005.9472 ms), 200.. reach r
//! after the failure.

mod harness;

use harness::mobile_world;
use vhsim_scenario::Detail;
use vhsim_sim::trace::PacketEvent;
use vhsim_sim::{run, RunOutput};

const FLOW: &str = "[flows.f]\nfrom = \"cn\"\nto = \"mn\"\nscheme = \"newreno\"\nstop = \"4s\"\n\
                    app = { kind = \"cbr\", interval = \"10ms\", packet_size = \"1000B\" }\n";
const AGENTS: &str = "[[agents]]\nnode = \"r\"\nkind = \"delivery_service\"\ninterface = \"a\"\ntimeout = \"50ms\"\n\
                      [[agents]]\nnode = \"mn\"\nkind = \"delivery_service\"\ninterface = \"a\"\n";
const MS: f64 = 1e-3;

fn forced(options: &str) -> RunOutput {
    let timeline = format!(
        "[[timeline]]\nat = \"2s\"\naction = \"handover\"\nkind = \"forced\"\ndetection = \"1s\"\nto = \"b\"\n{options}\n"
    );
    run(&mobile_world(FLOW, "", &[("agents", AGENTS), ("timeline", &timeline)]), Some(Detail::Packets))
}

/// Times (s) of the packet-trace rows of `event` for `seq` (any seq if `None`), with their path.
fn rows(out: &RunOutput, event: PacketEvent, seq: Option<i64>) -> Vec<(f64, i8)> {
    let p = out.traces.packets.as_ref().unwrap();
    (0..p.len())
        .filter(|&i| p.event[i] == event as u8 && seq.is_none_or(|s| p.seq[i] == s) && p.flow[i] == 0)
        .map(|i| (p.time_ns[i] as f64 / 1e9, p.path[i]))
        .collect()
}

/// When the first ACK leaves the mobile node by interface `b` (path 1), and when the last one
/// left by `a` before it.
fn ack_switch(out: &RunOutput) -> (f64, f64) {
    let acks = rows(out, PacketEvent::AckSend, None);
    let first_b = acks.iter().find(|a| a.1 == 1).expect("an ACK by b").0;
    let last_a = acks.iter().filter(|a| a.1 == 0 && a.0 < first_b).map(|a| a.0).fold(0.0, f64::max);
    (first_b, last_a)
}

#[track_caller]
fn close(actual: f64, expected: f64, what: &str) {
    assert!((actual - expected).abs() < 1e-6, "{what}: {actual} s, expected {expected} s");
}

/// The DS's completion: 50 ms after the last acknowledgement that reached r.
fn done(out: &RunOutput) -> f64 {
    out.summary.handovers[0].done_s
}

#[test]
fn lost_at_completion_the_default_loses_what_propagates_and_acks_by_b_after_the_timeout() {
    let out = forced("");
    // The last DS acknowledgement to reach r is 197's (198's died on the uplink).
    close(done(&out), 1.97 + 15.9152 * MS + 10.032 * MS + 50.0 * MS, "completion");
    // 199 died on acc_a (cause link_down at its arrival); the DS sends it again by b.
    let p = out.traces.packets.as_ref().unwrap();
    let mut died: Vec<i64> = (0..p.len())
        .filter(|&i| p.event[i] == PacketEvent::Drop as u8 && p.link[i] == 2)
        .map(|i| p.seq[i])
        .collect();
    died.sort_unstable();
    // 199 on the link, 200..=204 offered to it before the completion (204 reaches r at 2045.08 ms).
    assert_eq!(died, (199..=204).collect::<Vec<_>>());
    let rx199 = rows(&out, PacketEvent::Receive, Some(199));
    assert_eq!(rx199.len(), 1);
    // The resend leaves r at the completion, 198 first (its DS acknowledgement died on the
    // uplink), then 199: 0.832 ms each on acc_b, and 20 ms.
    let resend_at = done(&out) + 0.832 * MS + 20.0 * MS;
    close(rx199[0].0, resend_at + 0.832 * MS, "199 by b");
    // The mobile node sends by b only from the completion; nothing reaches it meanwhile, so
    // its first ACK by b answers the resent 198 (a duplicate).
    let (first_b, last_a) = ack_switch(&out);
    close(first_b, resend_at, "first ACK by b");
    assert!(last_a < 2.0, "the last ACK by a left before the failure: {last_a}");
}

#[test]
fn delivered_at_completion_the_segment_on_the_link_arrives_but_its_acks_die_on_the_uplink() {
    let out = forced("in_flight = \"delivered\"");
    // 198's DS acknowledgement, propagating at 2 s, still reaches r: the timeout starts there.
    close(done(&out), 1.98 + 15.9152 * MS + 10.032 * MS + 50.0 * MS, "completion");
    // 199 arrives by a after the failure; the mobile node still sends by a, so both its TCP
    // ACK and its DS acknowledgement are lost on the failed uplink, and the DS sends 199 again.
    let rx199 = rows(&out, PacketEvent::Receive, Some(199));
    assert_eq!(rx199.len(), 2, "{rx199:?}");
    close(rx199[0].0, 1.99 + 15.9152 * MS, "199 by a");
    assert_eq!(rx199[0].1, 0);
    let resend_at = done(&out) + 0.832 * MS + 20.0 * MS;
    close(rx199[1].0, resend_at, "199 again by b");
    let ack_drops = rows(&out, PacketEvent::AckDrop, None);
    assert!(ack_drops.iter().any(|d| (d.0 - rx199[0].0).abs() < 1e-9), "the ACK of 199 died at once: {ack_drops:?}");
    let (first_b, _) = ack_switch(&out);
    close(first_b, resend_at, "first ACK by b");
}

#[test]
fn lost_at_failure_the_mobile_node_sends_by_b_from_the_failure_but_has_nothing_to_ack_until_the_resend() {
    let out = forced("uplink = \"at_failure\"");
    close(done(&out), 1.97 + 15.9152 * MS + 10.032 * MS + 50.0 * MS, "completion");
    // The DS acknowledgements still leave by a (from a's care-of address): the timeout is the
    // default's. Nothing reaches the mobile node before the resend (198 first, a duplicate).
    let resend_at = done(&out) + 0.832 * MS + 20.0 * MS;
    assert!(rows(&out, PacketEvent::Receive, None).iter().all(|r| r.0 < 2.0 || r.0 >= resend_at - 1e-9));
    let (first_b, last_a) = ack_switch(&out);
    close(first_b, resend_at, "first ACK by b");
    assert!(last_a < 2.0);
}

#[test]
fn delivered_at_failure_the_segment_on_the_link_is_acknowledged_by_b_at_once() {
    let out = forced("in_flight = \"delivered\"\nuplink = \"at_failure\"");
    // The DS timeout is the one of `delivered` (198's acknowledgement arrives), and 199's DS
    // acknowledgement still dies on a's uplink: 199 is sent again, a duplicate.
    close(done(&out), 1.98 + 15.9152 * MS + 10.032 * MS + 50.0 * MS, "completion");
    let rx199 = rows(&out, PacketEvent::Receive, Some(199));
    assert_eq!(rx199.len(), 2);
    // Its TCP ACK leaves by b when it arrives, 2005.9152 ms: the first ACK by b.
    let (first_b, last_a) = ack_switch(&out);
    close(first_b, 1.99 + 15.9152 * MS, "first ACK by b");
    assert!(last_a < 2.0);
    assert!(rows(&out, PacketEvent::AckDrop, None).is_empty(), "no TCP ACK is lost");
}

#[test]
fn the_mobile_node_sends_by_b_from_the_failure_or_from_the_completion() {
    // A datagram flow from the mobile node (one every 10 ms from 0 s, flow 1) shows the uplink:
    // what it sends between the failure and the DS's completion is lost on a's failed uplink
    // (`at_completion`), or leaves by b and arrives (`at_failure`).
    let up = "[flows.up]\nfrom = \"mn\"\nto = \"cn\"\nprotocol = \"datagram\"\nstop = \"4s\"\n\
              app = { kind = \"cbr\", interval = \"10ms\", packet_size = \"1000B\" }\n";
    let flows = format!("{FLOW}{up}");
    for (option, switches_at_failure) in [("", false), ("uplink = \"at_failure\"", true)] {
        let timeline = format!(
            "[[timeline]]\nat = \"2s\"\naction = \"handover\"\nkind = \"forced\"\ndetection = \"1s\"\nto = \"b\"\n{option}\n"
        );
        let out =
            run(&mobile_world(&flows, "", &[("agents", AGENTS), ("timeline", &timeline)]), Some(Detail::Packets));
        let done = done(&out);
        let p = out.traces.packets.as_ref().unwrap();
        let between: Vec<usize> = (0..p.len())
            .filter(|&i| p.flow[i] == 1 && p.event[i] == PacketEvent::Send as u8)
            .filter(|&i| (2e9..done * 1e9).contains(&(p.time_ns[i] as f64)))
            .collect();
        assert_eq!(between.len(), 5, "datagrams 200..=204 sent in [2 s, {done} s)");
        let seqs: Vec<i64> = between.iter().map(|&i| p.seq[i]).collect();
        let received: Vec<i64> = (0..p.len())
            .filter(|&i| p.flow[i] == 1 && p.event[i] == PacketEvent::Receive as u8 && seqs.contains(&p.seq[i]))
            .map(|i| p.seq[i])
            .collect();
        if switches_at_failure {
            assert!(between.iter().all(|&i| p.path[i] == 1), "sent by b");
            assert_eq!(received, seqs);
        } else {
            assert!(between.iter().all(|&i| p.path[i] == 0), "sent by a");
            assert!(received.is_empty(), "lost on a's failed uplink: {received:?}");
        }
    }
}

#[test]
fn what_propagates_at_the_failure_keeps_its_fate_when_the_handover_completes_before_it_arrives() {
    // No agent: the handover completes at `detection` = 3 ms, restoring acc_a before segment 199
    // (propagating at 2 s) arrives at 2005.9152 ms. `lost` loses it all the same; `delivered`
    // delivers it.
    for (option, arrives) in [("in_flight = \"lost\"", false), ("in_flight = \"delivered\"", true)] {
        let timeline = format!(
            "[[timeline]]\nat = \"2s\"\naction = \"handover\"\nkind = \"forced\"\ndetection = \"3ms\"\nto = \"b\"\n{option}\n"
        );
        let out = run(&mobile_world(FLOW, "", &[("timeline", &timeline)]), Some(Detail::Packets));
        assert_eq!(done(&out), 2.003);
        let rx199 = rows(&out, PacketEvent::Receive, Some(199));
        let first = rx199.first().map(|r| r.0);
        if arrives {
            close(first.expect("199 arrives"), 1.99 + 15.9152 * MS, "199 by a");
        } else {
            assert!(first.is_none_or(|t| t > 2.1), "199 is lost on acc_a and only its retransmission arrives: {rx199:?}");
        }
    }
}
