//! Scenario keys of the handover schemes (F-RTO, TCP-DCR, LD; docs/schemes.md): each preset
//! resolves to its documented composition, every option can be overridden in
//! `flows.<f>.tcp` (and with `--set`), and malformed values name their key path.

use std::panic::catch_unwind;
use vhsim_core::SimDuration;
use vhsim_scenario::{load, Scenario, ScenarioError};
use vhsim_tcp::presets::preset;
use vhsim_tcp::{
    DcrTau, DupAckCount, DupAckResponseKind, FrtoVariant, LossClassifierKind, RtoResponseKind,
    SpuriousResponse,
};

const BASE: &str = r#"duration = "300s"
[nodes.cn]
[nodes.mn]
[links.access]
between = ["cn", "mn"]
rate = "1Mbps"
delay = "10ms"
[flows.bulk]
from = "cn"
to = "mn"
"#;

/// BASE with `scheme` and a `[flows.bulk.tcp]` table holding `tcp`.
fn scenario(scheme: &str, tcp: &str) -> Result<Scenario, ScenarioError> {
    let text = format!("{BASE}scheme = \"{scheme}\"\n[flows.bulk.tcp]\n{tcp}\n");
    let result = catch_unwind(|| load(&text, &[]));
    result.unwrap_or_else(|_| panic!("load panicked on {text}"))
}

#[test]
fn each_scheme_resolves_to_its_preset() {
    for name in ["sack", "frto", "dcr", "dcr-frto", "dcr-ld", "dcr-frto-ld"] {
        let s = scenario(name, "").unwrap();
        let p = preset(name).unwrap();
        assert_eq!(s.flows[0].tcp(), Some(&p.tcp_config()), "{name}");
        assert_eq!(s.flows[0].sink(), Some(&p.sink_config()), "{name}");
    }
    let c = scenario("dcr-frto-ld", "").unwrap().flows[0].tcp().unwrap().clone();
    assert_eq!(
        (c.rto_response, c.dupack_response, c.loss_classifier),
        (RtoResponseKind::Frto, DupAckResponseKind::Dcr, LossClassifierKind::Ld)
    );
    assert_eq!((c.dcr.trigger, c.dcr.tau, c.ld.handover_reset), (DupAckCount(3), DcrTau::Tavg, true));
}

#[test]
fn every_option_can_be_overridden() {
    let s = scenario(
        "sack",
        r#"rto_response = "frto"
frto_variant = "basic"
spurious_response = "slow_start"
dupack_response = "dcr"
dcr_trigger = 3
dcr_tau = "tavg"
loss_classifier = "ld"
ld_k = 3
ld_suspend_rounds = 2
ld_handover_reset = true
ld_initial_tdev = "250ms""#,
    )
    .unwrap();
    let c = s.flows[0].tcp().unwrap();
    assert_eq!(c.rto_response, RtoResponseKind::Frto);
    assert_eq!((c.frto.variant, c.frto.response), (FrtoVariant::Basic, SpuriousResponse::SlowStart));
    assert_eq!(c.dupack_response, DupAckResponseKind::Dcr);
    assert_eq!((c.dcr.trigger, c.dcr.tau), (DupAckCount(3), DcrTau::Tavg));
    assert_eq!(c.loss_classifier, LossClassifierKind::Ld);
    assert_eq!((c.ld.k, c.ld.suspend_rounds, c.ld.handover_reset), (3.0, 2, true));
    assert_eq!(c.ld.initial_tdev, SimDuration::from_millis(250));
}

#[test]
fn options_switch_parts_off_again() {
    let c = scenario(
        "dcr-frto-ld",
        "rto_response = \"conventional\"\ndupack_response = \"immediate\"\nloss_classifier = \"none\"",
    )
    .unwrap()
    .flows[0]
        .tcp()
        .unwrap()
        .clone();
    assert_eq!(
        (c.rto_response, c.dupack_response, c.loss_classifier),
        (RtoResponseKind::Conventional, DupAckResponseKind::Immediate, LossClassifierKind::None)
    );
}

#[test]
fn dcr_trigger_takes_integers_and_names_and_ld_k_fractions() {
    for (value, n) in [("1", 1), ("2", 2), ("\"first\"", 1), ("\"second\"", 2), ("\"third\"", 3)] {
        let s = scenario("dcr", &format!("dcr_trigger = {value}")).unwrap();
        assert_eq!(s.flows[0].tcp().unwrap().dcr.trigger, DupAckCount(n), "{value}");
    }
    let s = scenario("dcr-ld", "ld_k = 1.5").unwrap();
    assert_eq!(s.flows[0].tcp().unwrap().ld.k, 1.5);
}

