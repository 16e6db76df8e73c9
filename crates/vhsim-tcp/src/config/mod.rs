//! Configuration of a TCP sender and sink: one type each ([`TcpConfig`], [`SinkConfig`]), read
//! straight from a flow's `[tcp]` and `[sink]` tables after they are merged over the flow's
//! preset ([`resolve`]), written back in the same form (canonical JSON, `vhsim schemes --show`)
//! and described in the JSON Schema from the same declarations.
//!
//! Scalar settings not set by the preset or the flow come from a named set of defaults
//! ([`Defaults`], `defaults.rs`): the RFCs' values (the library default, each with its section)
//! or ns-2.35's, which every paper vhsim reproduces used (docs/references.md §1.1). Each axis
//! is a tagged table (`{ kind = "...", <options> }`) whose
//! options and their defaults belong to the variant's own file (see [`crate::part`]). Checks
//! that involve more than one key live in [`TcpConfig::validate`] and [`SinkConfig::validate`].

mod defaults;
mod resolve;

pub use defaults::{rfc5681_initial_window, rfc_window, Defaults, RFC_RECEIVE_BUFFER};
pub use resolve::{merge, resolve, LEGACY_KEYS};

use crate::cc::CongestionControlConfig;
use crate::classify::LossClassifierConfig;
use crate::detect::LossDetectionConfig;
use crate::handover::HandoverPolicyConfig;
use crate::recovery::RecoveryConfig;
use crate::response::{DcrTau, DupAckResponseConfig, RtoResponseConfig};
use crate::sink::SinkPolicyConfig;
use crate::slowstart::SlowStartConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;
use vhsim_core::units::{
    as_bytes_u32, as_duration, as_opt_packets_u32, as_packets_u32, as_packets_with_unit, fmt_duration,
};
use vhsim_core::units::{Amount, Duration, Packets, Size};
use vhsim_core::SimDuration;

/// A configuration that cannot be used: the key path (relative to the flow: `tcp.min_rto`,
/// `tcp.rto_response.variant`, `sink.ack_size`) and what is wrong and allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// Dotted key path of the offending value.
    pub path: String,
    /// What is wrong and what is allowed instead.
    pub message: String,
}

impl ConfigError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError { path: path.into(), message: message.into() }
    }

    /// The same error below `prefix` (`k` under `loss_classifier` = `loss_classifier.k`).
    pub fn under(mut self, prefix: &str) -> Self {
        self.path = if self.path.is_empty() { prefix.to_owned() } else { format!("{prefix}.{}", self.path) };
        self
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ConfigError {}

crate::named_enum! {
    /// How RTT samples are taken.
    pub enum RttTiming {
        /// ns-2 without timestamps: one timed segment per RTT (`rtt_active_`, `rtt_seq_`).
        "one_per_rtt" => OnePerRtt,
        /// A sample on every new ACK (as with timestamps), timing its last segment, except an
        /// ACK that fills a hole (Karn's rule over the acknowledged range, or after dupACKs).
        "every_ack" => EveryAck,
    }
}

crate::named_enum! {
    /// How the sender reads repeats of the ACK that reopens a zero window (Freeze-TCP's
    /// TR-ACKs, docs/references.md A6).
    pub enum ReopeningCopies {
        /// Copies of one window update: not duplicate ACKs (the recommended reading; the
        /// TR-ACKs only restore the frozen state).
        "window_update" => WindowUpdate,
        /// Duplicate ACKs like any other (RFC 5681's literal count): three TR-ACKs then
        /// trigger a fast retransmit of the first unacknowledged segment.
        "duplicate_acks" => DuplicateAcks,
    }
}

/// Retransmission-timer settings (RFC 6298 with ns-2's knobs, docs/references.md §1.2), as the
/// RTT estimator takes them ([`TcpConfig::rto`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RtoConfig {
    /// Lower bound on the RTO before backoff (RFC 6298 §2.4: 1 s; ns-2 `minrto_` 200 ms).
    pub min: SimDuration,
    /// RTO before the first sample (RFC 6298 §2.1: 1 s; ns-2.35 `rtxcur_init_` 3 s).
    pub initial: SimDuration,
    /// Upper bound on the RTO after backoff (60 s: RFC 6298 §2.5, ns-2.35 `maxrto_`).
    pub max: SimDuration,
    /// Clock granularity G: samples are rounded up to a multiple of it (RFC set 1 ms, ns-2 `tcpTick_` 10 ms);
    /// zero disables quantization.
    pub granularity: SimDuration,
    /// Backoff multiplier up to which the timer doubles on every expiry (ns-2: 64); beyond it,
    /// doubling continues only while the RTO is below `max` (ns-2 `rtt_backoff` with
    /// `rfc2988_`, RFC 6298 §5.5).
    pub max_backoff: u32,
    /// How samples are taken.
    pub timing: RttTiming,
}

