//! The `[mobile]` section and handover timeline entries: resolution and every error.

use vhsim_scenario::{load, Action, HandoverKind};

const BASE: &str = r#"
duration = "30s"
[nodes.cn]
[nodes.r]
[nodes.bs1]
[nodes.bs2]
[nodes.mn]
[links.wired]
between = ["cn", "r"]
rate = "100Mbps"
delay = "10ms"
[links.r1]
between = ["r", "bs1"]
rate = "100Mbps"
delay = "1ms"
[links.r2]
between = ["r", "bs2"]
rate = "100Mbps"
delay = "1ms"
[links.umts]
between = ["bs1", "mn"]
rate = "384kbps"
delay = "100ms"
[links.wlan]
between = ["bs2", "mn"]
rate = "11Mbps"
delay = "15ms"
[mobile]
node = "mn"
anchor = "r"
initial = "umts"
[mobile.interfaces.umts]
access = "umts"
[mobile.interfaces.wlan]
access = "wlan"
[flows.bulk]
from = "cn"
to = "mn"
"#;

fn with(extra: &str) -> String {
    format!("{BASE}\n{extra}")
}

fn without_mobile() -> String {
    let (head, tail) = BASE.split_once("[mobile]").unwrap();
    let (_, flows) = tail.split_once("[flows.bulk]").unwrap();
    format!("{head}[flows.bulk]{flows}")
}

fn handover(at: &str, rest: &str) -> String {
    format!("[[timeline]]\nat = \"{at}\"\naction = \"handover\"\n{rest}\n")
}

#[test]
fn routes_follow_the_active_interface_at_the_anchor_and_the_mn_only() {
    let s = load(BASE, &[]).unwrap();
    let m = s.mobiles.first().unwrap();
    let node = |n: &str| s.nodes.iter().position(|x| x.name == n).unwrap();
    let dir = |n: &str| s.links.iter().position(|l| l.name == n).unwrap() as u32;
    let (umts, wlan) = (&m.interfaces[0], &m.interfaces[1]);
    // Each interface: its neighbour and own link, [towards the MN, from it].
    assert_eq!((umts.attach_node, umts.attach), (node("bs1") as u32, Some([dir("umts/forward"), dir("umts/reverse")])));
    assert_eq!((wlan.attach_node, wlan.attach), (node("bs2") as u32, Some([dir("wlan/forward"), dir("wlan/reverse")])));
    assert_eq!(umts.downlink, dir("umts/forward"));
    // The anchor reaches the MN through the initial interface (the world follows its binding).
    assert_eq!(s.nodes[node("r")].routes[node("mn")], Some(dir("r1/forward")));
    assert_eq!(s.nodes[node("cn")].routes[node("mn")], Some(dir("wired/forward")));
    // A base station keeps its own side's route whatever is active.
    assert_eq!(s.nodes[node("bs2")].routes[node("mn")], Some(dir("wlan/forward")));
    assert_eq!(s.nodes[node("bs1")].routes[node("mn")], Some(dir("umts/forward")));
    // The MN has no routes: it leaves by the interface in use.
    assert!(s.nodes[node("mn")].routes.is_empty());
    // Care-of addresses follow the node addresses.
    assert_eq!((umts.address, wlan.address), (5, 6));
}

#[test]
fn handovers_resolve_in_time_order_from_the_interface_in_use() {
    let toml = with(&format!(
        "{}{}",
        handover("20s", "kind = \"pause\"\nduration = \"2s\"\nto = \"umts\""),
        handover(
            "5s",
            "kind = \"break_before_make\"\ngap = \"500ms\"\nto = \"wlan\"\nnotify_delay = \"50ms\""
        )
    ));
    let s = load(&toml, &[]).unwrap();
    let hs: Vec<_> = s.timeline.iter().map(|e| (e.at.0, e.action.clone())).collect();
    assert_eq!(hs.len(), 2);
    assert_eq!(hs[0].0, 5_000_000_000);
    match &hs[0].1 {
        Action::Handover { kind, from, to, notify_delay, .. } => {
            assert_eq!(
                *kind,
                HandoverKind::BreakBeforeMake { gap: vhsim_core::SimDuration::from_millis(500) }
            );
            assert_eq!((*from, *to), (0, 1));
            assert_eq!(notify_delay.0, 50_000_000);
        }
        a => panic!("{a:?}"),
    }
    match &hs[1].1 {
        Action::Handover { from, to, .. } => assert_eq!((*from, *to), (1, 0)),
        a => panic!("{a:?}"),
    }
}

