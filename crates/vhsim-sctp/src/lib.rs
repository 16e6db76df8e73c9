//! vhsim-sctp: sans-IO SCTP association endpoints (RFC 4960) for vhsim.
//!
//! An [`SctpEndpoint`] is one side of an association between two multihomed hosts. Like the
//! TCP endpoints it gets no clock and no engine: the caller hands it the time with every call
//! of the transport-neutral [`vhsim_net::Endpoint`] interface, and a random stream for the
//! heartbeat jitter at construction. What is modelled and what is not: `docs/sctp.md`.
//!
//! Parts, one rule set per file:
//! * [`wire`]: packets and chunks as plain data (`vhsim_net::packet::sctp`, re-exported: the
//!   world's `Payload::Sctp` carries them);
//! * [`config`]: parameters with RFC 4960 / RFC 9260 defaults (ns-2's where they are silent), and
//!   validation naming keys;
//! * [`path`]: per-destination state; [`cc`]: its congestion window (§7.2); [`rto`]: its
//!   RTO (§6.3.1); [`heartbeat`]: its heartbeats (§8.3);
//! * [`outbound`]: the sending half; [`sack`]: SACK processing and fast retransmit (§6.2.1,
//!   §7.2.4); [`retransmit`]: T3-rtx expiry and retransmission (§6.3.3, §6.4);
//! * [`inbound`]: the receiving half (§6.2, §6.7);
//! * [`asconf`]: ASCONF serial numbers, queue and cache (RFC 5061 §5); [`mobility`]: mSCTP,
//!   address reconfiguration and the handover schemes (normal, MT, HR);
//! * [`endpoint`]: the association endpoint that ties them together;
//! * [`summary`]: the `sctp` summary part; [`engagement`]: the engagement counters;
//! * [`presets`]: the named configurations `vhsim schemes` lists.

pub mod asconf;
pub mod cc;
pub mod config;
pub mod endpoint;
pub mod engagement;
pub mod heartbeat;
pub mod inbound;
pub mod mobility;
pub mod outbound;
pub mod path;
pub mod presets;
pub mod retransmit;
pub mod rto;
pub mod sack;
pub mod summary;

pub use config::{
    AddressOp, AsconfAction, ConfigError, EndpointSpec, InitialCwnd, MaxBurstScope, MsctpScheme,
    MsctpTrigger, MtRegion, RtxToAlt, SctpConfig, SetPrimarySource,
};
pub use endpoint::{sctp_payload, SctpEndpoint};
pub use summary::{PathSummary, SctpSummary};
pub use vhsim_net::packet::sctp as wire;
pub use vhsim_net::Addr;
