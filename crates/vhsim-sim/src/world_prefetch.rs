//! Prefetching ahead of the events (issue #29, docs/performance.md "Issue #29: memory locality
//! at 10,000 flows"). With thousands of flows, consecutive events belong to different flows in
//! no order, and the state an event touches (its packet in the slab, its flow's record, the
//! observers' record of the flow, the endpoint that gets the packet) is no longer in the
//! caches. While the loop handles one event, it names what the coming ones will touch, in
//! three stages, each reading only what an earlier stage fetched:
//!
//! 1. two arrivals ahead on the current event's link (its lane, FIFO): the packet's slot;
//! 2. the next arrival on that link: read its packet (fetched at stage 1) for its flow, fetch
//!    the flow's record, the observers' record of the flow (its counters and ground truth), the
//!    routing records of the mobile node it comes from or goes to and the table entry of its
//!    destination at the node it arrives at;
//! 3. the next event of the queue (`EventQueue::peek`): fetch what the routing records
//!    (fetched at stage 2) point to and, if the event delivers the packet, read the records
//!    fetched at stage 2 for the endpoint's state and the ground truth's record of the data
//!    unit (or, for an ACK, the oldest record, which it settles), and fetch those and the
//!    table entry of the reply's route at that node; if it is an
//!    endpoint's timer, read its flow record and fetch the endpoint's state and records.
//!
//! The scheduled events (endpoint timers, flow starts: in a run of many flows most of them are
//! a flow's first touch in a long while) have stages of their own, run when one of them pops,
//! so that each coming one passes each stage once: the queue keeps the next few sorted
//! (`EventQueue::peek_scheduled`), and the one `FAR` places behind the next gets its flow
//! record and the observers' record of the flow fetched, the one `NEAR` places behind it what
//! those records point to (the endpoint's state, the ground truth's oldest record and its
//! retransmissions awaiting their labels), the next one what those point to (the sender's
//! oldest outstanding segment, the end of that list of retransmissions).
//!
//! A prefetch changes no value (vhsim-core `prefetch`): the run is the same with or without.

use super::World;
use crate::event::Event;
use vhsim_core::prefetch::prefetch;
use vhsim_net::{Packet, UnitKind};

/// From this many flows on, the run loop prefetches. Below, the flows' state (4-8 KB each while
/// active) fits the processor's second-level cache (1 MB on the machine measured) and the
/// stages would cost their instructions (about 200 per event, a fifth more) for nothing.
pub(super) const FROM_FLOWS: usize = 256;
/// How much of an endpoint's state stage 3 fetches: a TCP sender's core is about 1 KB.
const ENDPOINT_BYTES: usize = 1024;
/// The scheduled event whose flow's records are fetched, counted behind the next one ...
const FAR: usize = 3;
/// ... and the one whose endpoint and records behind them are (module docs).
const NEAR: usize = 1;
const _: () = assert!(NEAR < FAR && FAR < vhsim_core::SCHEDULED_LOOKAHEAD, "the queue names both");

impl World {
    /// Called by the event loop with the event `ev` just popped, before it is handled.
    #[inline(always)]
    pub(super) fn prefetch_ahead(&self, ev: &Event) {
        // (Everything is looked up with `get`: a hint never panics.)
        if !matches!(ev, Event::Arrive(..) | Event::TxDone(_) | Event::HandoverNotice(_)) {
            // A scheduled event (the classes `Timeline` and `Timer`): the next ones moved up.
            self.prefetch_scheduled();
        }
        if let Event::Arrive(l, _) = *ev {
            if let Some(slot) = self.queue.peek_lane(l, 1).and_then(|e| self.slot_of(e)) {
                prefetch(slot, usize::MAX);
            }
            if let Some(pkt) = self.queue.peek_lane(l, 0).and_then(|e| self.arriving(e)) {
                let f = pkt.flow as usize;
                self.prefetch_flow_records(f);
                if let Some(bins) = self.obs.traces.goodput.bins.get(f) {
                    prefetch(bins, usize::MAX);
                }
                self.routing.prefetch(pkt, false);
                if let Some(link) = self.scenario.links.get(l as usize) {
                    self.routing.prefetch_route(link.to, pkt.dst);
                }
            }
        }
        match self.queue.peek() {
            Some((_, next @ Event::Arrive(l, _))) => {
                let Some(pkt) = self.arriving(next) else { return };
                self.routing.prefetch(pkt, true);
                let to = self.scenario.links[*l as usize].to;
                // Delivered in that event: at its destination node, or through a cell to a
                // mobile node (the attachment is crossed at once).
                if let (Some(flow), Some(record)) = (self.flows.get(pkt.flow as usize), self.obs.flows.get(pkt.flow as usize)) {
                    if self.scenario.nodes[to as usize].cell || self.routing.is_local(to, pkt.dst) {
                        let data = pkt.tag.kind == UnitKind::Data;
                        flow.endpoints[usize::from(data)].prefetch(ENDPOINT_BYTES);
                        // The route of the reply (an ACK for data, data for an ACK).
                        self.routing.prefetch_route(to, pkt.src);
                        // The ground truth of the data unit delivered, or the records an ACK settles.
                        if let Some(truth) = record.truth.as_ref() {
                            truth.prefetch(data.then_some(pkt.tag.seq));
                        }
                    }
                }
            }
            Some((_, Event::EndpointTimer { flow, side })) => {
                // Usually fetched already by the scheduled stages; not a timer that joined the
                // queue's sorted front late (due sooner than the next few): its flow record is
                // read now, and the endpoint's lines then come at once instead of one after
                // another as its timeout reads them.
                if let Some(fl) = self.prefetch_flow_records(*flow as usize) {
                    fl.endpoints[usize::from(*side != 0)].prefetch(ENDPOINT_BYTES);
                }
            }
            _ => {}
        }
    }

