//! The minimal datagram transport (UDP-like), the reference second transport: each unit the
//! application writes leaves at once as one datagram; the receiver delivers every datagram it
//! gets. No acknowledgment, no retransmission, no congestion control. It exists to show (and
//! test) that a transport plugs into the world through [`Endpoint`] alone, and to offer
//! unresponsive background traffic.

use std::collections::VecDeque;
use vhsim_core::SimTime;
use vhsim_net::{AppOffer, DatagramHeader, Endpoint, LinkEvent, Packet, Payload, Pending, Report, RetxCause, TraceTag, Wiring};

/// Sends the application's writes as datagrams.
#[derive(Clone, Debug)]
pub struct DatagramSource {
    wiring: Wiring,
    size: u32,
    header_size: u32,
    next: u64,
    /// Units written and not sent yet.
    backlog: u64,
    /// Link events received, with their times (the datagram transport ignores them; kept so
    /// tests and users can see what an endpoint on the mobile node is told).
    pub link_events: Vec<(SimTime, LinkEvent)>,
}

impl DatagramSource {
    /// A source of datagrams of `size` payload bytes plus `header_size` bytes of headers.
    pub fn new(wiring: Wiring, size: u32, header_size: u32) -> Self {
        DatagramSource { wiring, size, header_size, next: 0, backlog: 0, link_events: Vec::new() }
    }
}

impl Endpoint for DatagramSource {
    fn on_packet(&mut self, _now: SimTime, _pkt: &Packet) -> Pending {
        Pending { reports: false, transmit: self.backlog > 0 }
    }

    fn on_timeout(&mut self, _now: SimTime) {}

    fn poll_transmit(&mut self, _now: SimTime) -> Option<Packet> {
        if self.backlog == 0 {
            return None;
        }
        self.backlog -= 1;
        let seq = self.next;
        self.next += 1;
        let w = self.wiring;
        Some(Packet {
            uid: 0,
            flow: w.flow,
            src: w.local,
            dst: w.peer,
            size: self.size + self.header_size,
            tag: TraceTag::data(seq, self.size, RetxCause::New),
            payload: Payload::Datagram(DatagramHeader { seq }),
        })
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        None
    }

    fn poll_report(&mut self) -> Option<Report> {
        None
    }

    fn on_link_event(&mut self, now: SimTime, ev: &LinkEvent) {
        self.link_events.push((now, *ev));
    }

    fn on_app(&mut self, _now: SimTime, offer: AppOffer) {
        if let AppOffer::More(units) = offer {
            self.backlog = self.backlog.saturating_add(units);
        }
    }
}

/// Receives datagrams and delivers each one to the application.
#[derive(Clone, Debug, Default)]
pub struct DatagramSink {
    reports: VecDeque<Report>,
    /// Link events received, with their times (see [`DatagramSource::link_events`]).
    pub link_events: Vec<(SimTime, LinkEvent)>,
}

impl Endpoint for DatagramSink {
    fn on_packet(&mut self, _now: SimTime, pkt: &Packet) -> Pending {
        if let Payload::Datagram(_) = pkt.payload {
            self.reports.push_back(Report::Delivered { bytes: u64::from(pkt.tag.payload_bytes), units: 1 });
        }
        Pending { reports: !self.reports.is_empty(), transmit: false }
    }

    fn on_timeout(&mut self, _now: SimTime) {}

    fn poll_transmit(&mut self, _now: SimTime) -> Option<Packet> {
        None
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        None
    }

    fn poll_report(&mut self) -> Option<Report> {
        self.reports.pop_front()
    }

    fn on_link_event(&mut self, now: SimTime, ev: &LinkEvent) {
        self.link_events.push((now, *ev));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vhsim_net::Addr;

    /// `on_packet`'s answer (vhsim-net `Pending`): a `false` means the poll finds nothing.
    #[test]
    fn a_packet_answers_what_the_polls_will_find() {
        let wiring = Wiring { flow: 0, local: Addr(0), peer: Addr(1) };
        let mut source = DatagramSource::new(wiring, 100, 28);
        let mut sink = DatagramSink::default();
        let now = SimTime::ZERO;
        let pkt = {
            source.on_app(now, AppOffer::More(1));
            source.poll_transmit(now).expect("one datagram offered")
        };
        // Nothing left to send: the source says so, and its poll agrees.
        assert_eq!(source.on_packet(now, &pkt), Pending { reports: false, transmit: false });
        assert!(source.poll_transmit(now).is_none());
        source.on_app(now, AppOffer::More(1));
        assert_eq!(source.on_packet(now, &pkt), Pending { reports: false, transmit: true });
        // The sink reports every datagram and sends nothing.
        assert_eq!(sink.on_packet(now, &pkt), Pending { reports: true, transmit: false });
        assert!(sink.poll_report().is_some() && sink.poll_report().is_none());
        assert!(sink.poll_transmit(now).is_none());
    }
}