/// A TCP sender: the scalar settings and one tagged table per axis (`[flows.<f>.tcp]`). Every
/// key may be left out: the preset gives it, else the scenario's set of defaults (its key
/// `defaults`; the field comments give the RFC value first, then ns-2.35's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TcpConfig {
    /// Payload bytes per segment, e.g. "1000B" (> 0; both sets ns-2's `packetSize_` "1000B": no
    /// RFC fixes it, RFC 9293 §3.7.1 derives it from the path MTU).
    #[serde(with = "as_bytes_u32")]
    #[schemars(with = "Size")]
    pub segment_size: u32,
    /// TCP/IP header bytes of a data segment, e.g. "40B" (both sets; ns-2 `tcpip_base_hdr_size_`).
    #[serde(with = "as_bytes_u32")]
    #[schemars(with = "Size")]
    pub header_size: u32,
    /// Bytes on the wire of a pure ACK, e.g. "40B" (ns-2 TCPSink `packetSize_`; > 0).
    #[serde(with = "as_bytes_u32")]
    #[schemars(with = "Size")]
    pub ack_size: u32,
    /// Receiver-window cap: packets ("20pkt") or bytes ("64000B", floor(bytes / segment_size)
    /// segments). RFC set: 65535 bytes in whole segments (the largest window without window
    /// scaling, RFC 7323 §2; no RFC fixes a receive buffer); ns-2 `window_` 20 packets. The sender never has more than
    /// min(cwnd, window, advertised window) segments outstanding.
    #[serde(with = "as_packets_with_unit")]
    #[schemars(with = "Amount")]
    pub window: u32,
    /// Initial congestion window in packets (>= 1; RFC set: RFC 5681 §3.1 from segment_size, 4
    /// for 1000 B, 3 for 1460 B; ns-2 `windowInit_` 2).
    #[serde(with = "as_packets_u32")]
    #[schemars(with = "Packets")]
    pub initial_window: u32,
    /// Initial slow-start threshold in packets (>= 1); absent = `window` (as ns-2 `reset()`).
    #[serde(with = "as_opt_packets_u32", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Packets>")]
    pub initial_ssthresh: Option<u32>,
    /// Duplicate ACKs that mean a loss (ns-2 `numdupacks_`, 3; >= 1).
    pub dupack_threshold: u32,
    /// Limited transmit (RFC 3042; ns-2 `singledup_`): one new segment on each of the first
    /// two dupACKs.
    pub limited_transmit: bool,
    /// Most segments sent in response to one ACK (0 = no limit, ns-2 `maxburst_`).
    pub max_burst: u32,
    /// Repeats of the window-reopening ACK (Freeze-TCP's TR-ACKs, A6): "window_update"
    /// (default: not duplicate ACKs) or "duplicate_acks".
    pub reopening_copies: ReopeningCopies,
    /// Lower bound on the RTO before backoff (RFC 6298 §2.4 "1s"; ns-2 `minrto_` "200ms").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub min_rto: SimDuration,
    /// RTO before the first RTT sample (> 0; RFC 6298 §2.1 "1s"; ns-2.35 `rtxcur_init_` "3s").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub initial_rto: SimDuration,
    /// Upper bound on the backed-off RTO (>= min_rto; "60s": RFC 6298 §2.5, ns-2.35 `maxrto_`).
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub max_rto: SimDuration,
    /// Clock granularity of RTT samples ("0s" disables quantization; RFC set "1ms", which no
    /// RFC fixes, RFC 6298 §4; ns-2 `tcpTick_` "10ms").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub clock_granularity: SimDuration,
    /// Backoff multiplier up to which the RTO doubles unconditionally (ns-2, 64; >= 1).
    pub max_backoff: u32,
    /// How RTT samples are taken (`one_per_rtt` as ns-2 without timestamps, or `every_ack`).
    pub rtt_timing: RttTiming,
    /// Window law.
    pub congestion_control: CongestionControlConfig,
    /// How slow start ends besides a loss (default "standard"; left out of the written form
    /// when standard, so configurations from before the axis keep their canonical form).
    #[serde(skip_serializing_if = "SlowStartConfig::is_standard")]
    pub slow_start: SlowStartConfig,
    /// How a loss is detected from duplicate ACKs and SACK blocks.
    pub loss_detection: LossDetectionConfig,
    /// Loss recovery after a fast retransmit.
    pub recovery: RecoveryConfig,
    /// Reaction to a retransmission timeout.
    pub rto_response: RtoResponseConfig,
    /// Reaction to duplicate ACKs (fast retransmit at once, or TCP-DCR's delay).
    pub dupack_response: DupAckResponseConfig,
    /// Loss classification before the congestion response.
    pub loss_classifier: LossClassifierConfig,
    /// Reaction to cross-layer handover notifications.
    pub handover: HandoverPolicyConfig,
}

