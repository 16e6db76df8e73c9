//! Sobral et al.'s three handover types on the shipped scenarios (scenarios/sobral/): the Mobile
//! IP binding loses exactly what reaches the anchor during its 800 ms, the forced handover loses
//! no data, and the DS active mode lets no repeated ACK pass while it is active.

use vhsim_scenario::{load, Detail, Scenario};
use vhsim_sim::trace::PacketEvent;
use vhsim_sim::{run, RunOutput};

const UH: &str = include_str!("../../../scenarios/sobral/cbr-user-handover.toml");
const FH: &str = include_str!("../../../scenarios/sobral/cbr-forced-handover.toml");
const MIP: &str = include_str!("../../../scenarios/sobral/cbr-mobile-ip.toml");

fn scenario(text: &str, set: &[(&str, &str)]) -> Scenario {
    let o: Vec<(String, String)> = set.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(text, &o).expect("shipped scenario")
}

fn packets(text: &str, set: &[(&str, &str)]) -> RunOutput {
    run(&scenario(text, set), Some(Detail::Packets))
}

#[test]
fn mobile_ip_drops_exactly_the_data_that_reaches_the_anchor_in_the_800_ms() {
    let out = packets(MIP, &[("duration", "305s")]);
    let p = out.traces.packets.as_ref().unwrap();
    // Data leaves the server on core/forward (100 Mb/s, 30 ms, FIFO): reconstruct when each
    // packet reaches the anchor from the send times (1040 B take 83.2 us each).
    let mut free_at = 0u64;
    let mut expected = Vec::new();
    for i in 0..p.len() {
        let e = p.event[i];
        if p.flow[i] != 0 || (e != PacketEvent::Send as u8 && e != PacketEvent::Retransmit as u8) {
            continue;
        }
        let done = p.time_ns[i].max(free_at) + 83_200;
        free_at = done;
        let at_anchor = done + 30_000_000;
        let in_latency = |h: u64| at_anchor >= h && at_anchor < h + 800_000_000;
        if in_latency(100_000_000_000) || in_latency(300_000_000_000) {
            expected.push((p.seq[i], p.time_ns[i]));
        }
    }
    let binding = vhsim_net::DropCause::Binding as u8;
    let dropped: Vec<i64> = (0..p.len()).filter(|&i| p.cause[i] == binding).map(|i| p.seq[i]).collect();
    assert!(dropped.len() > 20, "{} packets lost to the binding", dropped.len());
    assert_eq!(dropped, expected.iter().map(|e| e.0).collect::<Vec<_>>());
    // Nothing else is lost: no other drop cause, and only data is dropped (ACKs go straight
    // from the mobile node by its new interface).
    let f = &out.summary.flows["cbr"];
    assert_eq!(f.drops.values().sum::<u64>(), dropped.len() as u64);
    assert!((0..p.len()).filter(|&i| p.cause[i] == binding).all(|i| p.event[i] == PacketEvent::Drop as u8));
}

#[test]
fn the_forced_handover_loses_no_data_and_completes_when_the_ds_times_out() {
    let out = packets(FH, &[("duration", "310s")]);
    let h = &out.summary.handovers[1];
    assert_eq!(h.kind, "forced");
    // The DS timeout (90 ms) runs from the last acknowledgement before the failure at 300 s.
    assert!(h.done_s > 300.09 - 0.016 && h.done_s < 300.09 + 0.001, "done at {}", h.done_s);
    let ds = &out.summary.agents[0];
    assert_eq!(ds.counts.failures, 1);
    assert!(ds.counts.resent >= 1, "{ds:?}");
    // Every data packet the failed link dropped reached the mobile node by the DS.
    let p = out.traces.packets.as_ref().unwrap();
    let link_down = vhsim_net::DropCause::LinkDown as u8;
    let lost: Vec<i64> = (0..p.len())
        .filter(|&i| p.event[i] == PacketEvent::Drop as u8 && p.cause[i] == link_down)
        .map(|i| p.seq[i])
        .collect();
    assert!(!lost.is_empty());
    let received: std::collections::BTreeSet<i64> =
        (0..p.len()).filter(|&i| p.event[i] == PacketEvent::Receive as u8).map(|i| p.seq[i]).collect();
    assert!(lost.iter().all(|s| received.contains(s)), "dropped {lost:?}, all received");
    // And the sender's timeouts that followed were spurious (ground truth: the DS delivered).
    let f = &out.summary.flows["cbr"];
    assert!(f.rto_count >= 1 && f.spurious_rto_count == f.rto_count, "{f:?}");
}

