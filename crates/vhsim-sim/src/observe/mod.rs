//! Observers: everything the world records, fed by one set of events instead of branches in
//! the routing code. The world reports what happens to packets (sent, dropped, arrived), what
//! endpoints report (delivered, timeout, loss verdict), a sender's progress, endpoint variables
//! and handovers; each observer keeps its own state:
//!
//! * ground truth ([`truth`]): the fate of every copy of every data unit, so retransmissions
//!   and timeouts are labelled necessary or spurious;
//! * per-flow counters, drops by cause, goodput bins and windows;
//! * handover metrics ([`handover_metrics`]);
//! * loss-classifier verdicts scored against the truth ([`verdicts`]);
//! * the trace writers (packet trace, time series; `crate::trace`);
//! * packet captures of link directions ([`capture`]).
//!
//! Same-time order of the calls is the world's (docs/architecture.md); no observer changes
//! what happens in the network.

pub mod capture;
pub mod handover_metrics;
pub mod truth;
pub mod verdicts;

use crate::handover::HandoverRecord;
use crate::trace::{PacketEvent, PacketRow, Traces};
use crate::summary::DecisionRecord;
use handover_metrics::FlowHandovers;
use truth::{FlowTruth, Label};
use verdicts::{LossConfusion, Truth};
use vhsim_core::{SimDuration, SimTime, TracedVar};
use vhsim_net::{DropCause, DropCounts, Packet, Report, RetxCause, SendProgress, UnitKind, NO_FLOW};
use vhsim_scenario::Scenario;

/// Counters of one flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowCounters {
    /// Data packets sent, retransmissions included.
    pub data_sent: u64,
    /// Retransmitted data packets.
    pub retransmissions: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// Data units delivered in order.
    pub delivered_units: u64,
    /// Payload bytes delivered in order.
    pub delivered_bytes: u64,
}

/// What the observers keep about one flow.
#[derive(Clone, Debug)]
pub struct FlowObs {
    /// Ground truth (`None` for a sender without acknowledgments, which never retransmits).
    pub truth: Option<FlowTruth>,
    /// Counters.
    pub counters: FlowCounters,
    /// Drops of this flow's packets by cause; made at the first (an idle flow or one without
    /// losses keeps one word: issue #29, memory per flow).
    drops: Option<Box<DropCounts>>,
    /// Handover measurements.
    pub handovers: FlowHandovers,
    /// Loss-classifier verdicts against ground truth (`Some` when the sender classifies; boxed:
    /// most flows' senders do not).
    pub verdicts: Option<Box<LossConfusion>>,
    /// What only some runs record (`None` until first needed).
    extras: Option<Box<FlowExtras>>,
}

/// What a flow records only in some runs: goodput windows (a scenario's `metrics.windows`),
/// the endpoints' decisions (a scheme's rules that report them) and the last traced variables
/// (`timeseries` detail). Boxed and made when first needed, so a flow of a run that records
/// none of them carries one pointer instead of three lists (issue #29, memory per flow).
#[derive(Clone, Debug, Default)]
struct FlowExtras {
    /// Payload bytes delivered in each of the scenario's goodput windows.
    window_bytes: Vec<u64>,
    /// Last recorded variables of each path.
    last_vars: Vec<Vec<TracedVar>>,
    /// The endpoints' decisions, in time order.
    decisions: Vec<DecisionRecord>,
}

impl FlowObs {
    /// Drops of this flow's packets by cause.
    pub fn drops(&self) -> DropCounts {
        self.drops.as_deref().copied().unwrap_or_default()
    }

    /// Payload bytes delivered in each of the scenario's goodput windows.
    pub fn window_bytes(&self) -> &[u64] {
        self.extras.as_deref().map_or(&[], |x| &x.window_bytes)
    }

    /// The endpoints' decisions, in time order.
    pub fn decisions(&self) -> &[DecisionRecord] {
        self.extras.as_deref().map_or(&[], |x| &x.decisions)
    }

    fn extras_mut(&mut self) -> &mut FlowExtras {
        self.extras.get_or_insert_with(Box::default)
    }
}

