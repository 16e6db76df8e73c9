//! The transports the world can run, behind one enum (no `Box<dyn>` in the hot path).
//!
//! Adding a transport: implement [`Endpoint`] for its two sides (in its own crate or module),
//! add a variant to [`AnyEndpoint`] and a line to each `match` below, and build the pair in
//! [`endpoints`]. Nothing in the world, the links or the observers changes
//! (docs/architecture.md, "How to add a transport").

pub mod datagram;

use crate::app::AppState;
use datagram::{DatagramSink, DatagramSource};
use vhsim_core::RngStreams;
use vhsim_core::{SimTime, TracedVar};
use vhsim_net::{Addr, AppOffer, Endpoint, Engagement, HandoverNotice, LinkEvent, Packet, Pending, Report, SendProgress, Wiring};
use vhsim_scenario::{AddressOpModel, AsconfActionModel, FlowModel, TransportModel};
use vhsim_sctp::{AddressOp, AsconfAction, SctpEndpoint};
use vhsim_tcp::{TcpSender, TcpSenderEndpoint, TcpSink, TcpSinkEndpoint};

/// An endpoint of any transport.
#[derive(Clone, Debug)]
pub enum AnyEndpoint {
    /// TCP sender.
    TcpSender(Box<TcpSenderEndpoint>),
    /// TCP sink.
    TcpSink(Box<TcpSinkEndpoint>),
    /// Datagram source (boxed, as every variant: the flow holds two endpoints, each as large as
    /// the largest inline variant).
    DatagramSource(Box<DatagramSource>),
    /// Datagram sink.
    DatagramSink(Box<DatagramSink>),
    /// One side of an SCTP association (both sides are the same type).
    Sctp(Box<SctpEndpoint>),
}

/// The two endpoints of flow `index` (`[sending side, receiving side]`), with the sending
/// side's application limit set for `app`. An endpoint that draws random numbers gets its own
/// stream of `streams`, named after the flow (`flow/<name>/sctp/from`, `.../to`).
pub fn endpoints(f: &FlowModel, index: u32, app: &AppState, streams: &RngStreams) -> [AnyEndpoint; 2] {
    let (src, dst) = (Addr(f.src), Addr(f.dst_addr));
    let out = Wiring { flow: index, local: src, peer: dst };
    let back = Wiring { flow: index, local: dst, peer: src };
    match &f.transport {
        TransportModel::Tcp { tcp, sink } => [
            AnyEndpoint::TcpSender(Box::new(TcpSenderEndpoint::new(
                TcpSender::new(tcp.clone(), app.initial_limit()),
                out,
            ))),
            AnyEndpoint::TcpSink(Box::new(TcpSinkEndpoint::new(
                TcpSink::new(sink.clone()),
                back,
                tcp.segment_size,
                sink.ack_size,
            ))),
        ],
        TransportModel::Datagram { size, header_size } => [
            AnyEndpoint::DatagramSource(Box::new(DatagramSource::new(out, *size, *header_size))),
            AnyEndpoint::DatagramSink(Box::default()),
        ],
        TransportModel::Sctp(model) => {
            let vhsim_scenario::SctpModel { config, from_addrs, to_addrs, primary, from_primary, mobile } = &**model;
            let addrs = |v: &[u32]| v.iter().map(|&a| Addr(a)).collect::<Vec<_>>();
            let stream = |side: &str| streams.stream(&format!("flow/{}/sctp/{side}", f.name));
            let (a, b) = SctpEndpoint::pair(
                index,
                config,
                &addrs(from_addrs),
                &addrs(to_addrs),
                Addr(*from_primary),
                Addr(*primary),
                stream("from"),
                stream("to"),
            )
            .expect("the scenario layer validated the association");
            let mut pair = [a, b];
            if let Some(m) = mobile {
                pair[m.side as usize].set_mobility(addrs(&m.interfaces), m.actions.iter().map(action).collect());
            }
            pair.map(|e| AnyEndpoint::Sctp(Box::new(e)))
        }
    }
}

/// A scripted ASCONF request as the SCTP endpoint takes it.
fn action(a: &AsconfActionModel) -> AsconfAction {
    let op = match a.op {
        AddressOpModel::Add(x) => AddressOp::Add(Addr(x)),
        AddressOpModel::Delete(x) => AddressOp::Delete(Addr(x)),
        AddressOpModel::SetPrimary(x) => AddressOp::SetPrimary(Addr(x)),
    };
    AsconfAction { at: a.at, op }
}

impl AnyEndpoint {
    /// The TCP sender, if this is one (for tests and tools that inspect it after a run).
    pub fn tcp_sender(&self) -> Option<&TcpSender> {
        match self {
            AnyEndpoint::TcpSender(e) => Some(e.sender()),
            _ => None,
        }
    }

