//! SCTP flows in scenario files: addresses of the association, preset overrides with units, and
//! bad input rejected with the offending key.

use vhsim_scenario::{load, TransportModel};
use vhsim_sctp::InitialCwnd;

/// cn - ar - mn over two access links, interfaces `umts` (initial) and `wlan`; an SCTP flow.
const BASE: &str = r#"duration = "60s"
[nodes.cn]
[nodes.ar]
[nodes.mn]
[links.core]
between = ["cn", "ar"]
rate = "100Mbps"
delay = "15ms"
[links.umts]
between = ["ar", "mn"]
rate = "384kbps"
delay = "100ms"
[links.wlan]
between = ["ar", "mn"]
rate = "11Mbps"
delay = "15ms"
[mobile]
node = "mn"
anchor = "ar"
initial = "umts"
[mobile.interfaces.umts]
access = "umts"
[mobile.interfaces.wlan]
access = "wlan"
[flows.a]
from = "cn"
to = "mn"
protocol = "sctp"
"#;

fn sctp_of(text: &str) -> (vhsim_sctp::SctpConfig, Vec<u32>, Vec<u32>, u32, u32) {
    let s = load(text, &[]).unwrap_or_else(|e| panic!("{e}"));
    match &s.flows[0].transport {
        TransportModel::Sctp(m) => {
            (m.config.clone(), m.from_addrs.clone(), m.to_addrs.clone(), m.primary, m.from_primary)
        }
        other => panic!("not SCTP: {other:?}"),
    }
}

#[test]
fn an_association_to_the_mobile_node_uses_every_interface_and_the_initial_one_as_primary() {
    // Addresses: nodes cn, ar, mn = 0, 1, 2; care-of umts = 3, wlan = 4.
    let (cfg, from, to, primary, from_primary) = sctp_of(BASE);
    assert_eq!(cfg, vhsim_sctp::SctpConfig::default(), "preset `sctp` = RFC 4960 defaults");
    assert_eq!((from, to, primary, from_primary), (vec![0], vec![3, 4], 3, 0));
    let s = load(BASE, &[]).unwrap();
    assert_eq!((&*s.flows[0].scheme, s.flows[0].dst_addr, s.flows[0].unit_size()), ("sctp", 3, 1452));
}

#[test]
fn addresses_primary_and_units_map_onto_the_configuration() {
    let text = format!(
        "{BASE}[flows.a.sctp]\nto_interfaces = [\"wlan\", \"umts\"]\nprimary = \"wlan\"\ninitial_cwnd = \"rfc2960\"\n\
         rto_min = \"500ms\"\nsack_delay = \"100ms\"\nreceive_buffer = \"128KiB\"\nrtx_to_alt = \"same\"\nmax_burst = 0\n"
    );
    let (cfg, _, to, primary, _) = sctp_of(&text);
    assert_eq!((to, primary), (vec![4, 3], 4));
    assert_eq!(cfg.initial_cwnd, InitialCwnd::Rfc2960);
    assert_eq!(cfg.initial_cwnd_bytes(), 2 * 1468);
    assert_eq!((cfg.rto_min.as_nanos(), cfg.sack_delay.as_nanos()), (500_000_000, 100_000_000));
    assert_eq!((cfg.receive_buffer, cfg.rtx_to_alt, cfg.max_burst), (131072, vhsim_sctp::RtxToAlt::Same, 0));
    let (cfg, ..) = sctp_of(&format!("{BASE}[flows.a.sctp]\ninitial_cwnd = \"3pkt\"\n"));
    assert_eq!(cfg.initial_cwnd, InitialCwnd::Bytes(3 * 1468));
    // A receiver that is not the mobile node: the mobile node sends from both interfaces.
    let up = BASE.replace("from = \"cn\"\nto = \"mn\"", "from = \"mn\"\nto = \"cn\"");
    let (_, from, to, primary, from_primary) = sctp_of(&up);
    assert_eq!((from, to, primary, from_primary), (vec![3, 4], vec![0], 0, 3));
}

