//! The interface between the world and a transport endpoint (sans-IO, as smoltcp's and quinn's
//! protocol cores): the world hands in packets, timer expiries, link events and application
//! offers with the current time, and polls for packets to send, the next deadline and reports.
//! An endpoint has no clock, no random numbers and no event queue, so a scripted test can drive
//! it by hand; it builds and parses its own headers.
//!
//! Call order the world keeps: after every input (`on_packet`, `on_timeout`, `on_link_event`,
//! `on_notice`, `on_app`) it drains `poll_report`, reads `progress`, drains `poll_transmit`
//! (assigning each packet its uid), records `traced_vars`, and re-arms its wake-up at
//! `poll_timeout`. A packet, the input of nearly every call, answers with what it left to
//! collect ([`Pending`]): the world skips the polls an endpoint says would find nothing.

use crate::addr::Addr;
use crate::packet::Packet;
use vhsim_core::{Rate, SimDuration, SimTime, TracedVar};

/// Who an endpoint is on the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wiring {
    /// Flow index (the packets' demultiplexing key, like a port pair).
    pub flow: u32,
    /// This endpoint's address.
    pub local: Addr,
    /// The peer's address.
    pub peer: Addr,
}

/// An interface event at the mobile node, delivered to every endpoint that runs there (and to
/// none elsewhere: remote endpoints learn of a handover only from packets). Interfaces are
/// indices into the scenario's `[mobile.interfaces]`, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEvent {
    /// A handover from `old` to `new` starts in `eta` (the configured warning time; a signal
    /// strength warning in a real host).
    Imminent {
        /// Time until the handover starts.
        eta: SimDuration,
        /// Interface in use.
        old: u32,
        /// Interface the handover moves to.
        new: u32,
    },
    /// The interface lost its link (break-before-make: the old interface, at the start).
    Down(u32),
    /// The interface has a link and may be used.
    Up(u32),
    /// The handover is complete: traffic of the mobile node now leaves by `new`.
    Completed {
        /// Interface left.
        old: u32,
        /// Interface in use.
        new: u32,
    },
}

/// Bandwidth and delay of an access link, as a cross-layer notification reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessLinkInfo {
    /// Link bandwidth.
    pub bandwidth: Rate,
    /// One-way delay.
    pub delay: SimDuration,
}

/// Daniel & Kojo's cross-layer handover notification (§3): a modelled out-of-band message that
/// reaches the sending endpoint of every flow with an endpoint at the mobile node
/// `notify_delay` after the handover completes, with the old and new access links' current
/// bandwidth and delay. It is a signalling channel of the model, not a packet on the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandoverNotice {
    /// The access link left.
    pub old: AccessLinkInfo,
    /// The access link now in use.
    pub new: AccessLinkInfo,
}

/// A decision one of an endpoint's rules took at a given moment, with the numbers it read and
/// the numbers it set (TCP's cross-layer A1: FlightSize, the old link's bandwidth, RTT_old_newlink
/// and the RTO in, minrto out). The world keeps it, with its time, in the flow summary's
/// `decisions` (in time order), so that whoever studies a run reads what the simulator computed
/// instead of computing it again. Names and units are the transport's, as for traced variables
/// (the summary keys them `<name>_<unit>`); within one decision a name appears at most once
/// among the inputs and at most once among the outputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The rule that decided, e.g. `a1_case1` (a name of the transport's; docs/schemes.md).
    pub rule: &'static str,
    /// What it read.
    pub inputs: Vec<TracedVar>,
    /// What it set.
    pub outputs: Vec<TracedVar>,
}

/// What an endpoint tells the world's observers.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// Receiver: `bytes` (`units` data units) newly delivered in order to the application.
    Delivered {
        /// Payload bytes.
        bytes: u64,
        /// Data units.
        units: u64,
    },
    /// Sender: a retransmission timeout fired.
    Timeout,
    /// Sender: a loss classifier decided that the loss of unit `seq` was wireless (else
    /// congestion). The world scores it against the ground truth.
    LossVerdict {
        /// The lost data unit.
        seq: u64,
        /// True for "wireless", false for "congestion".
        wireless: bool,
    },
    /// One of the endpoint's rules decided something (see [`Decision`]).
    Decision(Box<Decision>),
}

/// How far a sender has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SendProgress {
    /// Every data unit below this is cumulatively acknowledged.
    pub acked: u64,
    /// One past the highest data unit ever sent.
    pub sent_max: u64,
}