/// All observers of a run. A clone (a branch of the run, `crate::branch`) records no packet
/// captures: capture files belong to one run.
#[derive(Clone)]
pub struct Observers {
    /// The trace tables.
    pub traces: Traces,
    /// Per flow.
    pub flows: Vec<FlowObs>,
    /// Drops per link direction.
    pub link_drops: Vec<DropCounts>,
    /// Drops per link direction while a handover's window is open (`[start, window_end)` of
    /// any handover): known once the windows have passed, so a run stopped early reports them.
    pub link_window_drops: Vec<DropCounts>,
    /// The run's handovers.
    pub handovers: Vec<HandoverRecord>,
    /// The flows that measure each handover (in flow order).
    measured_by: Vec<Vec<u32>>,
    windows: Vec<(SimTime, SimTime)>,
    goodput_interval: u64,
    /// The goodput bin of the last delivery and the time it ends (deliveries come in time
    /// order: a division only when a bin is left).
    goodput_bin: (usize, SimTime),
    handover_window: SimDuration,
    handover_packets: u64,
    scratch: Vec<TracedVar>,
    /// The labels the ground truth of one flow resolved, until they are applied (one buffer
    /// for all flows, not one kept by each: issue #29, memory per flow).
    labels: Vec<Label>,
    /// Before this time some handover metric or goodput window is still open.
    pub earliest_complete: SimTime,
    /// Packet captures (`None` when the run writes none).
    capture: CaptureSlot,
    /// Per flow, (time, received bytes, delivered bytes) of every data arrival and delivery
    /// since `log_from`, when the run is the trunk of branches (`crate::branch`): a branch
    /// that moves a handover earlier recomputes its "before" window from it.
    byte_log: Option<Vec<Vec<(SimTime, u64, u64)>>>,
}

/// Packet captures of a run; a clone has none.
#[derive(Default)]
struct CaptureSlot(Option<Box<capture::Captures>>);

impl Clone for CaptureSlot {
    fn clone(&self) -> Self {
        CaptureSlot(None)
    }
}

/// How the world describes a flow when the observers are built.
pub struct FlowInit {
    /// Whether the sending endpoint gets acknowledgments (so ground truth can settle).
    pub acknowledged: bool,
    /// Whether the sending endpoint classifies losses.
    pub classifies: bool,
}

impl Observers {
    /// Observers of `sc` recording `traces`.
    pub fn new(sc: &Scenario, traces: Traces, flows: &[FlowInit], handovers: Vec<HandoverRecord>) -> Self {
        let windows: Vec<_> = sc.metrics.windows.iter().map(|w| (w.start, w.end)).collect();
        let measures = measured_handovers(sc, &handovers);
        let mut measured_by = vec![Vec::new(); handovers.len()];
        for (f, ids) in measures.iter().enumerate() {
            for &k in ids {
                measured_by[k as usize].push(f as u32);
            }
        }
        let flows = flows
            .iter()
            .zip(measures)
            .map(|(f, ids)| FlowObs {
                truth: f.acknowledged.then(FlowTruth::default),
                counters: FlowCounters::default(),
                drops: None,
                handovers: FlowHandovers::new(ids),
                verdicts: f.classifies.then(Box::default),
                extras: (!windows.is_empty())
                    .then(|| Box::new(FlowExtras { window_bytes: vec![0; windows.len()], ..FlowExtras::default() })),
            })
            .collect();
        let earliest_complete = earliest_complete(&handovers, &windows);
        Observers {
            earliest_complete,
            traces,
            flows,
            link_drops: vec![DropCounts::default(); sc.links.len()],
            link_window_drops: vec![DropCounts::default(); sc.links.len()],
            handovers,
            measured_by,
            windows,
            goodput_interval: sc.metrics.goodput_interval.0.max(1),
            goodput_bin: (0, SimTime::ZERO),
            handover_window: sc.metrics.handover_window,
            handover_packets: sc.metrics.handover_packets,
            scratch: Vec::new(),
            labels: Vec::new(),
            capture: CaptureSlot::default(),
            byte_log: None,
        }
    }

    fn row(now: SimTime, pkt: &Packet, event: PacketEvent, link: Option<u32>, cause: u8, path: Option<u32>) -> PacketRow {
        PacketRow {
            time: now,
            flow: pkt.flow,
            event,
            seq: pkt.tag.seq,
            link,
            cause,
            size: pkt.size,
            src: pkt.src.0,
            dst: pkt.dst.0,
            path,
            flags: pkt.tag.flags,
        }
    }

