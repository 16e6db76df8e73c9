//! `mobile.mobility`: handover times from speed and cell geometry (Park et al. §4.1), and every
//! error naming its key.

use vhsim_core::{SimDuration, SimTime};
use vhsim_scenario::{load, Action, HandoverKind, Trigger};

mod common;

fn base() -> String {
    common::two_cells("100s", "")
}

fn with(mobility: &str) -> String {
    format!("{}[mobile.mobility]\n{mobility}\n", base())
}

fn secs(t: SimTime) -> f64 {
    t.as_secs_f64()
}

#[test]
fn hand_computed_times_at_36_kmh_across_500m_cells() {
    // 36 km/h = 10 m/s; R = 500 m, default spacing d = 1.5 R = 750 m; the MN starts at x = 0.
    // Overlap [d - R, R] = [250 m, 500 m] -> 25 s and 50 s; midpoint d/2 = 375 m -> 37.5 s.
    let s = load(&with("speed = \"36km/h\"\ncell_radius = \"500m\""), &[]).unwrap();
    let m = s.mobiles.first().unwrap().mobility.as_ref().unwrap();
    assert_eq!((m.speed_mps, m.cell_radius_m, m.spacing_m, m.start_position_m), (10.0, 500.0, 750.0, 0.0));
    assert_eq!(m.trigger, Trigger::Midpoint);
    assert_eq!((secs(m.overlap_enter), secs(m.handover), secs(m.overlap_exit)), (25.0, 37.5, 50.0));
    assert_eq!(s.timeline.len(), 1);
    assert_eq!(s.timeline[0].at, SimTime(37_500_000_000));
    match &s.timeline[0].action {
        Action::Handover { kind, from, to, notify_delay, .. } => {
            assert_eq!(
                (*kind, *from, *to, *notify_delay),
                (HandoverKind::MakeBeforeBreak, 0, 1, SimDuration::ZERO)
            );
        }
        a => panic!("{a:?}"),
    }
}

#[test]
fn units_spacing_start_position_and_triggers_move_the_times() {
    // 10 m/s given in m/s; spacing 0.8 km, radius 0.5 km: overlap [300 m, 500 m].
    let base = "speed = \"10m/s\"\ncell_radius = \"0.5km\"\nspacing = \"0.8km\"";
    let times = |extra: &str| {
        let s = load(&with(&format!("{base}\n{extra}")), &[]).unwrap();
        let m = s.mobiles.into_iter().next().unwrap().mobility.unwrap();
        assert_eq!(s.timeline[0].at, m.handover);
        (secs(m.overlap_enter), secs(m.handover), secs(m.overlap_exit))
    };
    assert_eq!(times(""), (30.0, 40.0, 50.0));
    assert_eq!(times("trigger = \"enter\""), (30.0, 30.0, 50.0));
    assert_eq!(times("trigger = \"exit\""), (30.0, 50.0, 50.0));
    assert_eq!(times("start_position = \"100m\""), (20.0, 30.0, 40.0));
    // 50 km/h across Park's 500 m cells: 250 m / (50/3.6 m/s) = 18 s, 375 m -> 27 s, 500 m -> 36 s.
    let s = load(&with("speed = \"50km/h\"\ncell_radius = \"500m\""), &[]).unwrap();
    let m = s.mobiles.into_iter().next().unwrap().mobility.unwrap();
    assert_eq!((secs(m.overlap_enter), secs(m.handover), secs(m.overlap_exit)), (18.0, 27.0, 36.0));
}

#[test]
fn handover_kind_and_target_interface_are_configurable() {
    let s = load(
        &with("speed = \"36km/h\"\ncell_radius = \"500m\"\nkind = \"break_before_make\"\ngap = \"500ms\"\nto = \"new\"\nnotify_delay = \"20ms\""),
        &[],
    )
    .unwrap();
    match &s.timeline[0].action {
        Action::Handover { kind, to, notify_delay, .. } => {
            assert_eq!(*kind, HandoverKind::BreakBeforeMake { gap: SimDuration::from_millis(500) });
            assert_eq!((*to, notify_delay.0), (1, 20_000_000));
        }
        a => panic!("{a:?}"),
    }
    // Other timeline actions stay, sorted around the generated handover.
    let text = with("speed = \"36km/h\"\ncell_radius = \"500m\"")
        + "[[timeline]]\nat = \"50s\"\naction = \"set_link\"\nlink = \"new\"\nrate = \"1Mbps\"\n";
    let s = load(&text, &[]).unwrap();
    assert_eq!(s.timeline.iter().map(|e| e.at.0 / 100_000_000).collect::<Vec<_>>(), vec![375, 500]);
}

#[test]
fn scenarios_without_mobility_keep_their_canonical_json() {
    let s = load(&base(), &[]).unwrap();
    assert!(!vhsim_scenario::to_canonical_json(&s).contains("mobility"));
}

