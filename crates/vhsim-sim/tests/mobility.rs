//! Mobility (Park et al. §4.1): the handover generated from speed and cell geometry happens at
//! the computed time, and summary.json reports the times.

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
