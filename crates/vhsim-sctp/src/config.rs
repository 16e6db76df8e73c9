//! Configuration of an SCTP association endpoint: every protocol parameter (RFC 9260 §16, RFC
//! 4960 §15) the model uses, as a named field with the RFCs' default (RFC 9260, which obsoletes
//! RFC 4960, where they differ), plus ns-2's choices where the RFCs leave one open
//! (docs/references.md §9.1, §9.5). [`SctpConfig::ns2_35`] is ns-2.35's set of defaults, which
//! the reproduced papers' scenarios state (`defaults = "ns-2.35"`). Sizes are bytes, times [`SimDuration`]
//! (nanoseconds); the scenario layer maps its unit strings onto these fields.
//!
//! `cwnd`, `ssthresh`, the flight size and the receive window count DATA chunk bytes (header
//! included, as ns-2 does). Where RFC 4960 writes "MTU" in window arithmetic the model uses
//! [`SctpConfig::cc_mtu`]: the bytes of chunks one packet can carry (`mtu` minus IP and
//! common header, ns-2's `uiMaxDataSize`), so that a window of one MTU admits one full packet.

use crate::wire::{padded, COMMON_HEADER_LEN, DATA_HEADER_LEN};
use crate::Addr;
use serde::{Deserialize, Serialize};
use std::fmt;
use vhsim_core::SimDuration;

/// The initial congestion window of every destination (docs/references.md A16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitialCwnd {
    /// RFC 4960 §7.2.1: min(4·MTU, max(2·MTU, 4380 bytes)) = 4380 B for a 1500-byte MTU
    /// (ns-2.35 uses this formula).
    Rfc4960,
    /// RFC 2960 §7.2.1: 2·MTU, which Kim & Koh assume (their §3 assumption (c)).
    Rfc2960,
    /// A fixed number of bytes.
    Bytes(u32),
}

/// Where retransmissions go (ns-2 `rtxToAlt_` 0 / 1 / 2). With every policy a chunk whose
/// destination is unusable (inactive, unconfirmed or deleted) goes to an active alternate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RtxToAlt {
    /// ns-2 `rtxToAlt_ 0`: every retransmission to the destination the chunk was last sent to.
    Same,
    /// ns-2 `rtxToAlt_ 1` (its default, after RFC 2960 §6.4, which asked this of every
    /// retransmission): fast and timeout retransmissions to an active alternate destination.
    Alternate,
    /// The library default, ns-2 `rtxToAlt_ 2`: a chunk that timed out goes to an active
    /// alternate destination (RFC 4960 §6.4 and RFC 9260 §6.4, SHOULD), a fast retransmission
    /// to the destination it was last sent to (RFC 9260 §6.4, SHOULD; RFC 4960 asks the
    /// alternate only of timed-out chunks).
    TimeoutsOnly,
}

/// MT-mSCTP's handover region: where the correspondent may send new data while both of the
/// mobile node's addresses are in the association. Kim & Koh cite the scheme (their [9], Huang
/// & Tsai 2007) without its rule, which that paper's public abstract does not give either.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MtRegion {
    /// The default, closest to Kim & Koh's text (§4.1: MT-mSCTP "solves the spurious fast
    /// retransmission problem" but the new path's cwnd "cannot normally increase until the
    /// outstanding data packets are all acknowledged"; §4.2: for WLAN -> 3G it "provides the
    /// same results with the normal mSCTP"): the region starts at the Set-Primary and new data
    /// goes only to the new primary; the old path carries what it had in flight, and split
    /// fast retransmit keeps the reordering between the paths from counting as loss.
    SetPrimary,
    /// From the first Add-IP until a Delete-IP leaves one address (Kim & Koh §1: the CN "transmits
    /// data packets using the new and old paths at the same time in the handover region"): new
    /// data goes to the primary when it has cwnd space, else to any other usable destination
    /// that has.
    AddIp,
}

/// The address the endpoint on the mobile node sends its Set-Primary ASCONF from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetPrimarySource {
    /// The library default: from the address it makes primary (RFC 5061 leaves the source
    /// open; this one works when the old link is already down, as with `trigger = "link_up"`).
    New,
    /// From the address in use until then (Kim & Koh §2.1: "the MN sends the ASCONF chunk using
    /// the IP 1 address"); the later packets leave from where the peer's DATA arrives.
    Old,
}

/// When Max.Burst limits the packets sent at one transmit opportunity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaxBurstScope {
    /// RFC 4960 §6.1 D: at every opportunity (after each arriving packet, timer or app write).
    EverySend,
    /// ns-2 `useMaxBurst_`: only after a SACK that acknowledges a fast-retransmitted chunk
    /// (the implementer's-guide change to RFC 2960 §7.2.4).
    AfterFastRetransmit,
}

