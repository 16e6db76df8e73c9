//! The world: nodes, links, endpoints and agents driven by one event queue. It routes, queues
//! and delivers packets, and drives the endpoints; it never builds or reads a transport header
//! (endpoints do, behind `vhsim_net::Endpoint`), and it records nothing itself (the observers
//! do, `crate::observe`).
//!
//! A packet's life: an endpoint's `poll_transmit` hands it out (the world gives it a uid); the
//! agents at its node see it; the node forwards it by destination address (`crate::routing`)
//! to a link direction, which queues, serializes, loses or delays it (`vhsim_net::Link`); at
//! the far end the next node's agents see it, and the node forwards it again or, if the
//! address is its own, hands it to the flow's endpoint there.
//!
//! Endpoint timers are lazy: each endpoint has at most one pending wake-up event, at the
//! earliest deadline it reported; when the wake-up fires, the endpoint is asked again, so
//! restarting the RTO on every ACK costs no event.
//!
//! Frames leave early: when a link starts serializing a frame that nothing waits behind and
//! that can be lost only by the link going down, the frame's `Arrive` is scheduled at once and
//! no `TxDone` is, its key only reserved (vhsim-net `link`, vhsim-core `events`). The queue
//! orders the `Arrive` as if that `TxDone` had pushed it; the `TxDone` is pushed after all
//! (with its reserved key) if a packet queues behind the frame, and the frame is called back
//! onto the link if the link changes before the frame's serialization ends
//! ([`World::link_mut`]). So the order of the events that remain is the order they had with a
//! `TxDone` per frame (checked scenario by scenario in `crate::order_tests`).
//!
//! The helpers called once per packet or endpoint input (`left_early`, `drain_reports`,
//! `enter_network`, `sync_endpoint_timer`) are inlined: as calls, their register saves and
//! argument moves cost a large part of their work (docs/performance.md, "Issue #28: fewer
//! calls per packet"). `handle` and `pump` stay calls: inlined, they made LLVM outline others.

use crate::agents::{AgentAction, AnyAgent, Hook, NodeAgent, Verdict};
use crate::control::{RunControl, CHECK_EVERY};
use crate::event::Event;
use crate::flow::Flow;
use crate::handover::HandoverRecord;
use crate::observe::Observers;
use crate::routing::{Hop, Routing};
use crate::starts::StartCursor;
use vhsim_core::{EventClass, EventQueue, Moment, SimDuration, SimTime};
use vhsim_net::{DropCause, Endpoint, Link, LinkParams, Offer, Packet, NO_FLOW};
use std::sync::Arc;
use vhsim_scenario::{Action, Scenario, StopRule};

/// How often a run with `metrics.stop = "when_complete"` asks whether its metrics are
/// determined, in simulated time.
const STOP_CHECK_EVERY: SimDuration = SimDuration::from_millis(1);

