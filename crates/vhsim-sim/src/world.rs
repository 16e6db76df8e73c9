//! The world: nodes, links and flows, driven by one event queue.
//!
//! Same-time order is the queue's contract (vhsim-core `events`): timeline actions, then packet
//! events, then endpoint timers, each FIFO. Endpoint timers are scheduled lazily: a flow keeps
//! at most one pending wake-up per endpoint at its earliest deadline; when it fires, the
//! endpoint is asked again, so restarting the RTO on every ACK costs no event.

use crate::flow::Flow;
use crate::trace::{PacketEvent, SenderSnapshot, Traces};
use vhsim_core::{EventClass, EventQueue, SimTime};
use vhsim_net::{DropCause, Link, LinkParams, Offer, Packet, PacketKind};
use vhsim_scenario::{Action, Scenario};

/// Events of the world.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// A link direction finished serializing its current packet.
    TxDone(u32),
    /// A link direction asked to be woken up (e.g. a reordering hold timeout).
    LinkWake(u32),
    /// A packet arrives at the far end of a link direction.
    Arrive(u32, Packet),
    /// A flow's sender may have a timer due.
    SenderTimer(u32),
    /// A flow's sink may have a timer due.
    SinkTimer(u32),
    /// A flow starts.
    FlowStart(u32),
    /// A flow's application stops offering data.
    FlowStop(u32),
    /// A flow's CBR application writes (crate::app).
    AppWrite(u32),
    /// Timeline entry `i` of the scenario.
    Timeline(u32),
    /// Handover `i` (index into the world's handovers) completes: traffic takes the new
    /// interface.
    HandoverDone(u32),
    /// The cross-layer notification of handover `i` reaches the senders.
    HandoverNotice(u32),
}

/// Drop counters by cause.
pub type DropCounts = [u64; 4];

/// The simulated world of one run.
pub struct World {
    pub(crate) scenario: Scenario,
    pub(crate) queue: EventQueue<Event>,
    pub(crate) links: Vec<Link>,
    pub(crate) link_drops: Vec<DropCounts>,
    /// `tables[i][node * n_nodes + dst]` = link to leave on while interface `i` is in use
    /// (one table without a mobile node).
    tables: Vec<Vec<Option<u32>>>,
    /// Routing table in use.
    pub(crate) active: usize,
    pub(crate) n_nodes: usize,
    /// Packets that reached the far end of a paused link, held until it resumes.
    pub(crate) held: Vec<Vec<Packet>>,
    /// Handovers of the run, in time order, with their progress.
    pub(crate) handovers: Vec<crate::handover::HandoverRecord>,
    pub(crate) flows: Vec<Flow>,
    pub(crate) traces: Traces,
    next_uid: u64,
    goodput_interval: u64,
    pub(crate) now: SimTime,
}

impl World {
    /// Assemble a world; `flows` and `links` are built by [`crate::build`].
    pub(crate) fn new(scenario: Scenario, links: Vec<Link>, flows: Vec<Flow>, traces: Traces) -> Self {
        let n_nodes = scenario.nodes.len();
        let flatten = |rows: &mut dyn Iterator<Item = &Vec<Option<u32>>>| -> Vec<Option<u32>> {
            rows.flat_map(|r| r.iter().copied()).collect()
        };
        let (tables, active) = match &scenario.mobile {
            Some(m) => {
                (m.interfaces.iter().map(|i| flatten(&mut i.routes.iter())).collect(), m.initial as usize)
            }
            None => (vec![flatten(&mut scenario.nodes.iter().map(|n| &n.routes))], 0),
        };
        let handovers = crate::handover::records(&scenario);
        let mut queue = EventQueue::new();
        for (i, (f, fl)) in scenario.flows.iter().zip(&flows).enumerate() {
            queue.push(fl.start, EventClass::Timeline, Event::FlowStart(i as u32));
            if let Some(stop) = f.stop {
                queue.push(stop, EventClass::Timeline, Event::FlowStop(i as u32));
            }
        }
        for (i, e) in scenario.timeline.iter().enumerate() {
            queue.push(e.at, EventClass::Timeline, Event::Timeline(i as u32));
        }
        let link_drops = vec![[0; 4]; links.len()];
        let goodput_interval = scenario.metrics.goodput_interval.0.max(1);
        let held = vec![Vec::new(); links.len()];
        World {
            scenario,
            queue,
            links,
            link_drops,
            tables,
            active,
            n_nodes,
            held,
            handovers,
            flows,
            traces,
            next_uid: 0,
            goodput_interval,
            now: SimTime::ZERO,
        }
    }

