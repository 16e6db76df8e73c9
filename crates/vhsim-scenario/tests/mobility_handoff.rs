//! `mobile.mobility` with a band-crossing handoff and the `Imminent` warning (docs/mobility.md
//! "Handoff length" and "Link events"): times checked by hand, and every error naming its key.

use vhsim_core::{SimDuration, SimTime};
use vhsim_scenario::{load, Action, HandoverKind, Scenario};

mod common;

/// The shared two cells (`common::two_cells`) with 500 m cells: `{warning}` goes into `[mobile]`.
fn base(duration: &str, warning: &str) -> String {
    common::two_cells(duration, warning) + "[mobile.mobility]\ncell_radius = \"500m\"\n"
}

/// 36 km/h = 10 m/s; R = 500 m, d = 750 m: the handover point (midpoint) x = 375 m at 37.5 s.
const BBM: &str =
    "speed = \"36km/h\"\nkind = \"break_before_make\"\nhandoff_band = \"10m\"\nhandoff_latency = \"200ms\"";

fn scenario(
    duration: &str,
    warning: &str,
    mobility: &str,
) -> Result<Scenario, vhsim_scenario::ScenarioError> {
    let text = base(duration, warning) + mobility + "\n";
    load(&text, &[])
}

fn gap(s: &Scenario) -> SimDuration {
    match &s.timeline[0].action {
        Action::Handover { kind: HandoverKind::BreakBeforeMake { gap }, .. } => *gap,
        a => panic!("not a break-before-make handover: {a:?}"),
    }
}

const fn ms(n: u64) -> SimDuration {
    SimDuration::from_nanos(n * 1_000_000)
}

#[test]
fn band_crossing_handoff_lasts_band_over_speed_plus_latency() {
    // 10 m at 10 m/s = 1 s, plus 200 ms: Down at 37.5 s, Up and Completed at 38.7 s.
    let s = scenario("100s", "", BBM).unwrap();
    assert_eq!(s.timeline[0].at, SimTime(37_500_000_000));
    assert_eq!(gap(&s), ms(1200));
    let m = s.mobiles.first().unwrap().mobility.as_ref().unwrap();
    assert_eq!(m.handoff, ms(1200));
    let b = m.band_crossing.as_ref().unwrap();
    assert_eq!((b.band_m, b.latency), (10.0, ms(200)));
    // Faster is shorter: 10 m at 50 km/h = 0.72 s, at 100 km/h = 0.36 s, at 10 km/h = 3.6 s.
    for (speed, expected_ms, duration) in
        [("50km/h", 920, "100s"), ("100km/h", 560, "100s"), ("10km/h", 3800, "180s")]
    {
        let s = scenario(duration, "", &BBM.replace("36km/h", speed)).unwrap();
        assert_eq!(gap(&s), ms(expected_ms), "{speed}");
    }
    // The band alone, the latency alone, and a pause of the same length.
    let only_band = BBM.replace("handoff_latency = \"200ms\"", "");
    assert_eq!(gap(&scenario("100s", "", &only_band).unwrap()), ms(1000));
    let only_latency = BBM.replace("handoff_band = \"10m\"", "");
    assert_eq!(gap(&scenario("100s", "", &only_latency).unwrap()), ms(200));
    let pause = scenario("100s", "", &BBM.replace("break_before_make", "pause")).unwrap();
    assert!(
        matches!(pause.timeline[0].action, Action::Handover { kind: HandoverKind::Pause { duration }, .. }
        if duration == ms(1200))
    );
}

#[test]
fn the_default_warning_with_mobility_is_one_empty_path_round_trip() {
    // Data cn -> r -> mn: 10 ms + 1040 B at 100 Mb/s (83 200 ns) + 10 ms + 1040 B at 6 Mb/s
    // (ceil 1 386 666.7 = 1 386 667 ns); ACK back: 10 ms + 40 B at 6 Mb/s (ceil 53 333.3 =
    // 53 334 ns) + 10 ms + 40 B at 100 Mb/s (3 200 ns): 41 526 401 ns.
    let s = scenario("100s", "", BBM).unwrap();
    assert_eq!(s.mobiles.first().unwrap().warning, SimDuration::from_nanos(41_526_401));
    let explicit = scenario("100s", "warning = \"rtt\"", BBM).unwrap();
    assert_eq!(explicit.mobiles.into_iter().next().unwrap().warning, SimDuration::from_nanos(41_526_401));
    // A time, or a distance before the handover point: 5 m at 10 m/s = 500 ms.
    let time = scenario("100s", "warning = \"150ms\"", BBM).unwrap();
    assert_eq!(time.mobiles.into_iter().next().unwrap().warning, ms(150));
    let distance = scenario("100s", "", &format!("{BBM}\nwarning_distance = \"5m\"")).unwrap();
    let m = distance.mobiles.into_iter().next().unwrap();
    assert_eq!(m.warning, ms(500));
    assert_eq!(m.mobility.unwrap().warning_distance_m, Some(5.0));
}

