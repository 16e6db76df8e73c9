//! Mobility (Park et al. §4.1): the handover generated from speed and cell geometry happens at
//! the computed time, and summary.json reports the times.

mod harness;

use vhsim_scenario::load;
use vhsim_sim::run;

const PARK: &str = include_str!("../../../scenarios/park/mobility-50kmh.toml");

#[test]
fn the_park_scenario_hands_over_where_the_geometry_says() {
    let sc = load(PARK, &[]).expect("valid scenario");
    let out = run(&sc, None);
    let s = &out.summary;
    let m = s.mobility.as_ref().expect("the summary reports the movement");
    // 50 km/h = 13.89 m/s across 500 m cells 750 m apart: overlap [250 m, 500 m] -> 18 s, 36 s;
    // handover at the midpoint 375 m -> 27 s.
    assert_eq!((m.overlap_enter_s, m.handover_s, m.overlap_exit_s), (18.0, 27.0, 36.0));
    assert_eq!(m.trigger, "midpoint");
    assert_eq!(s.handovers.len(), 1);
    let h = &s.handovers[0];
    assert_eq!(
        (h.kind.as_str(), h.from.as_str(), h.to.as_str(), h.start_s),
        ("make_before_break", "cell6", "cell11", 27.0)
    );
    let json = serde_json::to_value(s).unwrap();
    assert_eq!(json["mobility"]["handover_s"], 27.0);
    // After the handover the flow runs on the faster cell.
    let f = &s.flows["bulk"];
    assert!(f.handovers[0].goodput_after_kbps > f.handovers[0].goodput_before_kbps, "{:?}", f.handovers[0]);
}

#[test]
fn a_faster_mn_hands_over_earlier() {
    let sc = load(PARK, &[("mobile.mobility.speed".into(), "100km/h".into())]).unwrap();
    let out = run(&sc, None);
    assert_eq!(out.summary.mobility.as_ref().unwrap().handover_s, 13.5);
    assert_eq!(out.summary.handovers[0].start_s, 13.5);
}

#[test]
fn the_mobile_node_sees_the_link_events_the_geometry_implies() {
    use vhsim_core::{SimDuration, SimTime};
    use vhsim_net::LinkEvent;
    use vhsim_scenario::Detail;
    // 36 km/h = 10 m/s; cells of radius 10 m, 15 m apart: the midpoint x = 7.5 m at 750 ms.
    // The old cell's signal falls below the warning level 2 m before it (200 ms earlier); the
    // band-crossing handoff lasts 1 m / 10 m/s + 100 ms = 200 ms.
    let mobility = "mobility = { speed = \"36km/h\", cell_radius = \"10m\", kind = \"break_before_make\", \
                    handoff_band = \"1m\", handoff_latency = \"100ms\", warning_distance = \"2m\" }";
    let sc = harness::mobile_world(&harness::datagram_flow("f", ""), mobility, &[]);
    let mut world = vhsim_sim::build::build(&sc, Detail::Summary);
    world.run();
    let t = |ms: u64| SimTime::ZERO + SimDuration::from_millis(ms);
    let seen = world.endpoint(0, 1).datagram_link_events().unwrap().to_vec();
    assert_eq!(
        seen,
        vec![
            (t(550), LinkEvent::Imminent { eta: SimDuration::from_millis(200), old: 0, new: 1 }),
            (t(750), LinkEvent::Down(0)),
            (t(950), LinkEvent::Up(1)),
            (t(950), LinkEvent::Completed { old: 0, new: 1 }),
        ]
    );
    let m = vhsim_sim::run(&sc, None).summary.mobility.unwrap();
    assert_eq!((m.imminent_s, m.handover_s, m.handoff_s), (0.55, 0.75, 0.2));
    assert_eq!((m.handoff_band_m, m.handoff_latency_s), (Some(1.0), Some(0.1)));
}

/// A TCP flow (window 20: never queued on these links; an ACK per segment, as the round trips
/// below are computed) to the MN of the harness's world,
/// whose core link's delay grows from 5 to 45 ms at 1 s; the MN hands over (make-before-break)
/// at 3 s with `warning` as `mobile.warning`. Returns when the `Imminent` event came (s).
fn imminent_with_warning(warning: &str) -> f64 {
    let flow = "[flows.bulk]\nfrom = \"cn\"\nto = \"mn\"\nscheme = \"freeze\"\n[flows.bulk.tcp]\nwindow = \"20pkt\"\n\
                [flows.bulk.sink]\ndelayed_ack = false\n";
    let mobile = format!(
        "warning = {warning}\nmobility = {{ speed = \"10m/s\", cell_radius = \"20m\", handover_at = \"3s\" }}"
    );
    let slower = "[[timeline]]\nat = \"1s\"\naction = \"set_link\"\nlink = \"core\"\ndelay = \"45ms\"\n";
    let sc = harness::mobile_world(flow, &mobile, &[("timeline", slower)]);
    let out = run(&sc, None);
    out.summary.mobility.expect("mobility").imminent_s
}

#[test]
fn the_srtt_warning_follows_the_round_trip_the_mobile_node_measures() {
    // After 1 s the round trip is 45 + 0.0832 + 10 + 0.832 ms (data: core, then the access
    // link at 10 Mb/s) + 10 + 0.032 + 45 + 0.0032 ms (the 40 B ACK back) = 110.9504 ms; the
    // sender is window-limited, never queued, so every sample the receiver takes from the
    // echoed timestamps is that (to the 1 µs timestamp clock) and its estimate has converged
    // long before 3 s. "srtt" + 5 ms: the warning comes 115.9504 ms before the handover.
    let srtt = imminent_with_warning("{ kind = \"srtt\", margin = \"5ms\" }");
    assert!((srtt - (3.0 - 0.1159504)).abs() <= 1.5e-6, "Imminent at {srtt} s");
    // "rtt" computes the round trip from the topology as written (core 5 ms): 30.9504 ms,
    // blind to the change; so is "srtt" before any sample (its lead then is "rtt" + margin).
    let rtt = imminent_with_warning("\"rtt\"");
    assert!((rtt - (3.0 - 0.0309504)).abs() < 1e-9, "Imminent at {rtt} s");
    // A bare "srtt" has no margin.
    let bare = imminent_with_warning("\"srtt\"");
    assert!((bare - (3.0 - 0.1109504)).abs() <= 1.5e-6, "Imminent at {bare} s");
}
