//! Handovers of the mobile nodes: link events at the mobile node and the binding at its anchor.
//!
//! A handover of a mobile node from interface `old` to `new` is, in order (each mobile node's
//! own; another's packets and state are not touched):
//!
//! 1. `Imminent { eta, old, new }` at `start - warning` (`mobile.warning`, default 0);
//! 2. at `start`: make-before-break completes at once; break-before-make takes the old access
//!    link down in both directions for `gap` (`Down(old)`); pause stops it for `duration`
//!    without loss (packets queued wait in its queue, packets reaching its far end wait at the
//!    link until it resumes); forced takes the old access link down like break-before-make
//!    (the path fails) until a node agent declares the old interface failed
//!    ([`crate::agents::AgentAction::InterfaceFailed`], the Delivery Service's timeout) or,
//!    failing that, `detection` later; its options say whether the packets propagating on the
//!    old link still arrive (`in_flight`) and whether the mobile node sends by the new
//!    interface from the failure on (`uplink = "at_failure"`);
//! 3. at completion (`start + gap`, `+ duration`, or the forced handover's detection): the old
//!    link is restored, `Up(new)` (not for a pause, which changes no link) and
//!    `Completed { old, new }`; the mobile node now sends by
//!    `new`, and the anchor's binding names `new`'s care-of address at once or after the
//!    registration latency (`mobile.binding`, during which packets for the old care-of address
//!    are lost with cause `binding` or forwarded);
//! 4. `notify_delay` after completion, Daniel & Kojo's cross-layer notification (a modelled
//!    out-of-band message with the old and new access links' bandwidth and delay) reaches the
//!    sending endpoint of every flow with an endpoint at the mobile node.
//!
//! Link events reach only the endpoints on the mobile node; remote endpoints learn of a
//! handover only from the packets they get. Packets already past the anchor on the old path
//! still arrive (make-before-break). On an interface attached to a shared cell the "old access
//! link" is the mobile node's attachment ([`crate::cells`]): the cell goes on serving the
//! others.

use crate::agents::NodeAgent;
use crate::event::Event;
use crate::groups::Groups;
use crate::world::{InTransit, World};
use vhsim_core::{EventClass, SimDuration, SimTime};
use vhsim_net::{AccessLinkInfo, Endpoint, HandoverNotice, LinkEvent};
use vhsim_scenario::{Action, HandoverKind, InFlight, Scenario, Uplink};

/// One handover of the run.
#[derive(Clone, Debug)]
pub struct HandoverRecord {
    /// Index of its timeline entry.
    pub timeline_index: usize,
    /// The mobile node that hands over (index).
    pub mobile: u32,
    /// When it starts.
    pub start: SimTime,
    /// When traffic takes the new interface (for a forced handover, the latest time until an
    /// agent completes it; then the time it did).
    pub done: SimTime,
    /// Whether it has completed.
    pub completed: bool,
    /// How.
    pub kind: HandoverKind,
    /// Interface indices.
    pub from: u32,
    /// Interface indices.
    pub to: u32,
    /// Signalling delay of the notification.
    pub notify_delay: SimDuration,
    /// End of the window in which RTOs and spurious retransmissions are attributed to it.
    pub window_end: SimTime,
    /// When its `Imminent` event was given (recorded for `mobile.warning = "srtt"`,
    /// `srtt_warning.rs`, where it depends on the run).
    pub warned_at: Option<SimTime>,
    /// `"srtt"`: the earliest check of its warning that is scheduled.
    pub warning_check: Option<SimTime>,
}

/// The handovers of `scenario`, in time order.
pub fn records(scenario: &Scenario) -> Vec<HandoverRecord> {
    let end = SimTime::ZERO + scenario.duration;
    scenario
        .timeline
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.action {
            Action::Handover { mobile, kind, from, to, notify_delay } => {
                let done = e.at + kind.outage();
                let window_end = (done + scenario.metrics.handover_window).min(end);
                Some(HandoverRecord {
                    timeline_index: i,
                    mobile,
                    start: e.at,
                    done,
                    completed: false,
                    kind,
                    from,
                    to,
                    notify_delay,
                    window_end,
                    warned_at: None,
                    warning_check: None,
                })
            }
            _ => None,
        })
        .collect()
}