#[test]
fn the_srtt_warning_keeps_its_rule_and_the_empty_path_round_trip_plus_margin_as_its_start() {
    use vhsim_scenario::WarningRule;
    // "srtt" is decided while the run goes (the MN's own estimate); resolution keeps the rule
    // and, as the lead before any estimate, the empty-path round trip plus the margin.
    let bare = scenario("100s", "warning = \"srtt\"", BBM).unwrap().mobiles.into_iter().next().unwrap();
    assert_eq!(bare.warning_rule, WarningRule::Srtt { margin: SimDuration::ZERO });
    assert_eq!(bare.warning, SimDuration::from_nanos(41_526_401));
    let table = scenario("100s", "warning = { kind = \"srtt\", margin = \"10ms\" }", BBM).unwrap().mobiles.into_iter().next().unwrap();
    assert_eq!(table.warning_rule, WarningRule::Srtt { margin: ms(10) });
    assert_eq!(table.warning, SimDuration::from_nanos(51_526_401));
    // A fixed warning keeps the resolved JSON as it was (no rule written).
    let fixed = scenario("100s", "warning = \"rtt\"", BBM).unwrap();
    assert_eq!(fixed.mobiles[0].warning_rule, WarningRule::Fixed);
    assert!(!serde_json::to_string(&fixed).unwrap().contains("warning_rule"));
    // Bad tables name the key.
    for (warning, path, phrase) in [
        ("warning = { kind = \"rtt\" }", "mobile.warning", "the table form is { kind = \"srtt\""),
        ("warning = { kind = \"srtt\", margin = \"5kg\" }", "mobile.warning.margin", "unit"),
        ("warning = { kind = \"srtt\", lead = \"5ms\" }", "mobile.warning", "lead"),
        ("warning = \"sometimes\"", "mobile.warning", "\"srtt\""),
    ] {
        let e = scenario("100s", warning, BBM).unwrap_err();
        assert!(e.path.starts_with(path) && e.message.contains(phrase), "{warning}: {:?} {:?}", e.path, e.message);
    }
}

#[test]
fn timeline_handovers_keep_their_default_warning_of_zero() {
    let text = common::two_cells("10s", "")
        + "[[timeline]]\nat = \"5s\"\naction = \"handover\"\nkind = \"make_before_break\"\nto = \"new\"\n";
    assert_eq!(load(&text, &[]).unwrap().mobiles.into_iter().next().unwrap().warning, SimDuration::ZERO);
}