    /// An endpoint sends `pkt` at `now` towards `first_hop`. Data units get their copy index.
    /// (The packet trace's part is out of line: most runs keep none, and the small rest
    /// inlines into the world's send path.)
    #[inline(always)]
    pub fn sent(&mut self, now: SimTime, pkt: &mut Packet, first_hop: Option<u32>, path: Option<u32>) {
        if self.traces.packets.is_some() {
            return self.sent_traced(now, pkt, first_hop, path);
        }
        if pkt.tag.kind == UnitKind::Data && pkt.flow != NO_FLOW {
            self.data_sent(now, pkt, None);
        }
    }

    /// The counters and the ground truth of a data unit sent at `now`; `row` its row in the
    /// packet trace.
    #[inline(always)]
    fn data_sent(&mut self, now: SimTime, pkt: &mut Packet, row: Option<u32>) {
        let fo = &mut self.flows[pkt.flow as usize];
        fo.counters.data_sent += 1;
        if pkt.tag.retx.is_retransmission() {
            fo.counters.retransmissions += 1;
        }
        if let Some(t) = fo.truth.as_mut() {
            pkt.tag.copy = t.on_send(pkt.tag.seq, pkt.tag.retx == RetxCause::Timeout, row, now);
        }
    }

    /// [`Observers::sent`] in a run that keeps the packet trace.
    #[inline(never)]
    fn sent_traced(&mut self, now: SimTime, pkt: &mut Packet, first_hop: Option<u32>, path: Option<u32>) {
        let event = match pkt.tag.kind {
            UnitKind::Data if pkt.tag.retx.is_retransmission() => PacketEvent::Retransmit,
            UnitKind::Data => PacketEvent::Send,
            UnitKind::Ack => PacketEvent::AckSend,
            UnitKind::Control => PacketEvent::ControlSend,
        };
        if pkt.tag.kind == UnitKind::Data && pkt.flow != NO_FLOW {
            let row = self.traces.packets.as_ref().and_then(|p| p.row_for(now, pkt.flow, event, first_hop));
            self.data_sent(now, pkt, row);
        }
        if let Some(p) = self.traces.packets.as_mut() {
            p.push(Self::row(now, pkt, event, first_hop, 0, path));
        }
    }

    /// `pkt` is lost at `now` on `link` (or at a node: `None`).
    pub fn dropped(&mut self, now: SimTime, link: Option<u32>, pkt: &Packet, cause: DropCause, path: Option<u32>) {
        if let Some(l) = link {
            self.link_drops[l as usize].add(cause);
            if self.handovers.iter().any(|h| now >= h.start && now < h.window_end) {
                self.link_window_drops[l as usize].add(cause);
            }
        }
        let event = match pkt.tag.kind {
            UnitKind::Data => PacketEvent::Drop,
            UnitKind::Ack => PacketEvent::AckDrop,
            UnitKind::Control => PacketEvent::ControlDrop,
        };
        if pkt.flow != NO_FLOW {
            let fo = &mut self.flows[pkt.flow as usize];
            fo.drops.get_or_insert_with(Box::default).add(cause);
            if let (UnitKind::Data, Some(t)) = (pkt.tag.kind, fo.truth.as_mut()) {
                t.on_drop(pkt.tag.seq, pkt.tag.copy, cause as u8);
            }
        }
        if let Some(p) = self.traces.packets.as_mut() {
            p.push(Self::row(now, pkt, event, link, cause as u8, path));
        }
    }

    /// `pkt` reaches the endpoint it is addressed to at `now` (before the endpoint sees it).
    /// (The handover windows' and the packet trace's parts are out of line, so the rest
    /// inlines into the world's delivery.)
    #[inline(always)]
    pub fn arrived(&mut self, now: SimTime, pkt: &Packet, path: Option<u32>) {
        if pkt.tag.kind == UnitKind::Data && pkt.flow != NO_FLOW {
            if let Some(t) = self.flows[pkt.flow as usize].truth.as_mut() {
                t.on_delivered(pkt.tag.seq, pkt.tag.copy);
            }
            if !self.handovers.is_empty() {
                self.received(now, pkt);
            }
        }
        if self.traces.packets.is_some() {
            self.arrived_row(now, pkt, path);
        }
    }

    /// Data `pkt` reached its receiver at `now`: its bytes in the handover windows.
    #[inline(never)]
    fn received(&mut self, now: SimTime, pkt: &Packet) {
        let received = u64::from(pkt.tag.payload_bytes);
        let fo = &mut self.flows[pkt.flow as usize];
        fo.handovers.bytes(now, received, 0, &self.handovers, self.handover_window);
        if let Some(log) = self.byte_log.as_mut() {
            log[pkt.flow as usize].push((now, received, 0));
        }
    }

