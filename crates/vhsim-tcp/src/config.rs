//! Resolved configuration of a TCP sender and sink, in simulation units.
//!
//! The scenario layer fills these from a named preset ([`crate::presets`]) plus the user's
//! overrides. Every choice the papers leave open is a named field here with a documented default.

use serde::{Deserialize, Serialize};
use vhsim_core::SimDuration;

/// Which loss-recovery algorithm the sender runs after a fast retransmit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryKind {
    /// Reno (RFC 5681 §3.2): window inflation, leave recovery on the first new ACK.
    Reno,
    /// NewReno (RFC 6582): stay in recovery until `recover` is acknowledged, partial ACKs retransmit.
    NewReno,
    /// ns-2 `Agent/TCP/Sack1`: pipe-based recovery over the SACK scoreboard (protocol-facts §1.3).
    Sack1,
    /// RFC 6675 conservative SACK recovery (IsLost / SetPipe / NextSeg).
    Rfc6675,
}

/// When NewReno restarts the retransmission timer on partial ACKs (RFC 6582 §4 / RFC 3782 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NewRenoTimer {
    /// Restart only on the first partial ACK (ns-2 `newreno_changes1_` = 1, the default).
    Impatient,
    /// Restart on every partial ACK.
    SlowButSteady,
}

/// How RTT samples are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RttTiming {
    /// ns-2 without timestamps: one timed segment per RTT (`rtt_active_`, `rtt_seq_`).
    OnePerRtt,
    /// A sample on every new ACK (as with timestamps), timing its last segment, except an
    /// ACK that fills a hole (Karn's rule over the acknowledged range, or after dupACKs).
    EveryAck,
}

/// Window law (the `CongestionControl` axis of ARCHITECTURE.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CongestionControlKind {
    /// Slow start + additive increase, halving on loss (RFC 5681, as ns-2 computes it).
    Reno,
}

/// Reaction to a retransmission timeout (the `RtoResponse` axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RtoResponseKind {
    /// RFC 5681 §3.1 / RFC 6298 §5: cwnd = 1, go-back-N from the first unacknowledged segment.
    Conventional,
    /// F-RTO (RFC 5682): after the timeout retransmission, probe with new data to tell a
    /// spurious timeout from a genuine one ([`FrtoConfig`]).
    Frto,
}

/// Which F-RTO detection algorithm runs (RFC 5682 §2 or §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrtoVariant {
    /// Basic F-RTO (RFC 5682 §2; ns-2 `frto_enabled_`): decided by cumulative ACKs only.
    Basic,
    /// SACK-enhanced F-RTO (RFC 5682 §3; ns-2 `sfrto_enabled_`): SACK blocks count too.
    Sack,
}

/// What the sender does after F-RTO declares a timeout spurious (ns-2 `spurious_response_`,
/// protocol-facts §3.3). In all three, ssthresh returns to max(window, ssthresh) at the timeout
/// (RFC 4015 §3.2 `pipe_prev`, ns-2 `spurious_timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpuriousResponse {
    /// `spurious_response_` = 1 (ns-2 default): cwnd = the FlightSize before the detecting ACK.
    FullRevert,
    /// `spurious_response_` = 2: cwnd = the ssthresh the timeout halved.
    Ssthresh,
    /// `spurious_response_` = 3: cwnd = 1, slow start with new data (no retransmissions).
    SlowStart,
}

/// F-RTO settings (used only with `rto_response = frto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrtoConfig {
    /// Detection algorithm.
    pub variant: FrtoVariant,
    /// Response to a detected spurious timeout.
    pub response: SpuriousResponse,
}

/// Reaction to duplicate ACKs (the `DupAckResponse` axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DupAckResponseKind {
    /// Fast retransmit at the dupACK threshold (RFC 5681 §3.2).
    Immediate,
    /// TCP-DCR (Bhandarkar et al., IEEE TMC 4(5) 2005): delay the fast retransmit by tau
    /// ([`DcrConfig`]), sending one new segment per dupACK meanwhile.
    Dcr,
}

/// Where TCP-DCR's delay tau comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DcrTau {
    /// One RTT (TCP-DCR): the smoothed RTT, or the latest valid sample once SRTT was cleared,
    /// or the RTO without backoff before any sample ([`crate::rtt::RttEstimator::round_trip`]).
    Srtt,
    /// LD's Tavg (Lim & Jang §4.2: "The DCR uses only Tavg"); needs `loss_classifier = ld`,
    /// otherwise srtt is used.
    Tavg,
}

