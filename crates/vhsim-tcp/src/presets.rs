//! Named sender presets: each scheme of the papers is a composition of parts plus defaults.
//!
//! Defaults follow ns-2.35 (protocol-facts §1.1) because every paper vhsim reproduces used ns-2.
//! A scenario picks a preset with `scheme = "<name>"` and may override any field. docs/schemes.md
//! describes each composition.

use crate::config::*;
use vhsim_core::SimDuration;

/// One named preset.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Name used in scenarios (`scheme = "sack"`).
    pub name: &'static str,
    /// One line for `vhsim schemes`.
    pub description: &'static str,
    /// The parts the preset composes.
    parts: Parts,
}

/// The composition of a preset (the axes of ARCHITECTURE.md §3 that presets vary).
#[derive(Clone, Copy, Debug)]
struct Parts {
    recovery: RecoveryKind,
    rto_response: RtoResponseKind,
    frto: FrtoConfig,
    dupack_response: DupAckResponseKind,
    dcr: DcrConfig,
    loss_classifier: LossClassifierKind,
    ld: LdConfig,
    handover: HandoverPolicyKind,
    cross_layer: CrossLayerConfig,
}

/// ns-2's F-RTO defaults: basic F-RTO (`frto_enabled_`), full revert (`spurious_response_` 1).
const FRTO_BASIC: FrtoConfig =
    FrtoConfig { variant: FrtoVariant::Basic, response: SpuriousResponse::FullRevert };
/// SACK-enhanced F-RTO (`sfrto_enabled_`), full revert.
const FRTO_SACK: FrtoConfig =
    FrtoConfig { variant: FrtoVariant::Sack, response: SpuriousResponse::FullRevert };
/// TCP-DCR as published: first dupACK, tau = one (smoothed) RTT.
const DCR_PLAIN: DcrConfig = DcrConfig { trigger: DupAckCount(1), tau: DcrTau::Srtt };
/// Lim & Jang's DCR part: third dupACK, tau = Tavg (§4.2-4.3; protocol-facts A5).
const DCR_LIMJANG: DcrConfig = DcrConfig { trigger: DupAckCount(3), tau: DcrTau::Tavg };
/// LD as in Lim & Jang §4.1.1 (k = 2, protocol-facts A7), without the handover modification.
const LD_ORIGINAL: LdConfig = LdConfig {
    k: 2.0,
    suspend_rounds: 1,
    handover_reset: false,
    initial_tdev: SimDuration::from_millis(500),
};
/// LD with the handover modification of §4.1.2 / §4.2 (n = 1 round).
const LD_HANDOVER: LdConfig = LdConfig { handover_reset: true, ..LD_ORIGINAL };

/// The baseline composition: ns-2 Sack1 with the conventional responses and no classifier.
const SACK1: Parts = Parts {
    recovery: RecoveryKind::Sack1,
    rto_response: RtoResponseKind::Conventional,
    frto: FRTO_BASIC,
    dupack_response: DupAckResponseKind::Immediate,
    dcr: DCR_PLAIN,
    loss_classifier: LossClassifierKind::None,
    ld: LD_ORIGINAL,
    handover: HandoverPolicyKind::None,
    cross_layer: CrossLayerConfig::OFF,
};

