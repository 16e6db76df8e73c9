//! The CBR application (Sobral et al. §5: CBR over TCP, window 40): application-limited over a
//! fast path, backlogged over a slow one.

use vhsim_scenario::load;
use vhsim_sim::run;

fn scenario(rate: &str, extra: &[(&str, &str)]) -> vhsim_scenario::Scenario {
    let text = format!(
        r#"
duration = "60s"
[nodes.cn]
[nodes.mn]
[links.path]
between = ["cn", "mn"]
rate = "{rate}"
delay = "20ms"
queue = "100pkt"
[flows.cbr]
from = "cn"
to = "mn"
scheme = "newreno"
start = "1s"
app = {{ kind = "cbr", rate = "500kbps" }}
[flows.cbr.tcp]
window = "40pkt"
"#
    );
    let o: Vec<(String, String)> = extra.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(&text, &o).expect("valid scenario")
}

#[test]
fn over_a_fast_path_the_sender_is_application_limited() {
    let out = run(&scenario("10Mbps", &[]), None);
    let f = &out.summary.flows["cbr"];
    let app = f.app.as_ref().expect("cbr flows report their application");
    // Writes at 1 s + k * 16 ms for k = 0.. while t <= 60 s: 59 s / 16 ms + 1 = 3688.
    assert_eq!((app.kind.as_str(), app.rate_kbps, app.writes), ("cbr", 500.0, 3688));
    assert_eq!((app.written_bytes, app.written_segments), (3_688_000, 3688));
    assert!(f.delivered_bytes <= app.written_bytes, "no more than the app wrote: {f:?}");
    assert!(app.unsent_segments <= 1, "nothing waits in the sender: {app:?}");
    assert!((f.goodput_kbps - 500.0).abs() <= 5.0, "goodput {} within 1% of 500 kb/s", f.goodput_kbps);
    assert_eq!((f.start_s, f.retransmissions), (1.0, 0));
}

#[test]
fn over_a_slow_path_the_backlog_grows_and_goodput_is_the_path_rate() {
    let out = run(&scenario("300kbps", &[]), None);
    let f = &out.summary.flows["cbr"];
    let app = f.app.as_ref().unwrap();
    // 300 kb/s of 1040-byte packets carries 300 * 1000 / 1040 = 288.5 kb/s of payload.
    let path = 300.0 * 1000.0 / 1040.0;
    assert!((f.goodput_kbps - path).abs() < 0.03 * path, "goodput {} vs path {path}", f.goodput_kbps);
    // The application wrote 500 kb/s; what the path could not carry waits in the sender.
    let backlog = app.written_segments - f.delivered_bytes / 1000;
    assert!(backlog > 1000, "backlog {backlog}: {app:?}");
    assert!(app.unsent_segments + 40 >= backlog, "the backlog is unsent data, not flight: {app:?}");
}

#[test]
fn stop_ends_the_writes_and_the_written_data_is_still_delivered() {
    let out = run(&scenario("300kbps", &[("flows.cbr.stop", "11s")]), None);
    let f = &out.summary.flows["cbr"];
    let app = f.app.as_ref().unwrap();
    // Writes at 1 s + k * 16 ms < 11 s: k = 0..624.
    assert_eq!(app.writes, 625);
    assert_eq!(f.delivered_bytes, app.written_bytes, "the backlog drains after the stop: {app:?}");
}

#[test]
fn a_write_interval_and_larger_packets() {
    // Sobral's "a packet each 2 ms" reading: 1000 bytes every 2 ms = 4 Mb/s offered.
    let sc = scenario(
        "10Mbps",
        &[("flows.cbr.app", "{ kind = \"cbr\", interval = \"2ms\", packet_size = \"2000B\" }")],
    );
    let out = run(&sc, None);
    let f = &out.summary.flows["cbr"];
    let app = f.app.as_ref().unwrap();
    assert_eq!((app.writes, app.written_segments, app.rate_kbps), (29_501, 59_002, 8000.0));
    assert!(f.delivered_bytes <= app.written_bytes);
}

