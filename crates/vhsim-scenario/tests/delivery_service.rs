//! Sobral et al.'s parts as scenario data: the Delivery Service agents, the forced handover and
//! the CBR send buffer — their resolution and every bad input, each naming its key.

use vhsim_scenario::{load, Action, AgentKind, AppModel, HandoverKind, ScenarioError};

const BASE: &str = r#"
duration = "30s"
[nodes.server]
[nodes.hnac]
[nodes.other]
[nodes.mn]
[links.core]
between = ["server", "hnac"]
rate = "100Mbps"
delay = "30ms"
[links.side]
between = ["hnac", "other"]
rate = "100Mbps"
delay = "1ms"
[links.utran]
between = ["hnac", "mn"]
rate = "300kbps"
delay = "200ms"
[links.wlan]
between = ["hnac", "mn"]
rate = "11Mbps"
delay = "40ms"
[mobile]
node = "mn"
anchor = "hnac"
initial = "utran"
[mobile.interfaces.utran]
access = "utran"
[mobile.interfaces.wlan]
access = "wlan"
[flows.cbr]
from = "server"
to = "mn"
scheme = "newreno"
app = { kind = "cbr", rate = "500kbps" }
"#;

const ANCHOR_DS: &str =
    "[[agents]]\nnode = \"hnac\"\nkind = \"delivery_service\"\ninterface = \"wlan\"\ntimeout = \"90ms\"\n";
const MOBILE_DS: &str = "[[agents]]\nnode = \"mn\"\nkind = \"delivery_service\"\ninterface = \"wlan\"\n";

fn error(extra: &str, sets: &[(&str, &str)]) -> ScenarioError {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(&format!("{BASE}\n{extra}"), &sets).expect_err("invalid")
}

fn assert_error(extra: &str, sets: &[(&str, &str)], path: &str, words: &str) {
    let e = error(extra, sets);
    assert_eq!(e.path, path, "{e}");
    assert!(e.message.contains(words), "{e}");
}