    /// The stages of the scheduled events (module docs).
    #[inline(never)]
    fn prefetch_scheduled(&self) {
        if let Some((f, _)) = self.queue.peek_scheduled(FAR).and_then(scheduled_flow) {
            self.prefetch_flow_records(f);
        }
        if let Some((f, side)) = self.queue.peek_scheduled(NEAR).and_then(scheduled_flow) {
            if let (Some(flow), Some(record)) = (self.flows.get(f), self.obs.flows.get(f)) {
                flow.endpoints[side].prefetch(ENDPOINT_BYTES);
                // A timeout retransmits the oldest unit (and adds to the flow's retransmissions);
                // a start sends the first.
                if let Some(truth) = record.truth.as_ref() {
                    truth.prefetch(None);
                    truth.prefetch_retx();
                }
            }
        }
        if let Some((f, side)) = self.queue.peek_scheduled(0).and_then(scheduled_flow) {
            // The next one: what the records fetched at the stage before point to (a timeout
            // marks the sender's oldest outstanding segment and adds to the flow's list of
            // retransmissions).
            if let (Some(flow), Some(record)) = (self.flows.get(f), self.obs.flows.get(f)) {
                flow.endpoints[side].prefetch_timeout();
                if let Some(truth) = record.truth.as_ref() {
                    truth.prefetch_retx_end();
                }
            }
        }
    }

    /// The first stage of flow `f`'s coming event: its flow record and the observers' record
    /// of it (ground truth, counters). Returns the flow record (to read only if it was
    /// fetched by an earlier stage: reading it here may wait for memory).
    #[inline(always)]
    fn prefetch_flow_records(&self, f: usize) -> Option<&crate::flow::Flow> {
        let (flow, record) = (self.flows.get(f)?, self.obs.flows.get(f)?);
        prefetch(flow, usize::MAX);
        prefetch(&record.truth, usize::MAX);
        prefetch(&record.counters, usize::MAX);
        Some(flow)
    }

    /// The slab slot of an `Arrive` event.
    #[inline(always)]
    fn slot_of(&self, ev: &Event) -> Option<&Option<Packet>> {
        match *ev {
            Event::Arrive(_, slot) => self.in_flight.slots.get(slot as usize),
            _ => None,
        }
    }

    /// The packet an `Arrive` event carries.
    #[inline(always)]
    fn arriving(&self, ev: &Event) -> Option<&Packet> {
        self.slot_of(ev)?.as_ref()
    }
}

/// The flow and endpoint side a scheduled event drives: an endpoint's timer, or a flow's start
/// (its sending side first).
#[inline(always)]
fn scheduled_flow(ev: &Event) -> Option<(usize, usize)> {
    match *ev {
        Event::EndpointTimer { flow, side } => Some((flow as usize, usize::from(side != 0))),
        Event::FlowStart(f) => Some((f as usize, 0)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::fingerprint::{fingerprint, Fingerprint};
    use crate::RunOutput;
    use vhsim_scenario::Detail;

    fn run(sc: &vhsim_scenario::Scenario, prefetch: bool) -> (Fingerprint, u64) {
        let mut world = crate::build::build(sc, Detail::Packets);
        world.prefetch = prefetch;
        let events = world.run();
        world.finish();
        let summary = crate::summary::summarize(&world, events, 0.0);
        let traces = std::mem::take(&mut world.obs.traces);
        (fingerprint(&RunOutput { summary, traces, captures: Vec::new(), flow_table: None }), events)
    }

    #[test]
    fn prefetching_changes_no_run() {
        // The handover storm with enough users to prefetch (a shared cell, a binding with
        // latency, a forced handover of every user at 30 s): the same run, packet by packet,
        // with and without.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let text = std::fs::read_to_string(root.join("scenarios/examples/handover-storm.toml")).expect("the storm example");
        let overrides = [("populations[0].count", "260"), ("duration", "33s")].map(|(k, v)| (k.to_string(), v.to_string()));
        let sc = vhsim_scenario::load(&text, &overrides).expect("the storm loads");
        assert!(sc.flows.len() >= super::FROM_FLOWS, "enough flows to prefetch");
        let (on, events) = run(&sc, true);
        assert_eq!((on, events), run(&sc, false));
        assert!(events > 100_000, "the users exchange data: {events} events");
    }
}