/// (time ns, ack, passed) of every ACK leaving the mobile node's endpoint, in order.
fn acks_at_mobile(out: &RunOutput) -> Vec<(u64, i64, bool)> {
    let p = out.traces.packets.as_ref().unwrap();
    let agent = vhsim_net::DropCause::Agent as u8;
    let mut v: Vec<(u64, i64, bool)> = Vec::new();
    for i in 0..p.len() {
        if p.event[i] == PacketEvent::AckSend as u8 {
            v.push((p.time_ns[i], p.seq[i], true));
        } else if p.event[i] == PacketEvent::AckDrop as u8 && p.cause[i] == agent {
            // The DS decides at once, so the drop row follows its ack_send row.
            let last = v.last_mut().expect("an ACK is sent before it is destroyed");
            assert_eq!((last.0, last.1), (p.time_ns[i], p.seq[i]));
            last.2 = false;
        }
    }
    v
}

#[test]
fn in_active_mode_no_repeated_ack_passes_and_outside_it_all_do() {
    let active = packets(FH, &[("duration", "303s"), ("agents[1].active_mode", "\"1s\"")]);
    let acks = acks_at_mobile(&active);
    let window = 100_000_000_000..101_000_000_000u64;
    let mut last: Option<i64> = None;
    let mut destroyed = 0;
    for &(t, ack, passed) in &acks {
        if window.contains(&t) {
            // A new (advancing) ACK always passes; a repeated one never does.
            let advancing = last.is_none_or(|l| ack > l);
            assert_eq!(passed, advancing, "at {t} ns ack {ack} after {last:?}");
            destroyed += usize::from(!passed);
            if passed {
                last = Some(ack);
            }
        } else {
            assert!(passed, "outside the active mode every ACK passes ({t} ns, {ack})");
        }
    }
    assert!(destroyed > 3, "the handover to WLAN produced repeated ACKs: {destroyed} destroyed");
    // Repeated ACKs do pass outside the window: after the forced handover at 300 s the DS's
    // copies and the sender's timeout retransmissions make the receiver repeat itself.
    let repeats_outside = acks.windows(2).filter(|w| !window.contains(&w[1].0) && w[1].1 == w[0].1).count();
    assert!(repeats_outside > 0);
    assert_eq!(active.summary.agents[1].counts.dropped as usize, destroyed);
    // Without the repeated ACKs the sender does not enter fast recovery at 100 s.
    let neutral = run(&scenario(UH, &[("duration", "300.5s")]), None);
    let quiet = run(&scenario(UH, &[("duration", "300.5s"), ("agents[1].active_mode", "\"1s\"")]), None);
    let fr = |o: &RunOutput| o.summary.flows["cbr"].tcp.as_ref().unwrap().fast_retransmits;
    assert_eq!((fr(&neutral), fr(&quiet)), (1, 0));
}

#[test]
fn the_active_mode_after_every_handover_also_filters_after_the_return_to_3g() {
    let destroyed_after_300 = |after: &str| {
        let set = [
            ("duration", "303s"),
            ("agents[1].active_mode", "\"2s\""),
            ("agents[1].active_mode_after", after),
        ];
        acks_at_mobile(&packets(FH, &set)).iter().filter(|a| !a.2 && a.0 >= 300_000_000_000).count()
    };
    // The forced handover completes at about 300.09 s; the go-back-N retransmissions then make the
    // receiver repeat its ACKs, which only the filter started by that handover destroys.
    assert_eq!(destroyed_after_300("\"handover_to\""), 0);
    assert!(destroyed_after_300("\"any_handover\"") > 10);
}