    /// The link events a datagram endpoint received (`None` for other transports).
    pub fn datagram_link_events(&self) -> Option<&[(SimTime, LinkEvent)]> {
        match self {
            AnyEndpoint::DatagramSource(e) => Some(&e.link_events),
            AnyEndpoint::DatagramSink(e) => Some(&e.link_events),
            _ => None,
        }
    }

    /// The SCTP endpoint, if this is one.
    pub fn sctp(&self) -> Option<&SctpEndpoint> {
        match self {
            AnyEndpoint::Sctp(e) => Some(e),
            _ => None,
        }
    }

    /// The transport-specific part of the flow summary this (sending) endpoint contributes;
    /// `peer` is the flow's receiving endpoint (an SCTP association's part counts the SACKs and
    /// duplicates its receiver saw).
    pub fn summary_part(&self, peer: &AnyEndpoint) -> Option<crate::summary::TransportPart> {
        use crate::summary::{TcpPart, TransportPart};
        match self {
            AnyEndpoint::TcpSender(e) => Some(TransportPart::Tcp(TcpPart::of(e.sender()))),
            AnyEndpoint::Sctp(e) => Some(TransportPart::Sctp(Box::new(e.summary_with_receiver(peer.sctp())))),
            _ => None,
        }
    }
}

/// Forward a method to the variant's endpoint.
macro_rules! each {
    ($self:ident, $e:ident => $body:expr) => {
        match $self {
            AnyEndpoint::TcpSender($e) => $body,
            AnyEndpoint::TcpSink($e) => $body,
            AnyEndpoint::DatagramSource($e) => $body,
            AnyEndpoint::DatagramSink($e) => $body,
            AnyEndpoint::Sctp($e) => $body,
        }
    };
}

impl AnyEndpoint {
    /// Bring the endpoint's state (its first `max_bytes`) towards the processor: the world
    /// calls it an event ahead of the packet the endpoint is about to get (issue #29). It
    /// changes nothing.
    #[inline(always)]
    pub fn prefetch(&self, max_bytes: usize) {
        each!(self, e => vhsim_core::prefetch::prefetch(&**e, max_bytes))
    }

    /// Bring what a timeout of the endpoint reads outside its own state (a TCP sender's oldest
    /// outstanding segment) towards the processor; to call only once the endpoint's state was
    /// fetched (it is read). It changes nothing.
    #[inline(always)]
    pub fn prefetch_timeout(&self) {
        if let AnyEndpoint::TcpSender(e) = self {
            e.sender().prefetch_timeout();
        }
    }

    /// The endpoint, a sender, has nothing outstanding and no timer: it gives back the buffers
    /// it would only make again for new data (a TCP sender's scoreboard; issue #29, memory per
    /// idle flow).
    pub fn release_if_idle(&mut self) {
        if let AnyEndpoint::TcpSender(e) = self {
            e.release_if_idle();
        }
    }
}

impl Endpoint for AnyEndpoint {
    #[inline]
    fn on_packet(&mut self, now: SimTime, pkt: &Packet) -> Pending {
        each!(self, e => e.on_packet(now, pkt))
    }
    #[inline]
    fn on_timeout(&mut self, now: SimTime) {
        each!(self, e => e.on_timeout(now))
    }
    #[inline]
    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet> {
        each!(self, e => e.poll_transmit(now))
    }
    #[inline]
    fn poll_timeout(&self) -> Option<SimTime> {
        each!(self, e => e.poll_timeout())
    }
    #[inline]
    fn poll_report(&mut self) -> Option<Report> {
        each!(self, e => e.poll_report())
    }
    fn on_link_event(&mut self, now: SimTime, ev: &LinkEvent) {
        each!(self, e => e.on_link_event(now, ev))
    }
    fn on_notice(&mut self, now: SimTime, notice: &HandoverNotice) {
        each!(self, e => e.on_notice(now, notice))
    }
    fn on_app(&mut self, now: SimTime, offer: AppOffer) {
        each!(self, e => e.on_app(now, offer))
    }
    #[inline]
    fn progress(&self) -> Option<SendProgress> {
        each!(self, e => e.progress())
    }
    fn acknowledged(&self) -> bool {
        each!(self, e => e.acknowledged())
    }
    fn traced_paths(&self) -> usize {
        each!(self, e => e.traced_paths())
    }
    fn traced_vars(&self, path: usize, out: &mut Vec<TracedVar>) {
        each!(self, e => e.traced_vars(path, out))
    }
    fn classifies_losses(&self) -> bool {
        each!(self, e => e.classifies_losses())
    }
    fn engagement(&self, out: &mut Engagement) {
        each!(self, e => e.engagement(out))
    }
    fn rtt_estimate(&self) -> Option<vhsim_core::SimDuration> {
        each!(self, e => e.rtt_estimate())
    }
    fn read_rtt_estimate(&mut self, read: bool) {
        each!(self, e => e.read_rtt_estimate(read))
    }
}