    /// The sender of flow `f` (for tests and tools that inspect endpoint state after a run).
    pub fn sender(&self, f: usize) -> &vhsim_tcp::TcpSender {
        &self.flows[f].sender
    }

    /// Run until the scenario's duration; returns the number of events processed.
    pub fn run(&mut self) -> u64 {
        let end = SimTime::ZERO + self.scenario.duration;
        while let Some(t) = self.queue.peek_time() {
            if t > end {
                break;
            }
            let Some((t, ev)) = self.queue.pop() else { break };
            self.now = t;
            self.handle(ev);
        }
        self.now = end;
        self.queue.popped()
    }

    fn handle(&mut self, ev: Event) {
        match ev {
            Event::TxDone(l) => self.on_tx_done(l),
            Event::LinkWake(l) => {
                if let Some(d) = self.links[l as usize].wake(self.now) {
                    self.queue.push(d.at, EventClass::Packet, Event::Arrive(l, d.packet));
                }
            }
            Event::Arrive(link, pkt) => {
                // A down link also loses what was propagating on it (Daniel & Kojo §3: the
                // error model at the far end of the old access link drops packets in transit).
                if !self.links[link as usize].is_up() {
                    self.record_drop(link, &pkt, DropCause::LinkDown);
                } else if self.links[link as usize].is_paused() {
                    self.held[link as usize].push(pkt);
                } else {
                    let node = self.scenario.links[link as usize].to;
                    self.on_arrive(node, pkt);
                }
            }
            Event::HandoverDone(h) => self.on_handover_done(h),
            Event::HandoverNotice(h) => self.on_handover_notice(h),
            Event::SenderTimer(f) => self.on_sender_timer(f),
            Event::SinkTimer(f) => self.on_sink_timer(f),
            Event::FlowStart(f) => {
                self.flows[f as usize].started = true;
                self.app_start(f);
                self.pump_sender(f);
            }
            Event::FlowStop(f) => self.app_stop(f),
            Event::AppWrite(f) => self.on_app_write(f),
            Event::Timeline(i) => self.on_timeline(i),
        }
    }

    fn on_timeline(&mut self, i: u32) {
        let action = self.scenario.timeline[i as usize].action.clone();
        match action {
            Action::Handover { .. } => self.on_handover_start(i),
            Action::LinkDown { links } => links.iter().for_each(|&l| self.links[l as usize].set_up(false)),
            Action::LinkUp { links } => links.iter().for_each(|&l| self.links[l as usize].set_up(true)),
            Action::SetLink { links, rate, delay } => {
                for l in links {
                    let link = &mut self.links[l as usize];
                    let p = link.params();
                    link.set_params(LinkParams {
                        rate: rate.unwrap_or(p.rate),
                        delay: delay.unwrap_or(p.delay),
                    });
                }
            }
        }
    }

    pub(crate) fn route(&self, node: u32, dst: u32) -> Option<u32> {
        self.tables[self.active][node as usize * self.n_nodes + dst as usize]
    }

    /// Hand `pkt` to the link leading from `node` towards its destination.
    fn forward(&mut self, node: u32, pkt: Packet) {
        let Some(link) = self.route(node, pkt.dst) else {
            // Validation guarantees routes for every flow; a missing one is a world bug.
            debug_assert!(false, "no route from node {node} to {}", pkt.dst);
            return;
        };
        match self.links[link as usize].offer(self.now, pkt) {
            Offer::Transmitting(done) => self.queue.push(done, EventClass::Packet, Event::TxDone(link)),
            Offer::Queued => {}
            Offer::Dropped(cause) => self.record_drop(link, &pkt, cause),
        }
    }

    fn on_tx_done(&mut self, l: u32) {
        let f = self.links[l as usize].finish_transmission(self.now);
        if let Some(done) = f.next_done {
            self.queue.push(done, EventClass::Packet, Event::TxDone(l));
        }
        if let Some(t) = f.wake {
            // Timer class: after the packet events of the same time (vhsim-net `link` docs).
            self.queue.push(t, EventClass::Timer, Event::LinkWake(l));
        }
        for d in f.arrivals() {
            self.queue.push(d.at, EventClass::Packet, Event::Arrive(l, d.packet));
        }
        if let Some(cause) = f.dropped() {
            self.record_drop(l, &f.packet, cause);
        }
    }

