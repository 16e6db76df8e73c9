//! mSCTP through the world (issue #15): Kim & Koh's scenarios under each scheme, and the
//! handover driven by the mobile node's link events instead of scripted times.

use std::path::Path;
use vhsim_scenario::{load, Detail, Scenario};
use vhsim_sim::trace::PacketEvent;
use vhsim_sim::{run_world, RunOutput};

fn repo(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn scenario(file: &str, sets: &[(&str, &str)]) -> Scenario {
    let o: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(&repo(file), &o).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Run with every chunk checked delivered once and in order.
fn run_checked(sc: &Scenario) -> RunOutput {
    let (out, world) = run_world(sc, Some(Detail::Packets));
    let (tx, rx) = (world.endpoint(0, 0).sctp().unwrap(), world.endpoint(0, 1).sctp().unwrap());
    assert_eq!(rx.inbound().delivered_units, u64::from(rx.inbound().cum), "in order, once");
    assert!(u64::from(tx.outbound().cum_ack) <= rx.inbound().delivered_units);
    assert_eq!(tx.failed_at(), None);
    out
}

/// Times (s) at which the sender sent new data to interface `path` for the first time after
/// each of `after`.
fn first_new_data_on(out: &RunOutput, path: i8, after: f64) -> f64 {
    let pt = out.traces.packets.as_ref().unwrap();
    (0..pt.len())
        .find(|&r| {
            pt.event[r] == PacketEvent::Send as u8 && pt.path[r] == path && pt.time_ns[r] as f64 / 1e9 > after
        })
        .map(|r| pt.time_ns[r] as f64 / 1e9)
        .expect("new data there")
}

#[test]
fn every_scheme_switches_3g_wlan_3g_with_four_acknowledged_asconfs() {
    for scheme in ["msctp", "mt-msctp", "hr-msctp"] {
        let sc = scenario("scenarios/kimkoh/3g-wlan-3g.toml", &[("flows.ftp.scheme", scheme)]);
        let out = run_checked(&sc);
        let s = out.summary.flows["ftp"].sctp.as_ref().unwrap();
        // (An ASCONF-ACK may wait behind a full 3G queue past T4: then the ASCONF is sent again.)
        assert_eq!((s.asconf_sent, s.asconf_errors), (4, 0), "{scheme}");
        assert_eq!(s.primary_switches, 2, "{scheme}");
        assert_eq!(s.paths.len(), 2);
        assert!(s.paths[1].deleted && s.paths[1].confirmed && !s.paths[0].deleted, "{scheme}");
        assert_eq!(s.primary_path, 0);
        // The Set-Primary leaves from the old address (Kim & Koh §2.1): new data on WLAN once it
        // arrives over the 3G uplink (25.116 s), back on 3G once the one sent at 50 s arrives
        // over WLAN's (50.03 s; HR-mSCTP first resends the chunks outstanding on WLAN).
        // MT-mSCTP's region starts at the Set-Primary: no new data on WLAN before it.
        let wlan = first_new_data_on(&out, 1, 24.0);
        assert!((25.1..25.5).contains(&wlan), "{scheme}: new data on WLAN at {wlan} s");
        let umts = first_new_data_on(&out, 0, 50.0);
        assert!((50.02..50.5).contains(&umts), "{scheme}: back on 3G at {umts} s");
        let hr = s.paths.iter().map(|p| p.counters.handover_retransmissions).sum::<u64>();
        assert_eq!(hr > 0, scheme == "hr-msctp", "{scheme}: handover retransmissions {hr}");
    }
}

#[test]
fn the_ping_pong_scenario_switches_six_times_under_every_scheme() {
    for scheme in ["msctp", "mt-msctp", "hr-msctp"] {
        let out = run_checked(&scenario("scenarios/kimkoh/ping-pong.toml", &[("flows.ftp.scheme", scheme)]));
        let s = out.summary.flows["ftp"].sctp.as_ref().unwrap();
        assert_eq!((s.primary_switches, s.asconf_sent), (6, 7), "{scheme}");
    }
}

/// Kim & Koh's topology with make-before-break handovers on the timeline (3G -> WLAN at 25 s,
/// back at 50 s) and the association started on both addresses: the mobile node's endpoint
/// switches the primary on its link events.
fn link_triggered(trigger: &str, extra: &[(&str, &str)]) -> Scenario {
    let text = repo("scenarios/kimkoh/3g-wlan-3g.toml").replace(
        "actions = [\n  { at = \"20s\", add = \"wlan\" },\n  { at = \"25s\", set_primary = \"wlan\" },\n  \
         { at = \"50s\", set_primary = \"umts\" },\n  { at = \"55s\", delete = \"wlan\" },\n]",
        &format!("trigger = \"{trigger}\"\n"),
    );
    let text = text
        + "\n[[timeline]]\nat = \"25s\"\naction = \"handover\"\nkind = \"make_before_break\"\nto = \"wlan\"\n\
           [[timeline]]\nat = \"50s\"\naction = \"handover\"\nkind = \"make_before_break\"\nto = \"umts\"\n";
    let o: Vec<(String, String)> = extra.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(&text, &o).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn link_events_drive_add_ip_and_set_primary() {
    // link_up: Add-IP and Set-Primary of WLAN when it comes up at 25 s (one ASCONF, both
    // requests); new data there once the new address is confirmed; back at 50 s; Delete-IP of
    // WLAN 5 s after the second handover.
    let out = run_checked(&link_triggered("link_up", &[("flows.ftp.sctp.delete_after", "5s")]));
    let s = out.summary.flows["ftp"].sctp.as_ref().unwrap();
    assert_eq!((s.primary_switches, s.paths.len()), (2, 2));
    let wlan = first_new_data_on(&out, 1, 24.0);
    assert!(wlan > 25.0 && wlan < 27.0, "WLAN from {wlan} s");
    assert!(s.paths[1].deleted && !s.paths[0].deleted, "WLAN deleted 5 s after the switch back");
    // warning: the same, 1 s earlier (mobile.warning = 1 s).
    let out = run_checked(&link_triggered("warning", &[("mobile.warning", "1s")]));
    let wlan = first_new_data_on(&out, 1, 23.0);
    assert!(wlan > 24.0 && wlan < 26.0, "WLAN from {wlan} s");
    // scripted trigger with no actions: nothing moves.
    let out = run_checked(&link_triggered("scripted", &[]));
    let s = out.summary.flows["ftp"].sctp.as_ref().unwrap();
    assert_eq!((s.primary_switches, s.asconf_sent, s.paths.len()), (0, 0, 1));
}

/// `text` with its flows turned into mSCTP associations that start on the mobile node's
/// initial interface only and follow its link events.
fn as_msctp(text: &str, scheme: &str, trigger: &str) -> String {
    let mut doc: toml::Table = toml::from_str(text).expect("a shipped scenario parses");
    let initial = doc["mobile"]["initial"].as_str().expect("an initial interface").to_owned();
    for (_, f) in doc.get_mut("flows").and_then(|f| f.as_table_mut()).expect("flows").iter_mut() {
        let f = f.as_table_mut().expect("a flow table");
        for key in ["tcp", "sink", "to_interface"] {
            f.remove(key);
        }
        f.insert("protocol".into(), "sctp".into());
        f.insert("scheme".into(), scheme.into());
        let sctp = format!("to_interfaces = [\"{initial}\"]\ntrigger = \"{trigger}\"");
        f.insert("sctp".into(), toml::Value::Table(toml::from_str(&sctp).expect("toml")));
    }
    toml::to_string(&doc).expect("serializes")
}

#[test]
fn every_scheme_follows_the_handovers_of_other_papers_topologies() {
    // Daniel & Kojo's link pairs (make- and break-before-make at 8.2 s) and Lim & Jang's 30 s
    // pause (no Up event: the warning trigger), shortened.
    type Sets = &'static [(&'static str, &'static str)];
    let cases: [(&str, &str, Sets); 3] = [
        ("scenarios/danielkojo/fig08-mbb.toml", "link_up", &[]),
        ("scenarios/danielkojo/fig08-bbm.toml", "link_up", &[]),
        (
            "scenarios/limjang/wlan-to-3g.toml",
            "warning",
            &[("duration", "90s"), ("timeline[0].at", "30s"), ("metrics.handover_window", "20s")],
        ),
    ];
    for (file, trigger, sets) in cases {
        for scheme in ["msctp", "mt-msctp", "hr-msctp"] {
            let o: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let sc =
                load(&as_msctp(&repo(file), scheme, trigger), &o).unwrap_or_else(|e| panic!("{file}: {e}"));
            let out = run_checked(&sc);
            let s = out.summary.flows.values().next().unwrap().sctp.as_ref().unwrap();
            assert_eq!((s.primary_switches, s.paths.len(), s.primary_path), (1, 2, 1), "{file} {scheme}");
        }
    }
}
