//! Every preset resolves to the composition docs/schemes.md documents, and preset files are
//! data: tables merged under a flow's own.

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_tcp::presets::{all, preset};
use vhsim_tcp::Defaults;
use vhsim_tcp::{
    CrossLayerConfig, DcrConfig, DcrTau, DupAckCount, DupAckResponseConfig as D, FrtoConfig, FrtoVariant,
    HandoverPolicyConfig as H, LdConfig, LossClassifierConfig as L, RecoveryConfig, RtoResponseConfig as R,
    SpuriousResponse,
};

#[test]
fn the_papers_schemes_are_compositions_of_parts() {
    // name, window law, loss detection, recovery, rto response, dupACK response, classifier,
    // handover policy, sink policy (kinds)
    let table = [
        ("sack", "reno", "dupack", "sack1", "conventional", "immediate", "none", "none", "standard"),
        ("sack-rfc6675", "reno", "rfc6675", "rfc6675", "conventional", "immediate", "none", "none", "standard"),
        ("newreno", "reno", "dupack", "new_reno", "conventional", "immediate", "none", "none", "standard"),
        ("reno", "reno", "dupack", "reno", "conventional", "immediate", "none", "none", "standard"),
        ("frto", "reno", "dupack", "sack1", "frto", "immediate", "none", "none", "standard"),
        ("dcr", "reno", "dupack", "sack1", "conventional", "dcr", "none", "none", "standard"),
        ("dcr-frto", "reno", "dupack", "sack1", "frto", "dcr", "none", "none", "standard"),
        ("dcr-ld", "reno", "dupack", "sack1", "conventional", "dcr", "ld", "none", "standard"),
        ("dcr-frto-ld", "reno", "dupack", "sack1", "frto", "dcr", "ld", "none", "standard"),
        ("regular", "reno", "dupack", "sack1", "conventional", "immediate", "none", "none", "standard"),
        ("enhanced", "reno", "dupack", "sack1", "conventional", "immediate", "none", "cross_layer", "standard"),
        ("enhanced-a5", "reno", "dupack", "sack1", "conventional", "immediate", "none", "cross_layer", "standard"),
        ("vegas", "vegas", "vegas", "reno", "conventional", "immediate", "none", "none", "standard"),
        ("westwood", "westwood", "dupack", "new_reno", "conventional", "immediate", "none", "none", "standard"),
        ("freeze", "reno", "dupack", "reno", "conventional", "immediate", "none", "none", "freeze"),
        ("demo-vegas", "vegas", "vegas", "reno", "conventional", "immediate", "none", "demo_sig", "sig"),
        ("ftv2", "ftv2", "dupack", "reno", "conventional", "immediate", "none", "none", "freeze"),
    ];
    // The papers' presets (and ns-2's); today's TCP (cubic, newreno-prr, rack, linux) is
    // checked in tests/linux.rs.
    assert_eq!(all().len(), table.len() + MODERN.len());
    for (name, law, detect, recovery, rto, dup, class, handover, sink_policy) in table {
        let c = cfg(name);
        assert_eq!(
            (
                c.congestion_control.kind(),
                c.loss_detection.kind(),
                c.recovery.kind(),
                c.rto_response.kind(),
                c.dupack_response.kind(),
                c.loss_classifier.kind(),
                c.handover.kind(),
                sink_cfg(name).policy.kind(),
            ),
            (law, detect, recovery, rto, dup, class, handover, sink_policy),
            "{name}"
        );
        // SACK senders count dupACKs by SACK information and get a SACK sink.
        let sack = matches!(recovery, "sack1" | "rfc6675");
        assert_eq!(sink_cfg(name).sack, sack, "{name}");
        let sack_counting =
            c.loss_detection.kind() == "rfc6675" || toml_of(&c.loss_detection).contains("sack = true");
        assert_eq!(sack_counting, sack, "{name}");
        // ns-2.35 defaults everywhere.
        assert_eq!(
            (c.window, c.segment_size, c.initial_window, c.dupack_threshold),
            (20, 1000, 2, 3),
            "{name}"
        );
        let p = preset(name).unwrap();
        assert!(!p.description.is_empty() && !p.source.is_empty(), "{name}");
    }
}