    fn record_drop(&mut self, link: u32, pkt: &Packet, cause: DropCause) {
        self.link_drops[link as usize][cause as usize] += 1;
        let flow = &mut self.flows[pkt.flow as usize];
        flow.drops[cause as usize] += 1;
        let (event, seq) = match pkt.kind {
            PacketKind::Data { seq, tx_index } => {
                flow.truth.on_drop(seq, tx_index, cause as u8);
                (PacketEvent::Drop, seq)
            }
            PacketKind::Ack { ack, .. } => (PacketEvent::AckDrop, ack),
        };
        if let Some(p) = self.traces.packets.as_mut() {
            p.push(self.now, pkt.flow, event, seq, Some(link), cause as u8);
        }
    }

    fn on_arrive(&mut self, node: u32, pkt: Packet) {
        if node != pkt.dst {
            self.forward(node, pkt);
            return;
        }
        match pkt.kind {
            PacketKind::Data { seq, .. } => self.on_data_at_sink(pkt.flow, seq),
            PacketKind::Ack { ack, n_sack, sack, window } => {
                if let Some(p) = self.traces.packets.as_mut() {
                    p.push(self.now, pkt.flow, PacketEvent::AckReceive, ack, None, 0);
                }
                let fl = &mut self.flows[pkt.flow as usize];
                fl.ack_scratch.ack = ack;
                fl.ack_scratch.window = window;
                fl.ack_scratch.sack.clear();
                fl.ack_scratch.sack.extend(sack[..n_sack as usize].iter().map(|b| (b.start, b.end)));
                let info = std::mem::take(&mut fl.ack_scratch);
                fl.sender.on_ack(self.now, &info);
                fl.ack_scratch = info;
                fl.judge_classifications();
                let una = fl.sender.core().snd_una();
                fl.truth.settle(una, &mut fl.labels);
                self.apply_labels(pkt.flow);
                if !self.handovers.is_empty() {
                    self.settle_handover_indices(pkt.flow, false);
                }
                self.pump_sender(pkt.flow);
            }
        }
    }

    fn on_data_at_sink(&mut self, f: u32, seq: u64) {
        let now = self.now;
        let bin = (now.0 / self.goodput_interval) as usize;
        let fl = &mut self.flows[f as usize];
        fl.truth.on_delivered(seq);
        let r = fl.sink.on_data(now, seq);
        if r.delivered > 0 {
            let bytes = r.delivered * fl.segment_size;
            fl.delivered_segments += r.delivered;
            self.traces.goodput.add(f as usize, bin, bytes);
            for (w, acc) in fl.windows.iter().zip(fl.window_bytes.iter_mut()) {
                if now >= w.0 && now < w.1 {
                    *acc += bytes;
                }
            }
        }
        if !self.handovers.is_empty() {
            let seg = self.flows[f as usize].segment_size;
            self.note_handover_bytes(f, seg, r.delivered * seg);
            self.settle_handover_indices(f, r.delivered > 0);
        }
        if let Some(p) = self.traces.packets.as_mut() {
            p.push(now, f, PacketEvent::Receive, seq, None, 0);
        }
        if let Some(ack) = r.ack {
            self.send_ack(f, ack);
        }
        self.sync_sink_timer(f);
    }

    fn send_ack(&mut self, f: u32, ack: vhsim_tcp::AckOut) {
        let fl = &self.flows[f as usize];
        let mut sack = [vhsim_net::SackBlock::default(); 3];
        for (slot, &(s, e)) in sack.iter_mut().zip(ack.sack.iter()) {
            *slot = vhsim_net::SackBlock { start: s, end: e };
        }
        let pkt = Packet {
            uid: self.next_uid,
            flow: f,
            src: fl.dst,
            dst: fl.src,
            size: fl.ack_size,
            kind: PacketKind::Ack {
                ack: ack.ack,
                n_sack: ack.sack.len().min(3) as u8,
                sack,
                window: ack.window,
            },
        };
        self.next_uid += 1;
        let first_hop = self.route(pkt.src, pkt.dst);
        if let Some(p) = self.traces.packets.as_mut() {
            p.push(self.now, f, PacketEvent::AckSend, ack.ack, first_hop, 0);
        }
        self.forward(pkt.src, pkt);
    }

    fn on_sender_timer(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        if fl.sender_wakeup == Some(now) {
            fl.sender_wakeup = None;
        }
        if fl.sender.next_timeout().is_some_and(|d| d <= now) {
            let rtos = fl.sender.stats().rto_count;
            fl.sender.on_timeout(now);
            fl.judge_classifications();
            if fl.sender.stats().rto_count > rtos && !self.handovers.is_empty() {
                self.note_rto(f);
            }
            self.pump_sender(f);
        } else {
            self.sync_sender_timer(f);
        }
    }