/// TCP-DCR settings (used only with `dupack_response = dcr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DcrConfig {
    /// The counted duplicate ACK that arms the delay: 1 for TCP-DCR, 3 for Lim & Jang's schemes
    /// (protocol-facts A5). At least 1.
    pub trigger: DupAckCount,
    /// Length of the delay.
    pub tau: DcrTau,
}

/// A count of duplicate ACKs, written as an integer (`3`) or a name (`"third"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct DupAckCount(pub u32);

/// Names accepted for [`DupAckCount`], meaning 1, 2, 3.
pub const DUPACK_COUNT_NAMES: [&str; 3] = ["first", "second", "third"];

impl<'de> Deserialize<'de> for DupAckCount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = DupAckCount;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a dupACK count: an integer >= 1 or one of `first`, `second`, `third`")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DupAckCount, E> {
                match u32::try_from(v) {
                    Ok(n) if n >= 1 => Ok(DupAckCount(n)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self)),
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DupAckCount, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DupAckCount, E> {
                match DUPACK_COUNT_NAMES.iter().position(|n| *n == v) {
                    Some(i) => Ok(DupAckCount(i as u32 + 1)),
                    None => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Loss classification before the congestion response (the `LossClassifier` axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossClassifierKind {
    /// Every loss is congestion.
    None,
    /// Lim & Jang's loss differentiation (IET Commun. 2(2) 2008; EURASIP JWCN 2009 §4.1):
    /// inequality (1) on the RTT statistics ([`LdConfig`]).
    Ld,
}

/// LD settings (used only with `loss_classifier = ld`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LdConfig {
    /// Exponent k of inequality (1) (protocol-facts A7: not stated by the paper; default 2).
    pub k: f64,
    /// Rounds after a detected spurious timeout during which LD is not invoked (Lim & Jang
    /// §4.2: n = 1); a loss in them is treated as wireless (protocol-facts A4).
    pub suspend_rounds: u32,
    /// Lim & Jang's handover modification (§4.1.2, §4.2): on F-RTO's spurious detection,
    /// Tmin = +inf, Tavg = the first new sample, Tdev = half of it, and the suspension. Off =
    /// the original LD (scheme I).
    pub handover_reset: bool,
    /// Initial Tdev (Lim & Jang §4.1.1: 0.5 s); Tavg starts at 0.
    pub initial_tdev: SimDuration,
}

/// Reaction to handover notifications (the `HandoverPolicy` axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandoverPolicyKind {
    /// Ignore notifications.
    None,
    /// Record notifications without reacting (a test policy).
    Record,
    /// Daniel & Kojo's cross-layer algorithms (which ones: [`CrossLayerConfig`]).
    CrossLayer,
}

/// Daniel & Kojo's cross-layer algorithms (protocol-facts §11) and their open parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossLayerConfig {
    /// A1: avoid spurious RTOs (minrto from the new path).
    pub a1: bool,
    /// A2: cut cwnd and ssthresh to BDP_newlink when FlightSize > 2·BDP_newlink.
    pub a2: bool,
    /// A3: in RTO recovery, retransmit at once and restore ssthresh.
    pub a3: bool,
    /// A4: restart the RTT variables after a delay decrease.
    pub a4: bool,
    /// A5: A2 with the 1.5·BDP threshold when the bandwidth drops 8-fold (replaces A2).
    pub a5: bool,
    /// RTO of restarted RTT variables before their first sample (RFC 2988: 3 s; A13).
    pub reinit_rto: SimDuration,
    /// Rough delay of the rest of the path added to A1's minrto (the paper: 200 ms).
    pub rest_of_path: SimDuration,
    /// A delay change by at least this factor is "significant" (A3; A14: 2).
    pub significant_delay_factor: f64,
}

impl CrossLayerConfig {
    /// Nothing enabled.
    pub const OFF: CrossLayerConfig = CrossLayerConfig {
        a1: false,
        a2: false,
        a3: false,
        a4: false,
        a5: false,
        reinit_rto: SimDuration::from_secs(3),
        rest_of_path: SimDuration::from_millis(200),
        significant_delay_factor: 2.0,
    };
    /// Daniel & Kojo's "enhanced TCP": A1 + A2 + A3 + A4.
    pub const ENHANCED: CrossLayerConfig = CrossLayerConfig { a1: true, a2: true, a3: true, a4: true, ..Self::OFF };
    /// Enhanced TCP with A5 in place of A2 (§6.3).
    pub const ENHANCED_A5: CrossLayerConfig = CrossLayerConfig { a2: false, a5: true, ..Self::ENHANCED };
}

