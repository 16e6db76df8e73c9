//! TCP as a transport of the world: the sender and the sink behind the transport-neutral
//! [`Endpoint`] interface. Here, and only here, TCP headers are built and read: the sender
//! turns each [`Transmit`] into a data segment and each arriving ACK's header into an
//! [`AckInfo`]; the sink turns each [`AckOut`] into an acknowledgment. Both carry the
//! timestamps option (RFC 7323): the sink stamps its ACKs, the sender echoes the latest ACK's
//! stamp in its data, and the sink measures its own round-trip estimate from the echoes
//! ([`Endpoint::rtt_estimate`], for the mobile node's `mobile.warning = "srtt"`).

use crate::sender::{AckInfo, TcpSender, TxCause};
use crate::sink::{AckOut, SinkLinkEvent, TcpSink};
use crate::estimate::receiver_rtt::{ts_clock, ReceiverRtt};
use crate::CaState;
use crate::outbox::Outbox;
use vhsim_core::{SimDuration, SimTime, TracedVar};
use vhsim_net::packet::{TCP_FLAG_SIG, TCP_FLAG_ZERO_WINDOW};
use vhsim_net::{
    AppOffer, Endpoint, Engagement, HandoverNotice, LinkEvent, Packet, Payload, Pending, Report, RetxCause, SackBlock, SendProgress, TcpHeader,
    TraceTag, Wiring,
};

fn retx_cause(c: TxCause) -> RetxCause {
    match c {
        TxCause::New => RetxCause::New,
        TxCause::FastRetransmit => RetxCause::FastRetransmit,
        TxCause::Recovery => RetxCause::Recovery,
        TxCause::Rto => RetxCause::Timeout,
        TxCause::GoBackN => RetxCause::GoBackN,
        TxCause::Probe => RetxCause::Probe,
        TxCause::Notified => RetxCause::Notified,
    }
}

/// The sending side of a TCP flow.
#[derive(Clone, Debug)]
pub struct TcpSenderEndpoint {
    sender: TcpSender,
    wiring: Wiring,
    reports: Outbox<Report>,
    /// Reused ACK buffer (no allocation per ACK).
    ack: AckInfo,
    /// TS.Recent (RFC 7323 §4.3): the TSval of the latest ACK, echoed in the data sent.
    ts_recent: u32,
}

impl TcpSenderEndpoint {
    /// A sender endpoint.
    pub fn new(sender: TcpSender, wiring: Wiring) -> Self {
        TcpSenderEndpoint { sender, wiring, reports: Outbox::default(), ack: AckInfo::default(), ts_recent: 0 }
    }

    /// The sender (to inspect its state).
    pub fn sender(&self) -> &TcpSender {
        &self.sender
    }

    /// The sender went idle: see [`TcpSender::release_if_idle`].
    pub fn release_if_idle(&mut self) {
        self.sender.release_if_idle();
    }

    /// The loss classifier's verdicts and the rules' decisions since the last input, as reports.
    fn queue_verdicts(&mut self) {
        for c in self.sender.take_loss_classifications() {
            let wireless = c.class == crate::LossClass::Wireless;
            self.reports.push(Report::LossVerdict { seq: c.seq, wireless });
        }
        while let Some(d) = self.sender.take_decision() {
            self.reports.push(Report::Decision(Box::new(d)));
        }
    }
}

impl Endpoint for TcpSenderEndpoint {
    /// Reports only if the ACK made the classifier or a rule speak; sending is decided by the
    /// poll itself (the window, the scoreboard), so it is always worth one.
    fn on_packet(&mut self, now: SimTime, pkt: &Packet) -> Pending {
        let Payload::Tcp(h) = &pkt.payload else { return Pending::ANY };
        if h.ts_val != 0 {
            self.ts_recent = h.ts_val;
        }
        self.ack.ack = h.ack;
        self.ack.window = h.window;
        self.ack.sig = h.flags & TCP_FLAG_SIG != 0;
        self.ack.sack.clear();
        self.ack.sack.extend(h.sack_blocks().map(|b| (b.start, b.end)));
        self.sender.on_ack(now, &self.ack);
        self.queue_verdicts();
        Pending { reports: !self.reports.is_empty(), transmit: true }
    }

    fn on_timeout(&mut self, now: SimTime) {
        if self.sender.next_timeout().is_none_or(|d| d > now) {
            return;
        }
        let rtos = self.sender.stats().rto_count;
        self.sender.on_timeout(now);
        self.queue_verdicts();
        if self.sender.stats().rto_count > rtos {
            self.reports.push(Report::Timeout);
        }
    }

    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet> {
        let tx = self.sender.poll_transmit(now)?;
        let cfg = self.sender.config();
        let w = self.wiring;
        Some(Packet {
            uid: 0,
            flow: w.flow,
            src: w.local,
            dst: w.peer,
            size: cfg.packet_size(),
            tag: TraceTag::data(tx.seq, cfg.segment_size, retx_cause(tx.cause)),
            payload: Payload::Tcp(TcpHeader { seq: tx.seq, ts_ecr: self.ts_recent, ..TcpHeader::default() }),
        })
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.sender.next_timeout()
    }

    fn poll_report(&mut self) -> Option<Report> {
        self.reports.pop()
    }

    fn on_notice(&mut self, now: SimTime, notice: &HandoverNotice) {
        self.sender.on_handover_notice(now, notice);
        self.queue_verdicts();
    }

