//! Today's TCP as presets: `cubic`, `newreno-prr`, `rack` and `linux` resolve to the
//! compositions and settings docs/schemes.md documents (Linux 6.17's defaults for `linux`), and
//! every part can be selected and tuned from a scenario's keys.

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_tcp::cc::cubic::{CubicConfig, CubicGrowth, CubicReduceFrom};
use vhsim_tcp::detect::rack::RackConfig;
use vhsim_tcp::recovery::prr::{PrrBound, PrrConfig};
use vhsim_tcp::slowstart::SlowStartConfig;
use vhsim_tcp::{
    CongestionControlConfig, FrtoConfig, FrtoVariant, LossDetectionConfig, RecoveryConfig, RtoResponseConfig,
    RttTiming, SpuriousResponse,
};

#[test]
fn the_modern_presets_are_compositions_of_the_new_parts() {
    // name, window law, slow start, loss detection, recovery, timeout response, SACK sink, D-SACK
    let table = [
        ("cubic", "cubic", "standard", "dupack", "sack1", "conventional", true, false),
        ("newreno-prr", "reno", "standard", "dupack", "prr", "conventional", false, false),
        ("rack", "reno", "standard", "rack", "prr", "conventional", true, true),
        ("linux", "cubic", "hystart", "rack", "prr", "frto", true, true),
    ];
    for (name, law, ss, detect, recovery, rto, sack, dsack) in table {
        let c = cfg(name);
        let s = sink_cfg(name);
        assert_eq!(
            (
                c.congestion_control.kind(),
                c.slow_start.kind(),
                c.loss_detection.kind(),
                c.recovery.kind(),
                c.rto_response.kind()
            ),
            (law, ss, detect, recovery, rto),
            "{name}"
        );
        assert_eq!((s.sack, s.dsack), (sack, dsack), "{name}");
        assert_eq!(
            (c.dupack_response.kind(), c.loss_classifier.kind(), c.handover.kind()),
            ("immediate", "none", "none")
        );
    }
    // cubic, newreno-prr and rack keep ns-2.35's scalar settings, as the papers' presets.
    for name in ["cubic", "newreno-prr", "rack"] {
        let c = cfg(name);
        assert_eq!(
            (c.window, c.initial_window, c.min_rto, c.initial_rto),
            (20, 2, SimDuration::from_millis(200), SimDuration::from_secs(3)),
            "{name}"
        );
    }
}

#[test]
fn linux_follows_the_kernels_defaults() {
    let c = cfg("linux");
    // include/net/tcp.h: TCP_INIT_CWND 10 (RFC 6928), TCP_RTO_MIN 200 ms, TCP_TIMEOUT_INIT 1 s
    // (RFC 6298 §2.1), TCP_RTO_MAX 120 s; tcp_reordering = 3.
    assert_eq!(c.initial_window, 10);
    assert_eq!(
        (c.min_rto, c.initial_rto, c.max_rto),
        (SimDuration::from_millis(200), SimDuration::from_secs(1), SimDuration::from_secs(120))
    );
    assert_eq!(c.dupack_threshold, 3);
    assert_eq!((c.clock_granularity, c.rtt_timing), (SimDuration::ZERO, RttTiming::EveryAck));
    // tcp_cubic.c: beta 717/1024 ≈ 0.7, bic_scale 41 → C = 41·10/1024 ≈ 0.4, fast convergence,
    // tcp_friendliness; ssthresh from cwnd; growth counted per segment acknowledged.
    assert_eq!(
        c.congestion_control,
        CongestionControlConfig::Cubic(CubicConfig {
            reduce_from: CubicReduceFrom::Cwnd,
            growth: CubicGrowth::PerSegment,
            ..CubicConfig::default()
        })
    );
    assert_eq!(c.slow_start, SlowStartConfig::Hystart(Default::default()));
    // tcp_recovery = 0x1 (RACK), tcp_early_retrans = 3 (TLP): the RFC 8985 defaults.
    assert_eq!(c.loss_detection, LossDetectionConfig::Rack(RackConfig::default()));
    assert_eq!(c.recovery, RecoveryConfig::Prr(PrrConfig { bound: PrrBound::Ssrb }));
    // tcp_frto = 2: SACK-enhanced F-RTO.
    assert_eq!(
        c.rto_response,
        RtoResponseConfig::Frto(FrtoConfig {
            variant: FrtoVariant::Sack,
            response: SpuriousResponse::FullRevert
        })
    );
}

#[test]
fn every_new_part_is_selected_and_tuned_by_scenario_keys() {
    let c = cfg("sack").set(
        "congestion_control = { kind = \"cubic\", beta = 0.8, c = 0.5 }\n\
         slow_start = { kind = \"hystart_pp\", css_rounds = 3 }\n\
         loss_detection = { kind = \"rack\", tlp = false }\n\
         recovery = { kind = \"prr\", bound = \"crb\" }",
    );
    let CongestionControlConfig::Cubic(cubic) = &c.congestion_control else { panic!() };
    assert_eq!((cubic.beta, cubic.c), (0.8, 0.5));
    let SlowStartConfig::HystartPp(pp) = &c.slow_start else { panic!() };
    assert_eq!(pp.css_rounds, 3);
    let LossDetectionConfig::Rack(r) = &c.loss_detection else { panic!() };
    assert!(!r.tlp);
    assert_eq!(c.recovery, RecoveryConfig::Prr(PrrConfig { bound: PrrBound::Crb }));
}

#[test]
fn bad_options_name_their_key() {
    let bad = [
        ("congestion_control = { kind = \"cubic\", beta = 1.5 }", "tcp.congestion_control.beta"),
        ("congestion_control = { kind = \"cubic\", c = 0.0 }", "tcp.congestion_control.c"),
        (
            "slow_start = { kind = \"hystart_pp\", css_growth_divisor = 1 }",
            "tcp.slow_start.css_growth_divisor",
        ),
        ("slow_start = { kind = \"hystart\", low_window = \"0pkt\" }", "tcp.slow_start.low_window"),
        (
            "loss_detection = { kind = \"rack\", persist_recoveries = 0 }",
            "tcp.loss_detection.persist_recoveries",
        ),
    ];
    for (text, path) in bad {
        let t: toml::Table = toml::from_str(text).unwrap();
        let err =
            vhsim_tcp::config::resolve(vhsim_tcp::Defaults::Rfc, &toml::Table::new(), &toml::Table::new(), &t, &toml::Table::new())
                .expect_err(text);
        assert_eq!(err.path, path, "{text}: {err}");
    }
    let t: toml::Table = toml::from_str("recovery = { kind = \"prr\", bound = \"fast\" }").unwrap();
    let err = vhsim_tcp::config::resolve(vhsim_tcp::Defaults::Rfc, &toml::Table::new(), &toml::Table::new(), &t, &toml::Table::new())
        .unwrap_err();
    assert!(err.to_string().contains("ssrb") && err.to_string().contains("crb"), "{err}");
}

#[test]
fn the_standard_slow_start_is_left_out_of_the_written_form() {
    // Configurations from before the axis keep their canonical form (and run identifiers).
    let sack = toml::Table::try_from(cfg("sack")).unwrap();
    assert!(!sack.contains_key("slow_start"));
    let linux = toml::Table::try_from(cfg("linux")).unwrap();
    assert_eq!(linux["slow_start"]["kind"].as_str(), Some("hystart"));
    let sink = toml::Table::try_from(sink_cfg("sack")).unwrap();
    assert!(!sink.contains_key("dsack") && !sink.contains_key("quickack"));
}
