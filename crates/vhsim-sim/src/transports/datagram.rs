//! The minimal datagram transport (UDP-like), the reference second transport: each unit the
//! application writes leaves at once as one datagram; the receiver delivers every datagram it
//! gets. No acknowledgment, no retransmission, no congestion control. It exists to show (and
//! test) that a transport plugs into the world through [`Endpoint`] alone, and to offer
//! unresponsive background traffic.

use std::collections::VecDeque;
use vhsim_core::SimTime;
use vhsim_net::{AppOffer, DatagramHeader, Endpoint, LinkEvent, Packet, Payload, Report, RetxCause, TraceTag, Wiring};

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
    fn on_packet(&mut self, _now: SimTime, _pkt: &Packet) {}

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
    fn on_packet(&mut self, _now: SimTime, pkt: &Packet) {
        if let Payload::Datagram(_) = pkt.payload {
            self.reports.push_back(Report::Delivered { bytes: u64::from(pkt.tag.payload_bytes), units: 1 });
        }
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
