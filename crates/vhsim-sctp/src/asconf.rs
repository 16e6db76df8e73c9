//! ASCONF bookkeeping (RFC 5061 §5): the requesting side's serial numbers, queue and T4-RTO,
//! and the responding side's serial check with its cached ASCONF-ACK.
//!
//! Requesting (§5.1): each request gets a correlation id; requests wait in a queue while an
//! ASCONF is outstanding (A3: at most one), and all waiting requests leave together in the next
//! ASCONF, with the next serial number (A2). The T4-RTO timer runs with the RTO of the
//! destination the ASCONF went to (A4); its expiry (B1-B5) is handled by the endpoint, which
//! counts the errors, backs off that RTO and resends the same chunk, to an alternate
//! destination if there is one. The ASCONF-ACK with the outstanding serial ends it (A5).
//!
//! Responding (§5.2): an ASCONF with the next expected serial is processed (E1); one with the
//! serial just processed is a retransmission, answered with the cached ASCONF-ACK (E2); any
//! other is discarded (E5).

use crate::config::AddressOp;
use crate::wire::{AsconfAckChunk, AsconfChunk, AsconfRequest, AsconfResult};
use crate::Addr;
use std::collections::VecDeque;
use vhsim_core::SimTime;

/// Counters of the requesting side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AsconfStats {
    /// ASCONF chunks sent for the first time.
    pub sent: u64,
    /// ASCONF retransmissions after a T4-RTO expiry.
    pub retransmitted: u64,
    /// ASCONF-ACKs that ended an outstanding ASCONF.
    pub acked: u64,
    /// Requests the peer answered with an error cause.
    pub errors: u64,
}

/// The ASCONF in flight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outstanding {
    /// The chunk (resent unchanged).
    pub chunk: AsconfChunk,
    /// Destination (path index) of its latest transmission.
    pub dest: usize,
    /// T4-RTO deadline.
    pub t4: SimTime,
}

/// The requesting side (normally the endpoint on the mobile node).
#[derive(Clone, Debug, Default)]
pub struct AsconfSender {
    next_serial: u32,
    next_correlation: u32,
    queued: VecDeque<AsconfRequest>,
    /// The ASCONF waiting for its ASCONF-ACK.
    pub outstanding: Option<Outstanding>,
    /// Counters.
    pub stats: AsconfStats,
}

impl AsconfSender {
    /// Queue a request.
    pub fn request(&mut self, op: AddressOp) {
        self.next_correlation += 1;
        let correlation = self.next_correlation;
        self.queued.push_back(match op {
            AddressOp::Add(a) => AsconfRequest::AddIp { correlation, addr: a.0 },
            AddressOp::Delete(a) => AsconfRequest::DeleteIp { correlation, addr: a.0 },
            AddressOp::SetPrimary(a) => AsconfRequest::SetPrimary { correlation, addr: a.0 },
        });
    }

    /// Whether a request of `op`'s kind for its address waits in the queue or is outstanding.
    pub fn pending(&self, op: AddressOp) -> bool {
        let same = |r: &AsconfRequest| {
            matches!(
                (op, r),
                (AddressOp::Add(a), AsconfRequest::AddIp { addr, .. })
                    | (AddressOp::Delete(a), AsconfRequest::DeleteIp { addr, .. })
                    | (AddressOp::SetPrimary(a), AsconfRequest::SetPrimary { addr, .. }) if a.0 == *addr
            )
        };
        self.queued.iter().any(same) || self.outstanding.iter().any(|o| o.chunk.requests.iter().any(same))
    }

    /// The next ASCONF, if none is outstanding and requests wait (§5.1 A1-A3): every waiting
    /// request in one chunk. The caller sends it to `dest` and arms T4 at `t4`.
    pub fn next_chunk(&mut self, sender_addr: Addr, dest: usize, t4: SimTime) -> Option<AsconfChunk> {
        if self.outstanding.is_some() || self.queued.is_empty() {
            return None;
        }
        self.next_serial += 1;
        let chunk = AsconfChunk {
            serial: self.next_serial,
            sender_addr: sender_addr.0,
            requests: self.queued.drain(..).collect(),
        };
        self.outstanding = Some(Outstanding { chunk: chunk.clone(), dest, t4 });
        self.stats.sent += 1;
        Some(chunk)
    }