    fn on_sink_timer(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        if fl.sink_wakeup == Some(now) {
            fl.sink_wakeup = None;
        }
        if let Some(ack) = fl.sink.on_timeout(now) {
            self.send_ack(f, ack);
        }
        self.sync_sink_timer(f);
    }

    /// Send everything the sender allows now, then record its state and arm its timer.
    pub(crate) fn pump_sender(&mut self, f: u32) {
        let now = self.now;
        if !self.flows[f as usize].started {
            return;
        }
        while let Some(tx) = self.flows[f as usize].sender.poll_transmit(now) {
            let fl = &mut self.flows[f as usize];
            let retx = tx.cause.is_retransmission();
            let row = self.traces.packets.as_ref().map(|p| p.time_ns.len() as u32);
            let tx_index = fl.truth.on_send(tx.seq, tx.cause == vhsim_tcp::TxCause::Rto, row, now);
            let pkt = Packet {
                uid: self.next_uid,
                flow: f,
                src: fl.src,
                dst: fl.dst,
                size: fl.packet_size,
                kind: PacketKind::Data { seq: tx.seq, tx_index },
            };
            self.next_uid += 1;
            if let Some(p) = self.traces.packets.as_mut() {
                let ev = if retx { PacketEvent::Retransmit } else { PacketEvent::Send };
                let link = self.tables[self.active][pkt.src as usize * self.n_nodes + pkt.dst as usize];
                p.push(now, f, ev, tx.seq, link, 0);
            }
            self.forward(pkt.src, pkt);
        }
        self.snapshot(f);
        self.sync_sender_timer(f);
    }

    fn snapshot(&mut self, f: u32) {
        let Some(ts) = self.traces.timeseries.as_mut() else { return };
        let fl = &mut self.flows[f as usize];
        let s = &fl.sender;
        let c = s.core();
        let snap = SenderSnapshot {
            cwnd: s.cwnd(),
            ssthresh: s.ssthresh(),
            srtt_s: c.rtt().srtt().map_or(f64::NAN, |d| d.as_secs_f64()),
            rto_s: c.rtt().rto().as_secs_f64(),
            flight: c.flight_size() as i64,
            state: s.ca_state() as u8,
            ld_tcur_s: s.loss_classifier().ld().and_then(|l| l.tcur()).unwrap_or(f64::NAN),
            ld_threshold_s: s.loss_classifier().ld().and_then(|l| l.threshold()).unwrap_or(f64::NAN),
        };
        let same = fl.last_snapshot.is_some_and(|l| {
            l.cwnd == snap.cwnd
                && l.ssthresh == snap.ssthresh
                && l.flight == snap.flight
                && l.state == snap.state
                && l.rto_s == snap.rto_s
                && l.ld_tcur_s.to_bits() == snap.ld_tcur_s.to_bits()
                && l.ld_threshold_s.to_bits() == snap.ld_threshold_s.to_bits()
        });
        if !same {
            ts.push(self.now, f, &snap);
            fl.last_snapshot = Some(snap);
        }
    }

    fn apply_labels(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        if fl.labels.is_empty() {
            return;
        }
        if let Some(p) = self.traces.packets.as_mut() {
            for l in &fl.labels {
                if let Some(row) = l.trace_row {
                    p.spurious[row as usize] = i8::from(l.spurious);
                }
            }
        }
        let labels = std::mem::take(&mut fl.labels);
        if !self.handovers.is_empty() {
            for l in labels.iter().filter(|l| l.spurious) {
                self.note_spurious(f, l.sent_at, l.from_rto);
            }
        }
        let mut labels = labels;
        labels.clear();
        self.flows[f as usize].labels = labels;
    }

    fn sync_sender_timer(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        if let Some(d) = fl.sender.next_timeout() {
            if fl.sender_wakeup.is_none_or(|w| d < w) {
                fl.sender_wakeup = Some(d);
                self.queue.push(d.max(self.now), EventClass::Timer, Event::SenderTimer(f));
            }
        }
    }

    fn sync_sink_timer(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        if let Some(d) = fl.sink.next_timeout() {
            if fl.sink_wakeup.is_none_or(|w| d < w) {
                fl.sink_wakeup = Some(d);
                self.queue.push(d.max(self.now), EventClass::Timer, Event::SinkTimer(f));
            }
        }
    }

    /// Resolve the remaining ground-truth labels (end of run).
    pub(crate) fn finish_truth(&mut self) {
        for f in 0..self.flows.len() {
            let fl = &mut self.flows[f];
            fl.truth.finish(&mut fl.labels);
            self.apply_labels(f as u32);
        }
    }
}
