//! Every preset resolves to the composition docs/schemes.md documents.

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_tcp::presets::{preset, PRESETS};
use vhsim_tcp::{
    DcrTau, DupAckCount, DupAckResponseKind as D, FrtoVariant, LossClassifierKind as L, RecoveryKind,
    RtoResponseKind as R, SpuriousResponse,
};

#[test]
fn the_papers_schemes_are_compositions_of_parts() {
    // name, recovery, rto response, dupACK response, classifier
    let table = [
        ("sack", RecoveryKind::Sack1, R::Conventional, D::Immediate, L::None),
        ("sack-rfc6675", RecoveryKind::Rfc6675, R::Conventional, D::Immediate, L::None),
        ("newreno", RecoveryKind::NewReno, R::Conventional, D::Immediate, L::None),
        ("reno", RecoveryKind::Reno, R::Conventional, D::Immediate, L::None),
        ("frto", RecoveryKind::Sack1, R::Frto, D::Immediate, L::None),
        ("dcr", RecoveryKind::Sack1, R::Conventional, D::Dcr, L::None),
        ("dcr-frto", RecoveryKind::Sack1, R::Frto, D::Dcr, L::None),
        ("dcr-ld", RecoveryKind::Sack1, R::Conventional, D::Dcr, L::Ld),
        ("dcr-frto-ld", RecoveryKind::Sack1, R::Frto, D::Dcr, L::Ld),
        ("regular", RecoveryKind::Sack1, R::Conventional, D::Immediate, L::None),
        ("enhanced", RecoveryKind::Sack1, R::Conventional, D::Immediate, L::None),
        ("enhanced-a5", RecoveryKind::Sack1, R::Conventional, D::Immediate, L::None),
    ];
    assert_eq!(PRESETS.len(), table.len());
    for (name, recovery, rto, dup, class) in table {
        let c = cfg(name);
        assert_eq!(
            (c.recovery, c.rto_response, c.dupack_response, c.loss_classifier),
            (recovery, rto, dup, class),
            "{name}"
        );
        assert_eq!(
            sink_cfg(name).sack,
            matches!(recovery, RecoveryKind::Sack1 | RecoveryKind::Rfc6675),
            "{name}"
        );
        // ns-2.35 defaults everywhere.
        assert_eq!(
            (c.window, c.segment_size, c.initial_window, c.dupack_threshold),
            (20, 1000, 2, 3),
            "{name}"
        );
        assert!(!preset(name).unwrap().description.is_empty());
    }
}

#[test]
fn danielkojo_presets_differ_only_in_the_handover_policy() {
    use vhsim_tcp::{CrossLayerConfig, HandoverPolicyKind as H};
    assert_eq!((cfg("regular").handover, cfg("sack").handover), (H::None, H::None));
    assert_eq!(cfg("enhanced").handover, H::CrossLayer);
    assert_eq!(cfg("enhanced").cross_layer, CrossLayerConfig::ENHANCED);
    let a5 = cfg("enhanced-a5").cross_layer;
    assert!(a5.a1 && a5.a3 && a5.a4 && a5.a5 && !a5.a2);
    let mut e = cfg("enhanced");
    e.handover = H::None;
    e.cross_layer = CrossLayerConfig::OFF;
    assert_eq!(e, cfg("regular"));
}

#[test]
fn option_values_of_the_new_presets() {
    // frto: SACK-enhanced F-RTO (RFC 5682 §3); the paper's DCR-FRTO and scheme II: basic.
    assert_eq!(cfg("frto").frto.variant, FrtoVariant::Sack);
    for name in ["dcr-frto", "dcr-frto-ld"] {
        assert_eq!(cfg(name).frto.variant, FrtoVariant::Basic, "{name}");
    }
    for name in ["frto", "dcr-frto", "dcr-frto-ld"] {
        assert_eq!(cfg(name).frto.response, SpuriousResponse::FullRevert, "{name}");
    }
    // dcr: TCP-DCR's 1st dupACK and srtt; schemes I and II: 3rd dupACK and Tavg.
    for name in ["dcr", "dcr-frto"] {
        let d = cfg(name).dcr;
        assert_eq!((d.trigger, d.tau), (DupAckCount(1), DcrTau::Srtt), "{name}");
    }
    for name in ["dcr-ld", "dcr-frto-ld"] {
        let d = cfg(name).dcr;
        assert_eq!((d.trigger, d.tau), (DupAckCount(3), DcrTau::Tavg), "{name}");
        let ld = cfg(name).ld;
        assert_eq!(
            (ld.k, ld.suspend_rounds, ld.initial_tdev),
            (2.0, 1, SimDuration::from_millis(500)),
            "{name}"
        );
    }
    // Only scheme II has the handover modification of LD.
    assert!(!cfg("dcr-ld").ld.handover_reset);
    assert!(cfg("dcr-frto-ld").ld.handover_reset);
}
