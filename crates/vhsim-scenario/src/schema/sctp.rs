//! `[flows.<f>.sctp]`: the addresses of an SCTP association and overrides of its preset.

use super::names_schema;
use crate::units::{Duration, Size, AMOUNT};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::borrow::Cow;
use vhsim_sctp::{MaxBurstScope, MsctpScheme, MsctpTrigger, MtRegion, RtxToAlt, SetPrimarySource};

/// Overrides of an SCTP preset and the association's addresses; each absent field keeps the
/// preset's value (docs/sctp.md lists them with their defaults and sources).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SctpSpec {
    /// Interfaces of the mobile node `to` whose care-of addresses the receiving endpoint uses,
    /// in path order (default: every interface, in file order). A receiver that is not the
    /// mobile node has its node address only.
    pub to_interfaces: Option<Vec<String>>,
    /// The same for the sending endpoint when `from` is the mobile node.
    pub from_interfaces: Option<Vec<String>>,
    /// The sender's primary destination: one of `to_interfaces` (default: the mobile node's
    /// `initial` interface if listed, else the first).
    pub primary: Option<String>,
    /// Path MTU, IP header included (default "1500B").
    pub mtu: Option<Size>,
    /// IP header bytes (default "20B").
    pub ip_header_size: Option<Size>,
    /// Bytes of a full DATA chunk, its 16-byte header included (default "1468B"); a chunk,
    /// the 12-byte common header and the IP header must fit the MTU.
    pub data_chunk_size: Option<Size>,
    /// Initial cwnd of every destination: "rfc4960" (min(4 MTU, max(2 MTU, 4380 B)), the
    /// default), "rfc2960" (2 MTU, Kim & Koh), or an amount like "2pkt" (MTUs) or "2936B".
    pub initial_cwnd: Option<InitialCwndSpec>,
    /// Initial ssthresh (default: the peer's receive buffer).
    pub initial_ssthresh: Option<Size>,
    /// RTO.Initial (default "3s", > 0).
    pub rto_initial: Option<Duration>,
    /// RTO.Min (default "1s", > 0).
    pub rto_min: Option<Duration>,
    /// RTO.Max (default "60s", >= rto_min).
    pub rto_max: Option<Duration>,
    /// RTO.Alpha (default 0.125, in (0, 1]).
    pub rto_alpha: Option<f64>,
    /// RTO.Beta (default 0.25, in (0, 1]).
    pub rto_beta: Option<f64>,
    /// Max.Burst: most DATA packets per transmit opportunity (default 4; 0 = no limit).
    pub max_burst: Option<u32>,
    /// When Max.Burst applies: `every_send` (RFC 4960 §6.1 D, default) or
    /// `after_fast_retransmit` (ns-2 useMaxBurst_).
    #[serde(default)]
    #[schemars(schema_with = "max_burst_scope_schema")]
    pub max_burst_scope: Option<MaxBurstScope>,
    /// Miss indications that trigger fast retransmit (default 3, >= 1).
    pub fast_rtx_threshold: Option<u32>,
    /// Where retransmissions go: `timeouts_only` (default: timed-out chunks to an alternate
    /// destination, fast retransmissions to the same, RFC 4960 / RFC 9260 §6.4), `alternate`
    /// (both to an alternate: ns-2's default rtxToAlt_ 1), `same` (ns-2 rtxToAlt_ 0).
    #[serde(default)]
    #[schemars(schema_with = "rtx_to_alt_schema")]
    pub rtx_to_alt: Option<RtxToAlt>,
    /// Path.Max.Retrans (default 5).
    pub path_max_retrans: Option<u32>,
    /// Association.Max.Retrans (default 10).
    pub association_max_retrans: Option<u32>,
    /// Heartbeats on idle destinations (default true).
    pub heartbeat: Option<bool>,
    /// HB.interval (default "30s").
    pub hb_interval: Option<Duration>,
    /// Heartbeat jitter as a fraction of the RTO (default 0.5, in [0, 1)).
    pub hb_jitter: Option<f64>,
    /// Probe a destination at once when it becomes inactive (default true, ns-2).
    pub hb_on_inactive: Option<bool>,
    /// cwnd decay of idle destinations, max(cwnd/2, 4 MTU) per RTO (default true).
    pub idle_cwnd_decay: Option<bool>,
    /// RFC 4960 §7.2.1's restart from the initial cwnd after a destination was idle this long
    /// (default: never, as RFC 9260 and ns-2), e.g. "5s".
    pub idle_cwnd_reset: Option<Duration>,
    /// Delayed SACKs (default true).
    pub delayed_sack: Option<bool>,
    /// Longest SACK delay (default "200ms"; > 0 and < 500 ms).
    pub sack_delay: Option<Duration>,
    /// SACK at least every this many DATA packets (default 2, >= 1).
    pub sack_every: Option<u32>,
    /// Also SACK at once when a packet fills the last gap (default false).
    pub sack_on_gap_fill: Option<bool>,
    /// Receive buffer: the initial a_rwnd (default "65536B").
    pub receive_buffer: Option<Size>,
    /// Reaction to the peer's Set-Primary: `normal`, `multi_path` (MT-mSCTP) or
    /// `handover_retransmission` (HR-mSCTP); set by the mSCTP presets.
    #[serde(default)]
    #[schemars(schema_with = "msctp_scheme_schema")]
    pub msctp: Option<MsctpScheme>,
    /// HR-mSCTP: restart the new primary's cwnd from the initial cwnd at each switch (default
    /// false; not one of Kim & Koh's Steps 1-4).
    pub hr_cwnd_reset: Option<bool>,
    /// MT-mSCTP's handover region: `set_primary` (default: new data follows the primary, split
    /// fast retransmit only) or `add_ip` (from Add-IP to Delete-IP new data also goes to the
    /// other path when the primary's window is full).
    #[serde(default)]
    #[schemars(schema_with = "mt_region_schema")]
    pub mt_region: Option<MtRegion>,
    /// The address the mobile node's Set-Primary ASCONF leaves from: `new` (default, the address
    /// made primary) or `old` (the one in use until then; Kim & Koh §2.1).
    #[serde(default)]
    #[schemars(schema_with = "set_primary_from_schema")]
    pub set_primary_from: Option<SetPrimarySource>,
    /// CMT's split fast retransmit (default false; true in `mt-msctp`).
    pub split_fast_retransmit: Option<bool>,
    /// When the endpoint on the mobile node sends Add-IP and Set-Primary: `scripted` (default:
    /// at the times of `actions`), `link_up` (when the new interface comes up at a handover's
    /// completion) or `warning` (at the handover's `mobile.warning`).
    #[serde(default)]
    #[schemars(schema_with = "msctp_trigger_schema")]
    pub trigger: Option<MsctpTrigger>,
    /// With a link trigger: Delete-IP of the interface left this long after the handover
    /// completes (default: never).
    pub delete_after: Option<Duration>,
    /// Scripted ASCONF requests of the endpoint on the mobile node (mSCTP schemes), e.g.
    /// `{ at = "24s", add = "wlan" }`, `{ at = "25s", set_primary = "wlan" }`,
    /// `{ at = "55s", delete = "wlan" }`.
    #[serde(default)]
    pub actions: Vec<AsconfActionSpec>,
}