/// The simulated world of one run. A clone continues the run independently (the branches of
/// `crate::branch`).
#[derive(Clone)]
pub struct World {
    /// The scenario, shared with the caller (not a copy: `crate::build::IntoShared`).
    pub(crate) scenario: Arc<Scenario>,
    pub(crate) queue: EventQueue<Event>,
    pub(crate) links: Vec<Link>,
    pub(crate) routing: Routing,
    /// Packets that reached the far end of a paused link, held until it resumes.
    pub(crate) held: Vec<Vec<Packet>>,
    /// The fate of the packets that were propagating on a link when a forced handover failed it
    /// (`until` = the failure + the link's delay; `delivered` = `in_flight = "delivered"`),
    /// whatever the link's state when they arrive: a completion that restores the link before
    /// they arrive does not bring back those `in_flight = "lost"` lost.
    pub(crate) failed_in_transit: Vec<Option<InTransit>>,
    /// Packets propagating towards the far end of a link (their `Arrive` events carry the slot).
    in_flight: Slab,
    /// The node at the far end of each link direction (the scenario's `to`, at hand per
    /// arrival), with `LINK_CHANGED` set while the link may be down, paused or failed.
    far_end: Vec<u32>,
    /// Per link direction, the frame on the wire that left early, if any.
    early: Vec<Option<Early>>,
    /// Whether frames may leave early (off: a `TxDone` per frame, for the tests that compare).
    pub(crate) leave_early: bool,
    /// Whether the run loop prefetches ahead of the events: only once the flows' state
    /// outgrows the caches (`world_prefetch.rs`; off or on, the same run).
    pub(crate) prefetch: bool,
    /// The events handled, for the tests that compare orders.
    #[cfg(test)]
    pub(crate) log: Option<Vec<(u64, order_tests::Logged)>>,
    /// Handovers of the run, in time order.
    pub(crate) handovers: Vec<HandoverRecord>,
    pub(crate) flows: Vec<Flow>,
    pub(crate) agents: Vec<AnyAgent>,
    /// Agents of each node, in file order (empty when the run has none: [`World::agents_at`]).
    agents_at: Vec<Vec<u32>>,
    /// The mobile nodes' attachments to shared cells (`crate::cells`).
    pub(crate) cells: Vec<crate::cells::AttachState>,
    /// Flows and handovers by mobile node.
    pub(crate) by_mobile: crate::handover::ByMobile,
    agent_wakeup: Vec<Option<SimTime>>,
    /// The flows' start events, pushed one at a time (`crate::starts`).
    starts: StartCursor,
    pub(crate) obs: Observers,
    next_uid: u64,
    pub(crate) now: SimTime,
    /// When the run stopped because its metrics were determined (`metrics.stop`).
    pub(crate) stopped_at: Option<SimTime>,
}

impl World {
    /// Assemble a world; its parts are built by [`crate::build`].
    pub(crate) fn new(scenario: Arc<Scenario>, links: Vec<Link>, flows: Vec<Flow>, agents: Vec<AnyAgent>, obs: Observers) -> Self {
        let handovers = obs.handovers.clone();
        let mut queue = EventQueue::new();
        let mut starts = StartCursor::default();
        for (i, (f, fl)) in scenario.flows.iter().zip(&flows).enumerate() {
            starts.reserve(&mut queue, i as u32, fl.start);
            if let Some(stop) = f.stop {
                queue.push(stop, EventClass::Timeline, Event::FlowStop(i as u32));
            }
        }
        for (i, e) in scenario.timeline.iter().enumerate() {
            queue.push(e.at, EventClass::Timeline, Event::Timeline(i as u32));
        }
        for (k, h) in handovers.iter().enumerate() {
            let warning = scenario.mobiles[h.mobile as usize].warning;
            if warning > SimDuration::ZERO {
                queue.push(h.start - warning, EventClass::Timeline, Event::HandoverWarning(k as u32));
            }
        }
        starts.begin(&mut queue, &flows);
        // No list per node when the run has no agent (a population's nodes: issue #29).
        let lists = if scenario.agents.is_empty() { 0 } else { scenario.nodes.len() };
        let mut agents_at = vec![Vec::new(); lists];
        for (i, a) in scenario.agents.iter().enumerate() {
            agents_at[a.node as usize].push(i as u32);
        }
        let routing = Routing::new(&scenario);
        let by_mobile = crate::handover::ByMobile::new(&scenario, &handovers);
        let mut flows = flows;
        // The endpoints' own RTT estimates are read only for warnings timed by them.
        for ep in flows.iter_mut().flat_map(|f| f.endpoints.iter_mut()) {
            ep.read_rtt_estimate(by_mobile.srtt);
        }
        World {
            cells: vec![crate::cells::AttachState::default(); routing.attachments.len()],
            by_mobile,
            routing,
            held: vec![Vec::new(); links.len()],
            failed_in_transit: vec![None; links.len()],
            in_flight: Slab::default(),
            far_end: scenario.links.iter().map(|l| l.to).collect(),
            early: vec![None; links.len()],
            leave_early: true,
            prefetch: flows.len() >= prefetch::FROM_FLOWS,
            #[cfg(test)]
            log: None,
            agent_wakeup: vec![None; agents.len()],
            scenario,
            queue,
            starts,
            links,
            handovers,
            flows,
            agents,
            agents_at,
            obs,
            next_uid: 0,
            now: SimTime::ZERO,
            stopped_at: None,
        }
    }