impl HandoverRecord {
    /// Which metric window `t` falls in: 0 = before (`[start - W, start)`), 1 = after
    /// (`[done, done + W)`), where W is the scenario's `metrics.handover_window`.
    pub fn window_of(&self, t: SimTime, w: SimDuration) -> Option<usize> {
        if t < self.start && t + w >= self.start {
            Some(0)
        } else if t >= self.done && t < self.done + w {
            Some(1)
        } else {
            None
        }
    }

    /// The warning event of this handover.
    pub fn imminent(&self, warning: SimDuration) -> LinkEvent {
        LinkEvent::Imminent { eta: warning, old: self.from, new: self.to }
    }
}

/// What the world looks up per mobile node.
#[derive(Clone, Debug, Default)]
pub struct ByMobile {
    /// The flows with an endpoint on each mobile node, in flow order.
    pub flows: Groups,
    /// The handovers of each mobile node, in time order.
    pub handovers: Groups,
    /// The handover of each timeline entry (`u32::MAX` for other entries).
    pub of_entry: Vec<u32>,
    /// Whether a mobile node times its warnings by its RTT estimate (`mobile.warning =
    /// "srtt"`, srtt_warning.rs): read after every endpoint input, so kept here.
    pub srtt: bool,
}

impl ByMobile {
    /// The index of `scenario` and its `handovers`.
    pub fn new(scenario: &Scenario, handovers: &[HandoverRecord]) -> Self {
        let mut mobile_at = vec![None; scenario.nodes.len()];
        for (k, m) in scenario.mobiles.iter().enumerate() {
            mobile_at[m.node as usize] = Some(k);
        }
        let mut flows: Vec<(usize, u32)> = Vec::new();
        for (f, flow) in scenario.flows.iter().enumerate() {
            for k in [flow.src, flow.dst].into_iter().filter_map(|n| mobile_at[n as usize]) {
                // A flow between two of one mobile node's addresses is listed once.
                if flows.last() != Some(&(k, f as u32)) {
                    flows.push((k, f as u32));
                }
            }
        }
        let mut of_entry = vec![u32::MAX; scenario.timeline.len()];
        for (j, h) in handovers.iter().enumerate() {
            of_entry[h.timeline_index] = j as u32;
        }
        let n = scenario.mobiles.len();
        ByMobile {
            flows: Groups::new(n, flows.iter().copied()),
            handovers: Groups::new(n, handovers.iter().enumerate().map(|(j, h)| (h.mobile as usize, j as u32))),
            of_entry,
            srtt: scenario.mobiles.iter().any(|m| !m.warning_rule.is_fixed()),
        }
    }
}

impl World {
    /// Mobile node `m`'s interface `iface` goes down (`up` false) or comes back: its access
    /// links, or its attachment to a shared cell.
    fn set_access_up(&mut self, m: u32, iface: u32, up: bool) {
        match self.attachment(m, iface) {
            Some(a) => self.cells[a as usize].up = up,
            None => {
                for l in self.access_links(m, iface) {
                    self.link_mut(l).set_up(up);
                }
            }
        }
    }

    fn access_links(&self, m: u32, iface: u32) -> Vec<u32> {
        self.scenario.mobiles[m as usize].interfaces[iface as usize].access.clone()
    }

    /// Deliver `ev` to every agent on mobile node `m` (in file order), then to every endpoint
    /// there (in flow order).
    pub(crate) fn link_event(&mut self, m: u32, ev: LinkEvent) {
        let mn = self.scenario.mobiles[m as usize].node;
        for j in 0..self.agents_at(mn).len() {
            let a = self.agents_at(mn)[j];
            self.agents[a as usize].on_link_event(self.now, &ev);
            self.agent_outputs(a);
        }
        for j in 0..self.by_mobile.flows[m as usize].len() {
            let f = self.by_mobile.flows[m as usize][j] as usize;
            for side in 0..2 {
                if self.flows[f].nodes[side] == mn && self.flows[f].started {
                    self.flows[f].endpoints[side].on_link_event(self.now, &ev);
                    self.after_input(f as u32, side);
                }
            }
        }
    }

