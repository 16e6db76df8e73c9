//! Handovers of the mobile node and the metrics around them.
//!
//! A handover changes which routing table is in use (vhsim-scenario `mobile`: only the anchor's
//! and the MN's routes differ between tables), so packets already past the anchor on the old
//! path still arrive (make-before-break). Break-before-make takes the old access link down in
//! both directions for `gap`; pause stops it for `duration` without loss: packets queued wait in
//! its queue and packets that reach its far end wait at the link until it resumes. When the
//! handover completes, traffic takes the new interface and, after `notify_delay`, every sender
//! with an endpoint at the MN receives a cross-layer notification with the old and new access
//! links' current bandwidth and delay (Daniel & Kojo §3; the notification carries nothing a
//! real MN could not know).

use crate::world::{Event, World};
use serde::Serialize;
use vhsim_core::{EventClass, SimDuration, SimTime};
use vhsim_scenario::{Action, HandoverKind, Scenario};
use vhsim_tcp::{AccessLinkInfo, HandoverNotice};

/// One handover of the run.
#[derive(Clone, Debug)]
pub struct HandoverRecord {
    /// Index of its timeline entry.
    pub timeline_index: usize,
    /// When it starts.
    pub start: SimTime,
    /// When traffic takes the new interface.
    pub done: SimTime,
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
}

/// The handovers of `scenario`, in time order.
pub fn records(scenario: &Scenario) -> Vec<HandoverRecord> {
    let end = SimTime::ZERO + scenario.duration;
    scenario
        .timeline
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.action {
            Action::Handover { kind, from, to, notify_delay } => {
                let done = e.at + kind.outage();
                let window_end = (done + scenario.metrics.handover_window).min(end);
                Some(HandoverRecord {
                    timeline_index: i,
                    start: e.at,
                    done,
                    kind,
                    from,
                    to,
                    notify_delay,
                    window_end,
                })
            }
            _ => None,
        })
        .collect()
}

/// Per-flow measurements around one handover.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct FlowHandoverStats {
    /// Highest segment sent (exclusive) when the handover started.
    #[serde(skip)]
    pub snd_max_at_start: u64,
    /// Last in-order delivery before the handover started.
    #[serde(skip)]
    pub last_delivery_before: Option<SimTime>,
    /// Whether the handover has started.
    #[serde(skip)]
    pub started: bool,
    /// Goodput (kb/s) in the window before the handover.
    pub goodput_before_kbps: f64,
    /// Goodput (kb/s) in the window after it completed.
    pub goodput_after_kbps: f64,
    /// Throughput (kb/s of data arriving at the receiver, duplicates included) before.
    pub throughput_before_kbps: f64,
    /// Throughput after.
    pub throughput_after_kbps: f64,
    /// Time from the start of the handover until `n` segments sent after it were
    /// cumulatively acknowledged (Daniel & Kojo's index; `None` if it did not happen).
    pub time_to_n_acked_s: Option<f64>,
    /// Last in-order delivery before the handover to the first after it.
    pub interruption_s: Option<f64>,
    /// Timeouts from the start of the handover to the end of its window.
    pub rtos: u64,
    /// Of those, spurious (ground truth).
    pub spurious_rtos: u64,
    /// Spurious retransmissions sent in that window (ground truth).
    pub spurious_retransmissions: u64,
    /// Cross-layer notifications of this handover the sender received.
    pub notifications: u64,
    /// Payload bytes delivered in order in the window before / after.
    #[serde(skip)]
    pub delivered_bytes: [u64; 2],
    /// Payload bytes of data arriving at the receiver (duplicates included) before / after.
    #[serde(skip)]
    pub received_bytes: [u64; 2],
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
}

impl World {
    fn handover_index(&self, timeline_index: u32) -> usize {
        self.handovers.iter().position(|h| h.timeline_index == timeline_index as usize).unwrap_or_default()
    }

    fn access_links(&self, interface: u32) -> Vec<u32> {
        self.scenario
            .mobile
            .as_ref()
            .map_or_else(Vec::new, |m| m.interfaces[interface as usize].access.clone())
    }

    /// Timeline entry `i`, a handover, starts now.
    pub(crate) fn on_handover_start(&mut self, i: u32) {
        let k = self.handover_index(i);
        let h = self.handovers[k].clone();
        for fl in &mut self.flows {
            let st = &mut fl.handover_stats[k];
            st.started = true;
            st.snd_max_at_start = fl.sender.core().snd_max();
            st.last_delivery_before = fl.last_delivery;
            fl.open_handovers += 1;
        }
        match h.kind {
            HandoverKind::MakeBeforeBreak => self.on_handover_done(k as u32),
            HandoverKind::BreakBeforeMake { gap } => {
                for l in self.access_links(h.from) {
                    self.links[l as usize].set_up(false);
                }
                self.queue.push(self.now + gap, EventClass::Timeline, Event::HandoverDone(k as u32));
            }
            HandoverKind::Pause { duration } => {
                for l in self.access_links(h.from) {
                    self.links[l as usize].pause();
                }
                self.queue.push(self.now + duration, EventClass::Timeline, Event::HandoverDone(k as u32));
            }
        }
    }