    /// The packet trace's row of an arrival.
    #[inline(never)]
    fn arrived_row(&mut self, now: SimTime, pkt: &Packet, path: Option<u32>) {
        let event = match pkt.tag.kind {
            UnitKind::Data => PacketEvent::Receive,
            UnitKind::Ack => PacketEvent::AckReceive,
            UnitKind::Control => PacketEvent::ControlReceive,
        };
        if let Some(p) = self.traces.packets.as_mut() {
            p.push(Self::row(now, pkt, event, None, 0, path));
        }
    }

    /// A node agent sends again a kept copy of `pkt` (the same transmission; crate::agents):
    /// one more instance of that copy is in the network.
    pub fn duplicated(&mut self, pkt: &Packet) {
        if pkt.tag.kind == UnitKind::Data && pkt.flow != NO_FLOW {
            if let Some(t) = self.flows[pkt.flow as usize].truth.as_mut() {
                t.on_duplicate(pkt.tag.seq);
            }
        }
    }

    /// Flow `f`'s endpoint reports `r` at `now`; `progress` is the flow's sender's progress.
    /// (A delivery's counters and goodput bin inline; the goodput and handover windows and the
    /// other reports out of line.)
    #[inline(always)]
    pub fn report(&mut self, now: SimTime, f: u32, r: Report, progress: Option<SendProgress>) {
        let Report::Delivered { bytes, units } = r else { return self.other_report(now, f, r) };
        let fo = &mut self.flows[f as usize];
        fo.counters.delivered_units += units;
        fo.counters.delivered_bytes += bytes;
        if now >= self.goodput_bin.1 {
            let bin = now.0 / self.goodput_interval;
            self.goodput_bin = (bin as usize, SimTime((bin + 1).saturating_mul(self.goodput_interval)));
        }
        let bin = self.goodput_bin.0;
        self.traces.goodput.add(f as usize, bin, bytes);
        if fo.extras.is_some() || !self.handovers.is_empty() {
            self.delivered_in_windows(now, f, bytes, progress);
        }
    }

    /// A delivery of `bytes` at `now` in the goodput windows and the handover windows.
    #[inline(never)]
    fn delivered_in_windows(&mut self, now: SimTime, f: u32, bytes: u64, progress: Option<SendProgress>) {
        let fo = &mut self.flows[f as usize];
        if let Some(x) = fo.extras.as_deref_mut() {
            for (w, acc) in self.windows.iter().zip(x.window_bytes.iter_mut()) {
                if now >= w.0 && now < w.1 {
                    *acc += bytes;
                }
            }
        }
        if !self.handovers.is_empty() {
            fo.handovers.bytes(now, 0, bytes, &self.handovers, self.handover_window);
            if let Some(log) = self.byte_log.as_mut() {
                log[f as usize].push((now, 0, bytes));
            }
            let acked = progress.map_or(0, |p| p.acked);
            fo.handovers.settle(now, &self.handovers, self.handover_packets, acked, true);
        }
    }

    /// [`Observers::report`] of a report other than a delivery.
    #[inline(never)]
    fn other_report(&mut self, now: SimTime, f: u32, r: Report) {
        let fo = &mut self.flows[f as usize];
        match r {
            Report::Delivered { .. } => unreachable!("a delivery is reported inline"),
            Report::Timeout => {
                fo.counters.timeouts += 1;
                if !self.handovers.is_empty() {
                    fo.handovers.rto(now, &self.handovers);
                }
            }
            Report::LossVerdict { seq, wireless } => {
                let truth = Truth::of_code(fo.truth.as_ref().map_or(0, |t| t.drop_cause(seq)));
                if let Some(v) = fo.verdicts.as_mut() {
                    v.add(truth, wireless);
                }
            }
            Report::Decision(d) => fo.extras_mut().decisions.push(DecisionRecord::of(now.as_secs_f64(), &d)),
        }
    }

    /// Flow `f`'s sender has processed an acknowledgment: resolve what the truth can resolve,
    /// and settle the handover indices (out of line: only with labels or open indices).
    #[inline(always)]
    pub fn progressed(&mut self, now: SimTime, f: u32, p: SendProgress) {
        if let Some(t) = self.flows[f as usize].truth.as_mut() {
            t.settle(p.acked, &mut self.labels);
        }
        if !self.labels.is_empty() || self.flows[f as usize].handovers.unsettled() {
            self.labels_and_indices(now, f, p);
        }
    }

