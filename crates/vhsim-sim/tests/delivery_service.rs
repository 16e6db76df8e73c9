//! The Delivery Service of Sobral et al. §2.2 through the world: an acknowledged service on one
//! interface's path, its acknowledgements as real packets on the uplink, the forced handover it
//! triggers, and a forced handover without it.
//!
//! Topology (harness `mobile_world`): cn -(100 Mb/s, 5 ms)- r, r -> mn by `acc_a` (10 Mb/s,
//! 10 ms; interface `a`, initial) and `acc_b` (10 Mb/s, 20 ms; interface `b`). A datagram flow
//! sends datagram k (1000 B + 28 B header) at k * 10 ms for k = 0..400 to the mobile node's
//! home address. Datagram k reaches r at k*10 ms + 5.08224 ms and, on `a`, the mobile node at
//! k*10 ms + 15.90464 ms; the DS acknowledgement (40 B) is back at r 10.032 ms later.

mod harness;

use harness::{datagram_flow, mobile_world};
use std::collections::BTreeMap;
use vhsim_scenario::Detail;
use vhsim_sim::trace::PacketEvent;
use vhsim_sim::{run, RunOutput};

/// The DS pair guarding interface `a` with this timeout, and extra keys for the mobile side.
fn ds_agents(timeout: &str, mobile_extra: &str) -> String {
    format!(
        "[[agents]]\nnode = \"r\"\nkind = \"delivery_service\"\ninterface = \"a\"\ntimeout = \"{timeout}\"\n\
         [[agents]]\nnode = \"mn\"\nkind = \"delivery_service\"\ninterface = \"a\"\n{mobile_extra}\n"
    )
}

const FORCED_AT_2S: &str =
    "[[timeline]]\nat = \"2s\"\naction = \"handover\"\nkind = \"forced\"\ndetection = \"1s\"\nto = \"b\"\n";

fn run_with(sections: &[(&str, &str)]) -> RunOutput {
    run(&mobile_world(&datagram_flow("home", ""), "", sections), Some(Detail::Packets))
}

/// (time ns, path) of every receive of each data unit.
fn receives(out: &RunOutput) -> BTreeMap<i64, Vec<(u64, i8)>> {
    let p = out.traces.packets.as_ref().unwrap();
    let mut m: BTreeMap<i64, Vec<(u64, i8)>> = BTreeMap::new();
    for i in (0..p.len()).filter(|&i| p.event[i] == PacketEvent::Receive as u8) {
        m.entry(p.seq[i]).or_default().push((p.time_ns[i], p.path[i]));
    }
    m
}

#[test]
fn packets_on_the_failed_path_reach_the_mobile_node_once_in_order_by_the_other_path_after_the_timeout() {
    let agents = ds_agents("50ms", "");
    let out = run_with(&[("agents", &agents), ("timeline", FORCED_AT_2S)]);
    // The last acknowledgement reaching r before acc_a fails at 2 s is that of datagram 197
    // (1.97 s + 25.93664 ms); datagram 198's is on the failed uplink, 199 on the downlink.
    // The timeout expires 50 ms after the last acknowledgement: the forced handover completes.
    let done = out.summary.handovers[0].done_s;
    let last_ack = 1.97 + 0.015_904_64 + 0.010_032;
    assert!((done - (last_ack + 0.050)).abs() < 1e-6, "DS declared the failure at {done}");
    assert_eq!(out.summary.handovers[0].kind, "forced");
    // Kept then: 198 (delivered, unacknowledged) .. 204 (the last to reach r before `done`).
    let ds = &out.summary.agents[0];
    assert_eq!((ds.kind.as_str(), ds.counts.failures, ds.counts.resent), ("delivery_service", 1, 7));
    let rx = receives(&out);
    assert_eq!(rx.len(), 400, "every datagram reaches the mobile node");
    for (&seq, copies) in &rx {
        let expected = if seq == 198 { 2 } else { 1 };
        assert_eq!(copies.len(), expected, "datagram {seq}: {copies:?}");
    }
    // 199..=204 (dropped on the failed link) arrive once each, by `b`, after the timeout, in order.
    let resent: Vec<(u64, i8)> = (199..=204).map(|s| rx[&s][0]).collect();
    assert!(resent.iter().all(|&(t, path)| path == 1 && t as f64 / 1e9 > done), "{resent:?}");
    assert!(resent.windows(2).all(|w| w[0].0 < w[1].0), "in order: {resent:?}");
    // 198 arrived by `a` before the failure, and its kept copy again by `b` (its acknowledgement
    // was lost on the failed uplink): a duplicate, not a loss.
    assert_eq!(rx[&198].iter().map(|c| c.1).collect::<Vec<_>>(), [0, 1]);
    // What the failed link dropped: data 199..=204 and the acknowledgement of 198.
    let p = out.traces.packets.as_ref().unwrap();
    let dropped = |ev: PacketEvent| -> Vec<i64> {
        (0..p.len())
            .filter(|&i| p.event[i] == ev as u8 && p.cause[i] == vhsim_net::DropCause::LinkDown as u8)
            .map(|i| p.seq[i])
            .collect()
    };
    let mut data = dropped(PacketEvent::Drop);
    data.sort_unstable();
    assert_eq!(data, (199..=204).collect::<Vec<_>>());
    assert_eq!(dropped(PacketEvent::ControlDrop).len(), 1);
    // Every later datagram takes `b` directly.
    assert!((205..400).all(|s| rx[&s][0].1 == 1));
}

