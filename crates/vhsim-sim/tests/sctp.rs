//! SCTP through the world (issue #13): associations multihomed across the mobile node's access
//! links on every shipped topology, per-path state in summary, time series and packet trace,
//! failover, and steady-state goodput against the link rate.

use std::path::Path;
use vhsim_scenario::{load, Detail, Scenario};
use vhsim_sim::trace::PacketEvent;
use vhsim_sim::{run, run_world, RunOutput};

fn repo(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `text` with every flow turned into an SCTP association with the default preset (TCP keys
/// removed), heartbeats every second so that every path carries packets.
fn as_sctp(text: &str) -> String {
    let mut doc: toml::Table = toml::from_str(text).expect("a shipped scenario parses");
    let flows = doc.get_mut("flows").and_then(|f| f.as_table_mut()).expect("flows");
    for (_, f) in flows.iter_mut() {
        let f = f.as_table_mut().expect("a flow table");
        for key in ["tcp", "sink", "scheme", "to_interface", "datagram"] {
            f.remove(key);
        }
        f.insert("protocol".into(), "sctp".into());
        let sctp: toml::Table = toml::from_str("hb_interval = \"1s\"").expect("toml");
        f.insert("sctp".into(), toml::Value::Table(sctp));
    }
    toml::to_string(&doc).expect("serializes")
}

/// Runs `sc` and checks every association: each chunk reached the receiver's application once
/// and in order (the receiver's cumulative TSN equals the chunks it delivered and the observers
/// counted), none failed.
fn run_checked(sc: &Scenario, detail: Detail) -> RunOutput {
    let (out, world) = run_world(sc, Some(detail));
    let summary = &out.summary;
    for (i, f) in sc.flows.iter().enumerate() {
        let (tx, rx) = (world.endpoint(i, 0).sctp().unwrap(), world.endpoint(i, 1).sctp().unwrap());
        let fs = &summary.flows[&f.name];
        assert_eq!(rx.inbound().delivered_units, u64::from(rx.inbound().cum), "{}: in order, once", f.name);
        assert_eq!(fs.delivered_bytes, rx.inbound().delivered_bytes, "{}", f.name);
        assert!(u64::from(tx.outbound().cum_ack) <= rx.inbound().delivered_units, "{}", f.name);
        assert_eq!(tx.failed_at(), None, "{}: association failed", f.name);
    }
    out
}

#[test]
fn an_association_runs_multihomed_on_every_shipped_mobile_topology() {
    // Each file with overrides that keep the runs short (handovers inside the run).
    let limjang: &[(&str, &str)] =
        &[("duration", "90s"), ("timeline[0].at", "30s"), ("metrics.handover_window", "20s")];
    let files: [(&str, &[(&str, &str)]); 7] = [
        ("scenarios/danielkojo/fig08-mbb.toml", &[("duration", "40s")]),
        ("scenarios/danielkojo/fig08-bbm.toml", &[]),
        ("scenarios/kimkoh/switch-pair-tcp.toml", &[]),
        ("scenarios/limjang/3g-to-wlan.toml", limjang),
        ("scenarios/limjang/wlan-to-3g-congested.toml", limjang),
        ("scenarios/park/mobility-50kmh.toml", &[("duration", "100s")]),
        (
            "scenarios/sobral/cbr-user-handover.toml",
            &[
                ("duration", "80s"),
                ("timeline[0].at", "20s"),
                ("timeline[1].at", "50s"),
                ("metrics.handover_window", "10s"),
            ],
        ),
    ];
    for (file, sets) in files {
        let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let sc = load(&as_sctp(&repo(file)), &sets).unwrap_or_else(|e| panic!("{file}: {e}"));
        let m = sc.mobiles.first().expect("a mobile node");
        let n_if = m.interfaces.len();
        let out = run_checked(&sc, Detail::Packets);
        for (i, f) in sc.flows.iter().enumerate() {
            let fs = &out.summary.flows[&f.name];
            assert!(fs.delivered_bytes > 0, "{file} {}: nothing delivered", f.name);
            if f.dst != m.node && f.src != m.node {
                continue;
            }
            // The summary: one entry per interface of the mobile node, every one carrying data
            // (new, or retransmissions to the alternate) or answering heartbeats.
            let part = fs.sctp.as_ref().expect("an sctp part");
            assert_eq!(part.paths.len(), n_if, "{file} {}", f.name);
            for p in &part.paths {
                let used = p.counters.heartbeat_acks + p.counters.data_packets;
                assert!(used > 0, "{file} {} path {}: unused", f.name, p.path);
            }
            // The time series: rows for each path of the sender.
            let ts = out.traces.timeseries.as_ref().unwrap();
            for path in 0..n_if as u32 {
                let rows =
                    (0..ts.time_ns.len()).filter(|&r| ts.flow[r] == i as u32 && ts.path[r] == path).count();
                assert!(rows > 0, "{file} {}: no time-series row for path {path}", f.name);
            }
            // The packet trace: packets of the flow arrive over every interface.
            let pt = out.traces.packets.as_ref().unwrap();
            for iface in 0..n_if as i8 {
                let seen = (0..pt.len()).any(|r| {
                    pt.flow[r] == i as u32
                        && pt.path[r] == iface
                        && [PacketEvent::Receive as u8, PacketEvent::ControlReceive as u8]
                            .contains(&pt.event[r])
                });
                assert!(seen, "{file} {}: no packet over interface {iface}", f.name);
            }
        }
    }
}

#[test]
fn the_primary_fails_and_data_moves_to_the_alternate_with_every_chunk_delivered_once() {
    // scenarios/examples/sctp-failover.toml: WLAN (primary, path 1) down at 10 s for good.
    let sc = load(&repo("scenarios/examples/sctp-failover.toml"), &[]).unwrap();
    let out = run_checked(&sc, Detail::Packets);
    let s = out.summary.flows["assoc"].sctp.as_ref().unwrap();
    let (umts, wlan) = (&s.paths[0], &s.paths[1]);
    assert_eq!((s.primary_path, s.data_path), (1, 0), "new data on the alternate");
    assert!(!wlan.active && umts.active);
    assert_eq!((wlan.counters.t3_expiries, wlan.counters.became_inactive), (6, 1), "Path.Max.Retrans 5 + 1");
    assert!(umts.counters.timeout_retransmissions > 0, "T3 retransmissions went to the alternate");
    // Failover: WLAN's error counter counts its T3 expiries, each after the doubled RTO
    // (RFC 4960 §6.3.3 E2: 1, 2, 4, 8, 16, 32 s; the timer runs from the next chunk sent there,
    // one SACK round trip over UMTS after the expiry); the 6th marks it inactive and new data
    // follows on UMTS.
    let ts = out.traces.timeseries.as_ref().unwrap();
    let errors = ts.column_in("errors", "count").unwrap();
    let mut raised = Vec::new();
    for r in 0..ts.time_ns.len() {
        if ts.path[r] == 1 && errors[r] as usize == raised.len() + 1 {
            raised.push(ts.time_ns[r] as f64 / 1e9);
        }
    }
    assert_eq!(raised.len(), 6, "{raised:?}");
    for k in 1..6 {
        let gap = raised[k] - raised[k - 1];
        let rto = f64::from(1u32 << k);
        assert!(gap >= rto && gap < rto + 2.0, "expiry {k} after {gap} s, RTO {rto} s: {raised:?}");
    }
    let pt = out.traces.packets.as_ref().unwrap();
    let failover = (0..pt.len())
        .find(|&r| {
            pt.event[r] == PacketEvent::Send as u8 && pt.path[r] == 0 && pt.time_ns[r] > 10_000_000_000
        })
        .map(|r| pt.time_ns[r] as f64 / 1e9)
        .expect("new data on UMTS after the failure");
    assert!(
        failover >= raised[5] && failover < raised[5] + 2.0,
        "6th expiry {} s, failover {failover} s",
        raised[5]
    );
    // Every drop is on WLAN after it went down.
    let f = &out.summary.flows["assoc"];
    assert_eq!(f.drops["link_down"], f.drops.values().sum::<u64>());
    // The time series shows the switch of the data destination.
    let data_dest = ts.column_in("data_dest", "bool").unwrap();
    let last_path0 = (0..ts.time_ns.len()).rev().find(|&r| ts.path[r] == 0).unwrap();
    assert_eq!(data_dest[last_path0], 1.0);
}

fn steady_kbps(file: &str, overrides: &[(&str, &str)]) -> f64 {
    let o: Vec<(String, String)> = overrides.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let sc = load(&repo(file), &o).unwrap();
    run(&sc, Some(Detail::Summary)).summary.flows["bulk"].windows["steady"]
}

#[test]
fn bulk_goodput_is_within_a_few_percent_of_the_link_rate_and_beside_tcp_sack() {
    // 6400 kb/s bottleneck, BDP-sized 11-packet queue; ceiling = rate x user data / packet.
    let sctp = steady_kbps("scenarios/examples/bulk-sctp.toml", &[]);
    let ceiling = 6400.0 * 1452.0 / 1500.0;
    assert!(sctp >= 0.97 * ceiling && sctp <= 1.01 * ceiling, "SCTP {sctp:.1} kb/s vs ceiling {ceiling:.1}");
    // TCP SACK on the same path (benches/bulk-sack1.toml, 1460 B in 1500 B, delayed ACKs).
    let tcp = steady_kbps(
        "benches/bulk-sack1.toml",
        &[("duration", "30s"), ("metrics.windows.steady", r#"["10s", "30s"]"#)],
    );
    let tcp_ceiling = 6400.0 * 1460.0 / 1500.0;
    assert!(tcp >= 0.97 * tcp_ceiling, "TCP {tcp:.1} kb/s vs ceiling {tcp_ceiling:.1}");
    eprintln!(
        "steady goodput: SCTP {sctp:.1} kb/s ({:.1}%), TCP SACK {tcp:.1} kb/s ({:.1}%)",
        100.0 * sctp / ceiling,
        100.0 * tcp / tcp_ceiling
    );
}