/// How a sender reacts when its peer makes another address the primary (mSCTP schemes,
/// docs/references.md §9.4, §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MsctpScheme {
    /// RFC 4960 / RFC 5061: new data follows the new primary; chunks outstanding on the old
    /// address stay there (normal mSCTP, Koh et al. 2004; Kim & Koh §2.1).
    Normal,
    /// MT-mSCTP (Huang & Tsai 2007, via Kim & Koh §1): split fast retransmit
    /// (`split_fast_retransmit`, set by the preset) and the handover region of `mt_region`.
    MultiPath,
    /// HR-mSCTP (Kim & Koh §3, Steps 1-4): at the switch, nothing more to the old address
    /// (Step 1); every outstanding chunk is retransmitted to the new primary (Steps 2-3),
    /// within its cwnd; new data only after that (Step 4). The new primary's cwnd is left as it
    /// is unless `hr_cwnd_reset`.
    HandoverRetransmission,
}

/// When the endpoint on the mobile node reconfigures its addresses (RFC 5061 ASCONF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MsctpTrigger {
    /// Only at the scripted times of the endpoint's actions (Kim & Koh §4: scenario times).
    Scripted,
    /// When the new interface comes up (`LinkEvent::Up`): Add-IP if needed, then Set-Primary.
    LinkUp,
    /// At the signal-strength warning before a handover (`LinkEvent::Imminent`): Add-IP if
    /// needed, then Set-Primary.
    Warning,
}

