//! Many mobile nodes: `[[mobiles]]`, shared cells, `[[populations]]`, and every error naming its
//! key (issue #29).

use vhsim_scenario::{load, Action, ScenarioError};

const NETWORK: &str = r#"
duration = "60s"
[nodes.cn]
[nodes.r]
[nodes.ap]
[nodes.wlan]
cell = true
[nodes.rnc]
[links.core]
between = ["cn", "r"]
rate = "100Mbps"
delay = "10ms"
[links.r_ap]
between = ["r", "ap"]
rate = "100Mbps"
delay = "1ms"
[links.air]
between = ["ap", "wlan"]
rate = "6.4Mbps"
delay = "2ms"
[links.r_rnc]
between = ["r", "rnc"]
rate = "100Mbps"
delay = "5ms"
"#;

/// A population of `count` users on the cell `wlan` and each on its own 3G link from `rnc`,
/// one bulk flow each (`flow_extra` in the flow's table), `extra` appended.
fn population(count: &str, flow_extra: &str, extra: &str) -> String {
    format!(
        r#"{NETWORK}
[[populations]]
name = "users"
count = {count}
node = "u{{i}}"
[populations.mobile]
anchor = "r"
initial = "wlan"
interfaces.wlan = {{ cell = "wlan" }}
interfaces.umts = {{ access = "{{node}}.umts" }}
[populations.links.umts]
between = ["rnc", "{{node}}"]
rate = "384kbps"
delay = "100ms"
[populations.flows.bulk]
from = "cn"
to = "{{node}}"
scheme = {{ cycle = ["sack", "newreno", "reno"] }}
start = {{ spread = ["0s", "10s"] }}
{flow_extra}
{extra}
"#
    )
}

fn error(text: &str) -> ScenarioError {
    load(text, &[]).expect_err("should be rejected")
}

fn assert_error(text: &str, path: &str, words: &str) {
    let e = error(text);
    assert_eq!(e.path, path, "{e}");
    assert!(e.message.contains(words), "{e}");
}

#[test]
fn a_population_expands_into_mobile_nodes_links_and_flows() {
    let s = load(&population("4", "", ""), &[]).unwrap();
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(&names[5..], ["u0", "u1", "u2", "u3"]);
    assert_eq!(s.mobiles.len(), 4);
    let flows: Vec<(&str, &str, u64)> =
        s.flows.iter().map(|f| (f.name.as_str(), &*f.scheme, f.start.0)).collect();
    assert_eq!(
        flows,
        [
            ("u0.bulk", "sack", 0),
            ("u1.bulk", "newreno", 2_500_000_000),
            ("u2.bulk", "reno", 5_000_000_000),
            ("u3.bulk", "sack", 7_500_000_000)
        ]
    );
    // Each user: the shared cell (no link of its own) and its own 3G link.
    let link = |n: &str| s.links.iter().position(|l| l.name == n).unwrap() as u32;
    for (k, m) in s.mobiles.iter().enumerate() {
        let (wlan, umts) = (&m.interfaces[0], &m.interfaces[1]);
        assert_eq!((wlan.attach, wlan.downlink), (None, link("air/forward")));
        let own = [link(&format!("u{k}.umts/forward")), link(&format!("u{k}.umts/reverse"))];
        assert_eq!(umts.attach, Some(own));
        assert_eq!(s.addresses[wlan.address as usize].ipv4.to_string(), format!("10.1.0.{}", k + 1));
        assert_eq!(s.addresses[umts.address as usize].ipv4.to_string(), format!("10.2.0.{}", k + 1));
    }
    // cn reaches every user by the cell (its initial interface): r, then the access point.
    let cn = &s.nodes[0];
    assert!((5..9).all(|u| cn.routes[u] == Some(link("core/forward"))));
    assert!((5..9).all(|u| s.nodes[2].routes[u] == Some(link("air/forward"))), "the AP by the cell's downlink");
    assert!((5..9).all(|u| s.nodes[3].routes[u].is_none()), "the cell through the attachment");
}

#[test]
fn handovers_of_a_population_name_their_mobile_node_and_draw_their_times() {
    let storm = "[[populations.timeline]]\nat = { uniform = [\"30s\", \"31s\"] }\naction = \"handover\"\n\
                 kind = \"break_before_make\"\ngap = \"1s\"\nto = \"umts\"\n";
    let s = load(&population("50", "", storm), &[]).unwrap();
    let mut seen = [false; 50];
    for e in &s.timeline {
        let Action::Handover { mobile, from, to, .. } = &e.action else { panic!() };
        assert!((30_000_000_000..31_000_000_000).contains(&e.at.0));
        assert_eq!((*from, *to), (0, 1));
        seen[*mobile as usize] = true;
    }
    assert!(seen.iter().all(|&x| x), "one handover per mobile node");
    assert!(s.timeline.windows(2).all(|w| w[0].at <= w[1].at), "in time order");
    // Another seed draws other times; the same seed the same ones.
    let again = load(&population("50", "", storm), &[]).unwrap();
    let other = load(&population("50", "", storm), &[("seed".into(), "2".into())]).unwrap();
    assert_eq!(s.timeline, again.timeline);
    assert_ne!(s.timeline, other.timeline);
}

#[test]
fn overrides_reach_the_template() {
    let s = load(&population("3", "", ""), &[("populations[0].count".into(), "5".into())]).unwrap();
    assert_eq!(s.mobiles.len(), 5);
    let s = load(&population("3", "", ""), &[("populations[0].flows.bulk.scheme".into(), "dcr".into())]).unwrap();
    assert!(s.flows.iter().all(|f| &*f.scheme == "dcr"));
}