impl Default for TcpConfig {
    /// The RFC set ([`Defaults::Rfc`]) with ns-2 `Agent/TCP/Sack1`'s composition of axes.
    fn default() -> Self {
        TcpConfig::defaults(Defaults::Rfc)
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// `Err` at `path` unless `ok`.
fn check(ok: bool, path: &str, message: impl FnOnce() -> String) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(ConfigError::new(path, message()))
    }
}

impl TcpConfig {
    /// Bytes on the wire of a full data segment.
    pub fn packet_size(&self) -> u32 {
        self.segment_size + self.header_size
    }

    /// The retransmission-timer settings.
    pub fn rto(&self) -> RtoConfig {
        RtoConfig {
            min: self.min_rto,
            initial: self.initial_rto,
            max: self.max_rto,
            granularity: self.clock_granularity,
            max_backoff: self.max_backoff,
            timing: self.rtt_timing,
        }
    }

    /// Every range and cross-field check; paths relative to the `tcp` table.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_blaming(&|_| false)
    }

    /// [`TcpConfig::validate`], where a check involving several keys blames the first of them
    /// that `user_set` says the user wrote (else the first).
    pub(crate) fn validate_blaming(&self, user_set: &dyn Fn(&str) -> bool) -> Result<(), ConfigError> {
        let blame = |keys: &[&'static str]| keys.iter().copied().find(|k| user_set(k)).unwrap_or(keys[0]);
        check(self.segment_size > 0, "segment_size", || "must be at least 1B".into())?;
        check(self.ack_size > 0, "ack_size", || "must be at least 1B".into())?;
        check(self.window > 0, "window", || "must be at least 1pkt".into())?;
        check(self.initial_window > 0, "initial_window", || "must be at least 1pkt".into())?;
        check(self.initial_ssthresh != Some(0), "initial_ssthresh", || "must be at least 1pkt".into())?;
        check(self.dupack_threshold > 0, "dupack_threshold", || "must be at least 1".into())?;
        check(self.max_backoff > 0, "max_backoff", || "must be at least 1".into())?;
        check(self.initial_rto > SimDuration::ZERO, "initial_rto", || "must be greater than 0s".into())?;
        check(self.max_rto > SimDuration::ZERO, "max_rto", || "must be greater than 0s".into())?;
        if self.min_rto > self.max_rto {
            let (min, max) = (fmt_duration(self.min_rto), fmt_duration(self.max_rto));
            return Err(match blame(&["min_rto", "max_rto"]) {
                "min_rto" => ConfigError::new("min_rto", format!("{min} is greater than max_rto ({max})")),
                _ => ConfigError::new("max_rto", format!("{max} is less than min_rto ({min})")),
            });
        }
        self.congestion_control.validate().map_err(|e| e.under("congestion_control"))?;
        self.slow_start.validate().map_err(|e| e.under("slow_start"))?;
        self.loss_detection.validate().map_err(|e| e.under("loss_detection"))?;
        self.recovery.validate().map_err(|e| e.under("recovery"))?;
        self.rto_response.validate().map_err(|e| e.under("rto_response"))?;
        self.dupack_response.validate().map_err(|e| e.under("dupack_response"))?;
        self.loss_classifier.validate().map_err(|e| e.under("loss_classifier"))?;
        self.handover.validate().map_err(|e| e.under("handover"))?;
        // Lim & Jang §4.2: "The DCR uses only Tavg" -- LD's estimate, so LD must run.
        if let DupAckResponseConfig::Dcr(d) = &self.dupack_response {
            if d.tau == DcrTau::Tavg && !matches!(self.loss_classifier, LossClassifierConfig::Ld(_)) {
                let key = blame(&["dupack_response.tau", "loss_classifier", "dupack_response"]);
                return Err(ConfigError::new(
                    key,
                    "tau = \"tavg\" needs loss_classifier = \"ld\" (Tavg is LD's RTT average); use \
                     tau = \"srtt\" or the LD classifier",
                ));
            }
        }
        Ok(())
    }
}