/// An SCTP endpoint's protocol parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SctpConfig {
    /// Path MTU in bytes, IP header included (ns-2 `mtu_` 1500).
    pub mtu: u32,
    /// IP header bytes (ns-2 `ipHeaderSize_` 20).
    pub ip_header_size: u32,
    /// Bytes of one full DATA chunk, its 16-byte header included (ns-2 `dataChunkSize_` 1468:
    /// 1452 bytes of user data; one chunk fills a 1500-byte packet).
    pub data_chunk_size: u32,
    /// Initial cwnd of every destination (RFC 4960 formula; `rfc2960` for Kim & Koh, A16).
    pub initial_cwnd: InitialCwnd,
    /// Initial ssthresh in bytes; `None` = the peer's initial a_rwnd (RFC 4960 §7.2.1 "may be
    /// arbitrarily high, e.g. the receiver's advertised window"; ns-2 `initialSsthresh_` 65536).
    pub initial_ssthresh: Option<u32>,
    /// RTO.Initial (RFC 9260 §16: 1 s; RFC 4960 §15 and ns-2.35 `initialRto_`: 3 s).
    pub rto_initial: SimDuration,
    /// RTO.Min (1 s).
    pub rto_min: SimDuration,
    /// RTO.Max (60 s).
    pub rto_max: SimDuration,
    /// RTO.Alpha (1/8).
    pub rto_alpha: f64,
    /// RTO.Beta (1/4).
    pub rto_beta: f64,
    /// Max.Burst: most DATA packets per transmit opportunity (4; 0 = no limit).
    pub max_burst: u32,
    /// When Max.Burst applies (RFC 4960 §6.1 D: every opportunity).
    pub max_burst_scope: MaxBurstScope,
    /// Miss indications that trigger fast retransmit (RFC 4960 §7.2.4: 3; ns-2 `fastRtxTrigger_`).
    pub fast_rtx_threshold: u32,
    /// Where retransmissions go (RFC 4960 / RFC 9260 §6.4: timed-out chunks to an alternate,
    /// fast retransmissions to the same destination; ns-2's default `rtxToAlt_ 1` is `Alternate`).
    pub rtx_to_alt: RtxToAlt,
    /// Path.Max.Retrans (5): a destination whose error counter exceeds it is inactive.
    pub path_max_retrans: u32,
    /// Association.Max.Retrans (10): the association fails when its error counter exceeds it.
    pub association_max_retrans: u32,
    /// Heartbeats on idle destinations (RFC 4960 §8.3; ns-2 `heartbeatInterval_` 0 disables).
    pub heartbeat: bool,
    /// HB.interval (30 s).
    pub hb_interval: SimDuration,
    /// Jitter of the heartbeat period as a fraction of the destination's RTO: the period is
    /// HB.interval + RTO·(1 + u), u uniform in [-hb_jitter, +hb_jitter) (RFC 4960 §8.3:
    /// ±50% of the RTO, so 0.5); 0 makes heartbeats deterministic.
    pub hb_jitter: f64,
    /// Send a HEARTBEAT at once to a destination that has just become inactive, and keep probing
    /// it (ns-2 `Timeout()`; the RFC allows but does not require it).
    pub hb_on_inactive: bool,
    /// RFC 4960 §7.2.1 and RFC 9260 §7.2.1: a destination's cwnd decays to max(cwnd/2, 4·MTU)
    /// per RTO in which no DATA is sent to it (ns-2 CwndDegradeTimer; never raises cwnd).
    pub idle_cwnd_decay: bool,
    /// RFC 4960 §7.2.1's "initial cwnd ... after a sufficiently long idle period": a destination
    /// to which no DATA was sent for this long restarts from the initial cwnd when DATA goes
    /// there again. `None` (the default) follows RFC 9260 §7.2.1, which dropped the rule (and
    /// ns-2, which has only the decay); RFC 4960 does not say how long "sufficiently long" is.
    pub idle_cwnd_reset: Option<SimDuration>,
    /// Delayed SACKs (RFC 4960 §6.2 SHOULD; ns-2 `useDelayedSacks_` 1).
    pub delayed_sack: bool,
    /// Longest SACK delay (RFC 4960 §6.2: 200 ms, MUST be below 500 ms; ns-2 `sackDelay_`).
    pub sack_delay: SimDuration,
    /// SACK at least every this many packets carrying DATA (RFC 4960 §6.2: 2).
    pub sack_every: u32,
    /// Also SACK at once when a packet fills the last gap (not in RFC 4960 §6.2 nor ns-2).
    pub sack_on_gap_fill: bool,
    /// Receive buffer in bytes: the initial a_rwnd (ns-2 `initialRwnd_` 65536).
    pub receive_buffer: u32,
    /// RFC 5061 dynamic address reconfiguration: send and process ASCONF chunks (mSCTP).
    /// Without it ASCONF chunks are ignored.
    pub asconf: bool,
    /// Reaction to a primary switch the peer requests (with `asconf`).
    pub msctp: MsctpScheme,
    /// HR-mSCTP: the new primary's cwnd restarts from the initial cwnd at each switch. Not one
    /// of Kim & Koh's Steps 1-4 (§3), whose text says the new path's cwnd "will continue to
    /// increase"; their Figures 5-6 start the new path at 2·MTU because it is new or was long
    /// idle. Off by default.
    pub hr_cwnd_reset: bool,
    /// MT-mSCTP's handover region and scheduler (with `msctp = "multi_path"`).
    pub mt_region: MtRegion,
    /// The address the mobile node's Set-Primary ASCONF leaves from.
    pub set_primary_from: SetPrimarySource,
    /// CMT's split fast retransmit (Iyengar et al.; MT-mSCTP, A11): a missing report counts
    /// only when the same SACK newly acknowledges a higher TSN sent to the same destination.
    pub split_fast_retransmit: bool,
    /// When the endpoint on the mobile node sends Add-IP / Set-Primary.
    pub msctp_trigger: MsctpTrigger,
    /// After a link-triggered Set-Primary, Delete-IP of the address left this much later
    /// (`None`: it stays in the association).
    pub delete_after: Option<SimDuration>,
}

impl Default for SctpConfig {
    fn default() -> Self {
        SctpConfig {
            mtu: 1500,
            ip_header_size: 20,
            data_chunk_size: 1468,
            initial_cwnd: InitialCwnd::Rfc4960,
            initial_ssthresh: None,
            rto_initial: SimDuration::from_secs(1),
            rto_min: SimDuration::from_secs(1),
            rto_max: SimDuration::from_secs(60),
            rto_alpha: 0.125,
            rto_beta: 0.25,
            max_burst: 4,
            max_burst_scope: MaxBurstScope::EverySend,
            fast_rtx_threshold: 3,
            rtx_to_alt: RtxToAlt::TimeoutsOnly,
            path_max_retrans: 5,
            association_max_retrans: 10,
            heartbeat: true,
            hb_interval: SimDuration::from_secs(30),
            hb_jitter: 0.5,
            hb_on_inactive: true,
            idle_cwnd_decay: true,
            idle_cwnd_reset: None,
            delayed_sack: true,
            sack_delay: SimDuration::from_millis(200),
            sack_every: 2,
            sack_on_gap_fill: false,
            receive_buffer: 65536,
            asconf: false,
            msctp: MsctpScheme::Normal,
            hr_cwnd_reset: false,
            mt_region: MtRegion::SetPrimary,
            set_primary_from: SetPrimarySource::New,
            split_fast_retransmit: false,
            msctp_trigger: MsctpTrigger::Scripted,
            delete_after: None,
        }
    }
}