#[test]
fn ds_acknowledgements_are_packets_on_the_uplink_and_losing_some_is_harmless() {
    // 20% of what the mobile node sends on acc_a is lost: acknowledgements are cumulative by
    // position, so a later one covers a lost one and the 90 ms timeout does not expire while
    // datagrams flow. Only after the last datagram can a lost acknowledgement go uncovered:
    // then the timeout sends the unacknowledged tail again (by `a`, no handover being under way).
    let agents = ds_agents("90ms", "ack_size = \"64B\"");
    let lossy = "[links.acc_a.reverse]\nerror = { kind = \"bernoulli\", p = 0.2 }\n";
    let out = run_with(&[("agents", &agents), ("lossy", lossy)]);
    let p = out.traces.packets.as_ref().unwrap();
    let rows = |ev: PacketEvent| (0..p.len()).filter(move |&i| p.event[i] == ev as u8);
    let sent: Vec<usize> = rows(PacketEvent::ControlSend).collect();
    assert_eq!(sent.len(), rows(PacketEvent::Receive).count(), "one acknowledgement per datagram received");
    assert!(sent.iter().all(|&i| p.size[i] == 64 && p.flow[i] == u32::MAX && p.path[i] == 0));
    // Link directions in file order: core/forward, core/reverse, acc_a/forward, acc_a/reverse.
    assert!(sent.iter().all(|&i| p.link[i] == 3), "sent on acc_a's uplink");
    let lost = rows(PacketEvent::ControlDrop)
        .filter(|&i| p.cause[i] == vhsim_net::DropCause::ErrorModel as u8)
        .count();
    assert!((50..=110).contains(&lost), "about 20% of 400 lost: {lost}");
    assert_eq!(
        rows(PacketEvent::ControlReceive).count(),
        sent.len() - lost,
        "the rest reach the anchor's DS"
    );
    let ds = &out.summary.agents[0];
    assert_eq!(ds.counts.consumed as usize, sent.len() - lost);
    assert!(ds.counts.failures <= 1, "{ds:?}");
    let rx = receives(&out);
    assert_eq!(rx.len(), 400);
    let twice: Vec<i64> = rx.iter().filter(|(_, c)| c.len() > 1).map(|(&s, _)| s).collect();
    assert!(twice.iter().all(|&s| s >= 390), "only the tail is sent again: {twice:?}");
    assert_eq!(twice.len() as u64, ds.counts.resent);
}

#[test]
fn an_acknowledgement_delayed_past_the_timeout_is_a_false_alarm_that_duplicates_but_loses_nothing() {
    // The uplink takes 200 ms: every acknowledgement comes after the 50 ms timeout. With no
    // forced handover under way the world changes nothing; the DS sends its copies again by
    // the path the binding names (still `a`), so datagrams arrive twice, none is lost.
    let agents = ds_agents("50ms", "");
    let slow = "[links.acc_a.reverse]\ndelay = \"200ms\"\n";
    let out = run_with(&[("agents", &agents), ("slow", slow)]);
    let ds = &out.summary.agents[0];
    assert!(ds.counts.failures > 10 && ds.counts.resent >= ds.counts.failures, "{ds:?}");
    assert!(out.summary.handovers.is_empty());
    let rx = receives(&out);
    assert_eq!(rx.len(), 400);
    assert!(rx.values().all(|c| c.iter().all(|x| x.1 == 0)), "everything by `a`");
    assert!(rx.values().filter(|c| c.len() > 1).count() as u64 >= ds.counts.failures);
}

