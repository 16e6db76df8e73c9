//! Many mobile nodes (issue #29): shared cells, per-mobile-node bindings and handovers, the
//! Delivery Service serving many mobile nodes, populations.
//!
//! Topology (`world`): cn -(1 Gb/s, 5 ms)- r, the anchor; r -(1 Gb/s, 1 ms)- apw -(cell link
//! `wlan_air`, 1 Gb/s, 2 ms)- the cell `wlan`; r -(1 Gb/s, 1 ms)- apu -(`umts_air`, 1 Gb/s,
//! 20 ms)- the cell `umts`. Every mobile node has interfaces `wlan` (initial) and `umts`, one
//! on each cell. Datagram flows cn -> mobile node, 1000 B (1028 B on the wire) every 10 ms.

use std::collections::BTreeMap;
use vhsim_scenario::{load, Detail, Scenario};
use vhsim_sim::trace::PacketEvent;
use vhsim_sim::{run, RunOutput};

const NETWORK: &str = r#"
[nodes.cn]
[nodes.r]
[nodes.apw]
[nodes.wlan]
cell = true
[nodes.apu]
[nodes.umts]
cell = true
[links.core]
between = ["cn", "r"]
rate = "1Gbps"
delay = "5ms"
queue = "1000pkt"
[links.rw]
between = ["r", "apw"]
rate = "1Gbps"
delay = "1ms"
[links.ru]
between = ["r", "apu"]
rate = "1Gbps"
delay = "1ms"
[links.wlan_air]
between = ["apw", "wlan"]
rate = "1Gbps"
delay = "2ms"
queue = "1000pkt"
[links.umts_air]
between = ["apu", "umts"]
rate = "1Gbps"
delay = "20ms"
queue = "1000pkt"
"#;

/// A population of `count` mobile nodes `u0`.. with `mobile_extra` in their `[mobile]`
/// template, a datagram flow each (starts spread over the first 10 ms, until `stop`), and
/// `extra` appended to the population table (timeline entries, agents).
fn population(count: u32, mobile_extra: &str, stop: &str, extra: &str) -> String {
    format!(
        r#"
[[populations]]
name = "users"
count = {count}
node = "u{{i}}"
[populations.mobile]
anchor = "r"
initial = "wlan"
{mobile_extra}
interfaces.wlan = {{ cell = "wlan" }}
interfaces.umts = {{ cell = "umts" }}
[populations.flows.f]
from = "cn"
to = "{{node}}"
protocol = "datagram"
start = {{ spread = ["0s", "10ms"] }}
stop = "{stop}"
app = {{ kind = "cbr", interval = "10ms", packet_size = "1000B" }}
{extra}
"#
    )
}