#[test]
fn each_write_has_its_own_max_burst_budget() {
    // ns-2 sendmsg -> send_much(0, 0, maxburst_): with max_burst = 1 an app-limited sender still
    // sends every write when it is made, not only after the next ACK.
    let sc = scenario("10Mbps", &[("flows.cbr.tcp.max_burst", "1"), ("duration", "5s")]);
    let out = run(&sc, Some(vhsim_scenario::Detail::Packets));
    let p = out.traces.packets.expect("packet trace");
    let sends: Vec<u64> = (0..p.event.len())
        .filter(|&i| p.event[i] == vhsim_sim::trace::PacketEvent::Send as u8)
        .map(|i| p.time_ns[i])
        .collect();
    assert_eq!(sends.len(), 251, "writes at 1 s + k * 16 ms <= 5 s");
    // The first segments wait for cwnd (initial window 2, RTT 40 ms > 2 writes); later ones
    // are sent when written.
    for (k, &t) in sends.iter().enumerate().skip(5) {
        assert_eq!(t, 1_000_000_000 + k as u64 * 16_000_000, "segment {k} is sent when written");
    }
}

#[test]
fn the_offered_rate_and_write_count_are_exact_when_the_interval_is_not_whole_nanoseconds() {
    // 300 kb/s of 1000-byte writes: one every 26.666... ms. Write k is at
    // 1 s + floor(k * 8000 b * 1e9 / 300000 b/s) ns, with no rounding drift: 59 s hold writes
    // k = 0..=2212 (k = 2212 at 58.986666 s after the start, k = 2213 after the end).
    let sc = scenario("10Mbps", &[("flows.cbr.app", "{ kind = \"cbr\", rate = \"300kbps\" }"), ("output.detail", "packets")]);
    let out = run(&sc, None);
    let app = out.summary.flows["cbr"].app.as_ref().unwrap().clone();
    assert_eq!((app.writes, app.written_bytes, app.refused_writes), (2213, 2_213_000, 0));
    let p = out.traces.packets.expect("packet trace");
    let sends: Vec<u64> = (0..p.event.len())
        .filter(|&i| p.event[i] == vhsim_sim::trace::PacketEvent::Send as u8)
        .map(|i| p.time_ns[i])
        .collect();
    assert_eq!(sends.len(), 2213);
    // App-limited on a 10 Mb/s path: each segment leaves when written.
    for k in [10u64, 1000, 2212] {
        assert_eq!(sends[k as usize], 1_000_000_000 + k * 8000 * 1_000_000_000 / 300_000, "write {k}");
    }
    // Offered rate over the writing time: 2212 intervals of 8000 b in 58.98666 s = 300 kb/s.
    let span = (sends[2212] - sends[0]) as f64 / 1e9;
    assert!((2212.0 * 8.0 / span - 300.0).abs() < 1e-6, "{}", 2212.0 * 8.0 / span);
}

#[test]
fn a_full_send_buffer_refuses_writes_and_discards_their_data() {
    // 500 kb/s into a 300 kb/s path with a 50-segment send buffer: the sender may hold at most
    // 50 segments written and not acknowledged; further writes are refused and their data is
    // never sent, so the sequence numbers stay contiguous.
    let out = run(&scenario("300kbps", &[("flows.cbr.app", "{ kind = \"cbr\", rate = \"500kbps\", send_buffer = \"50pkt\" }")]), None);
    let f = &out.summary.flows["cbr"];
    let app = f.app.as_ref().unwrap();
    assert_eq!(app.send_buffer_segments, Some(50));
    assert_eq!(app.writes + app.refused_writes, 3688, "the schedule is kept: {app:?}");
    // The path carries about 288.5 kb/s of payload: about 3688 * 288.5 / 500 writes fit.
    assert!(app.refused_writes > 1400 && app.writes > 2000, "{app:?}");
    // Nothing beyond the buffer waits: unsent + in flight <= 50 at the end.
    assert!(app.written_segments - f.delivered_bytes / 1000 <= 50, "{app:?} {f:?}");
    // Same offered load without a limit: nothing refused.
    let free = run(&scenario("300kbps", &[]), None);
    assert_eq!(free.summary.flows["cbr"].app.as_ref().unwrap().refused_writes, 0);
}
