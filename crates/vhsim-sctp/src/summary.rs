//! What an SCTP endpoint reports beyond the transport-neutral figures: the `sctp` part of a
//! flow's summary ([`SctpSummary`]) and its traced variables, grouped per path.
//!
//! Traced variables (the `traced_vars` of the endpoint interface) come as one association
//! group followed by one group per destination. Each destination group starts with the marker
//! variable [`PATH_MARKER`] (unit `idx`, value = path index = position of the address in the
//! peer's address list); the variables after a marker up to the next belong to that path.
//! [`split_path_groups`] undoes the encoding; a time-series writer emits one row per group
//! that changed, with the path index in its `path` column (the association group has none).

use crate::path::PathStats;
use serde::Serialize;
use vhsim_core::TracedVar;

/// Name of the marker variable that starts a destination's group.
pub const PATH_MARKER: &str = "path";

/// One destination's figures at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathSummary {
    /// Path index (position in the peer's address list).
    pub path: u32,
    /// Destination address (address table index).
    pub address: u32,
    /// Whether the destination was active.
    pub active: bool,
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
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// SACKs sent.
    pub sacks_sent: u64,
    /// Duplicate DATA chunks received.
    pub duplicate_chunks_received: u64,
    /// When the association failed (Association.Max.Retrans exceeded), seconds.
    pub association_failed_at_s: Option<f64>,
    /// Per destination.
    pub paths: Vec<PathSummary>,
}

/// Splits traced variables into (path index, variables) groups: `None` for the association
/// group before the first marker.
pub fn split_path_groups(vars: &[TracedVar]) -> Vec<(Option<u32>, &[TracedVar])> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut current = None;
    for (i, v) in vars.iter().enumerate() {
        if v.name == PATH_MARKER {
            if i > start || current.is_some() {
                out.push((current, &vars[start..i]));
            }
            current = Some(v.value as u32);
            start = i + 1;
        }
    }
    if start < vars.len() || current.is_some() {
        out.push((current, &vars[start..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_follow_markers() {
        let v = [
            TracedVar::new("primary", "idx", 0.0),
            TracedVar::new(PATH_MARKER, "idx", 0.0),
            TracedVar::new("cwnd", "bytes", 4380.0),
            TracedVar::new(PATH_MARKER, "idx", 1.0),
            TracedVar::new("cwnd", "bytes", 2936.0),
        ];
        let g = split_path_groups(&v);
        assert_eq!(g.len(), 3);
        assert_eq!((g[0].0, g[0].1.len()), (None, 1));
        assert_eq!((g[1].0, g[1].1[0].value), (Some(0), 4380.0));
        assert_eq!((g[2].0, g[2].1[0].value), (Some(1), 2936.0));
    }
}
