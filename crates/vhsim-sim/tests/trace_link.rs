//! Links driven by a recorded delivery-opportunity trace (issue #30 item 6; vhsim-net
//! `trace_link`): a constant trace is the constant-rate link, an outage in a trace stops
//! delivery for exactly its length, and the link's error model still acts on top.

use vhsim_scenario::{load, Detail};
use vhsim_sim::fingerprint::fingerprint;
use vhsim_sim::run;
use vhsim_sim::trace::PacketEvent;

const BULK: &str = include_str!("../../../benches/bulk-sack1.toml");

fn set(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[test]
fn a_constant_spread_trace_is_the_constant_rate_link_to_the_nanosecond() {
    // bulk-sack1's access link is 6.4 Mb/s both ways: one 800 B opportunity every millisecond.
    let constant = r#"{ shipped = "constant", opportunity_size = "800B", delivery = "spread" }"#;
    let plain = load(BULK, &set(&[("duration", "20s")])).unwrap();
    let traced = load(
        BULK,
        &set(&[
            ("duration", "20s"),
            ("links.access.forward.trace", constant),
            ("links.access.reverse.trace", constant),
        ]),
    )
    .unwrap();
    assert_eq!(traced.links[2].rate, plain.links[2].rate, "the trace's mean rate is 6.4 Mb/s");
    assert!(traced.links[2].trace.is_some() && traced.links[3].trace.is_some());
    let (a, b) = (run(&plain, Some(Detail::Packets)), run(&traced, Some(Detail::Packets)));
    assert!(a.summary.flows["bulk"].delivered_bytes > 10_000_000);
    assert_eq!(fingerprint(&a), fingerprint(&b));
}

#[test]
fn a_constant_burst_trace_carries_what_the_constant_rate_link_carries() {
    // Mahimahi's reading: a frame leaves at the next opportunity, so a frame that finds the link
    // idle leaves up to 1 ms early; on a saturated bottleneck the two links carry the same.
    let constant = r#"{ shipped = "constant", opportunity_size = "800B" }"#;
    let plain = load(BULK, &set(&[("duration", "20s")])).unwrap();
    let traced = load(BULK, &set(&[("duration", "20s"), ("links.access.forward.trace", constant)])).unwrap();
    let (a, b) = (run(&plain, None), run(&traced, None));
    let (ga, gb) = (a.summary.flows["bulk"].goodput_kbps, b.summary.flows["bulk"].goodput_kbps);
    assert!((ga - gb).abs() / ga < 0.005, "rate link {ga} kb/s, constant burst trace {gb} kb/s");
}

/// Two nodes a -> b, 10 ms; a datagram flow that offers 1028 B frames every 0.5 ms (16 Mb/s)
/// into a queue that never fills, for 2.4 s; the forward direction follows `trace`.
fn saturated(trace: &str, extra: &str) -> vhsim_sim::RunOutput {
    let text = format!(
        "duration = \"3s\"\n[nodes.a]\n[nodes.b]\n[links.ab]\nbetween = [\"a\", \"b\"]\nrate = \"100Mbps\"\n\
         delay = \"10ms\"\nqueue = \"100000pkt\"\n[links.ab.forward]\ntrace = {trace}\n{extra}\n\
         [flows.f]\nfrom = \"a\"\nto = \"b\"\nprotocol = \"datagram\"\nstop = \"2.4s\"\n\
         app = {{ kind = \"cbr\", interval = \"500us\", packet_size = \"1000B\" }}\n"
    );
    run(&load(&text, &[]).unwrap(), Some(Detail::Packets))
}

/// Times (ns) at which datagrams reach b.
fn received(out: &vhsim_sim::RunOutput) -> Vec<u64> {
    let p = out.traces.packets.as_ref().unwrap();
    (0..p.len()).filter(|&i| p.event[i] == PacketEvent::Receive as u8).map(|i| p.time_ns[i]).collect()
}

/// A trace file: an opportunity every ms in 1..=1000 and 1500..=2500 (none in between).
fn outage_trace(dir: &std::path::Path) -> String {
    let lines: String = (1..=1000).chain(1500..=2500).map(|t| format!("{t}\n")).collect();
    let path = dir.join("outage.trace");
    std::fs::write(&path, lines).unwrap();
    path.to_str().unwrap().to_owned()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("vhsim-trace-link-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MS: u64 = 1_000_000;

#[test]
fn an_outage_in_the_trace_stops_delivery_for_exactly_its_length() {
    let dir = temp_dir("burst");
    let file = outage_trace(&dir);
    let out = saturated(&format!("{{ file = \"{file}\" }}"), "");
    let at = received(&out);
    let gaps: Vec<(u64, u64)> = at.windows(2).map(|w| (w[0], w[1] - w[0])).collect();
    // The last frame before the outage leaves at its last opportunity (1000 ms), the next at the
    // first after it (1500 ms); each arrives 10 ms later. Elsewhere the link never pauses.
    let longest = *gaps.iter().max_by_key(|(_, g)| *g).unwrap();
    assert_eq!(longest, (1010 * MS, 500 * MS));
    assert!(gaps.iter().filter(|&&g| g != longest).all(|&(_, g)| g <= MS));
    // 1500 B per ms carries 1028 B frames at 1500/1028 a ms: 1459 frames in 1..=1000 ms.
    assert_eq!(at.iter().filter(|&&t| t <= 1010 * MS).count(), 1000 * 1500 / 1028);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn in_the_spread_reading_an_outage_is_its_empty_milliseconds() {
    let dir = temp_dir("spread");
    let file = outage_trace(&dir);
    let out = saturated(&format!("{{ file = \"{file}\", delivery = \"spread\" }}"), "");
    let at = received(&out);
    // Milliseconds 1001 ..= 1499 carry nothing: the frame under way at 1000 ms finishes in the
    // millisecond (1499, 1500] ms, and nothing arrives in between.
    let before = at.iter().filter(|&&t| t <= 1010 * MS).max().unwrap();
    let after = at.iter().find(|&&t| t > 1010 * MS).unwrap();
    assert!(*before > 1009 * MS, "{before}");
    assert!(*after > 1509 * MS && *after <= 1510 * MS, "{after}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_error_model_still_acts_on_a_traced_link() {
    let out = saturated(r#"{ shipped = "wlan-outages" }"#, "error = { kind = \"bernoulli\", p = 0.1 }");
    let link = &out.summary.links["ab/forward"];
    let lost = link.drops.get("error_model").copied().unwrap_or(0);
    let share = lost as f64 / link.packets_sent as f64;
    // ~ 1400 frames cross the link in 3 s at ~ 3.9 Mb/s: 10 % +- 5 sigma (4 %) are lost.
    assert!(link.packets_sent > 1000 && (share - 0.1).abs() < 0.04, "{lost} of {}", link.packets_sent);
    // The rest arrive, but for those that left in the run's last 10 ms (still propagating).
    let arrived = received(&out).len() as u64;
    assert!(arrived <= link.packets_sent - lost && arrived + 20 >= link.packets_sent - lost, "{arrived}");
}
