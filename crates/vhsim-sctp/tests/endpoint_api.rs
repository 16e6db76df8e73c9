//! The endpoint through the transport-neutral interface: configuration errors naming keys,
//! the peer's receive window (§6.1 A), idle cwnd decay (§7.2.1), traced variables per path,
//! the summary part, trace tags, and a failed association.

mod common;

use common::*;
use vhsim_core::TracedVar;
use vhsim_net::Endpoint;
use vhsim_sctp::{Addr, InitialCwnd, SctpConfig, SctpEndpoint};

#[test]
fn toml_configuration_fills_defaults_and_rejects_unknown_keys() {
    let c: SctpConfig = toml::from_str("initial_cwnd = \"rfc2960\"\npath_max_retrans = 3").unwrap();
    assert_eq!(
        c,
        SctpConfig { initial_cwnd: InitialCwnd::Rfc2960, path_max_retrans: 3, ..Default::default() }
    );
    let c: SctpConfig = toml::from_str("initial_cwnd = { bytes = 3000 }").unwrap();
    assert_eq!(c.initial_cwnd_bytes(), 3000);
    let e = toml::from_str::<SctpConfig>("window = 20").unwrap_err().to_string();
    assert!(e.contains("unknown field `window`"), "{e}");
    let e = toml::from_str::<SctpConfig>("rtx_to_alt = \"sometimes\"").unwrap_err().to_string();
    assert!(e.contains("same") && e.contains("alternate") && e.contains("timeouts_only"), "{e}");
}

#[test]
fn bad_parameters_are_all_reported_with_their_keys() {
    let c = SctpConfig {
        data_chunk_size: 1600,
        sack_delay: vhsim_core::SimDuration::from_millis(600),
        hb_jitter: 1.5,
        ..cfg()
    };
    let keys: Vec<String> = c.validate().unwrap_err().into_iter().map(|e| e.key).collect();
    assert_eq!(keys, ["data_chunk_size", "hb_jitter", "sack_delay"]);
    let err =
        SctpEndpoint::pair(0, &cfg(), &[CN], &[MN_A, MN_B], CN, Addr(99), rng("a"), rng("b")).unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].to_string(), "a.primary: address 99 is not one of the peer's addresses [10, 11]");
    let err = SctpEndpoint::pair(0, &c, &[CN], &[MN_A], CN, MN_A, rng("a"), rng("b")).unwrap_err();
    assert_eq!(err[0].key, "a.data_chunk_size");
    let err = SctpEndpoint::pair(0, &cfg(), &[CN], &[CN], CN, CN, rng("a"), rng("b")).unwrap_err();
    assert!(err.iter().any(|e| e.key == "a.peer" && e.message.contains("also a local address")), "{err:?}");
}

#[test]
fn peer_window_limits_new_data_and_allows_one_probe_when_empty() {
    let mut t = Script::single(cfg());
    t.send_all(0);
    // cwnd opens to 5848, but the peer advertises 2936 with 2936 in flight: nothing goes.
    assert_eq!(t.sack_full(100, MN_A, 1, &[], 2 * MTU), none());
    assert_eq!(t.cwnd(0), 4380 + MTU);
    // A zero window with nothing in flight: one chunk may probe it (§6.1 A).
    assert_eq!(t.sack_full(200, MN_A, 3, &[], 0), data(MN_A, [4]));
    assert_eq!(t.sack_full(201, MN_A, 3, &[], 0), none());
}

#[test]
fn idle_destination_decays_its_window_per_rto() {
    let c = SctpConfig { initial_cwnd: InitialCwnd::Bytes(20 * MTU), max_burst: 0, ..cfg() };
    let mut t = Script::single_with_backlog(c, 4);
    assert_eq!(t.send_all(0), data(MN_A, 1..=4));
    t.sack(100, 4, &[]);
    // Armed at the last send with the RTO of then (3 s); re-armed with the current RTO (1 s).
    assert_eq!(t.fire(3000), none());
    assert_eq!(t.cwnd(0), 10 * MTU);
    t.fire(4000);
    assert_eq!(t.cwnd(0), 5 * MTU);
    t.fire(5000);
    assert_eq!(t.cwnd(0), 4 * MTU, "max(cwnd/2, 4·MTU)");
    assert_eq!(t.deadline_ms(), Some(31_000), "no more decay: next is the heartbeat (0 + 30 s + 1 s)");
}

#[test]
fn traced_variables_are_reported_per_path() {
    let mut t = Script::multihomed(cfg());
    t.send_all(0);
    t.sack(100, 1, &[]);
    assert_eq!(t.ep.traced_paths(), 2);
    let vars = |path: usize| {
        let mut v: Vec<TracedVar> = Vec::new();
        t.ep.traced_vars(path, &mut v);
        v
    };
    let get = |v: &[TracedVar], name: &str| v.iter().find(|x| x.name == name).unwrap().value;
    let (a, b) = (vars(0), vars(1));
    assert_eq!((get(&a, "primary"), get(&b, "primary")), (1.0, 0.0));
    assert_eq!((get(&a, "data_dest"), get(&b, "data_dest")), (1.0, 0.0));
    assert_eq!(get(&a, "cwnd"), (4380 + MTU) as f64);
    assert_eq!(get(&a, "outstanding"), (4 * MTU) as f64);
    assert_eq!(get(&a, "rto"), 1.0);
    assert_eq!(get(&b, "cwnd"), 4380.0);
    assert_eq!(get(&b, "rto"), 3.0);
    assert!(get(&b, "srtt").is_nan(), "no measurement on MN_B");
    assert!(a.iter().all(|v| v.name != "srtt" || !v.starts_row), "srtt rides along");
    assert!(vars(2).is_empty(), "no third path");
    // A receiver reports none.
    let r = Rx::new(cfg());
    let mut none_v = Vec::new();
    r.ep.traced_vars(0, &mut none_v);
    assert!(none_v.is_empty());
}

#[test]
fn summary_serializes_per_path_figures() {
    let mut t = Script::multihomed(cfg());
    t.send_all(0);
    t.fire(3000);
    let s = t.ep.summary();
    let j = serde_json::to_value(&s).unwrap();
    assert_eq!(j["paths"][0]["t3_expiries"], 1);
    assert_eq!(j["paths"][0]["cwnd_bytes"], MTU);
    assert_eq!(j["paths"][1]["timeout_retransmissions"], 1);
    assert_eq!(j["paths"][1]["address"], MN_B.0);
    assert_eq!(j["tsns_sent"], 3);
    assert!(j["association_failed_at_s"].is_null());
}

#[test]
fn packets_carry_flow_addresses_and_sizes() {
    let mut t = Script::single(cfg());
    let p = t.ep.poll_transmit(ms(0)).unwrap();
    assert_eq!((p.flow, p.src, p.dst, p.size), (0, CN, MN_A, 1500));
    assert_eq!((p.tag.seq, p.tag.units, p.tag.payload_bytes), (1, 1, 1452));
    assert_eq!(p.tag.flags, vhsim_sctp::wire::KIND_DATA);
}