#[test]
fn malformed_mobility_names_the_key() {
    let ok = "cell_radius = \"500m\"";
    let handover =
        "[[timeline]]\nat = \"5s\"\naction = \"handover\"\nkind = \"make_before_break\"\nto = \"new\"\n";
    let cases: Vec<(&str, String, &str, &str)> = vec![
        ("negative speed", with(&format!("speed = \"-50km/h\"\n{ok}")), "mobile.mobility.speed", "negative"),
        (
            "zero speed",
            with(&format!("speed = \"0km/h\"\n{ok}")),
            "mobile.mobility.speed",
            "greater than zero",
        ),
        (
            "unknown unit",
            with(&format!("speed = \"50kmh\"\n{ok}")),
            "mobile.mobility.speed",
            "unknown unit \"kmh\"",
        ),
        ("speed without unit", with(&format!("speed = 50\n{ok}")), "mobile.mobility.speed", "without a unit"),
        (
            "zero radius",
            with("speed = \"50km/h\"\ncell_radius = \"0m\""),
            "mobile.mobility.cell_radius",
            "greater than 0m",
        ),
        (
            "radius unit",
            with("speed = \"50km/h\"\ncell_radius = \"500mi\""),
            "mobile.mobility.cell_radius",
            "unknown unit \"mi\"",
        ),
        ("missing radius", with("speed = \"50km/h\""), "mobile.mobility", "missing field `cell_radius`"),
        (
            "no overlap",
            with(&format!("speed = \"50km/h\"\n{ok}\nspacing = \"1km\"")),
            "mobile.mobility.spacing",
            "does not make the cells overlap",
        ),
        (
            "nested cells",
            with(&format!("speed = \"50km/h\"\n{ok}\nspacing = \"500m\"")),
            "mobile.mobility.spacing",
            "does not make the cells overlap",
        ),
        (
            "start in the new cell",
            with(&format!("speed = \"50km/h\"\n{ok}\nstart_position = \"300m\"")),
            "mobile.mobility.start_position",
            "inside the new cell",
        ),
        (
            "speed with explicit handovers",
            with(&format!("speed = \"50km/h\"\n{ok}")) + handover,
            "mobile.mobility",
            "timeline[0] is a handover",
        ),
        (
            "too slow for the run",
            with(&format!("speed = \"10km/h\"\n{ok}")),
            "mobile.mobility",
            "not before the end of the run",
        ),
        (
            "unknown trigger",
            with(&format!("speed = \"50km/h\"\n{ok}\ntrigger = \"late\"")),
            "mobile.mobility.trigger",
            "unknown variant `late`",
        ),
        (
            "unknown interface",
            with(&format!("speed = \"50km/h\"\n{ok}\nto = \"lte\"")),
            "mobile.mobility.to",
            "unknown interface `lte`",
        ),
        (
            "already there",
            with(&format!("speed = \"50km/h\"\n{ok}\nto = \"old\"")),
            "mobile.mobility.to",
            "already",
        ),
        (
            "gap on mbb",
            with(&format!("speed = \"50km/h\"\n{ok}\ngap = \"1s\"")),
            "mobile.mobility.gap",
            "only allowed with kind = \"break_before_make\"",
        ),
        (
            "pause without duration",
            with(&format!("speed = \"50km/h\"\n{ok}\nkind = \"pause\"")),
            "mobile.mobility",
            "needs `duration`",
        ),
        (
            "unknown key",
            with(&format!("speed = \"50km/h\"\n{ok}\nradius = \"1m\"")),
            "mobile.mobility.radius",
            "unknown field `radius`",
        ),
    ];
    for (name, toml, path, phrase) in cases {
        let e = match std::panic::catch_unwind(|| load(&toml, &[])) {
            Ok(Err(e)) => e,
            Ok(Ok(_)) => panic!("{name}: accepted"),
            Err(_) => panic!("{name}: panicked"),
        };
        assert_eq!(e.path, path, "{name}: message {:?}", e.message);
        assert!(e.message.contains(phrase), "{name}: message {:?} lacks {phrase:?}", e.message);
    }
}

#[test]
fn an_overlap_goodput_window_spans_the_movement_through_the_overlap() {
    // 36 km/h, 500 m cells 750 m apart: the MN is in the overlap from 25 s to 50 s.
    let metrics = "[metrics.windows]\nmovement = \"overlap\"\nfixed = [\"10s\", \"20s\"]\n";
    let s = load(&format!("{}{metrics}", with("speed = \"36km/h\"\ncell_radius = \"500m\"")), &[]).unwrap();
    let w: Vec<_> = s.metrics.windows.iter().map(|w| (w.name.as_str(), secs(w.start), secs(w.end))).collect();
    assert_eq!(w, [("movement", 25.0, 50.0), ("fixed", 10.0, 20.0)]);
    // At 4 m/s the MN enters at 62.5 s and would leave at 125 s, after the 100 s run: the
    // window ends with the run.
    let s = load(&format!("{}{metrics}", with("speed = \"4m/s\"\ncell_radius = \"500m\"")), &[]).unwrap();
    assert_eq!((secs(s.metrics.windows[0].start), secs(s.metrics.windows[0].end)), (62.5, 100.0));
    // Without a movement there is no overlap; a word other than "overlap" is no window.
    for (text, phrase) in [
        (format!("{}{metrics}", base()), "needs mobile.mobility"),
        (format!("{}[metrics.windows]\nw = \"movement\"\n", with("speed = \"36km/h\"\ncell_radius = \"500m\"")), "\"overlap\""),
    ] {
        let e = load(&text, &[]).unwrap_err();
        assert!(e.path.starts_with("metrics.windows.") && e.message.contains(phrase), "{:?} {:?}", e.path, e.message);
    }
}
