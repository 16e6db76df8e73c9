//! Whole-scenario checks against analytic expectations (link rate, window limit) and
//! determinism of the world.

use vhsim_scenario::{load, Detail};
use vhsim_sim::run;

/// cn --(rate, delay, queue)-- mn, one bulk flow cn -> mn.
fn one_link(rate: &str, delay: &str, queue: &str, tcp: &str, extra: &str) -> String {
    format!(
        r#"
name = "one-link"
duration = "60s"
[nodes.cn]
[nodes.mn]
[links.path]
between = ["cn", "mn"]
rate = "{rate}"
delay = "{delay}"
queue = "{queue}"
[flows.bulk]
from = "cn"
to = "mn"
scheme = "sack"
[flows.bulk.tcp]
{tcp}
[metrics.windows]
steady = ["10s", "60s"]
{extra}
"#
    )
}

fn steady_goodput_bps(toml: &str) -> f64 {
    let sc = load(toml, &[]).expect("valid scenario");
    let out = run(&sc, Some(Detail::Summary));
    out.summary.flows["bulk"].windows["steady"] * 1000.0
}

#[test]
fn bulk_flow_fills_an_uncongested_10mbps_path_when_the_window_does_not_bind() {
    // Queue (100 pkts) above the BDP (10 Mb/s x ~41 ms / 12000 b ≈ 35 pkts): the link never idles.
    let toml = one_link("10Mbps", "20ms", "100pkt", "segment_size = \"1460B\"\nwindow = \"1000pkt\"", "");
    let goodput = steady_goodput_bps(&toml);
    let link_payload_rate = 10e6 * 1460.0 / 1500.0;
    assert!(goodput >= 0.95 * 10e6, "goodput {goodput} b/s below 95% of 10 Mb/s");
    // In-order delivery after a repaired loss comes in bursts, so a window can slightly exceed
    // the steady rate; it can never exceed it by more than a window of data.
    assert!(goodput <= link_payload_rate * 1.01, "goodput {goodput} above the payload rate of the link");
}

#[test]
fn window_limited_goodput_is_window_times_segment_over_rtt() {
    // RTT = 2 x 50 ms + serialization of a 1040 B segment (0.832 ms) and a 40 B ACK (0.032 ms).
    let toml = one_link("10Mbps", "50ms", "100pkt", "window = \"20pkt\"", "");
    let goodput = steady_goodput_bps(&toml);
    let rtt = 0.100 + 1040.0 * 8.0 / 10e6 + 40.0 * 8.0 / 10e6;
    let expected = 20.0 * 1000.0 * 8.0 / rtt;
    let err = (goodput - expected).abs() / expected;
    assert!(err < 0.02, "goodput {goodput} vs window/RTT {expected} ({:.2}% off)", err * 100.0);
}

fn trace_fingerprint(toml: &str, seed: u64) -> (u64, Vec<u64>, Vec<i64>, Vec<u8>) {
    let mut sc = load(toml, &[]).expect("valid scenario");
    sc.seed = seed;
    let out = run(&sc, Some(Detail::Packets));
    let p = out.traces.packets.expect("packet trace");
    (out.summary.events, p.time_ns, p.seq, p.event)
}

#[test]
fn same_seed_gives_identical_traces_and_another_seed_differs() {
    let lossy = one_link(
        "2Mbps",
        "30ms",
        "20pkt",
        "window = \"64pkt\"",
        "[links.path.forward]\nerror = { kind = \"bernoulli\", p = 0.02 }",
    );
    let a = trace_fingerprint(&lossy, 7);
    let b = trace_fingerprint(&lossy, 7);
    let c = trace_fingerprint(&lossy, 8);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn adding_a_flow_does_not_change_another_links_losses() {
    // The loss pattern of link `a` must not depend on whether flow `other` (on link `b`) exists.
    let base = |with_other: bool| {
        let other =
            if with_other { "[flows.other]\nfrom = \"cn\"\nto = \"x\"\nscheme = \"sack\"\n" } else { "" };
        format!(
            r#"
duration = "20s"
[nodes.cn]
[nodes.mn]
[nodes.x]
[links.a]
between = ["cn", "mn"]
rate = "2Mbps"
delay = "10ms"
queue = "50pkt"
error = {{ kind = "bernoulli", p = 0.03 }}
[links.b]
between = ["cn", "x"]
rate = "2Mbps"
delay = "10ms"
error = {{ kind = "bernoulli", p = 0.03 }}
[flows.bulk]
from = "cn"
to = "mn"
scheme = "sack"
{other}
"#
        )
    };
    let drops = |toml: String| {
        let sc = load(&toml, &[]).expect("valid scenario");
        let out = run(&sc, Some(Detail::Packets));
        let p = out.traces.packets.expect("packet trace");
        (0..p.time_ns.len())
            .filter(|&i| p.flow[i] == 0 && p.event[i] == 5)
            .map(|i| (p.time_ns[i], p.seq[i]))
            .collect::<Vec<_>>()
    };
    let alone = drops(base(false));
    assert!(!alone.is_empty());
    assert_eq!(alone, drops(base(true)));
}

#[test]
fn drop_list_losses_are_labelled_necessary_and_a_delay_spike_rto_spurious() {
    // Drop the first copy of segment 30: its retransmission is necessary.
    let toml = one_link(
        "10Mbps",
        "20ms",
        "100pkt",
        "window = \"20pkt\"",
        "[links.path.forward]\nerror = { kind = \"drop_list\", flow = \"bulk\", seqs = [30] }",
    );
    let sc = load(&toml, &[]).expect("valid scenario");
    let out = run(&sc, Some(Detail::Packets));
    let f = &out.summary.flows["bulk"];
    assert_eq!(f.drops["error_model"], 1);
    assert_eq!(f.retransmissions, 1);
    assert_eq!(f.spurious_retransmissions, 0);
    assert_eq!(f.tcp.as_ref().unwrap().fast_retransmits, 1);

    // A 3 s delay spike (set_link) with no loss: the RTO that follows is spurious.
    let toml = one_link(
        "10Mbps",
        "20ms",
        "100pkt",
        "window = \"20pkt\"",
        "[[timeline]]\nat = \"5s\"\naction = \"set_link\"\nlink = \"path\"\ndirection = \"forward\"\ndelay = \"3s\"\n\
         [[timeline]]\nat = \"5.5s\"\naction = \"set_link\"\nlink = \"path\"\ndirection = \"forward\"\ndelay = \"20ms\"\n",
    );
    let sc = load(&toml, &[]).expect("valid scenario");
    let out = run(&sc, Some(Detail::Packets));
    let f = &out.summary.flows["bulk"];
    assert!(f.rto_count >= 1, "{f:?}");
    assert!(f.spurious_rto_count >= 1, "{f:?}");
    assert_eq!(f.drops.values().sum::<u64>(), 0);
    let p = out.traces.packets.expect("packet trace");
    let labelled: Vec<i8> = (0..p.event.len()).filter(|&i| p.event[i] == 1).map(|i| p.spurious[i]).collect();
    assert!(labelled.iter().all(|&l| l == 1), "every retransmission is spurious: {labelled:?}");
}