    /// The TCP sender of flow `f`, if it is a TCP flow (for tests and tools that inspect
    /// endpoint state after a run).
    pub fn tcp_sender(&self, f: usize) -> Option<&vhsim_tcp::TcpSender> {
        self.flows[f].endpoints[0].tcp_sender()
    }

    /// Endpoint `side` (0 = sending, 1 = receiving) of flow `f`.
    pub fn endpoint(&self, f: usize, side: usize) -> &crate::transports::AnyEndpoint {
        &self.flows[f].endpoints[side]
    }

    /// Run until the scenario's duration; returns the number of events processed.
    pub fn run(&mut self) -> u64 {
        self.run_with(&RunControl::new())
    }

    /// [`World::run`] under `control`: every `CHECK_EVERY` events the progress is published
    /// and the stop flag read; a stopped run returns at once, `now` where it stopped.
    pub fn run_with(&mut self, control: &RunControl) -> u64 {
        let end = SimTime::ZERO + self.scenario.duration;
        let stop_early = self.scenario.metrics.stop == StopRule::WhenComplete;
        let mut next_stop_check = SimTime::ZERO;
        let prefetch = self.prefetch;
        control.publish(0, end.0, 0);
        while let Some((t, ev)) = self.queue.pop_due(end) {
            self.now = t;
            #[cfg(test)]
            self.log_event(&ev);
            if prefetch {
                self.prefetch_ahead(&ev);
            }
            self.handle(ev);
            let popped = self.queue.popped();
            if popped.is_multiple_of(CHECK_EVERY) {
                control.publish(t.0, end.0, popped);
                if control.stop_requested() {
                    return popped;
                }
            }
            // Looked at once per `STOP_CHECK_EVERY` of simulated time after the last metric
            // window has passed: the rule costs a pass over the flows' open records, and the
            // stop time depends on the simulated time only (not on how many events the engine
            // needs to get there).
            if stop_early && t >= self.obs.earliest_complete && t >= next_stop_check {
                next_stop_check = t + STOP_CHECK_EVERY;
                if self.obs.complete(t) {
                    self.stopped_at = Some(t);
                    control.publish(t.0, end.0, popped);
                    return popped;
                }
            }
        }
        self.now = end;
        self.queue.pass_through(end);
        control.publish(end.0, end.0, self.queue.popped());
        self.queue.popped()
    }

    pub(crate) fn handle(&mut self, ev: Event) {
        match ev {
            Event::TxDone(l) => self.on_tx_done(l),
            Event::Arrive(link, slot) => {
                let pkt = self.in_flight.take(slot);
                self.on_arrive(link, pkt);
            }
            _ => self.handle_other(ev),
        }
    }

    /// Events other than a packet's: out of line, so that the packet path stays small.
    #[inline(never)]
    fn handle_other(&mut self, ev: Event) {
        match ev {
            Event::TxDone(_) | Event::Arrive(..) => unreachable!("handled by handle"),
            Event::LinkWake(l) => {
                if let Some(d) = self.links[l as usize].wake(self.now) {
                    self.schedule_arrival(l, d.at, d.packet);
                }
            }
            Event::EndpointTimer { flow, side } => self.on_endpoint_timer(flow, side as usize),
            Event::AgentTimer(a) => self.on_agent_timer(a),
            Event::FlowStart(f) => {
                self.starts.push_next(&mut self.queue, &self.flows);
                self.flows[f as usize].started = true;
                self.app_start(f);
                self.pump(f, 0);
            }
            Event::FlowStop(f) => self.app_stop(f),
            Event::AppWrite(f) => self.on_app_write(f),
            Event::Timeline(i) => self.on_timeline(i),
            Event::HandoverWarning(k) => self.on_handover_warning(k),
            Event::HandoverDone(k) => self.on_handover_done(k),
            Event::BindingUpdate(k) => self.on_binding_update(k),
            Event::HandoverNotice(k) => self.on_handover_notice(k),
        }
    }