#[test]
fn malformed_handoff_and_warning_name_the_key() {
    let p = "mobile.mobility";
    let cases: Vec<(&str, &str, &str, String, &str, &str)> = vec![
        (
            "warning longer than the run",
            "100s",
            "warning = \"200s\"",
            BBM.into(),
            "mobile.warning",
            "not shorter than the run",
        ),
        (
            "warning as long as the run",
            "100s",
            "warning = \"100s\"",
            BBM.into(),
            "mobile.warning",
            "not shorter than the run",
        ),
        (
            "warning before 0",
            "100s",
            "warning = \"40s\"",
            BBM.into(),
            "mobile.warning",
            "would come before 0s",
        ),
        (
            "warning distance before 0",
            "100s",
            "",
            format!("{BBM}\nwarning_distance = \"400m\""),
            "mobile.mobility.warning_distance",
            "would come before 0s",
        ),
        (
            "warning distance beyond the run",
            "100s",
            "",
            format!("{BBM}\nwarning_distance = \"2km\""),
            "mobile.mobility.warning_distance",
            "not shorter than the run",
        ),
        (
            "both warnings",
            "100s",
            "warning = \"1s\"",
            format!("{BBM}\nwarning_distance = \"5m\""),
            "mobile.mobility.warning_distance",
            "not both",
        ),
        ("bad warning", "100s", "warning = \"soon\"", BBM.into(), "mobile.warning", "\"rtt\""),
        (
            "band on make-before-break",
            "100s",
            "",
            "speed = \"36km/h\"\nhandoff_band = \"10m\"".into(),
            "mobile.mobility.handoff_band",
            "no length",
        ),
        (
            "latency on make-before-break",
            "100s",
            "",
            "speed = \"36km/h\"\nhandoff_latency = \"1s\"".into(),
            "mobile.mobility.handoff_latency",
            "no length",
        ),
        (
            "gap and band",
            "100s",
            "",
            format!("{BBM}\ngap = \"1s\""),
            "mobile.mobility.gap",
            "both set the handover's length",
        ),
        (
            "zero handoff",
            "100s",
            "",
            BBM.replace("10m", "0m").replace("200ms", "0s"),
            "mobile.mobility.handoff_band",
            "would last 0s",
        ),
        ("negative band", "100s", "", BBM.replace("10m", "-10m"), "mobile.mobility.handoff_band", "negative"),
        (
            "zero speed",
            "100s",
            "",
            BBM.replace("36km/h", "0km/h"),
            "mobile.mobility.speed",
            "greater than zero",
        ),
        ("negative speed", "100s", "", BBM.replace("36km/h", "-36km/h"), "mobile.mobility.speed", "negative"),
        ("handoff past the end", "38s", "", BBM.into(), p, "not before the end of the run"),
    ];
    for (name, duration, warning, mobility, path, phrase) in cases {
        let e = match std::panic::catch_unwind(|| scenario(duration, warning, &mobility)) {
            Ok(Err(e)) => e,
            Ok(Ok(_)) => panic!("{name}: accepted"),
            Err(_) => panic!("{name}: panicked"),
        };
        assert!(e.path.starts_with(path), "{name}: path {:?}, message {:?}", e.path, e.message);
        assert!(e.message.contains(phrase), "{name}: message {:?} lacks {phrase:?}", e.message);
    }
    // AP range 0 (the file's own cell_radius replaced): the key and the rule.
    let text = base("100s", "").replace("500m", "0m") + BBM + "\n";
    let e = load(&text, &[]).unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.message.contains("greater than 0m")),
        ("mobile.mobility.cell_radius", true)
    );
}

#[test]
fn handover_at_makes_the_mn_wait_then_arrive_on_time() {
    // From x0 = 250 m (the new cell's edge) to the midpoint 375 m at 10 m/s: 12.5 s, so the MN
    // departs at 77.5 s, enters the overlap then, hands over at 90 s and leaves the old cell
    // (500 m) at 102.5 s; the Down/Up times follow the handover point.
    let s =
        scenario("180s", "", &format!("{BBM}\nstart_position = \"250m\"\nhandover_at = \"90s\"")).unwrap();
    let m = s.mobiles.first().unwrap().mobility.as_ref().unwrap();
    let secs = |t: SimTime| t.as_secs_f64();
    assert_eq!(
        (secs(m.depart), secs(m.overlap_enter), secs(m.handover), secs(m.overlap_exit)),
        (77.5, 77.5, 90.0, 102.5)
    );
    assert_eq!((s.timeline[0].at, gap(&s)), (SimTime(90_000_000_000), ms(1200)));
    // At 100 km/h the same handover time, a later departure (125 m in 4.5 s).
    let fast = scenario(
        "180s",
        "",
        &format!("{}\nstart_position = \"250m\"\nhandover_at = \"90s\"", BBM.replace("36km/h", "100km/h")),
    )
    .unwrap();
    let m = fast.mobiles.into_iter().next().unwrap().mobility.unwrap();
    assert_eq!((secs(m.depart), secs(m.handover)), (85.5, 90.0));
    // Too early to get there: 375 m at 10 km/h take 135 s.
    let e = scenario("180s", "", &format!("{}\nhandover_at = \"90s\"", BBM.replace("36km/h", "10km/h")))
        .unwrap_err();
    assert_eq!(e.path, "mobile.mobility.handover_at");
    assert!(e.message.contains("needs 135s"), "{}", e.message);
}
