//! The two named sets of defaults a TCP sender and sink start from before a preset's and a
//! flow's own keys are merged over them (docs/references.md §1.1, docs/scenario-format.md
//! "Default sets"): the RFCs' values ([`Defaults::Rfc`], the library default) and ns-2.35's
//! ([`Defaults::Ns2_35`], what the reproduced papers' simulator did). A key a preset or a flow
//! sets wins over either set.
//!
//! Where no RFC fixes a number (the receive buffer, the clock granularity, the delayed-ACK
//! timer), the RFC set takes a value of its own and the comment next to it says so. No RFC
//! fixes the segment size either (RFC 9293 §3.7.1 derives it from the path's MTU): both sets
//! keep ns-2's 1000 bytes, so that results under the two sets differ in the protocol's rules,
//! not in the size of a packet.

use super::{ReopeningCopies, RttTiming, SinkConfig, TcpConfig};
use crate::cc::CongestionControlConfig;
use crate::classify::LossClassifierConfig;
use crate::detect::LossDetectionConfig;
use crate::handover::HandoverPolicyConfig;
use crate::recovery::RecoveryConfig;
use crate::response::{DupAckResponseConfig, RtoResponseConfig};
use crate::sink::SinkPolicyConfig;
use crate::slowstart::SlowStartConfig;
use vhsim_core::SimDuration;

crate::named_enum! {
    /// Which set of defaults fills the keys that neither the preset nor the flow sets
    /// (scenario key `defaults`): "rfc" (the library default) or "ns-2.35".
    pub enum Defaults {
        /// The RFCs' values, each with its section (docs/references.md §1.1).
        "rfc" => Rfc,
        /// ns-2.35's `Agent/TCP` and `TCPSink` defaults (tcl/lib/ns-default.tcl), what the
        /// simulator of every reproduced paper used where the paper is silent.
        "ns-2.35" => Ns2_35,
    }
}

/// The receive buffer of the RFC set in bytes: no RFC fixes one, but without the window-scale
/// option (RFC 7323 §2, which vhsim does not negotiate) the 16-bit window field (RFC 9293
/// §3.1) cannot advertise more than 65,535 bytes, so the set takes that largest window.
pub const RFC_RECEIVE_BUFFER: u32 = 65_535;

/// RFC 5681 §3.1's initial window in segments of `smss` bytes: 2 above 2190 bytes, 3 above
/// 1095 bytes, else 4 (whole segments; RFC 3390's byte formula, min(4·SMSS, max(2·SMSS, 4380
/// bytes)), allows a little less than 3 segments just above 1460 bytes).
pub fn rfc5681_initial_window(smss: u32) -> u32 {
    match smss {
        s if s > 2190 => 2,
        s if s > 1095 => 3,
        _ => 4,
    }
}

/// The RFC set's sender window in segments of `smss` bytes: whole segments of the receive
/// buffer ([`RFC_RECEIVE_BUFFER`]), at least one.
pub fn rfc_window(smss: u32) -> u32 {
    (RFC_RECEIVE_BUFFER / smss.max(1)).max(1)
}

impl Defaults {
    /// Whether the set derives `key` of the sender from the segment size when neither the
    /// preset nor the flow sets it (the RFC set's initial window and window).
    pub(crate) fn derives(self, key: &str) -> bool {
        self == Defaults::Rfc && matches!(key, "initial_window" | "window")
    }
}

impl TcpConfig {
    /// The sender's defaults of `set`, with `Agent/TCP/Sack1`'s composition of axes (the
    /// `sack` preset's) in both sets.
    pub fn defaults(set: Defaults) -> TcpConfig {
        let ns2 = TcpConfig::ns2_35();
        match set {
            Defaults::Ns2_35 => ns2,
            Defaults::Rfc => {
                let segment_size = ns2.segment_size;
                TcpConfig {
                    // RFC 9293 §3.8.6 / RFC 7323 §2: the receiver's window bounds the flight
                    // (65 segments of 1000 bytes).
                    window: rfc_window(segment_size),
                    // RFC 5681 §3.1 from the SMSS (4 for 1000 bytes).
                    initial_window: rfc5681_initial_window(segment_size),
                    // RFC 6298 §2.4: an RTO below 1 second is raised to 1 second.
                    min_rto: SimDuration::from_secs(1),
                    // RFC 6298 §2.1: RTO = 1 second until a sample is taken.
                    initial_rto: SimDuration::from_secs(1),
                    // RFC 6298 §4 leaves G to the implementation; 1 ms is the finest tick of
                    // the timestamp clock RFC 7323 §5.4 allows (1 ms to 1 s).
                    clock_granularity: SimDuration::from_millis(1),
                    ..ns2
                }
            }
        }
    }