    fn on_timeline(&mut self, i: u32) {
        let action = self.scenario.timeline[i as usize].action.clone();
        match action {
            Action::Handover { .. } => self.on_handover_start(i),
            Action::LinkDown { links } => links.iter().for_each(|&l| self.link_mut(l).set_up(false)),
            Action::LinkUp { links } => links.iter().for_each(|&l| self.link_mut(l).set_up(true)),
            Action::SetLink { links, rate, delay } => {
                for l in links {
                    let link = self.link_mut(l);
                    let p = link.params();
                    link.set_params(LinkParams { rate: rate.unwrap_or(p.rate), delay: delay.unwrap_or(p.delay) });
                }
            }
        }
    }

    #[inline(always)]
    fn on_arrive(&mut self, link: u32, pkt: Packet) {
        // The usual case in one test: a link never changed (or found plain since) is up, not
        // paused and failed by no forced handover.
        let to = self.far_end[link as usize];
        if to & LINK_CHANGED == 0 {
            return self.at_node(to, pkt, Some(link), 0);
        }
        self.arrive_on_changed_link(link, pkt);
    }

    /// Link `l` may be down, paused or failed from now on: its arrivals take the full test.
    pub(crate) fn mark_link_changed(&mut self, l: u32) {
        self.far_end[l as usize] |= LINK_CHANGED;
    }

    /// A packet arrives on a link that changed (it may be down, paused or failed by a forced
    /// handover); a link found plain again goes back to the one test.
    #[inline(never)]
    fn arrive_on_changed_link(&mut self, link: u32, pkt: Packet) {
        let l = link as usize;
        let in_transit = self.failed_in_transit[l].filter(|t| self.now <= t.until);
        if in_transit.is_none() && self.links[l].is_up() && !self.links[l].is_paused() {
            self.far_end[l] &= !LINK_CHANGED;
        }
        // A down link also loses what was propagating on it (Daniel & Kojo §3: the error
        // model at the far end of the old access link drops packets in transit).
        let lost = match self.failed_in_transit[link as usize] {
            Some(t) if self.now <= t.until => !t.delivered,
            _ => !self.links[link as usize].is_up(),
        };
        if lost {
            self.drop_packet(Some(link), &pkt, DropCause::LinkDown);
        } else if self.links[link as usize].is_paused() {
            self.held[link as usize].push(pkt);
        } else {
            let node = self.scenario.links[link as usize].to;
            self.at_node(node, pkt, Some(link), 0);
        }
    }

    /// The agents of `node`, in file order.
    #[inline(always)]
    pub(crate) fn agents_at(&self, node: u32) -> &[u32] {
        self.agents_at.get(node as usize).map_or(&[], Vec::as_slice)
    }

    /// `pkt` is at `node` (arrived on `arrived_on`, or leaving an endpoint there): the node's
    /// agents from the `first_agent`-th on see it, then the node delivers or forwards it.
    pub(crate) fn at_node(&mut self, node: u32, mut pkt: Packet, arrived_on: Option<u32>, first_agent: usize) {
        let local = self.routing.is_local(node, pkt.dst);
        // Most nodes have no agent: the hook is not even built.
        if !self.agents_at.is_empty() && first_agent < self.agents_at[node as usize].len() && !self.through_agents(node, &mut pkt, arrived_on, first_agent, local) {
            return;
        }
        if local {
            self.deliver(node, pkt);
        } else {
            self.forward(node, pkt);
        }
    }

    /// The agents of `node` from the `first_agent`-th on see `pkt`; false if one of them
    /// stopped it (held, dropped or consumed it).
    #[inline(never)]
    fn through_agents(&mut self, node: u32, pkt: &mut Packet, arrived_on: Option<u32>, first_agent: usize, local: bool) -> bool {
        for j in first_agent..self.agents_at[node as usize].len() {
            let a = self.agents_at[node as usize][j];
            let next_link = if local { None } else { self.routing.peek_hop(node, pkt) };
            let hook = Hook { arrived_on, local, next_link };
            let verdict = self.agents[a as usize].on_packet(self.now, pkt, hook);
            self.agent_outputs(a);
            match verdict {
                Verdict::Forward => {}
                Verdict::Hold => return false,
                Verdict::Drop => {
                    self.drop_packet(None, pkt, DropCause::Agent);
                    return false;
                }
                Verdict::Consume => {
                    if local {
                        let path = self.trace_path(pkt);
                        self.obs.arrived(self.now, pkt, path);
                    }
                    return false;
                }
            }
        }
        true
    }