fn world(duration: &str, body: &str) -> Scenario {
    let text = format!("duration = \"{duration}\"\n{NETWORK}\n{body}");
    load(&text, &[]).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Per flow, (time ns, interface) of every receive, by data unit.
fn receives(out: &RunOutput, flow: u32) -> BTreeMap<i64, Vec<(u64, i8)>> {
    let p = out.traces.packets.as_ref().unwrap();
    let mut m: BTreeMap<i64, Vec<(u64, i8)>> = BTreeMap::new();
    for i in (0..p.len()).filter(|&i| p.event[i] == PacketEvent::Receive as u8 && p.flow[i] == flow) {
        m.entry(p.seq[i]).or_default().push((p.time_ns[i], p.path[i]));
    }
    m
}

#[test]
fn two_mobile_nodes_sharing_a_cell_follow_their_own_bindings() {
    // u0 hands over to umts at 1 s (break-before-make, 200 ms gap); u1 stays on wlan.
    let handover = "[[timeline]]\nat = \"1s\"\naction = \"handover\"\nmobile = \"u0\"\nkind = \"break_before_make\"\n\
                    gap = \"200ms\"\nto = \"umts\"\n";
    let sc = world("2.5s", &format!("{}{handover}", population(2, "", "2s", "")));
    let out = run(&sc, Some(Detail::Packets));
    let (u0, u1) = (receives(&out, 0), receives(&out, 1));
    // u1: every datagram, all by wlan, none lost; its flow measures no handover.
    assert_eq!(u1.len(), 200);
    assert!(u1.values().all(|c| c.len() == 1 && c[0].1 == 0), "{u1:?}");
    let f1 = &out.summary.flows["u1.f"];
    assert_eq!((f1.drops["link_down"], f1.handovers.len()), (0, 0));
    // u0: by wlan before 1 s, by umts from the completion at 1.2 s; what reached its
    // attachment to wlan in the gap is lost (counted on the cell's downlink), the rest arrives.
    let f0 = &out.summary.flows["u0.f"];
    assert_eq!(f0.handovers.len(), 1);
    let lost = f0.drops["link_down"];
    assert!((19..=21).contains(&lost), "{lost} datagrams reach the cell in 200 ms");
    assert_eq!(u0.len() as u64, 200 - lost);
    for copies in u0.values() {
        let (t, path) = copies[0];
        assert_eq!(path, if t < 1_000_000_000 { 0 } else { 1 }, "{copies:?}");
    }
    assert_eq!(out.summary.links["wlan_air/forward"].drops["link_down"], lost);
    // The umts cell carried u0's datagrams sent after the handover and nothing of u1's.
    let on_umts = u0.values().filter(|c| c[0].1 == 1).count() as u64;
    assert_eq!(out.summary.links["umts_air/forward"].packets_sent, on_umts);
    // Both mobile nodes are in the summary; the run's handover names its mobile node.
    let names: Vec<&str> = out.summary.mobiles.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["u0", "u1"]);
    assert_eq!(out.summary.handovers[0].mobile.as_deref(), Some("u0"));
}

#[test]
fn a_storm_of_100_handovers_drops_per_mobile_node_what_reaches_the_anchor_in_its_binding_latency() {
    // Mobile node i starts at i * 0.1 ms and hands over (make-before-break) at 1 s + i * 3 ms;
    // the anchor's binding follows 800 ms later and drops what is for the old care-of address.
    let n = 100u64;
    let timeline = "[[populations.timeline]]\nat = { spread = [\"1s\", \"1.3s\"] }\naction = \"handover\"\n\
                    kind = \"make_before_break\"\nto = \"umts\"\n";
    let binding = "binding = { latency = \"800ms\", old_path = \"drop\" }";
    let sc = world("3.5s", &population(n as u32, binding, "3s", timeline));
    let out = run(&sc, Some(Detail::Summary));
    // Datagram k of node i leaves cn at s_i + k * 10 ms (s_i = i * 0.1 ms) and reaches r
    // 5 ms + 1028 B at 1 Gb/s (8224 ns) later; the flows never queue on the core link.
    let mut total = 0;
    for i in 0..n {
        let (start, handover) = (i * 100_000, 1_000_000_000 + i * 3_000_000);
        let at_anchor = |k: u64| start + k * 10_000_000 + 5_000_000 + 8_224;
        let sent = (0..).take_while(|k| start + k * 10_000_000 < 3_000_000_000).count() as u64;
        let expected = (0..sent).filter(|&k| (handover..handover + 800_000_000).contains(&at_anchor(k))).count() as u64;
        let m = &out.summary.mobiles[i as usize];
        let f = &out.summary.flows[&format!("u{i}.f")];
        assert_eq!(m.name, format!("u{i}"));
        assert_eq!((m.binding_drops, f.drops["binding"]), (expected, expected), "u{i}");
        assert_eq!(f.delivered_bytes, (sent - expected) * 1000, "u{i}: everything else arrives");
        total += expected;
    }
    assert_eq!(total, 100 * 80, "each binding update drops 80 datagrams (800 ms at 100 a second)");
    assert_eq!(out.summary.handovers.len(), 100);
}