    /// An ASCONF-ACK arrived: the requests of the outstanding ASCONF with their error cause
    /// (`None` = success), or `None` if it does not acknowledge the outstanding serial.
    pub fn on_ack(&mut self, ack: &AsconfAckChunk) -> Option<Vec<(AsconfRequest, Option<u16>)>> {
        if self.outstanding.as_ref().is_none_or(|o| o.chunk.serial != ack.serial) {
            return None;
        }
        let o = self.outstanding.take().expect("checked");
        self.stats.acked += 1;
        let results = o
            .chunk
            .requests
            .iter()
            .map(|r| {
                let cause = ack.results.iter().find_map(|x| match *x {
                    AsconfResult::Error { correlation, cause } if correlation == r.correlation() => {
                        Some(cause)
                    }
                    _ => None,
                });
                (*r, cause)
            })
            .collect::<Vec<_>>();
        self.stats.errors += results.iter().filter(|r| r.1.is_some()).count() as u64;
        Some(results)
    }

    /// T4-RTO deadline of the outstanding ASCONF.
    pub fn t4(&self) -> Option<SimTime> {
        self.outstanding.as_ref().map(|o| o.t4)
    }
}

/// What to do with an arriving ASCONF (§5.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accept {
    /// The next serial: process its requests.
    New,
    /// The serial just processed: send this cached ASCONF-ACK again.
    Duplicate(AsconfAckChunk),
    /// Anything else: discard.
    Stale,
}

/// The responding side (normally the correspondent node).
#[derive(Clone, Debug, Default)]
pub struct AsconfReceiver {
    /// Serial of the last ASCONF processed (0: none; the peer's serials start at 1).
    peer_serial: u32,
    cached: Option<AsconfAckChunk>,
}

impl AsconfReceiver {
    /// Check an ASCONF's serial (§5.2 E1, E2, E5).
    pub fn accept(&self, serial: u32) -> Accept {
        if serial == self.peer_serial.wrapping_add(1) {
            Accept::New
        } else if serial == self.peer_serial {
            self.cached.clone().map_or(Accept::Stale, Accept::Duplicate)
        } else {
            Accept::Stale
        }
    }

    /// The ASCONF `serial` was processed with `results`: the ASCONF-ACK to send (also cached).
    pub fn processed(&mut self, serial: u32, results: Vec<AsconfResult>) -> AsconfAckChunk {
        self.peer_serial = serial;
        let ack = AsconfAckChunk { serial, results };
        self.cached = Some(ack.clone());
        ack
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_outstanding_and_the_queue_leaves_together() {
        let mut s = AsconfSender::default();
        s.request(AddressOp::Add(Addr(4)));
        let c = s.next_chunk(Addr(3), 0, SimTime(10)).unwrap();
        assert_eq!((c.serial, c.requests.len()), (1, 1));
        s.request(AddressOp::SetPrimary(Addr(4)));
        s.request(AddressOp::Delete(Addr(3)));
        assert!(s.pending(AddressOp::Delete(Addr(3))) && s.pending(AddressOp::Add(Addr(4))));
        assert_eq!(s.next_chunk(Addr(3), 0, SimTime(10)), None, "A3: one outstanding");
        let wrong = AsconfAckChunk { serial: 2, results: vec![] };
        assert_eq!(s.on_ack(&wrong), None);
        let ok = AsconfAckChunk { serial: 1, results: vec![AsconfResult::Success { correlation: 1 }] };
        assert_eq!(s.on_ack(&ok).unwrap()[0].1, None);
        let c = s.next_chunk(Addr(4), 0, SimTime(20)).unwrap();
        assert_eq!((c.serial, c.requests.len(), c.sender_addr), (2, 2, 4));
    }

    #[test]
    fn receiver_processes_the_next_serial_and_answers_a_repeat_from_its_cache() {
        let mut r = AsconfReceiver::default();
        assert_eq!(r.accept(2), Accept::Stale);
        assert_eq!(r.accept(1), Accept::New);
        let ack = r.processed(1, vec![AsconfResult::Success { correlation: 7 }]);
        assert_eq!(r.accept(1), Accept::Duplicate(ack));
        assert_eq!(r.accept(0), Accept::Stale);
        assert_eq!(r.accept(2), Accept::New);
    }
}