    /// Hand `pkt` to the link leading from `node` towards its destination.
    fn forward(&mut self, node: u32, pkt: Packet) {
        match self.routing.next_hop(node, &pkt) {
            Hop::Link(link) => {
                self.settle(link);
                if self.leave_early {
                    if let Some((done, at)) = self.links[link as usize].leave_at_once(self.now, pkt.size) {
                        if self.obs.captures_link(link) {
                            self.obs.on_wire(self.now, link, &pkt, 1);
                        }
                        return self.left_early(link, done, at, pkt);
                    }
                }
                match self.links[link as usize].offer(self.now, pkt) {
                    Offer::Transmitting(done) => self.started_serializing(link, done),
                    Offer::Queued => self.wait_behind(link),
                    Offer::Dropped(pkt, cause) => self.drop_packet(Some(link), &pkt, cause),
                }
            }
            Hop::Attach(a) => self.cross_attachment(node, a, pkt),
            Hop::Drop(cause) => self.drop_packet(None, &pkt, cause),
            // Validation guarantees routes for every flow; a missing one is a world bug.
            Hop::Unroutable => debug_assert!(false, "no route from node {node} to address {:?}", pkt.dst),
        }
    }

    /// Link `l` started serializing a frame (a new one, or an ARQ retry) that ends at `done`:
    /// its `TxDone`, or it leaves early (module docs).
    pub(crate) fn started_serializing(&mut self, l: u32, done: SimTime) {
        if self.obs.captures_link(l) {
            if let Some((pkt, attempt)) = self.links[l as usize].on_wire() {
                self.obs.on_wire(self.now, l, pkt, attempt);
            }
        }
        let link = &mut self.links[l as usize];
        if self.leave_early && link.can_leave_early() {
            let d = link.leave_early(done);
            self.left_early(l, done, d.at, d.packet);
        } else {
            self.queue.push(done, EventClass::Packet, Event::TxDone(l));
        }
    }

    /// `pkt` left link `l` early: its serialization ends at `done` (no `TxDone`: its key is
    /// reserved), it arrives at the far end at `at`.
    #[inline(always)]
    fn left_early(&mut self, l: u32, done: SimTime, at: SimTime, pkt: Packet) {
        let tx_done = self.queue.reserve(done, EventClass::Packet);
        let slot = self.in_flight.put(pkt);
        let arrival = self.queue.push_lane_as_of(tx_done, l, at, EventClass::Packet, Event::Arrive(l, slot));
        self.early[l as usize] = Some(Early { tx_done, arrival, slot, pushed: false });
    }

    /// Before link `l` is offered a packet: if the frame that left it early has ended its
    /// serialization (its `TxDone` would have been processed), the link is free.
    #[inline]
    fn settle(&mut self, l: u32) {
        if let Some(e) = self.early[l as usize].as_ref() {
            if !e.pushed && self.queue.passed(e.tx_done) {
                self.early[l as usize] = None;
                let next = self.links[l as usize].end_early(self.now);
                debug_assert!(next.is_none(), "nothing waited behind a frame that left early");
            }
        }
    }

    /// A packet queued at link `l`: if the frame on the wire left early, its `TxDone` is needed
    /// after all, to start the packet's serialization; it gets the key it would have had.
    fn wait_behind(&mut self, l: u32) {
        if let Some(e) = self.early[l as usize].as_mut().filter(|e| !e.pushed) {
            e.pushed = true;
            self.queue.push_reserved(e.tx_done, Event::TxDone(l));
        }
    }

    /// Link `l`, about to change (up/down, rate, delay, pause): a frame that left it early and
    /// whose serialization has not ended is called back first, with its `TxDone` pushed, so
    /// the change meets it on the link as it did before frames left early.
    pub(crate) fn link_mut(&mut self, l: u32) -> &mut Link {
        self.mark_link_changed(l);
        self.settle(l);
        if let Some(e) = self.early[l as usize].take() {
            self.queue.cancel(e.arrival).expect("the arrival of a frame still on the wire is waiting");
            let pkt = self.in_flight.take(e.slot);
            self.links[l as usize].call_back(pkt);
            if !e.pushed {
                self.queue.push_reserved(e.tx_done, Event::TxDone(l));
            }
        }
        &mut self.links[l as usize]
    }

