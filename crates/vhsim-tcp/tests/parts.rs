//! The machinery every part shares: traced variables (each part reports its own), the shared
//! estimators, the toy window law that proves a scheme is one file, and the sink's policy axis.

mod common;

use common::*;
use vhsim_core::{SimDuration, TracedVar};
use vhsim_tcp::TxCause::{FastRetransmit, Rto};
use vhsim_tcp::{CaState, SinkLinkEvent, TcpSink};

fn vars(t: &Script) -> Vec<TracedVar> {
    let mut v = Vec::new();
    t.tcp.traced_vars(&mut v);
    v
}

#[test]
fn the_sender_reports_its_variables_and_ld_its_own_only_when_in_use() {
    let mut t = Script::new(cfg("sack").iw(4));
    t.send_all(0);
    t.ack(100, 1);
    let v = vars(&t);
    let names: Vec<(&str, &str, bool)> = v.iter().map(|x| (x.name, x.unit, x.starts_row)).collect();
    assert_eq!(
        names,
        [
            ("cwnd", "pkts", true),
            ("ssthresh", "pkts", true),
            ("srtt", "s", false),
            ("rto", "s", true),
            ("flight", "pkts", true),
            ("state", "code", true)
        ]
    );
    let values: Vec<f64> = v.iter().map(|x| x.value).collect();
    assert_eq!(values, [5.0, 20.0, 0.1, 0.3, 5.0, CaState::Open as u8 as f64], "1..6 outstanding");

    let mut t = Script::new(cfg("dcr-ld").iw(4));
    t.send_all(0);
    let v = vars(&t);
    assert_eq!((v[6].name, v[7].name), ("ld_tcur", "ld_threshold"));
    assert!(v[6].value.is_nan() && v[7].value.is_nan(), "no sample yet");
    assert!(vars(&t)[2].value.is_nan(), "no srtt yet");
    t.ack(96, 1);
    let v = vars(&t);
    let ld = t.tcp.loss_classifier().ld().unwrap();
    assert_eq!((v[6].value, v[7].value), (ld.tcur().unwrap(), ld.threshold().unwrap()));
    assert_eq!(v[6].value, 0.096);
}

#[test]
fn the_shared_estimators_count_rounds_deliveries_and_the_base_rtt() {
    // Westwood+ reads the delivery rate, so its sender keeps it (a window law that reads none
    // keeps none: issue #29, memory per flow).
    assert!(Script::new(cfg("sack")).tcp.core().estimators().bandwidth.is_none());
    let mut t = Script::new(cfg("westwood").iw(4));
    t.send_all(0);
    t.ack(100, 2); // round 1 ends (segment 0 acknowledged); 0..6 sent by now
    t.ack(120, 4);
    t.ack_sack(130, 4, &[(5, 6)]); // a dupACK: one more segment delivered
    t.ack(140, 7); // round 2 ends (segment 6 acknowledged)
    let e = t.tcp.core().estimators();
    let bandwidth = e.bandwidth.as_deref().expect("a Westwood+ sender keeps the delivery rate");
    assert_eq!(e.rounds.count(), 2);
    assert_eq!(bandwidth.delivered(), 7);
    // Per-ACK samples: 100 ms (segment 1), 120 ms (segment 3); the ACK after the dupACK
    // fills a hole and gives none.
    assert_eq!(e.base_rtt.get(), Some(SimDuration::from_millis(100)));
    // Round 2 lasted 40 ms and delivered 5 segments of 1000 B: 1 Mbit/s, the first sample.
    assert_eq!(bandwidth.estimate(), Some(1_000_000.0));
}

#[test]
fn the_toy_constant_window_law_holds_its_window_through_losses_and_timeouts() {
    let c = cfg("sack").set("congestion_control = { kind = \"constant\", window = 3 }");
    let mut t = Script::new(c);
    assert_eq!(t.send_all(0), new(0..3), "cwnd = 3, not the initial window 2");
    assert_eq!(t.ack(100, 1), new([3]));
    assert_eq!((t.cwnd(), t.ssthresh()), (3.0, 3.0));
    // Segment 1 lost: three dupACKs, fast retransmit; the window law keeps 3.
    t.ack_sack(200, 1, &[(2, 3)]);
    t.ack_sack(201, 1, &[(2, 4)]);
    let sent = t.ack_sack(202, 1, &[(2, 5)]);
    assert_eq!(sent.first(), Some(&tx(1, FastRetransmit)));
    assert_eq!(t.cwnd(), 3.0);
    let (_, sent) = t.fire_due_timer();
    assert_eq!(sent.first().map(|s| s.cause), Some(Rto));
    assert_eq!(t.cwnd(), 3.0);
}

#[test]
fn the_standard_sink_policy_ignores_link_events_and_advertises_the_configured_window() {
    let mut s = sink_cfg("sack");
    s.advertised_window = 12;
    let mut sink = TcpSink::new(s);
    for ev in [
        SinkLinkEvent::Imminent { eta: SimDuration::from_millis(50) },
        SinkLinkEvent::Down,
        SinkLinkEvent::Up,
        SinkLinkEvent::Completed,
    ] {
        assert!(sink.on_link_event(ms(1), ev).is_empty(), "{ev:?}");
    }
    assert_eq!(sink.on_data(ms(2), 0).ack.unwrap().window, 12);
}