impl SctpConfig {
    /// ns-2.35's SCTP module's defaults (tcl/lib/ns-default.tcl; docs/sctp.md "Differences
    /// from ns-2.35's SCTP module") where they differ from the RFC defaults above:
    /// `initialRto_` 3 s (RFC 4960 §15's RTO.Initial), `rtxToAlt_ 1` (fast retransmissions to
    /// an alternate too), `useMaxBurst_ 1` (Max.Burst only after a fast retransmission),
    /// `initialSsthresh_` 65536 bytes.
    pub fn ns2_35() -> SctpConfig {
        SctpConfig {
            rto_initial: SimDuration::from_secs(3),
            rtx_to_alt: RtxToAlt::Alternate,
            max_burst_scope: MaxBurstScope::AfterFastRetransmit,
            initial_ssthresh: Some(65_536),
            ..SctpConfig::default()
        }
    }
}

/// A configuration error: the offending key and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// Key path relative to the SCTP configuration, e.g. `data_chunk_size`.
    pub key: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl ConfigError {
    fn new(key: &str, message: String) -> Self {
        ConfigError { key: key.to_string(), message }
    }

    /// The same error with its key under `prefix` (e.g. `flows.f.sctp`).
    pub fn under(mut self, prefix: &str) -> Self {
        self.key = format!("{prefix}.{}", self.key);
        self
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl std::error::Error for ConfigError {}

impl SctpConfig {
    /// Bytes of chunks one packet can carry: the "MTU" of RFC 4960's window arithmetic.
    pub fn cc_mtu(&self) -> u32 {
        self.mtu.saturating_sub(self.ip_header_size + COMMON_HEADER_LEN)
    }

    /// User data bytes of one full DATA chunk.
    pub fn chunk_payload(&self) -> u32 {
        self.data_chunk_size - DATA_HEADER_LEN
    }

    /// The initial cwnd in bytes.
    pub fn initial_cwnd_bytes(&self) -> u32 {
        let mtu = self.cc_mtu();
        match self.initial_cwnd {
            InitialCwnd::Rfc4960 => (4 * mtu).min((2 * mtu).max(4380)),
            InitialCwnd::Rfc2960 => 2 * mtu,
            InitialCwnd::Bytes(b) => b,
        }
    }

    /// The initial ssthresh in bytes.
    pub fn initial_ssthresh_bytes(&self) -> u32 {
        self.initial_ssthresh.unwrap_or(self.receive_buffer)
    }

    /// Every error in the configuration, each naming its key.
    pub fn validate(&self) -> Result<(), Vec<ConfigError>> {
        let mut errs = Vec::new();
        let mut check = |ok: bool, key: &str, msg: String| {
            if !ok {
                errs.push(ConfigError::new(key, msg));
            }
        };
        let overhead = self.ip_header_size + COMMON_HEADER_LEN;
        check(
            self.mtu > overhead + DATA_HEADER_LEN,
            "mtu",
            format!("{} bytes leaves no room for a DATA chunk after {overhead} header bytes", self.mtu),
        );
        check(
            self.data_chunk_size > DATA_HEADER_LEN,
            "data_chunk_size",
            format!(
                "{} bytes: must be above the {DATA_HEADER_LEN}-byte DATA chunk header",
                self.data_chunk_size
            ),
        );
        check(
            padded(self.data_chunk_size) + overhead <= self.mtu,
            "data_chunk_size",
            format!(
                "a chunk of {} bytes (padded) + {COMMON_HEADER_LEN}-byte common header + {}-byte IP header \
                 exceeds the MTU of {} bytes (largest allowed: {})",
                padded(self.data_chunk_size),
                self.ip_header_size,
                self.mtu,
                self.mtu.saturating_sub(overhead) / 4 * 4
            ),
        );
        if let InitialCwnd::Bytes(b) = self.initial_cwnd {
            check(b > 0, "initial_cwnd", "must be at least 1 byte".into());
        }
        if let Some(s) = self.initial_ssthresh {
            check(s > 0, "initial_ssthresh", "must be at least 1 byte".into());
        }
        check(self.rto_min.0 > 0, "rto_min", "must be > 0".into());
        check(self.rto_initial.0 > 0, "rto_initial", "must be > 0".into());
        check(
            self.rto_max >= self.rto_min,
            "rto_max",
            format!("{} is below rto_min = {}", self.rto_max, self.rto_min),
        );
        for (key, v) in [("rto_alpha", self.rto_alpha), ("rto_beta", self.rto_beta)] {
            check(v > 0.0 && v <= 1.0, key, format!("{v}: must be in (0, 1]"));
        }
        if let Some(d) = self.idle_cwnd_reset {
            check(d.0 > 0, "idle_cwnd_reset", "must be > 0 (leave it out for no reset)".into());
        }
        check(self.fast_rtx_threshold >= 1, "fast_rtx_threshold", "must be at least 1".into());
        check(
            (0.0..1.0).contains(&self.hb_jitter),
            "hb_jitter",
            format!("{}: must be in [0, 1) (a fraction of the RTO)", self.hb_jitter),
        );
        check(
            self.sack_delay.0 > 0 && self.sack_delay < SimDuration::from_millis(500),
            "sack_delay",
            format!("{}: must be > 0 and below 500 ms (RFC 4960 §6.2)", self.sack_delay),
        );
        check(self.sack_every >= 1, "sack_every", "must be at least 1 packet".into());
        check(
            self.receive_buffer >= padded(self.data_chunk_size),
            "receive_buffer",
            format!(
                "{} bytes cannot hold one DATA chunk of {} bytes",
                self.receive_buffer, self.data_chunk_size
            ),
        );
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs)
        }
    }
}