    pub(crate) fn drop_packet(&mut self, link: Option<u32>, pkt: &Packet, cause: DropCause) {
        let path = self.trace_path(pkt);
        self.obs.dropped(self.now, link, pkt, cause, path);
    }

    fn on_tx_done(&mut self, l: u32) {
        // (Tested before it is taken: most links have no frame that left early.)
        if let Some(e) = self.early[l as usize].is_some().then(|| self.early[l as usize].take()).flatten() {
            // The end of a frame that left early, pushed because a packet waits behind it.
            debug_assert!(e.pushed);
            if let Some(done) = self.links[l as usize].end_early(self.now) {
                self.started_serializing(l, done);
            }
            return;
        }
        // The dropped packet, if any, is written in place (no move of a whole packet out of
        // `Departed` on every transmission: most have none).
        let mut dropped = None;
        let mut out = Departed { slab: &mut self.in_flight, arrivals: [(SimTime::ZERO, 0); 2], n: 0, dropped: &mut dropped };
        let f = self.links[l as usize].finish_into(self.now, &mut out);
        let (arrivals, n) = (out.arrivals, out.n);
        if let Some(done) = f.next_done {
            self.started_serializing(l, done);
        }
        if let Some(t) = f.wake {
            // Timer class: after the packet events of the same time (vhsim-net `link` docs).
            self.queue.push(t, EventClass::Timer, Event::LinkWake(l));
        }
        for &(at, slot) in &arrivals[..n] {
            self.queue.push_lane(l, at, EventClass::Packet, Event::Arrive(l, slot));
        }
        if let Some((pkt, cause)) = dropped {
            self.drop_packet(Some(l), &pkt, cause);
        }
    }

    /// `pkt` arrives at the far end of link `l` at `at`.
    pub(crate) fn schedule_arrival(&mut self, l: u32, at: SimTime, pkt: Packet) {
        let slot = self.in_flight.put(pkt);
        // A link's arrivals come in time order: its lane of the queue (vhsim-core `events`).
        self.queue.push_lane(l, at, EventClass::Packet, Event::Arrive(l, slot));
    }

    /// `pkt` reached `node`, which owns its destination address: the flow's endpoint there
    /// takes it.
    fn deliver(&mut self, node: u32, pkt: Packet) {
        let f = pkt.flow;
        if f == NO_FLOW {
            return; // an agent's packet no agent at its destination consumed
        }
        let side = self.flows[f as usize].side_at(node);
        let path = self.trace_path(&pkt);
        self.obs.arrived(self.now, &pkt, path);
        // The polls the endpoint says would find nothing are skipped (vhsim-net `Pending`).
        let pending = self.flows[f as usize].endpoints[side].on_packet(self.now, &pkt);
        if pending.reports {
            self.drain_reports(f, side);
        }
        if let Some(p) = self.flows[f as usize].endpoints[side].progress() {
            self.obs.progressed(self.now, f, p);
        }
        self.pump_if(f, side, pending.transmit);
        self.after_mn_input(f, side);
    }