/// All presets, in the order `vhsim schemes` lists them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "sack",
        description: "ns-2 Agent/TCP/Sack1: Reno window law, SACK scoreboard, pipe-based recovery \
                      (limjang 'TCP-SACK', danielkojo 'regular TCP'; protocol-facts §1.3)",
        parts: SACK1,
    },
    Preset {
        name: "sack-rfc6675",
        description: "Reno window law with RFC 6675 conservative SACK recovery (IsLost/SetPipe/NextSeg)",
        parts: Parts { recovery: RecoveryKind::Rfc6675, ..SACK1 },
    },
    Preset {
        name: "newreno",
        description: "NewReno (RFC 6582, ns-2 Agent/TCP/Newreno): partial ACKs retransmit, \
                      impatient timer by default (sobral)",
        parts: Parts { recovery: RecoveryKind::NewReno, ..SACK1 },
    },
    Preset {
        name: "reno",
        description: "Reno (RFC 5681 §3.2): fast retransmit + fast recovery with window inflation",
        parts: Parts { recovery: RecoveryKind::Reno, ..SACK1 },
    },
    Preset {
        name: "frto",
        description: "sack + SACK-enhanced F-RTO (RFC 5682 §3), full revert after a spurious timeout \
                      (ns-2 sfrto_enabled_, spurious_response_ 1; a building block of limjang §4.2)",
        parts: Parts { rto_response: RtoResponseKind::Frto, frto: FRTO_SACK, ..SACK1 },
    },
    Preset {
        name: "dcr",
        description: "sack + TCP-DCR: fast retransmit delayed by tau = srtt from the 1st dupACK, one new \
                      segment per dupACK meanwhile (Bhandarkar et al. 2005; limjang 'DCR', §3, §5)",
        parts: Parts { dupack_response: DupAckResponseKind::Dcr, dcr: DCR_PLAIN, ..SACK1 },
    },
    Preset {
        name: "dcr-frto",
        description: "dcr + basic F-RTO (RFC 5682 §2) with full revert after a spurious timeout \
                      (limjang 'DCR-FRTO', §5)",
        parts: Parts {
            rto_response: RtoResponseKind::Frto,
            frto: FRTO_BASIC,
            dupack_response: DupAckResponseKind::Dcr,
            dcr: DCR_PLAIN,
            ..SACK1
        },
    },
    Preset {
        name: "dcr-ld",
        description: "limjang proposed scheme I (DCR-LD, §4, §4.1.1): at the 3rd dupACK classify with LD \
                      (k = 2), wait tau = Tavg, then halve only for congestion",
        parts: Parts {
            dupack_response: DupAckResponseKind::Dcr,
            dcr: DCR_LIMJANG,
            loss_classifier: LossClassifierKind::Ld,
            ld: LD_ORIGINAL,
            ..SACK1
        },
    },
    Preset {
        name: "dcr-frto-ld",
        description: "limjang proposed scheme II (DCR-FRTO-LD, §4.1.2-4.4, Figs. 4-9): scheme I + basic \
                      F-RTO as handover detector, LD reset on a spurious timeout and suspended 1 round",
        parts: Parts {
            rto_response: RtoResponseKind::Frto,
            frto: FRTO_BASIC,
            dupack_response: DupAckResponseKind::Dcr,
            dcr: DCR_LIMJANG,
            loss_classifier: LossClassifierKind::Ld,
            ld: LD_HANDOVER,
            ..SACK1
        },
    },
    Preset {
        name: "regular",
        description: "danielkojo 'regular TCP' (§3): ns-2 Sack1 as in ns-2.29, the same composition as \
                      `sack`",
        parts: SACK1,
    },
    Preset {
        name: "enhanced",
        description: "danielkojo 'enhanced TCP' (§5): Sack1 + cross-layer algorithms A1-A4 driven by \
                      handover notifications (spurious-RTO avoidance, window cut to the new BDP, \
                      immediate retransmission in RTO recovery, fast RTO convergence)",
        parts: Parts { handover: HandoverPolicyKind::CrossLayer, cross_layer: CrossLayerConfig::ENHANCED, ..SACK1 },
    },
    Preset {
        name: "enhanced-a5",
        description: "danielkojo enhanced TCP with A5 in place of A2 (§6.3): the window cut uses a \
                      1.5 x BDP threshold when the bandwidth drops 8-fold or more",
        parts: Parts { handover: HandoverPolicyKind::CrossLayer, cross_layer: CrossLayerConfig::ENHANCED_A5, ..SACK1 },
    },
];

/// Look up a preset by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// Names of all presets (for error messages).
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

impl Preset {
    /// The preset's sender configuration with ns-2.35 defaults.
    pub fn tcp_config(&self) -> TcpConfig {
        let p = &self.parts;
        TcpConfig {
            segment_size: 1000,
            header_size: 40,
            ack_size: 40,
            window: 20,
            initial_window: 2,
            initial_ssthresh: None,
            dupack_threshold: 3,
            limited_transmit: true,
            max_burst: 0,
            recovery: p.recovery,
            newreno_timer: NewRenoTimer::Impatient,
            rto: RtoConfig {
                min: SimDuration::from_millis(200),
                initial: SimDuration::from_secs(3),
                max: SimDuration::from_secs(60),
                granularity: SimDuration::from_millis(10),
                max_backoff: 64,
                timing: RttTiming::OnePerRtt,
            },
            congestion_control: CongestionControlKind::Reno,
            rto_response: p.rto_response,
            frto: p.frto,
            dupack_response: p.dupack_response,
            dcr: p.dcr,
            loss_classifier: p.loss_classifier,
            ld: p.ld,
            handover: p.handover,
            cross_layer: p.cross_layer,
        }
    }

    /// The matching sink: SACK blocks for SACK senders, immediate ACKs (ns-2 TCPSink defaults).
    pub fn sink_config(&self) -> SinkConfig {
        SinkConfig {
            delayed_ack: false,
            delack_interval: SimDuration::from_millis(100),
            sack: matches!(self.parts.recovery, RecoveryKind::Sack1 | RecoveryKind::Rfc6675),
            max_sack_blocks: 3,
            advertised_window: u32::MAX,
            ack_size: 40,
        }
    }
}
