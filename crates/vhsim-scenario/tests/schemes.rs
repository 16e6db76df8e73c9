//! Scenario keys of the TCP parts (docs/scenario-format.md "TCP", docs/schemes.md): each preset
//! resolves to its documented composition; axes are tagged tables merged over the preset's
//! (same kind: only the options given change; another kind: its own defaults); every option can
//! be set in `flows.<f>.tcp` and with `--set`; bad input names its key path and what is allowed.

use std::panic::catch_unwind;
use vhsim_core::SimDuration;
use vhsim_scenario::{load, Scenario, ScenarioError};
use vhsim_tcp::presets::preset;
use vhsim_tcp::{
    CrossLayerConfig, DcrConfig, DcrTau, DupAckCount, DupAckResponseConfig as D, FrtoConfig, FrtoVariant,
    HandoverPolicyConfig as H, LdConfig, LossClassifierConfig as L, RtoResponseConfig as R, SpuriousResponse,
    TcpConfig,
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

fn tcp(scheme: &str, table: &str) -> TcpConfig {
    scenario(scheme, table).unwrap_or_else(|e| panic!("{table}: {e}")).flows[0].tcp().unwrap().clone()
}

#[test]
fn each_scheme_resolves_to_its_preset() {
    for p in vhsim_tcp::presets::all() {
        let s = scenario(p.name, "").unwrap();
        assert_eq!(s.flows[0].tcp(), Some(&p.tcp_config()), "{}", p.name);
        assert_eq!(s.flows[0].sink(), Some(&p.sink_config()), "{}", p.name);
    }
    let c = tcp("dcr-frto-ld", "");
    assert_eq!(
        c.rto_response,
        R::Frto(FrtoConfig { variant: FrtoVariant::Basic, response: SpuriousResponse::FullRevert })
    );
    assert_eq!(c.dupack_response, D::Dcr(DcrConfig { trigger: DupAckCount(3), tau: DcrTau::Tavg }));
    assert_eq!(c.loss_classifier, L::Ld(LdConfig { handover_reset: true, ..LdConfig::default() }));
}

#[test]
fn every_option_can_be_set_and_a_new_kind_starts_from_its_defaults() {
    let c = tcp(
        "sack",
        r#"rto_response = { kind = "frto", response = "slow_start" }
dupack_response = { kind = "dcr", trigger = 3, tau = "tavg" }
loss_classifier = { kind = "ld", k = 3, suspend_rounds = 2, handover_reset = true, initial_tdev = "250ms" }"#,
    );
    assert_eq!(
        c.rto_response,
        R::Frto(FrtoConfig { variant: FrtoVariant::Basic, response: SpuriousResponse::SlowStart })
    );
    assert_eq!(c.dupack_response, D::Dcr(DcrConfig { trigger: DupAckCount(3), tau: DcrTau::Tavg }));
    let ld = LdConfig {
        k: 3.0,
        suspend_rounds: 2,
        handover_reset: true,
        initial_tdev: SimDuration::from_millis(250),
    };
    assert_eq!(c.loss_classifier, L::Ld(ld));
    // A bare kind is that kind with its defaults.
    assert_eq!(tcp("sack", "rto_response = \"frto\"").rto_response, R::Frto(FrtoConfig::default()));
}

#[test]
fn a_table_of_the_presets_kind_changes_only_the_options_it_gives() {
    // frto's preset: SACK-enhanced F-RTO, full revert.
    let c = tcp("frto", "rto_response = { response = \"ssthresh\" }");
    assert_eq!(
        c.rto_response,
        R::Frto(FrtoConfig { variant: FrtoVariant::Sack, response: SpuriousResponse::Ssthresh })
    );
    let c = tcp("frto", "[flows.bulk.tcp.rto_response]\nkind = \"frto\"\nvariant = \"basic\"");
    assert_eq!(
        c.rto_response,
        R::Frto(FrtoConfig { variant: FrtoVariant::Basic, response: SpuriousResponse::FullRevert })
    );
    // The same kind, bare: the preset's options stay.
    assert_eq!(tcp("frto", "rto_response = \"frto\"").rto_response, tcp("frto", "").rto_response);
}

#[test]
fn parts_switch_off_again() {
    let c = tcp(
        "dcr-frto-ld",
        "rto_response = \"conventional\"\ndupack_response = \"immediate\"\nloss_classifier = \"none\"",
    );
    assert_eq!(
        (c.rto_response.kind(), c.dupack_response.kind(), c.loss_classifier.kind()),
        ("conventional", "immediate", "none")
    );
    assert_eq!(c, tcp("sack", ""));
}

#[test]
fn dcr_trigger_takes_integers_and_names_and_ld_k_fractions() {
    for (value, n) in [("1", 1), ("2", 2), ("\"first\"", 1), ("\"second\"", 2), ("\"third\"", 3)] {
        let c = tcp("dcr", &format!("dupack_response.trigger = {value}"));
        assert_eq!(
            c.dupack_response,
            D::Dcr(DcrConfig { trigger: DupAckCount(n), tau: DcrTau::Srtt }),
            "{value}"
        );
    }
    let L::Ld(ld) = tcp("dcr-ld", "loss_classifier.k = 1.5").loss_classifier else { panic!() };
    assert_eq!(ld.k, 1.5);
}

#[test]
fn set_overrides_reach_the_axis_options() {
    let text = format!("{BASE}scheme = \"dcr-frto-ld\"\n");
    let sets: Vec<(String, String)> = [
        ("flows.bulk.tcp.dupack_response.trigger", "first"),
        ("flows.bulk.tcp.loss_classifier.k", "1"),
        ("flows.bulk.tcp.rto_response.response", "ssthresh"),
        ("flows.bulk.tcp.rto_response.variant", "sack"),
        ("flows.bulk.tcp.handover", "record"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let c = load(&text, &sets).unwrap().flows[0].tcp().unwrap().clone();
    assert_eq!(c.dupack_response, D::Dcr(DcrConfig { trigger: DupAckCount(1), tau: DcrTau::Tavg }));
    assert_eq!(c.loss_classifier, L::Ld(LdConfig { k: 1.0, handover_reset: true, ..LdConfig::default() }));
    assert_eq!(
        c.rto_response,
        R::Frto(FrtoConfig { variant: FrtoVariant::Sack, response: SpuriousResponse::Ssthresh })
    );
    assert_eq!(c.handover.kind(), "record");
}

#[test]
fn bad_input_names_its_key_path_and_what_is_allowed() {
    // (scheme, tcp table, error path under flows.bulk.tcp, phrase)
    let cases = [
        // An unknown variant.
        (
            "sack",
            "rto_response = \"eifel\"",
            "rto_response",
            "unknown variant `eifel`, expected `conventional` or `frto`",
        ),
        (
            "sack",
            "rto_response = { kind = \"eifel\" }",
            "rto_response.kind",
            "expected `conventional` or `frto`",
        ),
        ("sack", "dupack_response = \"ncr\"", "dupack_response", "expected `immediate` or `dcr`"),
        ("sack", "loss_classifier = \"veno\"", "loss_classifier", "expected `none` or `ld`"),
        ("sack", "recovery = \"sack\"", "recovery", "expected one of `sack1`, `new_reno`, `reno`, `rfc6675`"),
        ("enhanced", "handover = \"freeze\"", "handover", "expected one of `none`, `record`, `cross_layer`"),
        // An option of a variant that is not selected.
        ("sack", "rto_response.variant = \"sack\"", "rto_response.variant", "unknown field `variant`"),
        (
            "sack",
            "dupack_response = { kind = \"immediate\", trigger = 3 }",
            "dupack_response.trigger",
            "unknown field `trigger`",
        ),
        (
            "frto",
            "rto_response = { kind = \"conventional\", response = \"ssthresh\" }",
            "rto_response.response",
            "unknown field `response`",
        ),
        ("sack", "recovery.timer = \"slow_but_steady\"", "recovery.timer", "unknown field `timer`"),
        ("dcr", "loss_classifier.k = 3", "loss_classifier.k", "unknown field `k`"),
        // An unknown option of the selected variant, listing the allowed ones.
        (
            "frto",
            "rto_response.varaint = \"sack\"",
            "rto_response.varaint",
            "expected `variant` or `response`",
        ),
        // A preset override of a wrong type.
        (
            "frto",
            "rto_response = 3",
            "rto_response",
            "invalid type: integer `3`, expected a kind (one of `conventional`, `frto`)",
        ),
        ("frto", "rto_response.variant = 2", "rto_response.variant", "expected one of `basic`, `sack`"),
        (
            "frto",
            "rto_response.response = \"undo\"",
            "rto_response.response",
            "expected one of `full_revert`, `ssthresh`, `slow_start`",
        ),
        (
            "dcr",
            "dupack_response.trigger = 0",
            "dupack_response.trigger",
            "an integer >= 1 or one of `first`, `second`, `third`",
        ),
        ("dcr", "dupack_response.trigger = -3", "dupack_response.trigger", "integer >= 1"),
        (
            "dcr",
            "dupack_response.trigger = \"fourth\"",
            "dupack_response.trigger",
            "invalid value: string \"fourth\"",
        ),
        ("dcr", "dupack_response.trigger = 2.5", "dupack_response.trigger", "a dupACK count"),
        ("dcr", "dupack_response.tau = \"rto\"", "dupack_response.tau", "expected `srtt` or `tavg`"),
        ("dcr-ld", "loss_classifier.k = 0", "loss_classifier.k", "0 is not a finite number greater than 0"),
        ("dcr-ld", "loss_classifier.k = -2", "loss_classifier.k", "not a finite number greater than 0"),
        ("dcr-ld", "loss_classifier.k = \"two\"", "loss_classifier.k", "invalid type"),
        ("dcr-ld", "loss_classifier.suspend_rounds = -1", "loss_classifier.suspend_rounds", "invalid value"),
        ("dcr-ld", "loss_classifier.initial_tdev = \"-1s\"", "loss_classifier.initial_tdev", "negative"),
        (
            "dcr-ld",
            "loss_classifier.initial_tdev = 1",
            "loss_classifier.initial_tdev",
            "number without a unit",
        ),
        // Cross-axis checks blame the key the user wrote.
        ("dcr", "dupack_response.tau = \"tavg\"", "dupack_response.tau", "needs loss_classifier = \"ld\""),
        ("dcr-ld", "loss_classifier = \"none\"", "loss_classifier", "needs loss_classifier = \"ld\""),
        (
            "sack",
            "dupack_response = { kind = \"dcr\", tau = \"tavg\" }",
            "dupack_response.tau",
            "Tavg is LD's RTT average",
        ),
        // Keys of the flat format before axes were tables point to their new place.
        ("frto", "frto_variant = \"sack\"", "frto_variant", "is now `rto_response.variant`"),
        ("dcr-ld", "ld_k = 3", "ld_k", "is now `loss_classifier.k`"),
        ("newreno", "newreno_timer = \"slow_but_steady\"", "newreno_timer", "is now `recovery.timer`"),
    ];
    for (scheme, table, key, phrase) in cases {
        let e = scenario(scheme, table).expect_err(table);
        assert_eq!(e.path, format!("flows.bulk.tcp.{key}"), "{table}: {e}");
        assert!(e.message.contains(phrase), "{table}: message {:?} lacks {phrase:?}", e.message);
    }
}

#[test]
fn cross_layer_options_override_the_preset_and_bad_values_name_their_key() {
    let c = tcp("regular", "handover = { kind = \"cross_layer\", a2 = false, reinit_rto = \"6s\" }");
    let want =
        CrossLayerConfig { a2: false, reinit_rto: SimDuration::from_secs(6), ..CrossLayerConfig::default() };
    assert_eq!(c.handover, H::CrossLayer(want));
    assert_eq!(tcp("enhanced", ""), preset("enhanced").unwrap().tcp_config());
    let cases = [
        ("handover.a5 = true", "flows.bulk.tcp.handover.a5", "A5 replaces A2"),
        (
            "handover.significant_delay_factor = 1.0",
            "flows.bulk.tcp.handover.significant_delay_factor",
            "greater than 1",
        ),
        ("handover.reinit_rto = \"0s\"", "flows.bulk.tcp.handover.reinit_rto", "greater than 0s"),
        ("handover.a6 = true", "flows.bulk.tcp.handover.a6", "unknown field `a6`"),
        ("cross_layer = { a1 = true }", "flows.bulk.tcp.cross_layer", "is now `handover`"),
    ];
    for (table, path, phrase) in cases {
        let e = scenario("enhanced", table).unwrap_err();
        assert_eq!(e.path, path, "{table}: {}", e.message);
        assert!(e.message.contains(phrase), "{table}: {}", e.message);
    }
}

#[test]
fn the_toy_window_law_is_configured_from_a_scenario() {
    let c = tcp("sack", "congestion_control = { kind = \"constant\", window = 8 }");
    assert_eq!(c.congestion_control.kind(), "constant");
    let e = scenario("sack", "congestion_control = { kind = \"constant\", window = 0 }").unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.message.as_str()),
        ("flows.bulk.tcp.congestion_control.window", "must be at least 1pkt")
    );
}