    fn on_endpoint_timer(&mut self, f: u32, side: usize) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        if fl.wakeup[side] == Some(now) {
            fl.wakeup[side] = None;
        }
        if fl.endpoints[side].poll_timeout().is_some_and(|d| d <= now) {
            fl.endpoints[side].on_timeout(now);
            self.after_input(f, side);
        } else {
            self.sync_endpoint_timer(f, side);
        }
    }

    /// After any input to endpoint `side` of flow `f`: its reports go to the observers, then
    /// it sends what it may.
    pub(crate) fn after_input(&mut self, f: u32, side: usize) {
        self.drain_reports(f, side);
        self.pump(f, side);
        self.after_mn_input(f, side);
    }

    #[inline(always)]
    fn drain_reports(&mut self, f: u32, side: usize) {
        // The sender's progress is read once, and only when there is a report (most calls
        // have none); reports do not change it.
        let mut progress = None;
        let endpoints = &mut self.flows[f as usize].endpoints;
        while let Some(r) = endpoints[side].poll_report() {
            let p = *progress.get_or_insert_with(|| endpoints[0].progress());
            self.obs.report(self.now, f, r, p);
        }
    }

    /// Send everything endpoint `side` of flow `f` allows now, then record its variables and
    /// re-arm its wake-up.
    #[inline(always)]
    pub(crate) fn pump(&mut self, f: u32, side: usize) {
        self.pump_if(f, side, true);
    }

    /// [`World::pump`], with the transmit polls skipped unless `transmit` (the endpoint said
    /// it has nothing to send: vhsim-net `Pending`).
    fn pump_if(&mut self, f: u32, side: usize, transmit: bool) {
        if !self.flows[f as usize].started {
            return;
        }
        if transmit {
            let node = self.flows[f as usize].nodes[side];
            while let Some(mut pkt) = self.flows[f as usize].endpoints[side].poll_transmit(self.now) {
                self.enter_network(node, &mut pkt);
                self.at_node(node, pkt, None, 0);
            }
        }
        if side == 0 {
            self.obs.vars(self.now, f, &self.flows[f as usize].endpoints[0]);
        }
        self.sync_endpoint_timer(f, side);
    }

    /// `pkt` leaves an endpoint or agent at `node`: it gets its uid and the observers see it
    /// sent.
    #[inline(always)]
    fn enter_network(&mut self, node: u32, pkt: &mut Packet) {
        pkt.uid = self.next_uid;
        self.next_uid += 1;
        let first_hop = if self.obs.records_packets() { self.routing.peek_hop(node, pkt) } else { None };
        let path = self.trace_path(pkt);
        self.obs.sent(self.now, pkt, first_hop, path);
    }

    /// The mobile node's interface `pkt` uses, for the packet trace; `None` when the run keeps
    /// no packet trace (nothing else reads it, and it costs a routing look-up per packet).
    fn trace_path(&self, pkt: &Packet) -> Option<u32> {
        if self.obs.records_packets() {
            self.routing.path_of(pkt)
        } else {
            None
        }
    }

    #[inline(always)]
    fn sync_endpoint_timer(&mut self, f: u32, side: usize) {
        let fl = &mut self.flows[f as usize];
        match fl.endpoints[side].poll_timeout() {
            Some(d) => {
                if fl.wakeup[side].is_none_or(|w| d < w) {
                    fl.wakeup[side] = Some(d);
                    self.queue.push(d.max(self.now), EventClass::Timer, Event::EndpointTimer { flow: f, side: side as u8 });
                }
            }
            None if side == 0 => self.sender_idle(f),
            None => {}
        }
    }

    /// Flow `f`'s sender has sent what it could and has no timer: nothing of its is
    /// outstanding (a sender with data in flight has its retransmission timer). Its buffers
    /// and the ground truth's go back (issue #29: memory per idle flow); they are kept while
    /// the flow has data in flight, even when an ACK empties its window for a moment (issue
    /// #29, shape b's seventh step). Out of line: a bulk flow comes here once, at its end.
    #[cold]
    #[inline(never)]
    fn sender_idle(&mut self, f: u32) {
        self.flows[f as usize].endpoints[0].release_if_idle();
        if let Some(t) = self.obs.flows[f as usize].truth.as_mut() {
            t.release_if_idle();
        }
    }

    fn on_agent_timer(&mut self, a: u32) {
        if self.agent_wakeup[a as usize] == Some(self.now) {
            self.agent_wakeup[a as usize] = None;
        }
        let agent = &mut self.agents[a as usize];
        if agent.poll_timeout().is_some_and(|d| d <= self.now) {
            agent.on_timeout(self.now);
        }
        self.agent_outputs(a);
    }

    /// After any call into agent `a`: carry out its actions, let its released, re-sent and own
    /// packets continue with the agents after it at its node (in that order), and re-arm its
    /// wake-up (crate::agents).
    pub(crate) fn agent_outputs(&mut self, a: u32) {
        while let Some(action) = self.agents[a as usize].poll_action() {
            match action {
                AgentAction::InterfaceFailed { mobile, iface } => self.interface_failed(mobile, iface),
            }
        }
        let node = self.scenario.agents[a as usize].node;
        let next = self.agents_at[node as usize].iter().position(|&x| x == a).map_or(0, |j| j + 1);
        while let Some(pkt) = self.agents[a as usize].poll_release(self.now) {
            self.at_node(node, pkt, None, next);
        }
        while let Some(pkt) = self.agents[a as usize].poll_resend(self.now) {
            self.obs.duplicated(&pkt);
            self.at_node(node, pkt, None, next);
        }
        while let Some(mut pkt) = self.agents[a as usize].poll_send(self.now) {
            self.enter_network(node, &mut pkt);
            self.at_node(node, pkt, None, next);
        }
        self.sync_agent_timer(a);
    }

    fn sync_agent_timer(&mut self, a: u32) {
        if let Some(d) = self.agents[a as usize].poll_timeout() {
            if self.agent_wakeup[a as usize].is_none_or(|w| d < w) {
                self.agent_wakeup[a as usize] = Some(d);
                self.queue.push(d.max(self.now), EventClass::Timer, Event::AgentTimer(a));
            }
        }
    }

    /// End of run: resolve the remaining ground-truth labels, write rows a trace filter held
    /// back.
    pub(crate) fn finish(&mut self) {
        // A frame that left early but whose serialization had not ended was still on the wire.
        for l in 0..self.links.len() as u32 {
            self.link_mut(l);
        }
        self.obs.finish(self.now);
    }
}