#[test]
fn a_forced_handover_without_an_agent_completes_at_its_detection_time() {
    let timeline = FORCED_AT_2S.replace("detection = \"1s\"", "detection = \"300ms\"");
    let out = run_with(&[("timeline", &timeline)]);
    let h = &out.summary.handovers[0];
    assert_eq!((h.kind.as_str(), h.start_s, h.done_s), ("forced", 2.0, 2.3));
    // Like break-before-make: what reaches the failed link in [2 s, 2.3 s) is lost.
    let rx = receives(&out);
    let lost: Vec<i64> = (0..400).filter(|s| !rx.contains_key(s)).collect();
    // 199 is on acc_a at 2 s; 200..=229 reach r before 2.3 s.
    assert_eq!(lost, (199..=229).collect::<Vec<_>>());
    assert_eq!(out.summary.flows["home"].drops["link_down"], 31);
}

#[test]
fn the_packet_age_timer_fires_when_the_oldest_kept_copy_is_timeout_old() {
    // Datagram 198 was kept when r forwarded it (1985.08224 ms); its acknowledgement died on
    // the failed uplink, so it stays the oldest copy: the DS fires 50 ms later, 10.86 ms before
    // the restart-on-progress timer would (50 ms after 197's acknowledgement, 1995.9472 ms).
    let agents = ds_agents("50ms", "").replace("timeout = \"50ms\"\n", "timeout = \"50ms\"\ntimer = \"packet_age\"\n");
    let out = run_with(&[("agents", &agents), ("timeline", FORCED_AT_2S)]);
    let done = out.summary.handovers[0].done_s;
    assert!((done - (1.98 + 0.005_082_24 + 0.050)).abs() < 1e-9, "done at {done}");
    let rx = receives(&out);
    assert_eq!(rx.len(), 400, "every datagram reaches the mobile node");
    // While datagrams flow, each copy is acknowledged 20.9 ms after it was kept: no false alarm.
    assert_eq!(out.summary.agents[0].counts.failures, 1);
}

#[test]
fn a_full_buffer_forwards_without_a_copy_and_such_packets_are_not_protected() {
    // A copy lives 20.85 ms (kept at k x 10 ms + 5.08 ms, freed by the acknowledgement at
    // + 25.94 ms), so while the path works at most three copies are kept at once: 3084 B, which
    // 3100 B hold.
    let agents = ds_agents("50ms", "").replace("timeout = \"50ms\"\n", "timeout = \"50ms\"\nbuffer = \"3100B\"\n");
    let out = run_with(&[("agents", &agents), ("timeline", FORCED_AT_2S)]);
    let ds = &out.summary.agents[0].counts;
    // After the failure the acknowledgements stop: 198, 199 and 200 fill the buffer, and
    // 201..=204 (reaching r before the timeout) go without a copy and die on the failed link.
    assert_eq!((ds.unkept, ds.resent), (4, 3), "{ds:?}");
    let rx = receives(&out);
    let lost: Vec<i64> = (0..400).filter(|s| !rx.contains_key(s)).collect();
    assert_eq!(lost, (201..=204).collect::<Vec<_>>());
}

#[test]
fn one_acknowledgement_per_two_packets_halves_the_acknowledgements_and_still_detects_the_failure() {
    let agents = ds_agents("50ms", "ack_every = 2\nack_delay = \"15ms\"");
    let out = run_with(&[("agents", &agents), ("timeline", FORCED_AT_2S)]);
    let p = out.traces.packets.as_ref().unwrap();
    let acks = (0..p.len()).filter(|&i| p.event[i] == PacketEvent::ControlSend as u8).count();
    // 400 datagrams (+ the resent ones after the failure, by b, not acknowledged): about 200
    // acknowledgements before the failure, pairs 0-1, 2-3, ...
    assert!((95..=105).contains(&acks), "{acks} acknowledgements before the failure");
    assert_eq!(out.summary.agents[0].counts.failures, 1, "no false alarm while datagrams flow");
    assert_eq!(receives(&out).len(), 400);
    // The last acknowledgement reaching r names 197 (the pair 196-197; 198-199's died): the
    // timeout runs from it, as with one acknowledgement per packet.
    let done = out.summary.handovers[0].done_s;
    assert!((done - (1.97 + 0.015_904_64 + 0.010_032 + 0.050)).abs() < 1e-6, "done at {done}");
}
