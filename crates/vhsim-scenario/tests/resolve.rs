//! A full valid scenario resolves to the expected model.

use vhsim_core::{Rate, SimDuration, SimTime};
use vhsim_net::{ErrorModelConfig, QueueLimit};
use vhsim_scenario::*;
use vhsim_tcp::{presets, RecoveryConfig};

const FULL: &str = r#"
name = "full"
description = "every feature once"
duration = "60s"
seed = 42

[nodes.cn]
[nodes.r]
routes = { mn = "wlan" }       # override the direct cell link: go via the access point
[nodes.a]
[nodes.mn]

[links.wired]
between = ["cn", "r"]
rate = "100Mbps"
delay = "1ms"
error = { kind = "drop_list", flow = "bulk", seqs = [5, 6] }

[links.cell]
between = ["r", "mn"]
rate = "384kbps"
delay = "100ms"
queue = "20pkt"
[links.cell.forward]
error = { kind = "bernoulli", p = 0.01 }
[links.cell.reverse]
rate = "64kbps"
queue = "64kB"

[links.wlan]
between = ["r", "a"]
rate = "11Mbps"
delay = "0.5ms"

[links.air]
from = "a"
to = "mn"
rate = "2Mb/s"
delay = "1.5ms"

[flows.bulk]
from = "cn"
to = "mn"
scheme = "newreno"
start = "1s"
stop = "50s"
app = { kind = "bulk" }
[flows.bulk.tcp]
segment_size = "1460B"
window = "64000B"              # floor(64000 / 1460) = 43 packets
min_rto = "1s"
recovery = "sack1"
[flows.bulk.sink]
delayed_ack = true
advertised_window = "14600B"   # 10 packets

[flows.back]
from = "mn"
to = "cn"

[[timeline]]
at = "20s"
action = "set_link"
link = "cell"
direction = "forward"
rate = "2Mbps"
[[timeline]]
at = "10s"
action = "link_down"
link = "cell"
[[timeline]]
at = "10s"
action = "link_up"
link = "air"

[output]
detail = "packets"

[metrics]
goodput_interval = "500ms"
[metrics.windows]
before = ["0s", "10s"]
after = ["20s", "60s"]
"#;

fn link(
    name: &str,
    from: u32,
    to: u32,
    rate: Rate,
    delay: SimDuration,
    queue: QueueLimit,
    error: ErrorModelConfig,
) -> LinkModel {
    LinkModel { name: name.to_owned(), from, to, rate, delay, queue, error, arq: None, reorder: None, trace: None }
}