/// An address reconfiguration the endpoint on the mobile node requests with an ASCONF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressOp {
    /// Add IP Address (RFC 5061 §4.2.1).
    Add(Addr),
    /// Delete IP Address (§4.2.2).
    Delete(Addr),
    /// Set Primary Address (§4.2.4): the peer sends new data to it.
    SetPrimary(Addr),
}

/// A scripted reconfiguration at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsconfAction {
    /// When the request is made.
    pub at: vhsim_core::SimTime,
    /// What is requested.
    pub op: AddressOp,
}

/// Who an endpoint is in its association: its flow, its addresses and the peer's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndpointSpec {
    /// Flow index (copied into every packet).
    pub flow: u32,
    /// This endpoint's addresses. Packets to a destination leave from the address the latest
    /// packet from it arrived at (the first address before any), replies from the address the
    /// packet they answer arrived at.
    pub local: Vec<Addr>,
    /// The peer's addresses: one destination (path) each, in this order (path index = position).
    pub peer: Vec<Addr>,
    /// The primary destination: one of `peer`.
    pub primary: Addr,
}

impl EndpointSpec {
    /// Every error in the spec, each naming its key.
    pub fn validate(&self) -> Result<(), Vec<ConfigError>> {
        let mut errs = Vec::new();
        for (key, list) in [("local", &self.local), ("peer", &self.peer)] {
            if list.is_empty() {
                errs.push(ConfigError::new(key, "needs at least one address".into()));
            }
            let mut sorted: Vec<u32> = list.iter().map(|a| a.0).collect();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                errs.push(ConfigError::new(key, format!("lists an address twice: {sorted:?}")));
            }
        }
        if let Some(a) = self.local.iter().find(|a| self.peer.contains(a)) {
            errs.push(ConfigError::new("peer", format!("address {} is also a local address", a.0)));
        }
        if !self.peer.contains(&self.primary) {
            let peer: Vec<u32> = self.peer.iter().map(|a| a.0).collect();
            errs.push(ConfigError::new(
                "primary",
                format!("address {} is not one of the peer's addresses {peer:?}", self.primary.0),
            ));
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_give_rfc4960_initial_cwnd() {
        let c = SctpConfig::default();
        assert_eq!(c.validate(), Ok(()));
        assert_eq!(c.cc_mtu(), 1468);
        assert_eq!(c.initial_cwnd_bytes(), 4380);
        let kk = SctpConfig { initial_cwnd: InitialCwnd::Rfc2960, ..c };
        assert_eq!(kk.initial_cwnd_bytes(), 2936);
    }

    #[test]
    fn chunk_above_the_mtu_is_named() {
        let c = SctpConfig { data_chunk_size: 1472, ..Default::default() };
        let errs = c.validate().unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].key, "data_chunk_size");
        assert!(errs[0].message.contains("largest allowed: 1468"), "{}", errs[0]);
    }

    #[test]
    fn unknown_primary_is_named() {
        let s =
            EndpointSpec { flow: 0, local: vec![Addr(0)], peer: vec![Addr(1), Addr(2)], primary: Addr(3) };
        let errs = s.validate().unwrap_err();
        assert_eq!(errs[0].key, "primary");
        assert_eq!(errs[0].message, "address 3 is not one of the peer's addresses [1, 2]");
        assert_eq!(
            errs[0].clone().under("flows.f.sctp").to_string(),
            format!("flows.f.sctp.primary: {}", errs[0].message)
        );
    }
}
