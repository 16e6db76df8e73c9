//! The transport-neutral core (issue #10): a second transport through the same world, addresses
//! and the anchor's binding, link events at the mobile node, node agents.

mod harness;

use harness::{datagram_flow, events_of, mobile_world, Pair};
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::LinkEvent;
use vhsim_scenario::Detail;
use vhsim_sim::build::build;
use vhsim_sim::run;
use vhsim_sim::trace::PacketEvent;

#[test]
fn a_tcp_pair_repairs_a_scripted_loss_by_fast_retransmit() {
    let out = Pair::tcp().drop_seqs(&[5]).run("2s");
    let retx = events_of(&out, PacketEvent::Retransmit);
    assert_eq!(retx.iter().map(|r| r.1).collect::<Vec<_>>(), [5], "segment 5 once, nothing else");
    let f = &out.summary.flows["f"];
    assert_eq!((f.retransmissions, f.rto_count, f.tcp.as_ref().unwrap().fast_retransmits), (1, 0, 1));
    assert_eq!(f.drops["error_model"], 1);
}

#[test]
fn the_datagram_transport_runs_through_the_same_world_routes_observers_and_summary() {
    // 100 datagrams a second for 2 s over the same two-node pair, three scripted losses.
    let out = Pair::datagram().drop_seqs(&[3, 50, 51]).run("2.1s");
    let sent = events_of(&out, PacketEvent::Send);
    let received: Vec<u64> = events_of(&out, PacketEvent::Receive).iter().map(|r| r.1).collect();
    assert_eq!(sent.len(), 200);
    assert_eq!(received.len(), 197);
    assert!(![3, 50, 51].iter().any(|s| received.contains(s)));
    let f = &out.summary.flows["f"];
    assert_eq!((f.segments_sent, f.retransmissions, f.rto_count), (200, 0, 0));
    assert_eq!(f.delivered_bytes, 197 * 1000);
    assert_eq!(f.drops["error_model"], 3);
    assert!(f.tcp.is_none());
    assert_eq!(out.summary.links["ab/forward"].packets_sent, 200);
    // Packet sizes carry the datagram header.
    let p = out.traces.packets.as_ref().unwrap();
    assert!(p.size.iter().zip(&p.event).filter(|(_, &e)| e == PacketEvent::Send as u8).all(|(&s, _)| s == 1028));
}

#[test]
fn the_mobile_node_is_reachable_on_both_interfaces_at_once_by_their_care_of_addresses() {
    let flows = [datagram_flow("to_a", "to_interface = \"a\""), datagram_flow("to_b", "to_interface = \"b\"")].concat();
    let sc = mobile_world(&flows, "", &[]);
    let out = run(&sc, Some(Detail::Packets));
    for name in ["to_a", "to_b"] {
        let f = &out.summary.flows[name];
        assert_eq!(f.delivered_bytes, 400 * 1000, "{name}: every datagram of 4 s at 100/s arrives");
    }
    // Each flow's packets crossed its own interface's access link, at the same times.
    assert_eq!(out.summary.links["acc_a/forward"].packets_sent, 400);
    assert_eq!(out.summary.links["acc_b/forward"].packets_sent, 400);
    let p = out.traces.packets.as_ref().unwrap();
    let paths = |flow: u32| -> Vec<i8> {
        (0..p.len()).filter(|&i| p.flow[i] == flow && p.event[i] == PacketEvent::Receive as u8).map(|i| p.path[i]).collect()
    };
    assert!(paths(0).iter().all(|&x| x == 0) && paths(1).iter().all(|&x| x == 1));
}

/// A datagram flow to the home address, a handover at 2 s and a binding latency of 800 ms.
fn binding_case(old_path: &str) -> vhsim_sim::RunOutput {
    let mobile = format!("binding = {{ latency = \"800ms\", old_path = \"{old_path}\" }}");
    let timeline = "[[timeline]]\nat = \"2s\"\naction = \"handover\"\nkind = \"make_before_break\"\nto = \"b\"\n";
    let sc = mobile_world(&datagram_flow("home", ""), &mobile, &[("timeline", timeline)]);
    run(&sc, Some(Detail::Packets))
}

