//! `mobile.warning`: how long before each handover starts the mobile node gets the `Imminent`
//! link event (docs/handover.md "Link events", docs/mobility.md "Link events").
//!
//! Freeze-TCP (Goff et al., INFOCOM 2000, docs/references.md §6) wants its zero-window
//! advertisement sent "about one RTT before disconnection": earlier wastes time, later loses
//! data in flight. The warning is therefore a duration, `"rtt"`, or, with `mobility`, a
//! distance before the handover point (`mobile.mobility.warning_distance`: the old cell's
//! signal falls below the warning level that far before the handover point), turned into a
//! time by the speed. With `mobility` and nothing given the default is `"rtt"`; without, `0s`.
//!
//! `"srtt"` is what the mobile node knows: its endpoints' own current RTT estimates (a TCP
//! receiver measures one from the timestamps its sender echoes), plus `margin`, read while the
//! run goes (`vhsim-sim`'s `handover.rs`); resolution keeps the rule and, as the lead before any
//! estimate, the `"rtt"` value plus the margin.
//!
//! `"rtt"` is computed from the topology, not measured: for every flow with an endpoint on the
//! mobile node, the one-way delays plus the serialization of one data packet along the data
//! path and of one acknowledgement along the way back (TCP: its ACK; SCTP: an MTU-sized packet
//! and a SACK without gap blocks; datagrams: a header-sized packet), over the routes of the
//! initial interface, with empty queues; the largest over those flows.

use super::mobile::Mobiles;
use super::mobility::travel_time;
use super::topology::Topology;
use crate::error::{err, join, Result};
use crate::model::{FlowModel, MobileModel, TransportModel, WarningRule};
use crate::schema::{MobileSpec, WarningSpec};
use crate::units::fmt_duration;
use vhsim_core::SimDuration;
use vhsim_net::packet::sctp::{COMMON_HEADER_LEN, SACK_HEADER_LEN};

/// The warning time of the mobile node whose table (at `path`) is `spec`, and its rule;
/// `flows` are those with an endpoint on it. With `"srtt"` the time is the lead before any
/// estimate: the empty-path round trip plus the margin.
pub(super) fn resolve(
    spec: &MobileSpec,
    path: &str,
    mobile: &MobileModel,
    topo: &Topology,
    mobiles: &Mobiles,
    flows: &[&FlowModel],
    duration: SimDuration,
) -> Result<(SimDuration, WarningRule)> {
    let distance = spec.mobility.as_ref().and_then(|m| m.warning_distance.map(|d| (d, m.speed)));
    let (by_distance, by_time) = (join(path, "mobility.warning_distance"), join(path, "warning"));
    let rtt = || round_trip(mobile, topo, mobiles, flows, &by_time);
    let mut rule = WarningRule::Fixed;
    let (warning, key) = match (spec.warning, distance) {
        (Some(_), Some(_)) => {
            let msg = format!("give either {by_time} (a time) or {by_distance}, not both");
            return Err(err(by_distance, msg));
        }
        (None, Some((d, speed))) => (travel_time(d.0, speed.0), &by_distance),
        (Some(WarningSpec::Time(t)), None) => (t.0, &by_time),
        (Some(WarningSpec::Rtt), None) => (rtt()?, &by_time),
        (Some(WarningSpec::Srtt { margin }), None) => {
            rule = WarningRule::Srtt { margin: margin.0 };
            (rtt()? + margin.0, &by_time)
        }
        (None, None) if spec.mobility.is_some() => (rtt()?, &by_time),
        (None, None) => (SimDuration::ZERO, &by_time),
    };
    if warning >= duration {
        let msg = format!(
            "the warning time {} is not shorter than the run (duration {})",
            fmt_duration(warning),
            fmt_duration(duration)
        );
        return Err(err(key, msg));
    }
    Ok((warning, rule))
}

/// One round trip of the mobile node's flows with empty queues (the module's rule).
fn round_trip(mobile: &MobileModel, topo: &Topology, mobiles: &Mobiles, flows: &[&FlowModel], key: &str) -> Result<SimDuration> {
    let mut largest = None;
    for f in flows.iter().filter(|f| f.src == mobile.node || f.dst == mobile.node) {
        let (data, ack) = match &f.transport {
            TransportModel::Tcp { tcp, sink } => (tcp.packet_size(), sink.ack_size),
            // A full packet, and a SACK without gap blocks (RFC 4960 §3.3.4) after the IP header.
            TransportModel::Sctp(s) => (s.config.mtu, s.config.ip_header_size + COMMON_HEADER_LEN + SACK_HEADER_LEN),
            // No acknowledgements: a header-sized packet stands for the way back.
            TransportModel::Datagram { size, header_size } => (size + header_size, *header_size),
        };
        let there = one_way(topo, mobiles, f.src, f.dst, u64::from(data));
        let back = one_way(topo, mobiles, f.dst, f.src, u64::from(ack));
        if let (Some(there), Some(back)) = (there, back) {
            largest = largest.max(Some(there + back));
        }
    }
    largest.ok_or_else(|| {
        err(
            key,
            "\"rtt\" (the default with `mobility`) needs a flow to or from the mobile node to \
             measure the round trip on; give the warning as a time, e.g. \"100ms\"",
        )
    })
}

/// Delay of a packet of `bytes` from node `from` to node `to` on empty links, by the routes
/// (an attachment to a shared cell takes no time).
fn one_way(topo: &Topology, mobiles: &Mobiles, from: u32, to: u32, bytes: u64) -> Option<SimDuration> {
    let (mut node, mut total) = (from, SimDuration::ZERO);
    for _ in 0..=topo.links.len() {
        if node == to {
            return Some(total);
        }
        let (link, next) = mobiles.hop(topo, node, to)?;
        if let Some(l) = link {
            let link = &topo.links[l as usize];
            total = total + link.delay + link.rate.serialization(bytes);
        }
        node = next;
    }
    None
}