    /// The rest of [`Observers::progressed`]: apply the resolved labels, settle the handover
    /// indices.
    #[inline(never)]
    fn labels_and_indices(&mut self, now: SimTime, f: u32, p: SendProgress) {
        self.apply_labels(f);
        let fo = &mut self.flows[f as usize];
        if !self.handovers.is_empty() {
            fo.handovers.settle(now, &self.handovers, self.handover_packets, p.acked, false);
        }
    }

    fn apply_labels(&mut self, f: u32) {
        if self.labels.is_empty() {
            return;
        }
        let fo = &mut self.flows[f as usize];
        if let Some(p) = self.traces.packets.as_mut() {
            for l in &self.labels {
                if let Some(row) = l.trace_row {
                    p.spurious[row as usize] = i8::from(l.spurious);
                }
            }
        }
        if !self.handovers.is_empty() {
            for l in self.labels.iter().filter(|l| l.spurious) {
                fo.handovers.spurious(l.sent_at, l.from_rto, &self.handovers);
            }
        }
        self.labels.clear();
    }

    /// Record flow `f`'s endpoint variables at `now` if any that starts rows changed.
    pub fn vars(&mut self, now: SimTime, f: u32, ep: &impl vhsim_net::Endpoint) {
        let Some(ts) = self.traces.timeseries.as_mut() else { return };
        let last_vars = &mut self.flows[f as usize].extras_mut().last_vars;
        let paths = ep.traced_paths();
        last_vars.resize_with(paths, Vec::new);
        for path in 0..paths {
            self.scratch.clear();
            ep.traced_vars(path, &mut self.scratch);
            if self.scratch.is_empty() {
                continue;
            }
            let last = &mut last_vars[path];
            let same = last.len() == self.scratch.len()
                && last
                    .iter()
                    .zip(&self.scratch)
                    .all(|(a, b)| !b.starts_row || a.value.to_bits() == b.value.to_bits());
            if !same {
                ts.push(now, f, path as u32, &self.scratch);
                last.clone_from(&self.scratch);
            }
        }
    }

    /// Handover `k` starts now; `sent_max(f)` is flow f's sender's highest unit sent.
    pub fn handover_started(&mut self, k: usize, sent_max: impl Fn(usize) -> u64) {
        for &f in &self.measured_by[k] {
            self.flows[f as usize].handovers.started(k, sent_max(f as usize));
        }
    }

    /// Flow `f`'s sender received the notification of handover `k`.
    pub fn notified(&mut self, k: usize, f: u32) {
        if let Some(st) = self.flows[f as usize].handovers.of(k) {
            st.notifications += 1;
        }
    }

    /// Keep the byte log that branches need (`crate::branch`).
    pub fn keep_byte_log(&mut self) {
        self.byte_log = Some(vec![Vec::new(); self.flows.len()]);
    }

    /// Forget logged arrivals before `t` (no branch will look back that far).
    pub fn prune_byte_log(&mut self, t: SimTime) {
        for log in self.byte_log.iter_mut().flatten() {
            let keep = log.partition_point(|e| e.0 < t);
            log.drain(..keep);
        }
    }

    /// The handovers changed (a branch moved one, `k`, to another time, or changed the run's
    /// duration, which clips their windows): take the new records, recompute handover `k`'s
    /// "before" window from the byte log, and when the run is complete.
    pub fn move_handovers(&mut self, records: Vec<HandoverRecord>, k: Option<usize>) {
        self.handovers = records;
        if let Some(k) = k {
            self.recount_before_window(k);
        }
        self.earliest_complete = earliest_complete(&self.handovers, &self.windows);
    }

    fn recount_before_window(&mut self, k: usize) {
        let h = &self.handovers[k];
        let w = self.handover_window;
        for &f in &self.measured_by[k] {
            let f = f as usize;
            let Some(st) = self.flows[f].handovers.of(k) else { continue };
            st.received_bytes[0] = 0;
            st.delivered_bytes[0] = 0;
            for &(t, received, delivered) in self.byte_log.as_ref().map_or(&[][..], |l| &l[f]) {
                if h.window_of(t, w) == Some(0) {
                    st.received_bytes[0] += received;
                    st.delivered_bytes[0] += delivered;
                }
            }
        }
    }

