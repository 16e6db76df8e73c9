//! Named sender presets: each scheme of the papers is a composition of parts plus defaults.
//!
//! Defaults follow ns-2.35 (protocol-facts §1.1) because every paper vhsim reproduces used ns-2.
//! A scenario picks a preset with `scheme = "<name>"` and may override any field.

use crate::config::*;
use vhsim_core::SimDuration;

/// One named preset.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Name used in scenarios (`scheme = "sack"`).
    pub name: &'static str,
    /// One line for `vhsim schemes`.
    pub description: &'static str,
    /// The recovery algorithm the preset composes (the other axes are fixed to the baseline
    /// parts until later schemes add more).
    recovery: RecoveryKind,
}

/// All presets, in the order `vhsim schemes` lists them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "sack",
        description: "ns-2 Agent/TCP/Sack1: Reno window law, SACK scoreboard, pipe-based recovery \
                      (limjang 'TCP-SACK', danielkojo 'regular TCP'; protocol-facts §1.3)",
        recovery: RecoveryKind::Sack1,
    },
    Preset {
        name: "sack-rfc6675",
        description: "Reno window law with RFC 6675 conservative SACK recovery (IsLost/SetPipe/NextSeg)",
        recovery: RecoveryKind::Rfc6675,
    },
    Preset {
        name: "newreno",
        description: "NewReno (RFC 6582, ns-2 Agent/TCP/Newreno): partial ACKs retransmit, \
                      impatient timer by default (sobral)",
        recovery: RecoveryKind::NewReno,
    },
    Preset {
        name: "reno",
        description: "Reno (RFC 5681 §3.2): fast retransmit + fast recovery with window inflation",
        recovery: RecoveryKind::Reno,
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
            recovery: self.recovery,
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
            rto_response: RtoResponseKind::Conventional,
            dupack_response: DupAckResponseKind::Immediate,
            loss_classifier: LossClassifierKind::None,
            handover: HandoverPolicyKind::None,
        }
    }

    /// The matching sink: SACK blocks for SACK senders, immediate ACKs (ns-2 TCPSink defaults).
    pub fn sink_config(&self) -> SinkConfig {
        SinkConfig {
            delayed_ack: false,
            delack_interval: SimDuration::from_millis(100),
            sack: matches!(self.recovery, RecoveryKind::Sack1 | RecoveryKind::Rfc6675),
            max_sack_blocks: 3,
            advertised_window: u32::MAX,
            ack_size: 40,
        }
    }
}