#[test]
fn one_delivery_service_at_the_anchor_serves_every_mobile_node_through_a_storm() {
    // 20 mobile nodes lose the wlan cell at 2 s (forced, detection 1 s): the anchor's DS
    // declares each one's interface failed 50 ms after that node's last acknowledgement and
    // sends its kept datagrams again by umts.
    let mut extra = String::from(
        "[[populations.timeline]]\nat = \"2s\"\naction = \"handover\"\nkind = \"forced\"\ndetection = \"1s\"\nto = \"umts\"\n\
         [[populations.agents]]\nkind = \"delivery_service\"\ninterface = \"wlan\"\n",
    );
    extra.push_str("[[agents]]\nnode = \"r\"\nkind = \"delivery_service\"\ninterface = \"wlan\"\ntimeout = \"50ms\"\n");
    let (head, agents) = extra.split_at(extra.find("[[agents]]").unwrap());
    let sc = world("4s", &format!("{agents}{}", population(20, "", "3s", head)));
    let out = run(&sc, Some(Detail::Packets));
    let ds = &out.summary.agents[0];
    assert_eq!((ds.node.as_str(), ds.counts.failures), ("r", 20), "one declaration per mobile node");
    for (k, h) in out.summary.handovers.iter().enumerate() {
        // The last acknowledgement reaches r before 2 s + the uplink's 3 ms; 50 ms later at most.
        assert!(h.done_s > 2.0 && h.done_s < 2.06, "handover {k} completed at {}", h.done_s);
    }
    for f in 0..20u32 {
        let rx = receives(&out, f);
        assert_eq!(rx.len(), 300, "u{f}: every datagram reaches the mobile node");
        assert!(rx.values().all(|c| c.len() <= 2), "u{f}: at most a duplicate");
    }
}

#[test]
fn a_population_is_the_file_that_writes_it_out() {
    let timeline = "[[populations.timeline]]\nat = { spread = [\"1s\", \"1.3s\"] }\naction = \"handover\"\n\
                    kind = \"break_before_make\"\ngap = { cycle = [\"100ms\", \"300ms\"] }\nto = \"umts\"\n";
    let generated = world("2s", &population(3, "", "1.8s", timeline));
    let mut written = String::new();
    for i in 0..3 {
        written.push_str(&format!("[nodes.u{i}]\n"));
    }
    for i in 0..3 {
        written.push_str(&format!(
            "[[mobiles]]\nnode = \"u{i}\"\nanchor = \"r\"\ninitial = \"wlan\"\ninterfaces.wlan = {{ cell = \"wlan\" }}\n\
             interfaces.umts = {{ cell = \"umts\" }}\n"
        ));
    }
    let starts = ["0s", "3.333333333ms", "6.666666667ms"];
    for i in 0..3 {
        written.push_str(&format!(
            "[flows.\"u{i}.f\"]\nfrom = \"cn\"\nto = \"u{i}\"\nprotocol = \"datagram\"\nstart = \"{}\"\nstop = \"1.8s\"\n\
             app = {{ kind = \"cbr\", interval = \"10ms\", packet_size = \"1000B\" }}\n",
            starts[i]
        ));
    }
    for (i, (at, gap)) in [("1s", "100ms"), ("1.1s", "300ms"), ("1.2s", "100ms")].iter().enumerate() {
        written.push_str(&format!(
            "[[timeline]]\nat = \"{at}\"\naction = \"handover\"\nmobile = \"u{i}\"\nkind = \"break_before_make\"\n\
             gap = \"{gap}\"\nto = \"umts\"\n"
        ));
    }
    // Nodes are tables of `nodes`, which NETWORK opens: put them before the other sections.
    let (nodes, rest) = written.split_at(written.find("[[mobiles]]").unwrap());
    let by_hand = load(&format!("duration = \"2s\"\n{NETWORK}\n{nodes}\n{rest}"), &[]).unwrap();
    assert_eq!(vhsim_scenario::to_canonical_json(&generated), vhsim_scenario::to_canonical_json(&by_hand));
    let fp = |sc: &Scenario| vhsim_sim::fingerprint::fingerprint(&run(sc, Some(Detail::Packets)));
    assert_eq!(fp(&generated), fp(&by_hand));
}