/// In `World::far_end`: the link changed since its arrivals were last found plain (node
/// indices are far below it).
const LINK_CHANGED: u32 = 1 << 31;

/// A frame that left its link early (module docs).
#[derive(Clone, Copy, Debug)]
struct Early {
    /// The key reserved for the `TxDone` it skipped.
    tx_done: Moment,
    /// Its `Arrive`, pushed as of `tx_done`.
    arrival: Moment,
    /// Its slot in the in-flight slab.
    slot: u32,
    /// Whether the `TxDone` was pushed after all (a packet waits behind the frame).
    pushed: bool,
}

/// What becomes of the packets propagating on a link when a forced handover failed it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InTransit {
    /// The last arrival of such a packet: the failure + the link's delay.
    pub until: SimTime,
    /// Whether they arrive (`in_flight = "delivered"`) or are lost.
    pub delivered: bool,
}

/// The packets a finished serialization hands over: arriving ones go straight into the slab
/// (their `Arrive` events are pushed afterwards, in the order the event sequence has always
/// had: the next `TxDone`, a wake-up, then the arrivals).
struct Departed<'a> {
    slab: &'a mut Slab,
    arrivals: [(SimTime, u32); 2],
    n: usize,
    dropped: &'a mut Option<(Packet, DropCause)>,
}

impl vhsim_net::Departures for Departed<'_> {
    #[inline(always)]
    fn arrive(&mut self, d: vhsim_net::reorder::Delivery) {
        self.arrivals[self.n] = (d.at, self.slab.put(d.packet));
        self.n += 1;
    }
    fn dropped(&mut self, packet: Packet, cause: DropCause) {
        *self.dropped = Some((packet, cause));
    }
}

/// Packets in flight on links, by slot; freed slots are reused.
#[derive(Clone, Default)]
struct Slab {
    slots: Vec<Option<Packet>>,
    free: Vec<u32>,
}

impl Slab {
    #[inline(always)]
    fn put(&mut self, pkt: Packet) -> u32 {
        match self.free.pop() {
            Some(i) => {
                // A free slot is empty (`take` emptied it): nothing to drop. Replacing it
                // without the drop skips the packet's drop glue (a test of the payload's
                // variant, a call where LLVM outlines it) on every arrival put here.
                let empty = std::mem::replace(&mut self.slots[i as usize], Some(pkt));
                debug_assert!(empty.is_none(), "a free slot holds no packet");
                std::mem::forget(empty);
                i
            }
            None => {
                self.slots.push(Some(pkt));
                (self.slots.len() - 1) as u32
            }
        }
    }

    #[inline(always)]
    fn take(&mut self, slot: u32) -> Packet {
        self.free.push(slot);
        self.slots[slot as usize].take().expect("an Arrive event's slot holds its packet")
    }
}

#[path = "world_prefetch.rs"]
mod prefetch;

#[cfg(test)]
#[path = "world_order_tests.rs"]
mod order_tests;