    /// Timeline entry `i`, a handover, starts now.
    pub(crate) fn on_handover_start(&mut self, i: u32) {
        let k = self.by_mobile.of_entry[i as usize] as usize;
        let h = self.handovers[k].clone();
        let flows = &self.flows;
        self.obs.handover_started(k, |f| flows[f].endpoints[0].progress().map_or(0, |p| p.sent_max));
        let warning = self.scenario.mobiles[h.mobile as usize].warning;
        if warning == SimDuration::ZERO {
            self.link_event(h.mobile, h.imminent(warning));
        }
        match h.kind {
            HandoverKind::MakeBeforeBreak => self.on_handover_done(k as u32),
            HandoverKind::BreakBeforeMake { gap: outage } | HandoverKind::Forced { detection: outage, .. } => {
                self.set_access_up(h.mobile, h.from, false);
                if let HandoverKind::Forced { in_flight, uplink, .. } = h.kind {
                    self.forced_failure(&h, in_flight, uplink);
                }
                self.link_event(h.mobile, LinkEvent::Down(h.from));
                self.queue.push(self.now + outage, EventClass::Timeline, Event::HandoverDone(k as u32));
            }
            HandoverKind::Pause { duration } => {
                match self.attachment(h.mobile, h.from) {
                    Some(a) => self.cells[a as usize].paused = true,
                    None => {
                        for l in self.access_links(h.mobile, h.from) {
                            self.link_mut(l).pause();
                        }
                    }
                }
                self.queue.push(self.now + duration, EventClass::Timeline, Event::HandoverDone(k as u32));
            }
        }
    }

    /// The options of a forced handover's failure (docs/handover.md "Forced handovers"): the
    /// packets propagating on the old access links arrive (`in_flight = "delivered"`) or are
    /// lost (`"lost"`), even if the handover completes, and restores the links, before they
    /// arrive (a packet that left before now arrives by now + the link's delay; nothing leaves a
    /// down link afterwards); the mobile node sends by the new interface from now
    /// (`uplink = "at_failure"`; the anchor's binding waits for the completion).
    fn forced_failure(&mut self, h: &HandoverRecord, in_flight: InFlight, uplink: Uplink) {
        let delivered = in_flight == InFlight::Delivered;
        match self.attachment(h.mobile, h.from) {
            Some(a) => {
                let down = self.routing.attachments[a as usize].links[0];
                let until = self.now + self.links[down as usize].params().delay;
                self.cells[a as usize].in_transit = Some(InTransit { until, delivered });
            }
            None => {
                for l in self.access_links(h.mobile, h.from) {
                    let until = self.now + self.links[l as usize].params().delay;
                    self.failed_in_transit[l as usize] = Some(InTransit { until, delivered });
                    self.mark_link_changed(l);
                }
            }
        }
        if uplink == Uplink::AtFailure {
            self.routing.mobiles[h.mobile as usize].mn_iface = h.to;
        }
    }

    /// The warning of handover `k` (scheduled its mobile node's `warning` before its start; with
    /// `"srtt"` a check of the mobile node's estimate, `srtt_warning.rs`).
    pub(crate) fn on_handover_warning(&mut self, k: u32) {
        let m = self.handovers[k as usize].mobile;
        if self.srtt_warning_rule(m).is_some() {
            return self.check_srtt_warning(m);
        }
        let h = &self.handovers[k as usize];
        let ev = h.imminent(self.scenario.mobiles[m as usize].warning);
        self.link_event(m, ev);
    }