#[test]
fn malformed_mobile_and_handover_entries_name_the_key() {
    let cases: &[(&str, String, &str, &str)] = &[
        (
            "handover without [mobile]",
            without_mobile() + &handover("5s", "kind = \"pause\"\nduration = \"1s\"\nto = \"wlan\""),
            "timeline[0].action",
            "needs a [mobile] section",
        ),
        (
            "unknown handover kind",
            with(&handover("5s", "kind = \"teleport\"\nto = \"wlan\"")),
            "timeline[0].kind",
            "unknown variant `teleport`",
        ),
        ("missing kind", with(&handover("5s", "to = \"wlan\"")), "timeline[0]", "needs `kind`"),
        ("missing to", with(&handover("5s", "kind = \"make_before_break\"")), "timeline[0]", "needs `to`"),
        (
            "unknown interface",
            with(&handover("5s", "kind = \"make_before_break\"\nto = \"lte\"")),
            "timeline[0].to",
            "unknown interface `lte`",
        ),
        (
            "already there",
            with(&handover("5s", "kind = \"make_before_break\"\nto = \"umts\"")),
            "timeline[0].to",
            "already on interface `umts`",
        ),
        (
            "negative gap",
            with(&handover("5s", "kind = \"break_before_make\"\ngap = \"-1ms\"\nto = \"wlan\"")),
            "timeline[0].gap",
            "negative",
        ),
        (
            "missing gap",
            with(&handover("5s", "kind = \"break_before_make\"\nto = \"wlan\"")),
            "timeline[0]",
            "needs `gap`",
        ),
        (
            "gap on mbb",
            with(&handover("5s", "kind = \"make_before_break\"\ngap = \"1s\"\nto = \"wlan\"")),
            "timeline[0].gap",
            "only allowed with kind = \"break_before_make\"",
        ),
        (
            "zero pause",
            with(&handover("5s", "kind = \"pause\"\nduration = \"0s\"\nto = \"wlan\"")),
            "timeline[0].duration",
            "longer than 0s",
        ),
        (
            "handover after the end",
            with(&handover("30s", "kind = \"make_before_break\"\nto = \"wlan\"")),
            "timeline[0].at",
            "not before the end of the run",
        ),
        (
            "outage past the end",
            with(&handover("29s", "kind = \"pause\"\nduration = \"2s\"\nto = \"wlan\"")),
            "timeline[0].duration",
            "not before the end of the run",
        ),
        (
            "overlapping handovers",
            with(&format!(
                "{}{}",
                handover("5s", "kind = \"pause\"\nduration = \"2s\"\nto = \"wlan\""),
                handover("6s", "kind = \"make_before_break\"\nto = \"umts\"")
            )),
            "timeline[1].at",
            "still under way",
        ),
        (
            "link on a handover",
            with(&handover("5s", "kind = \"make_before_break\"\nto = \"wlan\"\nlink = \"wlan\"")),
            "timeline[0].link",
            "not a field of action = \"handover\"",
        ),
        (
            "kind on link_down",
            with("[[timeline]]\nat = \"1s\"\naction = \"link_down\"\nlink = \"wlan\"\nkind = \"pause\""),
            "timeline[0].kind",
            "only allowed with action = \"handover\"",
        ),
        (
            "unknown mobile node",
            BASE.replace("node = \"mn\"", "node = \"ue\""),
            "mobile.node",
            "unknown node `ue`",
        ),
        (
            "anchor is the mn",
            BASE.replace("anchor = \"r\"", "anchor = \"mn\""),
            "mobile.anchor",
            "another node",
        ),
        (
            "unknown initial",
            BASE.replace("initial = \"umts\"", "initial = \"lte\""),
            "mobile.initial",
            "unknown interface `lte`",
        ),
        (
            "unknown access link",
            BASE.replace("access = \"wlan\"", "access = \"wifi\""),
            "mobile.interfaces.wlan.access",
            "unknown link `wifi`",
        ),
        (
            "access not at the mn",
            BASE.replace("access = \"wlan\"", "access = \"r2\""),
            "mobile.interfaces.wlan.access",
            "does not end at the mobile node",
        ),
        (
            "a link at the mn that is no interface's",
            BASE.replace("[mobile.interfaces.wlan]\naccess = \"wlan\"", ""),
            "links.wlan",
            "a mobile node is a leaf of the network",
        ),
        (
            "no interfaces",
            BASE.replace("[mobile.interfaces.umts]\naccess = \"umts\"\n[mobile.interfaces.wlan]\naccess = \"wlan\"", ""),
            "mobile",
            "missing field `interfaces`",
        ),
        (
            "an empty interface table",
            BASE.replace("[mobile.interfaces.umts]\naccess = \"umts\"\n[mobile.interfaces.wlan]\naccess = \"wlan\"", "interfaces = {}"),
            "mobile.interfaces",
            "at least one interface",
        ),
        (
            "unknown mobile key",
            BASE.replace("anchor = \"r\"", "anchor = \"r\"\nspeed = \"50km/h\""),
            "mobile",
            "unknown field `speed`",
        ),
        (
            "bad handover_window",
            with("[metrics]\nhandover_window = \"0s\""),
            "metrics.handover_window",
            "greater than 0s",
        ),
        (
            "bad handover_packets",
            with("[metrics]\nhandover_packets = 0"),
            "metrics.handover_packets",
            "at least 1",
        ),
    ];
    for (name, toml, path, phrase) in cases {
        let result = std::panic::catch_unwind(|| load(toml, &[]));
        let e = match result {
            Ok(Err(e)) => e,
            Ok(Ok(_)) => panic!("{name}: accepted"),
            Err(_) => panic!("{name}: panicked"),
        };
        assert!(
            e.path.starts_with(path),
            "{name}: path {:?} (message {:?}) is not {path:?}",
            e.path,
            e.message
        );
        assert!(e.message.contains(phrase), "{name}: message {:?} lacks {phrase:?}", e.message);
    }
}