#[test]
fn a_delivery_service_pair_resolves_its_side_from_its_node() {
    let sc = load(&format!("{BASE}\n{ANCHOR_DS}{MOBILE_DS}active_mode = \"2s\"\n"), &[]).unwrap();
    // Link directions in file order: core 0/1, side 2/3, utran 4/5, wlan 6/7; addresses: the
    // four nodes, then the care-of addresses of utran (4) and wlan (5).
    match &sc.agents[0].kind {
        AgentKind::DeliveryServiceAnchor(d) => {
            assert_eq!(d.timeout.as_nanos(), 90_000_000);
            let [s] = d.served.as_slice() else { panic!("{:?}", d.served) };
            assert_eq!((s.mobile, s.interface, s.guarded_link), (0, 1, 6));
            assert_eq!(s.addresses, [3, 4, 5]);
        }
        k => panic!("{k:?}"),
    }
    match &sc.agents[1].kind {
        AgentKind::DeliveryServiceMobile(d) => {
            assert_eq!((d.interface, d.address, d.anchor_address, d.ack_size), (1, 5, 1, 40));
            assert_eq!(d.arrivals, [6]);
            assert_eq!(d.active_mode.map(|a| a.as_nanos()), Some(2_000_000_000));
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn bad_delivery_service_entries_name_the_key() {
    let both = format!("{ANCHOR_DS}{MOBILE_DS}");
    assert_error(&both, &[("agents[0].timeout", "0s")], "agents[0].timeout", "greater than 0s");
    let no_timeout = both.replace("timeout = \"90ms\"\n", "");
    assert_error(&no_timeout, &[], "agents[0]", "needs `timeout`");
    assert_error(&both, &[("agents[1].timeout", "90ms")], "agents[1].timeout", "anchor's Delivery Service");
    // The active mode (and the acknowledgement size) belong to the mobile node's DS.
    assert_error(
        &both,
        &[("agents[0].active_mode", "2s")],
        "agents[0].active_mode",
        "mobile node's Delivery Service",
    );
    assert_error(&both, &[("agents[1].active_mode", "0s")], "agents[1].active_mode", "greater than 0s");
    assert_error(&both, &[("agents[1].ack_size", "0B")], "agents[1].ack_size", "at least 1B");
    let after = [("agents[1].active_mode_after", "any_handover")];
    assert_error(&both, &after, "agents[1].active_mode_after", "needs `active_mode`");
    assert_error(
        &both,
        &[("agents[0].active_mode_after", "any_handover")],
        "agents[0].active_mode_after",
        "mobile node's",
    );
    let sc = load(
        &format!("{BASE}\n{both}"),
        &[("agents[1].active_mode".into(), "1s".into()), (after[0].0.into(), after[0].1.into())],
    );
    match &sc.unwrap().agents[1].kind {
        AgentKind::DeliveryServiceMobile(d) => {
            assert_eq!(d.active_mode_after, vhsim_scenario::ActiveModeAfter::AnyHandover)
        }
        k => panic!("{k:?}"),
    }
    let counter = "[[agents]]\nnode = \"mn\"\nkind = \"counter\"\nactive_mode = \"2s\"\n";
    assert_error(counter, &[], "agents[0].active_mode", "only allowed with kind = \"delivery_service\"");
    assert_error(
        &both,
        &[("agents[1].node", "other")],
        "agents[1].node",
        "anchor (`hnac`) or at the mobile node (`mn`)",
    );
    assert_error(ANCHOR_DS, &[], "agents[0]", "needs its peer: add an agent with node = \"mn\"");
    assert_error(MOBILE_DS, &[], "agents[0]", "node = \"hnac\"");
    assert_error(
        &both,
        &[("agents[1].interface", "wifi")],
        "agents[1].interface",
        "unknown interface `wifi`",
    );
    let no_iface = both.replace("interface = \"wlan\"\ntimeout", "timeout");
    assert_error(&no_iface, &[], "agents[0]", "needs `interface`");
    assert_error(&both, &[("agents[0].kinds", "[\"data\"]")], "agents[0].kinds", "no rule");
    assert_error(&format!("{both}{ANCHOR_DS}"), &[], "agents[2]", "a second Delivery Service");
    let (head, tail) = BASE.split_once("[mobile]").unwrap();
    let flows = tail.split_once("[flows.cbr]").unwrap().1;
    let e = load(&format!("{head}[flows.cbr]{flows}\n{both}"), &[]).expect_err("no mobile node");
    assert_eq!((e.path.as_str(), e.message.contains("[mobile]")), ("agents[0].kind", true), "{e}");
}

#[test]
fn a_forced_handover_needs_a_positive_detection_time_and_ends_before_the_run() {
    let forced = "[[timeline]]\nat = \"10s\"\naction = \"handover\"\nkind = \"forced\"\ndetection = \"1s\"\nto = \"wlan\"\n";
    let sc = load(&format!("{BASE}\n{forced}"), &[]).unwrap();
    let Action::Handover { kind, .. } = &sc.timeline[0].action else { panic!() };
    let (lost, at_completion) = (vhsim_scenario::InFlight::Lost, vhsim_scenario::Uplink::AtCompletion);
    let one_s = vhsim_core::SimDuration::from_secs(1);
    assert_eq!(*kind, HandoverKind::Forced { detection: one_s, in_flight: lost, uplink: at_completion });
    assert_error(&forced.replace("detection = \"1s\"\n", ""), &[], "timeline[0]", "needs `detection`");
    assert_error(forced, &[("timeline[0].detection", "0s")], "timeline[0].detection", "greater than 0s");
    assert_error(
        forced,
        &[("timeline[0].detection", "25s")],
        "timeline[0].detection",
        "not before the end of the run",
    );
    let mbb = forced.replace("kind = \"forced\"", "kind = \"make_before_break\"");
    assert_error(&mbb, &[], "timeline[0].detection", "only allowed with kind = \"forced\"");
    let link = "[[timeline]]\nat = \"10s\"\naction = \"link_down\"\nlink = \"wlan\"\ndetection = \"1s\"\n";
    assert_error(link, &[], "timeline[0].detection", "only allowed with action = \"handover\"");
}

#[test]
fn a_forced_handover_takes_its_in_flight_and_uplink_options_and_no_other_kind_does() {
    let forced = "[[timeline]]\nat = \"10s\"\naction = \"handover\"\nkind = \"forced\"\ndetection = \"1s\"\nto = \"wlan\"\n\
                  in_flight = \"delivered\"\nuplink = \"at_failure\"\n";
    let sc = load(&format!("{BASE}\n{forced}"), &[]).unwrap();
    let Action::Handover { kind, .. } = &sc.timeline[0].action else { panic!() };
    let (delivered, at_failure) = (vhsim_scenario::InFlight::Delivered, vhsim_scenario::Uplink::AtFailure);
    let one_s = vhsim_core::SimDuration::from_secs(1);
    assert_eq!(*kind, HandoverKind::Forced { detection: one_s, in_flight: delivered, uplink: at_failure });
    let bbm = forced.replace("kind = \"forced\"\ndetection = \"1s\"", "kind = \"break_before_make\"\ngap = \"1s\"");
    assert_error(&bbm, &[], "timeline[0].in_flight", "only allowed with kind = \"forced\"");
    let bbm_uplink = bbm.replace("in_flight = \"delivered\"\n", "");
    assert_error(&bbm_uplink, &[], "timeline[0].uplink", "only allowed with kind = \"forced\"");
    let e = error(forced, &[("timeline[0].uplink", "at_once")]);
    assert!(e.to_string().contains("at_completion") && e.to_string().contains("at_failure"), "{e}");
    let link = "[[timeline]]\nat = \"10s\"\naction = \"link_down\"\nlink = \"wlan\"\nin_flight = \"lost\"\n";
    assert_error(link, &[], "timeline[0].in_flight", "only allowed with action = \"handover\"");
}

#[test]
fn the_delivery_service_options_resolve_and_bad_ones_name_the_key() {
    let both = format!("{ANCHOR_DS}buffer = \"10kB\"\ntimer = \"packet_age\"\n{MOBILE_DS}ack_every = 2\nack_delay = \"5ms\"\n");
    let sc = load(&format!("{BASE}\n{both}"), &[]).unwrap();
    match &sc.agents[0].kind {
        AgentKind::DeliveryServiceAnchor(d) => {
            assert_eq!((d.buffer, d.timer), (Some(10_000), vhsim_scenario::DsTimer::PacketAge))
        }
        k => panic!("{k:?}"),
    }
    match &sc.agents[1].kind {
        AgentKind::DeliveryServiceMobile(d) => assert_eq!((d.ack_every, d.ack_delay.as_nanos()), (2, 5_000_000)),
        k => panic!("{k:?}"),
    }
    // Defaults: unbounded, restarted on progress, one acknowledgement per packet.
    let sc = load(&format!("{BASE}\n{ANCHOR_DS}{MOBILE_DS}"), &[]).unwrap();
    match (&sc.agents[0].kind, &sc.agents[1].kind) {
        (AgentKind::DeliveryServiceAnchor(a), AgentKind::DeliveryServiceMobile(m)) => {
            assert_eq!((a.buffer, a.timer, m.ack_every), (None, vhsim_scenario::DsTimer::RestartOnProgress, 1))
        }
        k => panic!("{k:?}"),
    }
    let plain = format!("{ANCHOR_DS}{MOBILE_DS}");
    assert_error(&plain, &[("agents[0].buffer", "0B")], "agents[0].buffer", "at least 1B");
    assert_error(&plain, &[("agents[1].buffer", "10kB")], "agents[1].buffer", "anchor's Delivery Service");
    assert_error(&plain, &[("agents[1].timer", "packet_age")], "agents[1].timer", "anchor's Delivery Service");
    assert_error(&plain, &[("agents[0].ack_every", "2")], "agents[0].ack_every", "mobile node's Delivery Service");
    assert_error(&plain, &[("agents[1].ack_every", "0")], "agents[1].ack_every", "at least 1");
    assert_error(&plain, &[("agents[1].ack_delay", "5ms")], "agents[1].ack_delay", "needs `ack_every` > 1");
    let every2 = [("agents[1].ack_every", "2"), ("agents[1].ack_delay", "0s")];
    assert_error(&plain, &every2, "agents[1].ack_delay", "greater than 0s");
    let counter = "[[agents]]\nnode = \"mn\"\nkind = \"counter\"\nbuffer = \"1kB\"\n";
    assert_error(counter, &[], "agents[0].buffer", "only allowed with kind = \"delivery_service\"");
}

#[test]
fn the_cbr_send_buffer_and_rate_are_checked() {
    let sc = load(BASE, &[("flows.cbr.app.send_buffer".into(), "64kB".into())]).unwrap();
    let AppModel::Cbr(c) = &sc.flows[0].app else { panic!() };
    assert_eq!(c.send_buffer, Some(64), "64000 B of 1000-byte segments");
    assert_error(
        "",
        &[("flows.cbr.app.rate", "0kbps")],
        "flows.cbr.app.rate",
        "a rate must be greater than zero",
    );
    assert_error(
        "",
        &[("flows.cbr.app.send_buffer", "500B")],
        "flows.cbr.app.send_buffer",
        "less than one write",
    );
    assert_error(
        "",
        &[("flows.cbr.app.send_buffer", "0pkt")],
        "flows.cbr.app.send_buffer",
        "less than one write",
    );
    assert_error(
        "",
        &[("flows.cbr.app", "{ kind = \"bulk\", send_buffer = \"10pkt\" }")],
        "flows.cbr.app.send_buffer",
        "only allowed with kind = \"cbr\"",
    );
}
