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
    /// A sample on every ACK that newly acknowledges a never-retransmitted segment
    /// (as with timestamps), still honouring Karn's rule.
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
}

/// Reaction to duplicate ACKs (the `DupAckResponse` axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DupAckResponseKind {
    /// Fast retransmit at the dupACK threshold (RFC 5681 §3.2).
    Immediate,
}

/// Loss classification before the congestion response (the `LossClassifier` axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossClassifierKind {
    /// Every loss is congestion.
    None,
}

/// Reaction to handover notifications (the `HandoverPolicy` axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandoverPolicyKind {
    /// Ignore notifications.
    None,
    /// Record notifications without reacting (a test policy).
    Record,
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
    /// DupACK response.
    pub dupack_response: DupAckResponseKind,
    /// Loss classifier.
    pub loss_classifier: LossClassifierKind,
    /// Handover policy.
    pub handover: HandoverPolicyKind,
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