#[test]
fn several_mobile_nodes_by_hand() {
    let two = format!(
        "{NETWORK}[nodes.a]\n[nodes.b]\n\
         [[mobiles]]\nnode = \"a\"\nanchor = \"r\"\ninitial = \"wlan\"\ninterfaces.wlan = {{ cell = \"wlan\" }}\n\
         [[mobiles]]\nnode = \"b\"\nanchor = \"r\"\ninitial = \"wlan\"\ninterfaces.wlan = {{ cell = \"wlan\" }}\n\
         [flows.fa]\nfrom = \"cn\"\nto = \"a\"\n[flows.fb]\nfrom = \"b\"\nto = \"a\"\n"
    );
    let s = load(&two, &[]).unwrap();
    assert_eq!(s.mobiles.len(), 2);
    // The canonical JSON keeps `mobile`: a list now.
    let json = vhsim_scenario::to_canonical_json(&s);
    assert!(json.contains("\"mobile\":[{"), "{json}");
    let back: vhsim_scenario::Scenario = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    // A handover must say whose it is.
    let ho = "[[timeline]]\nat = \"5s\"\naction = \"handover\"\nkind = \"make_before_break\"\nto = \"wlan\"\n";
    assert_error(&format!("{two}{ho}"), "timeline[0]", "names its `mobile`");
    assert_error(&format!("{two}{ho}mobile = \"cn\"\n"), "timeline[0].mobile", "not a mobile node");
    assert_error(&format!("{two}{ho}mobile = \"a\"\n"), "timeline[0].to", "already on interface `wlan`");
}

#[test]
fn bad_many_mobile_node_input_names_the_key() {
    // Two mobile nodes with the same address.
    let same = population("2", "", "").replace(
        "interfaces.wlan = { cell = \"wlan\" }",
        "interfaces.wlan = { cell = \"wlan\", address = \"10.9.0.1\" }",
    );
    let e = error(&same);
    assert_eq!(e.path, "populations[0].mobile.interfaces.wlan.address", "{e}");
    assert!(e.message.contains("address 10.9.0.1 is already"), "{e}");
    assert!(e.message.contains("(mobile node `u1`)"), "{e}");
    // A population of none, or with a negative arrival rate or link rate.
    assert_error(&population("0", "", ""), "populations[0].count", "at least 1");
    let poisson = "start = { poisson = { rate = -2.0 } }";
    assert_error(
        &population("3", "", "").replace("start = { spread = [\"0s\", \"10s\"] }", poisson),
        "populations[0].flows.bulk.start.poisson.rate",
        "greater than 0",
    );
    assert_error(
        &population("3", "", "").replace("rate = \"384kbps\"", "rate = \"-384kbps\""),
        "populations[0].links.umts.rate",
        "negative values are not allowed",
    );
    // A mobile node without interfaces.
    let bare = population("2", "", "")
        .replace("interfaces.wlan = { cell = \"wlan\" }\ninterfaces.umts = { access = \"{node}.umts\" }\n", "");
    assert_error(&bare, "populations[0].mobile", "missing field `interfaces`");
    let by_hand = format!("{NETWORK}[nodes.a]\n[[mobiles]]\nnode = \"a\"\nanchor = \"r\"\ninitial = \"wlan\"\n[flows.f]\nfrom = \"cn\"\nto = \"r\"\n");
    assert_error(&by_hand, "mobiles[0]", "missing field `interfaces`");
    // The population's own keys.
    assert_error(&population("2", "", "").replace("node = \"u{i}\"", "node = \"u\""), "populations[0].node", "has no `{i}`");
    assert_error(&population("2", "", "").replace("node = \"u{i}\"", "node = \"cn{i}\"\ncont = 2"), "populations[0].cont", "unknown field");
    let clash = population("2", "", "").replace("[nodes.rnc]", "[nodes.rnc]\n[nodes.u1]");
    assert_error(&clash, "populations[0].node", "`u1`, which is already a node");
    // A bad value in a flow template is reported at the template, naming the mobile node.
    let e = error(&population("2", "tcp.window = \"0pkt\"", ""));
    assert!(e.path.starts_with("populations[0].flows.bulk.tcp"), "{e}");
    assert!(e.message.contains("(mobile node `u0`)"), "{e}");
}

#[test]
fn bad_cells_and_interfaces_name_the_key() {
    let base = population("1", "", "");
    assert_error(
        &base.replace("interfaces.wlan = { cell = \"wlan\" }", "interfaces.wlan = { cell = \"ap\" }"),
        "populations[0].mobile.interfaces.wlan.cell",
        "not a shared cell",
    );
    assert_error(
        &base.replace("interfaces.wlan = { cell = \"wlan\" }", "interfaces.wlan = { cell = \"wlan\", access = \"air\" }"),
        "populations[0].mobile.interfaces.wlan.access",
        "no links of its own",
    );
    assert_error(
        &base.replace("interfaces.wlan = { cell = \"wlan\" }", "interfaces.wlan = { address = \"10.8.0.1\" }"),
        "populations[0].mobile.interfaces.wlan",
        "needs `access`",
    );
    let two_links = base.replace("[links.r_rnc]", "[links.extra]\nbetween = [\"r\", \"wlan\"]\nrate = \"1Mbps\"\ndelay = \"1ms\"\n[links.r_rnc]");
    assert_error(&two_links, "nodes.wlan.cell", "exactly one link");
    let anchor_cell = base.replace("anchor = \"r\"", "anchor = \"wlan\"");
    assert_error(&anchor_cell, "populations[0].mobile.anchor", "shared cell");
}