/// (case, text appended to BASE's flow or replacing in it, expected key, phrase).
const BAD: &[(&str, &str, &str, &str)] = &[
    (
        "a TCP table on an SCTP flow",
        "[flows.a.tcp]\nwindow = \"20pkt\"",
        "flows.a.tcp",
        "is not a key of protocol = \"sctp\"",
    ),
    (
        "a sink table on an SCTP flow",
        "[flows.a.sink]\nsack = true",
        "flows.a.sink",
        "is not a key of protocol = \"sctp\"",
    ),
    ("to_interface on an SCTP flow", "to_interface = \"wlan\"", "flows.a.to_interface", "sctp.to_interfaces"),
    (
        "a TCP scheme on an SCTP flow",
        "scheme = \"sack\"",
        "flows.a.scheme",
        "`sack` is a TCP scheme (SCTP schemes: `sctp`",
    ),
    (
        "an unknown SCTP scheme",
        "scheme = \"bbr\"",
        "flows.a.scheme",
        "unknown scheme `bbr` (SCTP schemes: `sctp`",
    ),
    (
        "a chunk above the MTU",
        "[flows.a.sctp]\ndata_chunk_size = \"1472B\"",
        "flows.a.sctp.data_chunk_size",
        "exceeds the MTU of 1500 bytes (largest allowed: 1468)",
    ),
    (
        "a primary the peer does not have",
        "[flows.a.sctp]\nto_interfaces = [\"umts\"]\nprimary = \"wlan\"",
        "flows.a.sctp.primary",
        "interface `wlan` is not one of the receiver's addresses",
    ),
    (
        "an unknown interface as primary",
        "[flows.a.sctp]\nprimary = \"lte\"",
        "flows.a.sctp.primary",
        "unknown interface `lte` (interfaces: `umts`, `wlan`)",
    ),
    (
        "an interface listed twice",
        "[flows.a.sctp]\nto_interfaces = [\"umts\", \"umts\"]",
        "flows.a.sctp.to_interfaces",
        "twice",
    ),
    (
        "interfaces of a node that is not mobile",
        "[flows.a.sctp]\nfrom_interfaces = [\"umts\"]",
        "flows.a.sctp.from_interfaces",
        "only an endpoint on the mobile node",
    ),
    (
        "an unknown SCTP key",
        "[flows.a.sctp]\nrto_minimum = \"1s\"",
        "flows.a.sctp.rto_minimum",
        "unknown field `rto_minimum`",
    ),
    (
        "a bad initial cwnd",
        "[flows.a.sctp]\ninitial_cwnd = \"rfc1234\"",
        "flows.a.sctp.initial_cwnd",
        "\"rfc4960\", \"rfc2960\"",
    ),
    (
        "a SACK delay of 500 ms",
        "[flows.a.sctp]\nsack_delay = \"500ms\"",
        "flows.a.sctp.sack_delay",
        "below 500 ms",
    ),
];

#[test]
fn bad_sctp_input_names_the_key() {
    for (case, extra, key, phrase) in BAD {
        let text = format!("{BASE}{extra}\n");
        let e = load(&text, &[]).expect_err(case);
        assert_eq!(e.path, *key, "{case}: {e}");
        assert!(e.message.contains(phrase), "{case}: {e}");
    }
    // The reverse: SCTP keys and schemes on TCP flows.
    let tcp = BASE.replace("protocol = \"sctp\"\n", "");
    let e = load(&format!("{tcp}[flows.a.sctp]\nmtu = \"1500B\"\n"), &[]).unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.message.as_str()),
        ("flows.a.sctp", "`sctp` is only allowed with protocol = \"sctp\"")
    );
    let e = load(&format!("{tcp}scheme = \"sctp\"\n"), &[]).unwrap_err();
    assert_eq!(e.path, "flows.a.scheme");
    assert!(e.message.starts_with("`sctp` is an SCTP scheme: set protocol = \"sctp\""), "{e}");
}

/// BASE as an mSCTP flow whose association starts on `umts` only, with `actions`.
fn msctp(scheme: &str, actions: &str) -> String {
    format!("{BASE}scheme = \"{scheme}\"\n[flows.a.sctp]\nto_interfaces = [\"umts\"]\n{actions}\n")
}

const KK_ACTIONS: &str =
    "actions = [{ at = \"24s\", add = \"wlan\" }, { at = \"25s\", set_primary = \"wlan\" }, \
                          { at = \"50s\", set_primary = \"umts\" }, { at = \"55s\", delete = \"wlan\" }]";

#[test]
fn scripted_asconf_requests_resolve_for_the_endpoint_on_the_mobile_node() {
    use vhsim_scenario::{AddressOpModel, SctpMobile};
    let s = load(&msctp("hr-msctp", KK_ACTIONS), &[]).unwrap();
    let TransportModel::Sctp(m) = &s.flows[0].transport else { panic!() };
    let vhsim_scenario::SctpModel { config, mobile, to_addrs, .. } = &**m;
    assert_eq!((config.asconf, config.msctp), (true, vhsim_sctp::MsctpScheme::HandoverRetransmission));
    assert_eq!(to_addrs, &[3]);
    let SctpMobile { side, interfaces, actions } = mobile.clone().unwrap();
    assert_eq!((side, interfaces), (1, vec![3, 4]));
    let ops: Vec<(f64, AddressOpModel)> = actions.iter().map(|a| (a.at.as_secs_f64(), a.op)).collect();
    assert_eq!(
        ops,
        [
            (24.0, AddressOpModel::Add(4)),
            (25.0, AddressOpModel::SetPrimary(4)),
            (50.0, AddressOpModel::SetPrimary(3)),
            (55.0, AddressOpModel::Delete(4))
        ]
    );
    let mt = load(&msctp("mt-msctp", "trigger = \"warning\"\ndelete_after = \"5s\""), &[]).unwrap();
    let TransportModel::Sctp(m) = &mt.flows[0].transport else { panic!() };
    let config = &m.config;
    assert!(config.split_fast_retransmit && config.delete_after.is_some());
    assert_eq!(config.mt_region, vhsim_sctp::MtRegion::SetPrimary, "the default region");
}