    /// Whether every handover metric and goodput window is determined at `now`: their windows
    /// have passed, every index is settled and every retransmission sent in them is labelled,
    /// so a run stopped now reports them exactly as a run to the end would
    /// (`metrics.stop = "when_complete"`).
    pub fn complete(&self, now: SimTime) -> bool {
        now >= self.earliest_complete
            && self.flows.iter().all(|fo| {
                fo.handovers.settled()
                    && fo.truth.as_ref().is_none_or(|t| !t.retx_pending_before(self.earliest_complete))
            })
    }

    /// Record packet captures (replacing any).
    pub fn set_captures(&mut self, captures: capture::Captures) {
        self.capture = CaptureSlot(Some(Box::new(captures)));
    }

    /// Take the packet captures out (at the end of the run).
    pub fn take_captures(&mut self) -> Option<capture::Captures> {
        self.capture.0.take().map(|c| *c)
    }

    /// Whether the run keeps a packet trace: the only reader of a packet's first hop and
    /// path given to [`Observers::sent`], [`Observers::arrived`] and [`Observers::dropped`].
    #[inline]
    pub fn records_packets(&self) -> bool {
        self.traces.packets.is_some()
    }

    /// Whether anything records the frames link `l` puts on the wire (packet captures). One
    /// test of an `Option` when the run captures nothing.
    #[inline]
    pub fn captures_link(&self, l: u32) -> bool {
        self.capture.0.as_ref().is_some_and(|c| c.has(l))
    }

    /// Link `l` starts putting `pkt` on the wire at `now` (its `attempt`-th transmission,
    /// counting link-layer retries): where a packet capture of the link records it, as a
    /// device trace does. Only the first attempt is recorded: an ARQ retry repeats the same IP
    /// packet below the IP layer, where a capture would not see it again. Cold and never
    /// inlined, so the capture path stays out of the event loop's hot code.
    #[cold]
    #[inline(never)]
    pub fn on_wire(&mut self, now: SimTime, l: u32, pkt: &Packet, attempt: u32) {
        if attempt == 1 {
            if let Some(c) = self.capture.0.as_mut() {
                c.record(now, l, pkt);
            }
        }
    }

    /// End of run (`now`): write the rows a trace filter held back, resolve the remaining
    /// ground-truth labels.
    pub fn finish(&mut self, now: SimTime) {
        self.traces.finish(now);
        for f in 0..self.flows.len() {
            if let Some(t) = self.flows[f].truth.as_mut() {
                t.finish(&mut self.labels);
            }
            self.apply_labels(f as u32);
        }
    }
}

/// The handovers each flow measures: those of the mobile nodes it has an endpoint on; a flow
/// with none measures every handover of a scenario with one mobile node (what the mobile node's
/// handovers do to cross traffic) and none with several.
fn measured_handovers(sc: &Scenario, handovers: &[HandoverRecord]) -> Vec<Vec<u32>> {
    let mut mobile_at = vec![None; sc.nodes.len()];
    for (k, m) in sc.mobiles.iter().enumerate() {
        mobile_at[m.node as usize] = Some(k as u32);
    }
    let mut of_mobile = vec![Vec::new(); sc.mobiles.len()];
    for (j, h) in handovers.iter().enumerate() {
        of_mobile[h.mobile as usize].push(j as u32);
    }
    sc.flows
        .iter()
        .map(|f| {
            let on: Vec<u32> = [f.src, f.dst].into_iter().filter_map(|n| mobile_at[n as usize]).collect();
            match on.as_slice() {
                [] if sc.mobiles.len() == 1 => (0..handovers.len() as u32).collect(),
                [] => Vec::new(),
                [k] => of_mobile[*k as usize].clone(),
                _ => {
                    let mut ids: Vec<u32> = on.iter().flat_map(|&k| of_mobile[k as usize].iter().copied()).collect();
                    ids.sort_unstable();
                    ids.dedup();
                    ids
                }
            }
        })
        .collect()
}

/// When the last handover window, notification or goodput window of a run ends.
fn earliest_complete(handovers: &[HandoverRecord], windows: &[(SimTime, SimTime)]) -> SimTime {
    handovers
        .iter()
        .flat_map(|h| [h.window_end, h.done + h.notify_delay])
        .chain(windows.iter().map(|w| w.1))
        .max()
        .unwrap_or(SimTime::ZERO)
}