/// What the application does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppOffer {
    /// It writes `units` more data units.
    More(u64),
    /// It stops offering data: a bulk sender keeps only what it has sent.
    Stop,
}

/// What an input left for the world to collect: `false` promises that the poll would find
/// nothing now, so the world skips it (one call fewer per endpoint input through the
/// transport dispatch; docs/performance.md "Issue #28: what a packet leaves to collect").
/// `true` promises nothing: the world polls until `None`, as it always may.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// Whether [`Endpoint::poll_report`] may return a report.
    pub reports: bool,
    /// Whether [`Endpoint::poll_transmit`] may return a packet.
    pub transmit: bool,
}

impl Pending {
    /// Poll everything (always correct; an endpoint that does not track its outputs).
    pub const ANY: Pending = Pending { reports: true, transmit: true };
}

/// A transport endpoint as the world drives it.
pub trait Endpoint {
    /// A packet addressed to this endpoint arrives at `now`; the answer says which polls may
    /// find something (see [`Pending`]).
    fn on_packet(&mut self, now: SimTime, pkt: &Packet) -> Pending;
    /// A deadline the endpoint reported through [`Endpoint::poll_timeout`] is due (`now` is at
    /// or after it; a stale call must do nothing).
    fn on_timeout(&mut self, now: SimTime);
    /// The next packet to send at `now`, or `None` when nothing more may go out. The world fills
    /// in `uid` and the tag's `copy`.
    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet>;
    /// The earliest time the endpoint needs [`Endpoint::on_timeout`].
    fn poll_timeout(&self) -> Option<SimTime>;
    /// The next report for the observers, oldest first.
    fn poll_report(&mut self) -> Option<Report>;
    /// An interface event at the mobile node (only endpoints on the mobile node get these).
    fn on_link_event(&mut self, _now: SimTime, _ev: &LinkEvent) {}
    /// The cross-layer notification (see [`HandoverNotice`]).
    fn on_notice(&mut self, _now: SimTime, _notice: &HandoverNotice) {}
    /// The application offers data or stops.
    fn on_app(&mut self, _now: SimTime, _offer: AppOffer) {}
    /// A sender's progress (`None` for an endpoint that sends no data).
    fn progress(&self) -> Option<SendProgress> {
        None
    }
    /// Whether the peer acknowledges the data this endpoint sends, so that the ground truth can
    /// settle on its [`Endpoint::progress`]. Asked once, when the world is built, before any
    /// data is offered (an SCTP endpoint reports progress only once it has data to send).
    fn acknowledged(&self) -> bool {
        self.progress().is_some()
    }
    /// Number of paths whose variables the endpoint traces (an SCTP association: one per
    /// destination address; TCP: one).
    fn traced_paths(&self) -> usize {
        1
    }
    /// The traced variables of path `path` now, each part reporting its own.
    fn traced_vars(&self, _path: usize, _out: &mut Vec<TracedVar>) {}
    /// Whether the endpoint classifies losses (its verdicts are then scored and summarized
    /// even when there are none).
    fn classifies_losses(&self) -> bool {
        false
    }
    /// How often each of the endpoint's mechanisms acted (see [`Engagement`]); asked once,
    /// when the run's summary is written.
    fn engagement(&self, _out: &mut Engagement) {}
    /// The endpoint's own current estimate of its flow's round-trip time, if it measures one
    /// (a TCP receiver from the timestamps its peer echoes): what a mobile node knows when it
    /// times its handover warning (`mobile.warning = "srtt"`).
    fn rtt_estimate(&self) -> Option<SimDuration> {
        None
    }
    /// Whether [`Endpoint::rtt_estimate`] will be read (told once, when the world is built:
    /// only a run with `mobile.warning = "srtt"` reads it); told `false`, the endpoint may
    /// skip measuring it. Endpoints measure it until told.
    fn read_rtt_estimate(&mut self, _read: bool) {}
}

/// Engagement counters: for each mechanism of a scheme that is *configured*, how often it acted
/// (`wave_decisions`, `persist_episodes`, `dcr_delayed_fast_retransmits`, ...). A configured
/// mechanism reports its counters even when they are 0, so that "configured but never acted"
/// (0) differs from "not part of this scheme" (absent). A claim about a mechanism names the
/// counter it needs: with zero engagement it is not checkable, never "does not hold". The flow
/// summary keeps them in `engagement` (both endpoints of the flow add theirs); they observe, they
/// change nothing, so they are not part of the summary fingerprint.
pub type Engagement = std::collections::BTreeMap<&'static str, u64>;
