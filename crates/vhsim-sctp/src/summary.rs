//! What an SCTP endpoint reports beyond the transport-neutral figures: the `sctp` part of a
//! flow's summary ([`SctpSummary`]), with one entry per destination (path index = position
//! of the address in the peer's address list, the index the time series' `path` column uses).

use crate::path::PathStats;
use schemars::JsonSchema;
use serde::Serialize;

/// One destination's figures at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PathSummary {
    /// Path index (position in the peer's address list).
    pub path: u32,
    /// Destination address (address table index).
    pub address: u32,
    /// Whether the destination was active.
    pub active: bool,
    /// Whether a HEARTBEAT-ACK confirmed it (addresses added by ASCONF start unconfirmed).
    pub confirmed: bool,
    /// Whether the peer deleted it from the association (Delete-IP).
    pub deleted: bool,
    /// Congestion window, bytes.
    pub cwnd_bytes: u32,
    /// Slow-start threshold, bytes.
    pub ssthresh_bytes: u32,
    /// Retransmission timeout, seconds.
    pub rto_s: f64,
    /// Smoothed RTT, seconds (absent without a measurement).
    pub srtt_s: Option<f64>,
    /// Error counter.
    pub error_count: u32,
    /// Counters.
    #[serde(flatten)]
    pub counters: PathStats,
}

/// The `sctp` part of a flow's summary, from one endpoint.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct SctpSummary {
    /// Primary destination (path index).
    pub primary_path: u32,
    /// Destination new data went to at the end (differs from the primary after failover).
    pub data_path: u32,
    /// Highest TSN assigned (= DATA chunks sent for the first time).
    pub tsns_sent: u64,
    /// Cumulative TSN Ack Point.
    pub cum_tsn_acked: u64,
    /// Fast Recovery episodes.
    pub fast_recoveries: u64,
    /// SACKs received and processed.
    pub sacks_received: u64,
    /// SACKs sent (in a flow's summary: by the receiving endpoint).
    pub sacks_sent: u64,
    /// Duplicate DATA chunks received (in a flow's summary: by the receiving endpoint).
    pub duplicate_chunks_received: u64,
    /// When the association failed (Association.Max.Retrans exceeded), seconds.
    pub association_failed_at_s: Option<f64>,
    /// Set-Primary requests the sender applied (mSCTP).
    pub primary_switches: u64,
    /// ASCONF chunks sent (in a flow's summary: by either endpoint).
    pub asconf_sent: u64,
    /// ASCONF retransmissions after a T4-RTO expiry (either endpoint).
    pub asconf_retransmissions: u64,
    /// ASCONF requests refused with an error cause (either endpoint's requests).
    pub asconf_errors: u64,
    /// Per destination.
    pub paths: Vec<PathSummary>,
}