#[test]
fn a_binding_latency_drops_exactly_the_packets_for_the_old_care_of_address() {
    let out = binding_case("drop");
    let p = out.traces.packets.as_ref().unwrap();
    let binding: Vec<usize> = (0..p.len()).filter(|&i| p.cause[i] == vhsim_net::DropCause::Binding as u8).collect();
    // Datagram k leaves the CN at k * 10 ms and reaches the anchor 5 ms + 82.24 us later
    // (1028 B at 100 Mb/s): those arriving in [2 s, 2.8 s) are k = 200 ..= 279.
    assert_eq!(binding.len(), 80);
    let seqs: Vec<i64> = binding.iter().map(|&i| p.seq[i]).collect();
    assert_eq!(seqs, (200..280).collect::<Vec<i64>>());
    assert!(binding.iter().all(|&i| (2_000_000_000..2_800_000_000).contains(&p.time_ns[i])));
    let f = &out.summary.flows["home"];
    assert_eq!((f.drops["binding"], f.drops["link_down"], f.drops["queue_overflow"]), (80, 0, 0));
    assert_eq!(f.delivered_bytes, (400 - 80) * 1000);
    assert_eq!(out.summary.binding_forwarded, 0);
}

#[test]
fn a_forwarding_binding_update_loses_nothing_and_counts_what_it_forwarded() {
    let out = binding_case("forward");
    let f = &out.summary.flows["home"];
    assert_eq!(f.drops["binding"], 0);
    assert_eq!(f.delivered_bytes, 400 * 1000);
    assert_eq!(out.summary.binding_forwarded, 80);
}

#[test]
fn endpoints_on_the_mobile_node_see_each_link_event_once_at_its_time_and_the_remote_none() {
    let timeline = "[[timeline]]\nat = \"2s\"\naction = \"handover\"\nkind = \"break_before_make\"\ngap = \"300ms\"\nto = \"b\"\n";
    let sc = mobile_world(&datagram_flow("f", ""), "warning = \"150ms\"", &[("timeline", timeline)]);
    let mut world = build(&sc, Detail::Summary);
    world.run();
    let t = |ms: u64| SimTime::ZERO + SimDuration::from_millis(ms);
    let seen = world.endpoint(0, 1).datagram_link_events().unwrap().to_vec();
    assert_eq!(
        seen,
        vec![
            (t(1850), LinkEvent::Imminent { eta: SimDuration::from_millis(150), old: 0, new: 1 }),
            (t(2000), LinkEvent::Down(0)),
            (t(2300), LinkEvent::Up(1)),
            (t(2300), LinkEvent::Completed { old: 0, new: 1 }),
        ]
    );
    assert!(world.endpoint(0, 0).datagram_link_events().unwrap().is_empty(), "the remote sender sees none");
}

#[test]
fn a_holding_agent_releases_every_packet_in_order_and_loses_none() {
    let agent = "[[agents]]\nnode = \"r\"\nkind = \"hold\"\nkinds = [\"data\"]\nfrom = \"1s\"\nuntil = \"1.5s\"\n";
    let sc = mobile_world(&datagram_flow("f", ""), "", &[("agents", agent)]);
    let out = run(&sc, Some(Detail::Packets));
    let received: Vec<u64> = events_of(&out, PacketEvent::Receive).iter().map(|r| r.1).collect();
    assert_eq!(received, (0..400).collect::<Vec<u64>>(), "all, in order");
    let a = &out.summary.agents[0];
    // Datagrams reach r at k * 10 ms + 5.08 ms: k = 100 ..= 149 fall in [1 s, 1.5 s).
    assert_eq!((a.counts.held, a.counts.released, a.counts.dropped), (50, 50, 0));
    let at = |seq: u64| events_of(&out, PacketEvent::Receive).into_iter().find(|r| r.1 == seq).unwrap().0;
    assert!(at(99) < 1_500_000_000 && at(100) >= 1_500_000_000, "held ones arrive after the release");
}

#[test]
fn a_drop_filter_agent_drops_exactly_the_matching_packets() {
    let agent = "[[agents]]\nnode = \"r\"\nkind = \"drop_filter\"\nflow = \"f\"\nseqs = [5, 7, 9]\n";
    let sc = mobile_world(&datagram_flow("f", ""), "", &[("agents", agent)]);
    let out = run(&sc, Some(Detail::Packets));
    let dropped: Vec<u64> = events_of(&out, PacketEvent::Drop).iter().map(|r| r.1).collect();
    assert_eq!(dropped, [5, 7, 9]);
    assert_eq!(out.summary.flows["f"].drops["agent"], 3);
    assert_eq!(out.summary.agents[0].counts.data, 400);
}