fn error(toml: &str, sets: &[(&str, &str)]) -> vhsim_scenario::ScenarioError {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(toml, &sets).expect_err("invalid")
}

#[test]
fn a_binding_latency_longer_than_the_run_is_an_error_at_its_key() {
    let e = error(BASE, &[("mobile.binding", "{ latency = \"40s\" }")]);
    assert_eq!(e.path, "mobile.binding.latency");
    assert!(e.message.contains("longer than the run"), "{e}");
    // One that fits the run but not the handover's completion + latency.
    let toml = with(&handover("25s", "kind = \"make_before_break\"\nto = \"wlan\""));
    let e = error(&toml, &[("mobile.binding", "{ latency = \"5s\", old_path = \"drop\" }")]);
    assert_eq!(e.path, "mobile.binding.latency");
    assert!(e.message.contains("not before the end of the run"), "{e}");
    let e = error(BASE, &[("mobile.binding", "{ latency = \"1s\", old_path = \"lose\" }")]);
    assert_eq!(e.path, "mobile.binding.old_path");
}

#[test]
fn a_warning_before_time_zero_is_an_error_at_its_key() {
    let toml = with(&handover("1s", "kind = \"make_before_break\"\nto = \"wlan\""));
    let e = error(&toml, &[("mobile.warning", "1.5s")]);
    assert_eq!(e.path, "mobile.warning");
    assert!(e.message.contains("before 0s"), "{e}");
    assert!(load(&toml, &[("mobile.warning".into(), "1s".into())]).is_ok());
}