#[test]
fn set_overrides_reach_the_new_keys() {
    let text = format!("{BASE}scheme = \"dcr-frto-ld\"\n");
    let sets: Vec<(String, String)> = [
        ("flows.bulk.tcp.dcr_trigger", "first"),
        ("flows.bulk.tcp.ld_k", "1"),
        ("flows.bulk.tcp.spurious_response", "ssthresh"),
        ("flows.bulk.tcp.frto_variant", "sack"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let c = load(&text, &sets).unwrap().flows[0].tcp().unwrap().clone();
    assert_eq!((c.dcr.trigger, c.ld.k), (DupAckCount(1), 1.0));
    assert_eq!((c.frto.variant, c.frto.response), (FrtoVariant::Sack, SpuriousResponse::Ssthresh));
}

#[test]
fn malformed_values_name_their_key_path() {
    // (scheme, tcp table, error path under flows.bulk.tcp, phrase)
    let cases = [
        (
            "sack",
            "rto_response = \"eifel\"",
            "rto_response",
            "unknown variant `eifel`, expected `conventional` or `frto`",
        ),
        ("frto", "frto_variant = \"fack\"", "frto_variant", "unknown variant `fack`"),
        (
            "frto",
            "spurious_response = \"undo\"",
            "spurious_response",
            "expected one of `full_revert`, `ssthresh`, `slow_start`",
        ),
        ("sack", "dupack_response = \"ncr\"", "dupack_response", "expected `immediate` or `dcr`"),
        ("dcr", "dcr_trigger = 0", "dcr_trigger", "an integer >= 1 or one of `first`, `second`, `third`"),
        ("dcr", "dcr_trigger = -3", "dcr_trigger", "integer >= 1"),
        ("dcr", "dcr_trigger = \"fourth\"", "dcr_trigger", "invalid value: string \"fourth\""),
        ("dcr", "dcr_trigger = 2.5", "dcr_trigger", "a dupACK count"),
        ("dcr", "dcr_tau = \"rto\"", "dcr_tau", "expected `srtt` or `tavg`"),
        ("sack", "loss_classifier = \"veno\"", "loss_classifier", "expected `none` or `ld`"),
        ("dcr-ld", "ld_k = 0", "ld_k", "0 is not a finite number greater than 0"),
        ("dcr-ld", "ld_k = -2", "ld_k", "not a finite number greater than 0"),
        ("dcr-ld", "ld_k = \"two\"", "ld_k", "invalid type"),
        ("dcr-ld", "ld_suspend_rounds = -1", "ld_suspend_rounds", "invalid value"),
        ("dcr-ld", "ld_initial_tdev = \"-1s\"", "ld_initial_tdev", "negative"),
        ("dcr", "dcr_tau = \"tavg\"", "dcr_tau", "needs loss_classifier = \"ld\""),
        ("dcr-ld", "loss_classifier = \"none\"", "loss_classifier", "needs loss_classifier = \"ld\""),
        ("sack", "dupack_response = \"dcr\"\ndcr_tau = \"tavg\"", "dcr_tau", "Tavg is LD's RTT average"),
    ];
    for (scheme, tcp, key, phrase) in cases {
        let e = scenario(scheme, tcp).expect_err(tcp);
        assert_eq!(e.path, format!("flows.bulk.tcp.{key}"), "{tcp}: {e}");
        assert!(e.message.contains(phrase), "{tcp}: message {:?} lacks {phrase:?}", e.message);
    }
}

#[test]
fn cross_layer_options_override_the_preset_and_bad_values_name_their_key() {
    let s = scenario(
        "regular",
        "handover = \"cross_layer\"\n[flows.bulk.tcp.cross_layer]\na1 = true\nreinit_rto = \"6s\"",
    )
    .unwrap();
    let c = s.flows[0].tcp().unwrap();
    assert_eq!(c.handover, vhsim_tcp::HandoverPolicyKind::CrossLayer);
    assert!(c.cross_layer.a1 && !c.cross_layer.a2);
    assert_eq!(c.cross_layer.reinit_rto, SimDuration::from_secs(6));
    assert_eq!(scenario("enhanced", "").unwrap().flows[0].tcp().unwrap(), &preset("enhanced").unwrap().tcp_config());
    let cases = [
        ("[flows.bulk.tcp.cross_layer]\na5 = true", "flows.bulk.tcp.cross_layer.a5", "A5 replaces A2"),
        (
            "[flows.bulk.tcp.cross_layer]\nsignificant_delay_factor = 1.0",
            "flows.bulk.tcp.cross_layer.significant_delay_factor",
            "greater than 1",
        ),
        (
            "[flows.bulk.tcp.cross_layer]\nreinit_rto = \"0s\"",
            "flows.bulk.tcp.cross_layer.reinit_rto",
            "greater than 0s",
        ),
        ("[flows.bulk.tcp.cross_layer]\na6 = true", "flows.bulk.tcp.cross_layer", "unknown field `a6`"),
        ("handover = \"freeze\"", "flows.bulk.tcp.handover", "freeze"),
    ];
    for (tcp, path, phrase) in cases {
        let e = scenario("enhanced", tcp).unwrap_err();
        assert!(e.path.starts_with(path), "{tcp}: path {:?} ({})", e.path, e.message);
        assert!(e.message.contains(phrase), "{tcp}: {}", e.message);
    }
}