/// Presets of today's TCP, outside the papers' ns-2 compositions.
const MODERN: [&str; 4] = ["cubic", "newreno-prr", "rack", "linux"];

fn toml_of<T: serde::Serialize>(v: &T) -> String {
    toml::to_string(v).unwrap()
}

#[test]
fn danielkojo_presets_differ_only_in_the_handover_policy() {
    assert_eq!((cfg("regular").handover.kind(), cfg("sack").handover.kind()), ("none", "none"));
    assert_eq!(cfg("enhanced").handover, H::CrossLayer(CrossLayerConfig::default()), "enhanced TCP = A1-A4");
    let H::CrossLayer(a5) = cfg("enhanced-a5").handover else { panic!("cross_layer") };
    assert!(a5.a1 && a5.a3 && a5.a4 && a5.a5 && !a5.a2);
    let mut e = cfg("enhanced");
    e.handover = H::default();
    assert_eq!(e, cfg("regular"));
    assert_eq!(cfg("regular"), cfg("sack"));
}

#[test]
fn option_values_of_the_new_presets() {
    let frto = |name| match cfg(name).rto_response {
        R::Frto(f) => f,
        other => panic!("{name}: {other:?}"),
    };
    // frto: SACK-enhanced F-RTO (RFC 5682 §3); the paper's DCR-FRTO and scheme II: basic.
    assert_eq!(
        frto("frto"),
        FrtoConfig { variant: FrtoVariant::Sack, response: SpuriousResponse::FullRevert }
    );
    for name in ["dcr-frto", "dcr-frto-ld"] {
        assert_eq!(
            frto(name),
            FrtoConfig { variant: FrtoVariant::Basic, response: SpuriousResponse::FullRevert }
        );
    }
    // dcr: TCP-DCR's 1st dupACK and srtt; schemes I and II: 3rd dupACK and Tavg.
    for name in ["dcr", "dcr-frto"] {
        assert_eq!(
            cfg(name).dupack_response,
            D::Dcr(DcrConfig { trigger: DupAckCount(1), tau: DcrTau::Srtt })
        );
    }
    for name in ["dcr-ld", "dcr-frto-ld"] {
        assert_eq!(
            cfg(name).dupack_response,
            D::Dcr(DcrConfig { trigger: DupAckCount(3), tau: DcrTau::Tavg })
        );
        let L::Ld(ld) = cfg(name).loss_classifier else { panic!("{name}") };
        assert_eq!(
            (ld.k, ld.suspend_rounds, ld.initial_tdev),
            (2.0, 1, SimDuration::from_millis(500)),
            "{name}"
        );
        // Only scheme II has the handover modification of LD.
        assert_eq!(ld.handover_reset, name == "dcr-frto-ld");
    }
    assert!(!LdConfig::default().handover_reset);
    assert_eq!(cfg("newreno").recovery, RecoveryConfig::NewReno(Default::default()));
}

#[test]
fn every_preset_reads_back_from_its_own_resolved_form() {
    // `vhsim schemes --show` prints the resolved tables; read back, they give the same
    // configuration (the serialized form is the input form).
    for p in all() {
        for set in [Defaults::Rfc, Defaults::Ns2_35] {
            let text = p.to_toml(set);
            let doc: toml::Table = toml::from_str(&text).unwrap();
            let tcp = doc["tcp"].as_table().unwrap();
            let sink = doc["sink"].as_table().unwrap();
            let sack = preset("sack").unwrap();
            // Every key is written out, so the set it is read back over does not matter.
            for back in [Defaults::Rfc, Defaults::Ns2_35] {
                assert_eq!(sack.resolve(back, tcp, sink).unwrap(), p.configs(set), "{} {set:?}", p.name);
            }
        }
    }
}