/// A TCP sink (receiver) (`[flows.<f>.sink]`); every key may be left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SinkConfig {
    /// Delayed ACKs (RFC set true, RFC 5681 §4.2; ns-2 `TCPSink` false): ACK every 2nd in-order
    /// segment or after `delack_interval`, as ns-2's DelAck sink; out-of-order and
    /// gap-filling segments are always ACKed at once (RFC 5681 §4.2).
    pub delayed_ack: bool,
    /// Delayed-ACK timer (> 0; RFC set "200ms", below RFC 5681 §4.2's 500 ms, which fixes no
    /// value; ns-2 `interval_` "100ms").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub delack_interval: SimDuration,
    /// Whether ACKs carry SACK blocks (RFC 2018); the SACK presets turn it on.
    pub sack: bool,
    /// Most SACK blocks per ACK (ns-2 `maxSackBlocks_`, 3), most recent first.
    pub max_sack_blocks: u32,
    /// D-SACK (RFC 2883): a duplicate segment is reported in the first SACK block (default
    /// false; needs `sack`).
    #[serde(skip_serializing_if = "is_false")]
    pub dsack: bool,
    /// Quick ACKs (Linux's quick-ack mode, TCP_MAX_QUICKACKS = 16): with delayed ACKs, the
    /// first this many segments, and as many after a duplicate segment, are acknowledged at
    /// once (default 0: none, as ns-2's sinks).
    #[serde(skip_serializing_if = "is_zero")]
    pub quickack: u32,
    /// Advertised receive window: packets, or bytes converted with the flow's segment_size
    /// (default 4294967295 packets = unlimited, as ns-2's sink).
    #[serde(with = "as_packets_with_unit")]
    #[schemars(with = "Amount")]
    pub advertised_window: u32,
    /// Bytes on the wire of an ACK ("40B"; > 0).
    #[serde(with = "as_bytes_u32")]
    #[schemars(with = "Size")]
    pub ack_size: u32,
    /// What the receiver does beyond acknowledging data (its reaction to link events, the
    /// window it advertises).
    pub policy: SinkPolicyConfig,
}

impl Default for SinkConfig {
    /// The RFC set ([`Defaults::Rfc`]): delayed ACKs, no SACK, no window limit, 40-byte ACKs.
    fn default() -> Self {
        SinkConfig::defaults(Defaults::Rfc)
    }
}

impl SinkConfig {
    /// Every range check; paths relative to the `sink` table.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(self.delack_interval > SimDuration::ZERO, "delack_interval", || {
            "must be greater than 0s".into()
        })?;
        check(self.advertised_window > 0, "advertised_window", || "must be at least 1pkt".into())?;
        check(self.ack_size > 0, "ack_size", || "must be at least 1B".into())?;
        check(!self.dsack || self.sack, "dsack", || "needs sack = true (a D-SACK is a SACK block)".into())?;
        self.policy.validate().map_err(|e| e.under("policy"))
    }
}