#[test]
fn full_scenario_resolves() {
    let s = load(FULL, &[]).unwrap();
    assert_eq!((s.name.as_str(), s.duration, s.seed), ("full", SimDuration::from_secs(60), 42));
    assert_eq!(s.detail, Detail::Packets);

    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["cn", "r", "a", "mn"]);

    let ms = SimDuration::from_millis;
    let p100 = QueueLimit::Packets(100);
    let drop = ErrorModelConfig::DropList { flow: 0, seqs: vec![5, 6], copies: 1 };
    let none = ErrorModelConfig::None;
    let expected_links = vec![
        link("wired/forward", 0, 1, Rate::mbps(100), ms(1), p100, drop.clone()),
        link("wired/reverse", 1, 0, Rate::mbps(100), ms(1), p100, drop),
        link(
            "cell/forward",
            1,
            3,
            Rate::kbps(384),
            ms(100),
            QueueLimit::Packets(20),
            ErrorModelConfig::Bernoulli { p: 0.01 },
        ),
        link("cell/reverse", 3, 1, Rate::kbps(64), ms(100), QueueLimit::Bytes(64_000), none.clone()),
        link("wlan/forward", 1, 2, Rate::mbps(11), SimDuration::from_micros(500), p100, none.clone()),
        link("wlan/reverse", 2, 1, Rate::mbps(11), SimDuration::from_micros(500), p100, none.clone()),
        link("air", 2, 3, Rate::mbps(2), SimDuration::from_micros(1_500), p100, none),
    ];
    assert_eq!(s.links, expected_links);

    // routes[d] = first link direction towards node d (cn, r, a, mn).
    let routes: Vec<Vec<Option<u32>>> = s.nodes.iter().map(|n| n.routes.clone()).collect();
    assert_eq!(
        routes,
        vec![
            vec![None, Some(0), Some(0), Some(0)], // cn: everything via wired/forward
            vec![Some(1), None, Some(4), Some(4)], // r: to mn overridden to wlan/forward (BFS: cell/forward)
            vec![Some(5), Some(5), None, Some(6)], // a: air to mn, wlan/reverse otherwise
            vec![Some(3), Some(3), Some(3), None], // mn: only cell/reverse leaves it
        ]
    );

    let preset = presets::preset("newreno").unwrap();
    let mut tcp = preset.tcp_config();
    tcp.segment_size = 1460;
    // The RFC set derives the initial window from the segment size: RFC 5681 §3.1 gives 3
    // segments for 1095 < SMSS <= 2190 bytes.
    tcp.initial_window = 3;
    tcp.window = 43;
    tcp.min_rto = SimDuration::from_secs(1);
    tcp.recovery = RecoveryConfig::Sack1(Default::default());
    let mut sink = preset.sink_config();
    sink.delayed_ack = true;
    sink.advertised_window = 10;
    let bulk = &s.flows[0];
    assert_eq!((bulk.name.as_str(), bulk.src, bulk.dst, &*bulk.scheme), ("bulk", 0, 3, "newreno"));
    assert_eq!((bulk.start, bulk.stop), (SimTime(1_000_000_000), Some(SimTime(50_000_000_000))));
    assert_eq!((bulk.tcp(), bulk.sink(), &bulk.app), (Some(&tcp), Some(&sink), &AppModel::Bulk));

    let sack = presets::preset("sack").unwrap();
    let back = &s.flows[1];
    assert_eq!(
        (back.src, back.dst, &*back.scheme, back.start, back.stop),
        (3, 0, "sack", SimTime::ZERO, None)
    );
    assert_eq!((back.tcp(), back.sink()), (Some(&sack.tcp_config()), Some(&sack.sink_config())));

    let secs = |n: u64| SimTime(n * 1_000_000_000);
    assert_eq!(
        s.timeline,
        vec![
            TimelineEntry { at: secs(10), action: Action::LinkDown { links: vec![2, 3] } },
            TimelineEntry { at: secs(10), action: Action::LinkUp { links: vec![6] } },
            TimelineEntry {
                at: secs(20),
                action: Action::SetLink { links: vec![2], rate: Some(Rate::mbps(2)), delay: None },
            },
        ]
    );

    assert_eq!(
        s.metrics,
        MetricsModel {
            goodput_interval: ms(500),
            windows: vec![
                GoodputWindow { name: "before".into(), start: secs(0), end: secs(10) },
                GoodputWindow { name: "after".into(), start: secs(20), end: secs(60) },
            ],
            handover_window: SimDuration::from_secs(10),
            handover_packets: 100,
            stop: Default::default(),
        }
    );
}

#[test]
fn bfs_breaks_ties_by_link_order() {
    // Two 2-hop paths s->y->d and s->x->d: the one over the lower link id (sy) wins.
    let text = r#"
duration = "1s"
[nodes.s]
[nodes.x]
[nodes.y]
[nodes.d]
[links.sy]
between = ["s", "y"]
rate = "1Mbps"
delay = "1ms"
[links.sx]
between = ["s", "x"]
rate = "1Mbps"
delay = "1ms"
[links.xd]
between = ["x", "d"]
rate = "1Mbps"
delay = "1ms"
[links.yd]
between = ["y", "d"]
rate = "1Mbps"
delay = "1ms"
[flows.f]
from = "s"
to = "d"
"#;
    let s = load(text, &[]).unwrap();
    assert_eq!(s.links[0].name, "sy/forward");
    assert_eq!(s.nodes[0].routes[3], Some(0));
    // From d back to s: d's outgoing directions are xd/reverse (5) then yd/reverse (7).
    assert_eq!(s.nodes[3].routes[0], Some(5));
}

#[test]
fn defaults_and_canonical_json() {
    let text = "duration = \"1.5s\"\n[nodes.a]\n[nodes.b]\n[links.l]\nfrom = \"a\"\nto = \"b\"\nrate = \"1Mbps\"\ndelay = \"0s\"\n\
                [links.m]\nfrom = \"b\"\nto = \"a\"\nrate = \"1Mbps\"\ndelay = \"0s\"\n[flows.f]\nfrom = \"a\"\nto = \"b\"\n";
    let s = load(text, &[]).unwrap();
    assert_eq!((s.name.as_str(), s.seed, s.detail), ("scenario", 1, Detail::Summary));
    assert_eq!(
        s.metrics,
        MetricsModel {
            goodput_interval: SimDuration::from_secs(1),
            windows: vec![],
            handover_window: SimDuration::from_secs(10),
            handover_packets: 100,
            stop: Default::default(),
        }
    );
    assert_eq!(s.links[0].name, "l");
    assert_eq!(s.links[0].queue, QueueLimit::Packets(100));
    assert_eq!(s.links[0].error, ErrorModelConfig::None);
    let json = to_canonical_json(&s);
    assert!(json.starts_with("{\"name\":\"scenario\",\"duration\":1500000000,"), "{json}");
    let back: Scenario = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    assert_eq!(to_canonical_json(&load(text, &[]).unwrap()), json);
}