    fn on_app(&mut self, _now: SimTime, offer: AppOffer) {
        let c = self.sender.core();
        let limit = match offer {
            AppOffer::More(units) => c.app_limit().saturating_add(units),
            AppOffer::Stop => c.snd_max(),
        };
        self.sender.set_app_limit(limit);
    }

    fn progress(&self) -> Option<SendProgress> {
        let c = self.sender.core();
        Some(SendProgress { acked: c.snd_una(), sent_max: c.snd_max() })
    }

    fn traced_vars(&self, _path: usize, out: &mut Vec<TracedVar>) {
        self.sender.traced_vars(out);
    }

    fn classifies_losses(&self) -> bool {
        self.sender.loss_classifier().ld().is_some()
    }

    fn engagement(&self, out: &mut Engagement) {
        self.sender.engagement(out);
    }
}

/// Unit of the `state` variable: a code naming a [`CaState`] ([`CaState::NAMES`]).
pub const STATE_UNIT: &str = "code";

/// Names of the codes of the `state` variable.
pub const STATE_NAMES: [&str; 4] = CaState::NAMES;

/// The receiving side of a TCP flow.
#[derive(Clone, Debug)]
pub struct TcpSinkEndpoint {
    sink: TcpSink,
    wiring: Wiring,
    /// Payload bytes of a data segment (for delivered-bytes reports).
    segment_size: u32,
    /// Bytes on the wire of an ACK.
    ack_size: u32,
    acks: Outbox<AckOut>,
    reports: Outbox<Report>,
    /// The round trip measured from the timestamps the sender echoes.
    rtt: ReceiverRtt,
    /// Whether `rtt` is measured: only a run that reads it does (`Endpoint::read_rtt_estimate`).
    measure_rtt: bool,
}

impl TcpSinkEndpoint {
    /// A sink endpoint for segments of `segment_size` payload bytes.
    pub fn new(sink: TcpSink, wiring: Wiring, segment_size: u32, ack_size: u32) -> Self {
        TcpSinkEndpoint {
            sink,
            wiring,
            segment_size,
            ack_size,
            acks: Outbox::default(),
            reports: Outbox::default(),
            rtt: ReceiverRtt::default(),
            measure_rtt: true,
        }
    }

    /// The sink (to inspect its state).
    pub fn sink(&self) -> &TcpSink {
        &self.sink
    }
}

impl Endpoint for TcpSinkEndpoint {
    /// A delivery report if the segment completed data in order; an ACK if the sink's policy
    /// acknowledges now (a delayed ACK waits for its timer or the next segment).
    fn on_packet(&mut self, now: SimTime, pkt: &Packet) -> Pending {
        let Payload::Tcp(h) = &pkt.payload else { return Pending::ANY };
        let r = self.sink.on_data(now, h.seq);
        if r.delivered > 0 {
            if self.measure_rtt {
                self.rtt.on_echo(now, h.ts_ecr);
            }
            let bytes = r.delivered * u64::from(self.segment_size);
            self.reports.push(Report::Delivered { bytes, units: r.delivered });
        }
        self.acks.extend(r.ack);
        Pending { reports: !self.reports.is_empty(), transmit: !self.acks.is_empty() }
    }

    fn on_timeout(&mut self, now: SimTime) {
        self.acks.extend(self.sink.on_timeout(now));
    }

    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet> {
        let ack = self.acks.pop()?;
        let flags = if ack.sig { TCP_FLAG_SIG } else { 0 };
        let ts_val = ts_clock(now);
        let mut h = TcpHeader { ack: ack.ack, window: ack.window, flags, ts_val, ..TcpHeader::default() };
        h.set_sack_blocks(ack.sack.iter().map(|&(start, end)| SackBlock { start, end }));
        let mut tag = TraceTag::ack(ack.ack);
        if ack.window == 0 {
            tag.flags |= TCP_FLAG_ZERO_WINDOW;
        }
        tag.flags |= h.flags & TCP_FLAG_SIG;
        let w = self.wiring;
        Some(Packet { uid: 0, flow: w.flow, src: w.local, dst: w.peer, size: self.ack_size, tag, payload: Payload::Tcp(h) })
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.sink.next_timeout()
    }

    /// The mobile node's link events reach the sink's policy (Freeze-TCP's ZWA and TR-ACKs,
    /// DEMO-Vegas's SIG); the ACKs it asks for go out at once.
    fn on_link_event(&mut self, now: SimTime, ev: &LinkEvent) {
        let ev = match *ev {
            LinkEvent::Imminent { eta, .. } => SinkLinkEvent::Imminent { eta },
            LinkEvent::Down(_) => SinkLinkEvent::Down,
            LinkEvent::Up(_) => SinkLinkEvent::Up,
            LinkEvent::Completed { .. } => SinkLinkEvent::Completed,
        };
        self.acks.extend(self.sink.on_link_event(now, ev));
    }

    fn poll_report(&mut self) -> Option<Report> {
        self.reports.pop()
    }

    fn engagement(&self, out: &mut Engagement) {
        self.sink.engagement(out);
    }

    /// The receiver's smoothed RTT from the echoed timestamps.
    fn rtt_estimate(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    fn read_rtt_estimate(&mut self, read: bool) {
        self.measure_rtt = read;
    }
}