    /// ns-2.35's scalar settings (docs/references.md §1.1). Several are also the RFCs' and
    /// stay in the RFC set: header and ACK sizes (20-byte IPv4 + 20-byte TCP headers, RFC 791
    /// §3.1, RFC 9293 §3.1), ssthresh from the window (RFC 5681 §3.1: "arbitrarily high"),
    /// three duplicate ACKs (RFC 5681 §3.2), limited transmit (RFC 3042 §2), no burst limit
    /// (no RFC sets one), max RTO 60 s (RFC 6298 §2.5: at least 60 s), backoff bounded by it
    /// (RFC 6298 §5.5), one RTT sample per round trip (RFC 6298 §3's minimum without
    /// timestamps).
    fn ns2_35() -> TcpConfig {
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
            reopening_copies: ReopeningCopies::WindowUpdate,
            min_rto: SimDuration::from_millis(200),
            initial_rto: SimDuration::from_secs(3),
            max_rto: SimDuration::from_secs(60),
            clock_granularity: SimDuration::from_millis(10),
            max_backoff: 64,
            rtt_timing: RttTiming::OnePerRtt,
            congestion_control: CongestionControlConfig::default(),
            slow_start: SlowStartConfig::default(),
            loss_detection: LossDetectionConfig::default(),
            recovery: RecoveryConfig::default(),
            rto_response: RtoResponseConfig::default(),
            dupack_response: DupAckResponseConfig::default(),
            loss_classifier: LossClassifierConfig::default(),
            handover: HandoverPolicyConfig::default(),
        }
    }
}

impl SinkConfig {
    /// The sink's defaults of `set`.
    pub fn defaults(set: Defaults) -> SinkConfig {
        // ns-2.35 `TCPSink`: an ACK for every segment, no SACK, no window limit; DelAck's
        // `interval_` 100 ms when delayed ACKs are turned on. SACK blocks: RFC 2018 §3 fits 3
        // beside the timestamp option it expects SACK to be used with (ns-2 `maxSackBlocks_`
        // 3); SACK and D-SACK are options a preset turns on (RFC 2018, RFC 2883).
        let ns2 = SinkConfig {
            delayed_ack: false,
            delack_interval: SimDuration::from_millis(100),
            sack: false,
            max_sack_blocks: 3,
            dsack: false,
            quickack: 0,
            advertised_window: u32::MAX,
            ack_size: 40,
            policy: SinkPolicyConfig::default(),
        };
        match set {
            Defaults::Ns2_35 => ns2,
            Defaults::Rfc => SinkConfig {
                // RFC 5681 §4.2 (RFC 1122 §4.2.3.2): delayed ACKs, an ACK at least for every
                // second full-sized segment.
                delayed_ack: true,
                // RFC 5681 §4.2 bounds the delay (an ACK within 500 ms) without fixing it;
                // 200 ms is the SACK delay of the SCTP defaults (RFC 9260 §6.2).
                delack_interval: SimDuration::from_millis(200),
                ..ns2
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc5681_initial_window_follows_the_smss_bands() {
        // RFC 5681 §3.1's three bands, at and around their edges.
        let iw: Vec<u32> = [536, 1095, 1096, 1460, 2190, 2191, 9000].map(rfc5681_initial_window).to_vec();
        assert_eq!(iw, [4, 4, 3, 3, 3, 2, 2]);
    }

    #[test]
    fn the_two_sets_differ_only_in_the_documented_keys() {
        let (rfc, ns2) = (TcpConfig::defaults(Defaults::Rfc), TcpConfig::defaults(Defaults::Ns2_35));
        assert_eq!((rfc.segment_size, rfc.window, rfc.initial_window), (1000, 65, 4));
        assert_eq!((rfc.min_rto, rfc.initial_rto), (SimDuration::from_secs(1), SimDuration::from_secs(1)));
        assert_eq!((ns2.segment_size, ns2.window, ns2.initial_window), (1000, 20, 2));
        let same = TcpConfig {
            window: ns2.window,
            initial_window: ns2.initial_window,
            min_rto: ns2.min_rto,
            initial_rto: ns2.initial_rto,
            clock_granularity: ns2.clock_granularity,
            ..rfc
        };
        assert_eq!(same, ns2);
        let (rfc, ns2) = (SinkConfig::defaults(Defaults::Rfc), SinkConfig::defaults(Defaults::Ns2_35));
        assert!(rfc.delayed_ack && !ns2.delayed_ack);
        assert_eq!(
            SinkConfig { delayed_ack: false, delack_interval: ns2.delack_interval, ..rfc },
            ns2
        );
    }
}