    /// Handover `k` completes now: restore the old link and switch to the new interface.
    pub(crate) fn on_handover_done(&mut self, k: u32) {
        let h = self.handovers[k as usize].clone();
        for l in self.access_links(h.from) {
            let link = &mut self.links[l as usize];
            match h.kind {
                HandoverKind::MakeBeforeBreak => {}
                HandoverKind::BreakBeforeMake { .. } => link.set_up(true),
                HandoverKind::Pause { .. } => {
                    if let Some(done) = link.resume(self.now) {
                        self.queue.push(done, EventClass::Packet, Event::TxDone(l));
                    }
                    // Packets that reached the far end during the pause arrive now, in order.
                    for pkt in std::mem::take(&mut self.held[l as usize]) {
                        self.queue.push(self.now, EventClass::Packet, Event::Arrive(l, pkt));
                    }
                }
            }
        }
        self.active = h.to as usize;
        self.queue.push(self.now + h.notify_delay, EventClass::Packet, Event::HandoverNotice(k));
    }

    /// The notification of handover `k` reaches the senders now.
    pub(crate) fn on_handover_notice(&mut self, k: u32) {
        let Some(m) = &self.scenario.mobile else { return };
        let h = &self.handovers[k as usize];
        let info = |i: u32| {
            let p = self.links[m.interfaces[i as usize].downlink as usize].params();
            AccessLinkInfo { bandwidth: p.rate, delay: p.delay }
        };
        let notice = HandoverNotice { old: info(h.from), new: info(h.to) };
        let mn = m.node;
        for f in 0..self.flows.len() {
            let fl = &mut self.flows[f];
            if fl.src != mn && fl.dst != mn {
                continue;
            }
            fl.handover_stats[k as usize].notifications += 1;
            fl.sender.on_handover_notice(self.now, &notice);
            self.pump_sender(f as u32);
        }
    }

    /// A sender of flow `f` timed out now: count it for handovers whose window covers now.
    pub(crate) fn note_rto(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        for (h, st) in self.handovers.iter().zip(fl.handover_stats.iter_mut()) {
            if now >= h.start && now < h.window_end {
                st.rtos += 1;
            }
        }
    }

    /// A resolved spurious retransmission of flow `f` sent at `sent_at`.
    pub(crate) fn note_spurious(&mut self, f: u32, sent_at: SimTime, from_rto: bool) {
        let fl = &mut self.flows[f as usize];
        for (h, st) in self.handovers.iter().zip(fl.handover_stats.iter_mut()) {
            if sent_at >= h.start && sent_at < h.window_end {
                st.spurious_retransmissions += 1;
                if from_rto {
                    st.spurious_rtos += 1;
                }
            }
        }
    }

    /// Data of flow `f` arrived at the receiver now: `received` payload bytes, of which
    /// `delivered` newly in order.
    pub(crate) fn note_handover_bytes(&mut self, f: u32, received: u64, delivered: u64) {
        let (now, w) = (self.now, self.scenario.metrics.handover_window);
        let fl = &mut self.flows[f as usize];
        if delivered > 0 {
            fl.last_delivery = Some(now);
        }
        for (h, st) in self.handovers.iter().zip(fl.handover_stats.iter_mut()) {
            if let Some(i) = h.window_of(now, w) {
                st.received_bytes[i] += received;
                st.delivered_bytes[i] += delivered;
            }
        }
    }

    /// After an ACK or a delivery of flow `f`: settle the per-handover indices still open.
    pub(crate) fn settle_handover_indices(&mut self, f: u32, delivered_now: bool) {
        let now = self.now;
        let n = self.scenario.metrics.handover_packets;
        let fl = &mut self.flows[f as usize];
        if fl.open_handovers == 0 {
            return;
        }
        let una = fl.sender.core().snd_una();
        let mut open = 0;
        for (h, st) in self.handovers.iter().zip(fl.handover_stats.iter_mut()) {
            if !st.started {
                continue;
            }
            if st.time_to_n_acked_s.is_none() && una >= st.snd_max_at_start + n {
                st.time_to_n_acked_s = Some((now - h.start).as_secs_f64());
            }
            if st.interruption_s.is_none() && delivered_now && now >= h.start {
                let last = st.last_delivery_before.unwrap_or(h.start);
                st.interruption_s = Some((now - last).as_secs_f64());
            }
            open += usize::from(st.time_to_n_acked_s.is_none() || st.interruption_s.is_none());
        }
        fl.open_handovers = open;
    }
}