    /// Handover `k` completes now: restore the old link, switch the mobile node to the new
    /// interface and start the binding update.
    pub(crate) fn on_handover_done(&mut self, k: u32) {
        if self.handovers[k as usize].completed {
            return; // a forced handover an agent completed before its detection time
        }
        if self.now < self.handovers[k as usize].done {
            self.completed_early(k as usize);
        }
        self.handovers[k as usize].completed = true;
        let h = self.handovers[k as usize].clone();
        match h.kind {
            HandoverKind::MakeBeforeBreak => {}
            HandoverKind::BreakBeforeMake { .. } | HandoverKind::Forced { .. } => self.set_access_up(h.mobile, h.from, true),
            HandoverKind::Pause { .. } => self.resume_access(h.mobile, h.from),
        }
        let latency = self.scenario.mobiles[h.mobile as usize].binding.latency;
        let m = &mut self.routing.mobiles[h.mobile as usize];
        m.mn_iface = h.to;
        if latency == SimDuration::ZERO {
            m.bound = h.to;
        } else {
            m.pending = Some(crate::routing::PendingBinding { new: h.to, until: self.now + latency });
            self.queue.push(self.now + latency, EventClass::Timeline, Event::BindingUpdate(k));
        }
        if !matches!(h.kind, HandoverKind::Pause { .. }) {
            self.link_event(h.mobile, LinkEvent::Up(h.to));
        }
        self.link_event(h.mobile, LinkEvent::Completed { old: h.from, new: h.to });
        self.queue.push(self.now + h.notify_delay, EventClass::Packet, Event::HandoverNotice(k));
    }

    /// The end of a pause of mobile node `m`'s interface `iface`: what waited moves on.
    fn resume_access(&mut self, m: u32, iface: u32) {
        if let Some(a) = self.attachment(m, iface) {
            return self.resume_attachment(a);
        }
        for l in self.access_links(m, iface) {
            let now = self.now;
            if let Some(done) = self.link_mut(l).resume(now) {
                self.started_serializing(l, done);
            }
            // Packets that reached the far end during the pause arrive now, in order.
            for pkt in std::mem::take(&mut self.held[l as usize]) {
                self.schedule_arrival(l, self.now, pkt);
            }
        }
    }

    /// A node agent declares interface `iface` of mobile node `m` failed: the forced handover
    /// away from it that is under way completes now; if none is, nothing happens.
    pub(crate) fn interface_failed(&mut self, m: u32, iface: u32) {
        let now = self.now;
        let pending = self.by_mobile.handovers[m as usize].iter().copied().find(|&k| {
            let h = &self.handovers[k as usize];
            matches!(h.kind, HandoverKind::Forced { .. }) && h.from == iface && h.start <= now && !h.completed
        });
        if let Some(k) = pending {
            self.on_handover_done(k);
        }
    }

    /// Forced handover `k` completes now, before its detection time: its completion and metric
    /// window move here (the observers measure "after" from now).
    fn completed_early(&mut self, k: usize) {
        let end = SimTime::ZERO + self.scenario.duration;
        let window_end = (self.now + self.scenario.metrics.handover_window).min(end);
        for h in [&mut self.handovers[k], &mut self.obs.handovers[k]] {
            h.done = self.now;
            h.window_end = window_end;
        }
    }

    /// The binding update of handover `k` reaches the anchor now.
    pub(crate) fn on_binding_update(&mut self, k: u32) {
        let h = &self.handovers[k as usize];
        let m = &mut self.routing.mobiles[h.mobile as usize];
        m.bound = h.to;
        if m.pending.is_some_and(|p| p.until <= self.now) {
            m.pending = None;
        }
    }

    /// The notification of handover `k` reaches the senders of the flows of its mobile node now.
    pub(crate) fn on_handover_notice(&mut self, k: u32) {
        let h = &self.handovers[k as usize];
        let m = &self.scenario.mobiles[h.mobile as usize];
        let info = |i: u32| {
            let p = self.links[m.interfaces[i as usize].downlink as usize].params();
            AccessLinkInfo { bandwidth: p.rate, delay: p.delay }
        };
        let notice = HandoverNotice { old: info(h.from), new: info(h.to) };
        let mobile = h.mobile as usize;
        for j in 0..self.by_mobile.flows[mobile].len() {
            let f = self.by_mobile.flows[mobile][j];
            self.obs.notified(k as usize, f);
            self.flows[f as usize].endpoints[0].on_notice(self.now, &notice);
            self.after_input(f, 0);
        }
    }
}