#[test]
fn an_agent_on_an_unknown_node_is_an_error_naming_the_nodes() {
    let e = error(&with("[[agents]]\nnode = \"rr\"\nkind = \"counter\"\n"), &[]);
    assert_eq!(e.path, "agents[0].node");
    assert!(e.message.contains("unknown node `rr`") && e.message.contains("`r`"), "{e}");
    let e = error(&with("[[agents]]\nnode = \"r\"\nkind = \"hold\"\nfrom = \"2s\"\n"), &[]);
    assert_eq!(e.path, "agents[0]");
    let e = error(&with("[[agents]]\nnode = \"r\"\nkind = \"counter\"\nseqs = [1]\n"), &[]);
    assert_eq!(e.path, "agents[0].seqs");
    let e = error(&with("[[agents]]\nnode = \"r\"\nkind = \"drop_filter\"\nflow = \"nope\"\n"), &[]);
    assert_eq!(e.path, "agents[0].flow");
}

#[test]
fn an_address_clash_or_a_malformed_address_is_an_error_at_its_key() {
    let e = error(BASE, &[("nodes.r.address", "\"10.0.0.1\"")]);
    assert_eq!(e.path, "nodes.r.address");
    assert!(e.message.contains("already `nodes.cn.address`"), "{e}");
    let e = error(BASE, &[("mobile.interfaces.wlan.address", "\"10.1.0.1\"")]);
    assert_eq!(e.path, "mobile.interfaces.wlan.address");
    let e = error(BASE, &[("nodes.cn.address", "\"10.0.0.256\"")]);
    assert_eq!(e.path, "nodes.cn.address");
    assert!(e.message.contains("not an IPv4 address"), "{e}");
    let s = load(BASE, &[]).unwrap();
    let ips: Vec<String> = s.addresses.iter().map(|a| a.ipv4.to_string()).collect();
    assert_eq!(ips, ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.1.0.1", "10.2.0.1"]);
}

#[test]
fn a_flow_can_address_an_interface_of_the_mobile_node_only() {
    let s = load(BASE, &[("flows.bulk.to_interface".into(), "wlan".into())]).unwrap();
    assert_eq!(s.flows[0].dst_addr, 6, "the second care-of address, after the five node addresses");
    let e = error(BASE, &[("flows.bulk.to_interface", "wifi")]);
    assert_eq!(e.path, "flows.bulk.to_interface");
    assert!(e.message.contains("unknown interface `wifi`"), "{e}");
    let e = error(BASE, &[("flows.bulk.to", "r"), ("flows.bulk.to_interface", "wlan")]);
    assert!(e.message.contains("only a flow to the mobile node"), "{e}");
}

#[test]
fn a_datagram_flow_needs_a_cbr_application_and_takes_no_tcp_keys() {
    let e = error(BASE, &[("flows.bulk.protocol", "datagram")]);
    assert_eq!(e.path, "flows.bulk.app");
    let cbr = "{ kind = \"cbr\", rate = \"1Mbps\" }";
    let e = error(BASE, &[("flows.bulk.protocol", "datagram"), ("flows.bulk.app", cbr), ("flows.bulk.scheme", "sack")]);
    assert_eq!(e.path, "flows.bulk.scheme");
    let e = error(BASE, &[("flows.bulk.app", cbr), ("flows.bulk.datagram", "{ size = \"500B\" }")]);
    assert_eq!(e.path, "flows.bulk.datagram");
    let s = load(BASE, &[("flows.bulk.protocol".into(), "datagram".into()), ("flows.bulk.app".into(), cbr.into())]).unwrap();
    assert!(matches!(s.flows[0].transport, vhsim_scenario::TransportModel::Datagram { size: 1000, header_size: 28 }));
}