/// Retransmission-timer settings (RFC 6298 with ns-2's knobs, protocol-facts §1.2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RtoConfig {
    /// Lower bound on the RTO before backoff (ns-2 `minrto_`, default 200 ms).
    pub min: SimDuration,
    /// RTO before the first sample (ns-2.35 `rtxcur_init_` 3 s; RFC 6298 1 s).
    pub initial: SimDuration,
    /// Upper bound on the RTO after backoff (ns-2.35 `maxrto_` 60 s).
    pub max: SimDuration,
    /// Clock granularity G: samples are rounded up to a multiple of it (ns-2 `tcpTick_` 10 ms);
    /// zero disables quantization.
    pub granularity: SimDuration,
    /// Backoff multiplier up to which the timer doubles on every expiry (ns-2: 64); beyond it,
    /// doubling continues only while the RTO is below `max` (ns-2 `rtt_backoff` with
    /// `rfc2988_`, RFC 6298 §5.5).
    pub max_backoff: u32,
    /// How samples are taken.
    pub timing: RttTiming,
}

/// A TCP sender, fully resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TcpConfig {
    /// Payload bytes per segment (ns-2 `packetSize_`, 1000).
    pub segment_size: u32,
    /// TCP/IP header bytes added on the wire (ns-2 `tcpip_base_hdr_size_`, 40).
    pub header_size: u32,
    /// Bytes on the wire of a pure ACK (ns-2 TCPSink `packetSize_`, 40).
    pub ack_size: u32,
    /// Receiver-window cap in segments (ns-2 `window_`, 20): the sender never has more than
    /// `min(cwnd, window)` segments outstanding.
    pub window: u32,
    /// Initial congestion window in segments (ns-2 `windowInit_`, 2).
    pub initial_window: u32,
    /// Initial slow-start threshold in segments; `None` = `window` (as ns-2 `reset()` does).
    pub initial_ssthresh: Option<u32>,
    /// Duplicate ACKs that trigger fast retransmit (ns-2 `numdupacks_`, 3).
    pub dupack_threshold: u32,
    /// Limited transmit (RFC 3042; ns-2 `singledup_`): one new segment on each of the first
    /// two dupACKs.
    pub limited_transmit: bool,
    /// Most segments sent in response to one ACK (0 = no limit, ns-2 `maxburst_`).
    pub max_burst: u32,
    /// Loss recovery algorithm.
    pub recovery: RecoveryKind,
    /// NewReno timer variant (used only with `recovery = new_reno`).
    pub newreno_timer: NewRenoTimer,
    /// Retransmission timer.
    pub rto: RtoConfig,
    /// Window law.
    pub congestion_control: CongestionControlKind,
    /// Timeout response.
    pub rto_response: RtoResponseKind,
    /// F-RTO settings (with `rto_response = frto`).
    pub frto: FrtoConfig,
    /// DupACK response.
    pub dupack_response: DupAckResponseKind,
    /// TCP-DCR settings (with `dupack_response = dcr`).
    pub dcr: DcrConfig,
    /// Loss classifier.
    pub loss_classifier: LossClassifierKind,
    /// LD settings (with `loss_classifier = ld`).
    pub ld: LdConfig,
    /// Handover policy.
    pub handover: HandoverPolicyKind,
    /// Settings of the cross-layer policy (used with `handover = cross_layer`).
    pub cross_layer: CrossLayerConfig,
}

impl TcpConfig {
    /// Bytes on the wire of a full data segment.
    pub fn packet_size(&self) -> u32 {
        self.segment_size + self.header_size
    }
}

/// A TCP sink (receiver), fully resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SinkConfig {
    /// ns-2 DelAck: ACK every 2nd in-order segment or after `delack_interval`;
    /// out-of-order and gap-filling segments are always ACKed at once (RFC 5681 §4.2).
    pub delayed_ack: bool,
    /// Delayed-ACK timer (ns-2 `interval_`, 100 ms).
    pub delack_interval: SimDuration,
    /// Whether ACKs carry SACK blocks (RFC 2018).
    pub sack: bool,
    /// Most SACK blocks per ACK (ns-2 `maxSackBlocks_`, 3), most recent first.
    pub max_sack_blocks: u32,
    /// Advertised receive window in segments (`u32::MAX` = unlimited, as ns-2's sink).
    pub advertised_window: u32,
    /// Bytes on the wire of an ACK.
    pub ack_size: u32,
}