#[test]
fn the_scheme_options_of_issue_25_map_onto_the_configuration() {
    let options = "mt_region = \"add_ip\"\nset_primary_from = \"old\"\nhr_cwnd_reset = true\n\
                   idle_cwnd_reset = \"5s\"\nrtx_to_alt = \"alternate\"";
    let (cfg, ..) = sctp_of(&msctp("mt-msctp", options));
    assert_eq!(
        (cfg.mt_region, cfg.set_primary_from, cfg.hr_cwnd_reset, cfg.rtx_to_alt),
        (
            vhsim_sctp::MtRegion::AddIp,
            vhsim_sctp::SetPrimarySource::Old,
            true,
            vhsim_sctp::RtxToAlt::Alternate
        )
    );
    assert_eq!(cfg.idle_cwnd_reset, Some(vhsim_core::SimDuration::from_secs(5)));
    let (cfg, ..) = sctp_of(BASE);
    assert_eq!(cfg.rtx_to_alt, vhsim_sctp::RtxToAlt::TimeoutsOnly, "RFC 9260 §6.4 by default");
    for (text, key, phrase) in [
        ("mt_region = \"region\"", "flows.a.sctp.mt_region", "expected `set_primary` or `add_ip`"),
        ("set_primary_from = \"both\"", "flows.a.sctp.set_primary_from", "expected `new` or `old`"),
        ("idle_cwnd_reset = \"0s\"", "flows.a.sctp.idle_cwnd_reset", "must be > 0"),
    ] {
        let e = load(&msctp("msctp", text), &[]).unwrap_err();
        assert_eq!(e.path, key, "{e}");
        assert!(e.message.contains(phrase), "{e}");
    }
}

const BAD_MSCTP: &[(&str, &str, &str, &str, &str)] = &[
    (
        "ASCONF without an mSCTP scheme",
        "sctp",
        KK_ACTIONS,
        "flows.a.sctp.actions",
        "needs a scheme with ASCONF",
    ),
    (
        "Set-Primary to an address not in the association",
        "msctp",
        "actions = [{ at = \"25s\", set_primary = \"wlan\" }]",
        "flows.a.sctp.actions[0].set_primary",
        "`wlan` is not in the association then (add it first)",
    ),
    (
        "Delete-IP of the primary",
        "msctp",
        "actions = [{ at = \"24s\", add = \"wlan\" }, { at = \"26s\", delete = \"umts\" }]",
        "flows.a.sctp.actions[1].delete",
        "`umts` is the primary then: set another primary first",
    ),
    (
        "a switch time outside the run",
        "msctp",
        "actions = [{ at = \"24s\", add = \"wlan\" }, { at = \"61s\", set_primary = \"wlan\" }]",
        "flows.a.sctp.actions[1].at",
        "61s is not before the end of the run (duration 60s)",
    ),
    (
        "two requests in one action",
        "msctp",
        "actions = [{ at = \"24s\", add = \"wlan\", set_primary = \"wlan\" }]",
        "flows.a.sctp.actions[0]",
        "exactly one of",
    ),
    (
        "Add-IP of an address already there",
        "msctp",
        "actions = [{ at = \"24s\", add = \"umts\" }]",
        "flows.a.sctp.actions[0].add",
        "`umts` is already in the association then",
    ),
    (
        "an unknown interface",
        "msctp",
        "actions = [{ at = \"24s\", add = \"lte\" }]",
        "flows.a.sctp.actions[0].add",
        "unknown interface `lte`",
    ),
    (
        "delete_after without a link trigger",
        "msctp",
        "delete_after = \"1s\"",
        "flows.a.sctp.delete_after",
        "only applies with trigger",
    ),
];

#[test]
fn bad_msctp_input_names_the_key() {
    for (case, scheme, actions, key, phrase) in BAD_MSCTP {
        let e = load(&msctp(scheme, actions), &[]).expect_err(case);
        assert_eq!(e.path, *key, "{case}: {e}");
        assert!(e.message.contains(phrase), "{case}: {e}");
    }
}