/// One scripted ASCONF request: `at` and exactly one of `add`, `set_primary`, `delete` (an
/// interface of the mobile node).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AsconfActionSpec {
    /// When the mobile node sends the request (before the end of the run).
    pub at: Duration,
    /// Add-IP: the interface's care-of address joins the association.
    pub add: Option<String>,
    /// Set-Primary: the peer sends new data to the interface's address.
    pub set_primary: Option<String>,
    /// Delete-IP: the interface's address leaves the association.
    pub delete: Option<String>,
}

/// The initial cwnd as written: a rule's name or an amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialCwndSpec {
    /// `rfc4960`.
    Rfc4960,
    /// `rfc2960`.
    Rfc2960,
    /// A number of MTUs (`"2pkt"`).
    Mtus(u64),
    /// A number of bytes (`"2936B"`).
    Bytes(u64),
}

impl<'de> Deserialize<'de> for InitialCwndSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        match text.as_str() {
            "rfc4960" => Ok(InitialCwndSpec::Rfc4960),
            "rfc2960" => Ok(InitialCwndSpec::Rfc2960),
            other => match AMOUNT.parse(other) {
                Ok((n, "pkt")) => Ok(InitialCwndSpec::Mtus(n)),
                Ok((n, _)) => Ok(InitialCwndSpec::Bytes(n)),
                Err(e) => Err(de::Error::custom(format!("{e}; or \"rfc4960\", \"rfc2960\""))),
            },
        }
    }
}

impl JsonSchema for InitialCwndSpec {
    fn schema_name() -> Cow<'static, str> {
        "InitialCwndSpec".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "\"rfc4960\", \"rfc2960\", a number of MTUs like \"2pkt\" or a size like \"2936B\".",
            "type": "string"
        })
    }
}

/// Names of [`MaxBurstScope`] variants as written in files.
pub(crate) const MAX_BURST_SCOPE_NAMES: &[&str] = &["every_send", "after_fast_retransmit"];
/// Names of [`RtxToAlt`] variants.
pub(crate) const RTX_TO_ALT_NAMES: &[&str] = &["same", "alternate", "timeouts_only"];

/// Names of [`MsctpScheme`] variants.
pub(crate) const MSCTP_SCHEME_NAMES: &[&str] = &["normal", "multi_path", "handover_retransmission"];
/// Names of [`MsctpTrigger`] variants.
pub(crate) const MSCTP_TRIGGER_NAMES: &[&str] = &["scripted", "link_up", "warning"];
/// Names of [`MtRegion`] variants.
pub(crate) const MT_REGION_NAMES: &[&str] = &["set_primary", "add_ip"];
/// Names of [`SetPrimarySource`] variants.
pub(crate) const SET_PRIMARY_FROM_NAMES: &[&str] = &["new", "old"];

fn mt_region_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(MT_REGION_NAMES, "MT-mSCTP's handover region.")
}
fn set_primary_from_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(SET_PRIMARY_FROM_NAMES, "The address the Set-Primary ASCONF leaves from.")
}

fn msctp_scheme_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(MSCTP_SCHEME_NAMES, "Reaction to a Set-Primary (mSCTP scheme).")
}
fn msctp_trigger_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(MSCTP_TRIGGER_NAMES, "When the mobile node's endpoint reconfigures its addresses.")
}
fn max_burst_scope_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(MAX_BURST_SCOPE_NAMES, "When Max.Burst applies.")
}
fn rtx_to_alt_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(RTX_TO_ALT_NAMES, "Where retransmissions go (RFC 9260 §6.4; ns-2 rtxToAlt_).")
}
