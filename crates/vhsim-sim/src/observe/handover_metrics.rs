//! Per-flow measurements around each handover (Daniel & Kojo's time to acknowledge n new
//! segments, goodput and throughput before and after, interruption, timeouts and spurious
//! retransmissions in the handover's window).

use crate::handover::HandoverRecord;
use serde::Serialize;
use vhsim_core::{SimDuration, SimTime};

/// Per-flow measurements around one handover.
#[derive(Clone, Debug, Default, Serialize, PartialEq, schemars::JsonSchema)]
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

/// One flow's measurements around the handovers it measures: those of the mobile nodes it has
/// an endpoint on (`crate::observe::Observers::new` says which). A flow that measures none (most
/// flows of a population whose users do not hand over, every flow of a run without handovers)
/// keeps one null pointer (issue #29, memory per flow); every step below is then a no-op.
#[derive(Clone, Debug, Default)]
pub struct FlowHandovers(Option<Box<Measured>>);

impl FlowHandovers {
    /// Measurements for the handovers `ids` (indices into the run's, in time order).
    pub fn new(ids: Vec<u32>) -> Self {
        FlowHandovers((!ids.is_empty()).then(|| Box::new(Measured::new(ids))))
    }

    /// The handovers measured (indices into the run's, in time order).
    pub fn ids(&self) -> &[u32] {
        self.0.as_deref().map_or(&[], |m| &m.ids)
    }

    /// One entry per handover measured, in the order of [`FlowHandovers::ids`].
    pub fn stats(&self) -> &[FlowHandoverStats] {
        self.0.as_deref().map_or(&[], |m| &m.stats)
    }

    /// The measurements of the run's handover `k`, if this flow measures it.
    pub fn of(&mut self, k: usize) -> Option<&mut FlowHandoverStats> {
        self.0.as_deref_mut()?.of(k)
    }

    /// Handover `k` (which this flow measures) starts; the sender has sent up to `sent_max`
    /// (exclusive).
    pub fn started(&mut self, k: usize, sent_max: u64) {
        self.0.as_deref_mut().expect("a handover the flow measures").started(k, sent_max);
    }

    /// The sender timed out at `now`: count it for handovers whose window covers now.
    pub fn rto(&mut self, now: SimTime, handovers: &[HandoverRecord]) {
        if let Some(m) = self.0.as_deref_mut() {
            m.rto(now, handovers);
        }
    }

    /// A retransmission sent at `sent_at` was resolved spurious.
    pub fn spurious(&mut self, sent_at: SimTime, from_rto: bool, handovers: &[HandoverRecord]) {
        if let Some(m) = self.0.as_deref_mut() {
            m.spurious(sent_at, from_rto, handovers);
        }
    }

    /// Data arrived at the receiver now: `received` payload bytes, of which `delivered` newly
    /// in order.
    pub fn bytes(&mut self, now: SimTime, received: u64, delivered: u64, handovers: &[HandoverRecord], w: SimDuration) {
        if let Some(m) = self.0.as_deref_mut() {
            m.bytes(now, received, delivered, handovers, w);
        }
    }

    /// Whether every handover has started and all its indices are settled.
    pub fn settled(&self) -> bool {
        self.0.as_deref().is_none_or(Measured::settled)
    }

    /// Whether [`FlowHandovers::settle`] has anything to do: a handover started and some of its
    /// indices are open.
    #[inline]
    pub fn unsettled(&self) -> bool {
        self.0.as_deref().is_some_and(|m| m.open > 0)
    }

    /// After an ACK or a delivery: settle the indices still open. `acked` is the sender's
    /// cumulative acknowledgment point; `n` the index's packet count.
    pub fn settle(&mut self, now: SimTime, handovers: &[HandoverRecord], n: u64, acked: u64, delivered_now: bool) {
        if let Some(m) = self.0.as_deref_mut() {
            m.settle(now, handovers, n, acked, delivered_now);
        }
    }
}

/// The measurements of a flow that measures at least one handover.
#[derive(Clone, Debug)]
struct Measured {
    /// The handovers measured (indices into the run's, in time order).
    ids: Vec<u32>,
    /// One entry per handover measured, in the same order.
    stats: Vec<FlowHandoverStats>,
    /// Handovers whose indices are not settled yet.
    open: usize,
    /// Time of the last in-order delivery.
    last_delivery: Option<SimTime>,
}

/// The steps of [`FlowHandovers`]' methods of the same names.
impl Measured {
    fn new(ids: Vec<u32>) -> Self {
        Measured { stats: vec![FlowHandoverStats::default(); ids.len()], ids, open: 0, last_delivery: None }
    }

    fn of(&mut self, k: usize) -> Option<&mut FlowHandoverStats> {
        let j = self.ids.binary_search(&(k as u32)).ok()?;
        Some(&mut self.stats[j])
    }

    /// The run's handovers this flow measures, with their measurements.
    fn each<'a>(
        &'a mut self,
        handovers: &'a [HandoverRecord],
    ) -> impl Iterator<Item = (&'a HandoverRecord, &'a mut FlowHandoverStats)> {
        self.ids.iter().map(|&k| &handovers[k as usize]).zip(self.stats.iter_mut())
    }

    fn started(&mut self, k: usize, sent_max: u64) {
        let last = self.last_delivery;
        let st = self.of(k).expect("a handover the flow measures");
        st.started = true;
        st.snd_max_at_start = sent_max;
        st.last_delivery_before = last;
        self.open += 1;
    }

    fn rto(&mut self, now: SimTime, handovers: &[HandoverRecord]) {
        for (h, st) in self.each(handovers) {
            if now >= h.start && now < h.window_end {
                st.rtos += 1;
            }
        }
    }

    fn spurious(&mut self, sent_at: SimTime, from_rto: bool, handovers: &[HandoverRecord]) {
        for (h, st) in self.each(handovers) {
            if sent_at >= h.start && sent_at < h.window_end {
                st.spurious_retransmissions += 1;
                if from_rto {
                    st.spurious_rtos += 1;
                }
            }
        }
    }

    fn bytes(&mut self, now: SimTime, received: u64, delivered: u64, handovers: &[HandoverRecord], w: SimDuration) {
        if delivered > 0 {
            self.last_delivery = Some(now);
        }
        for (h, st) in self.each(handovers) {
            if let Some(i) = h.window_of(now, w) {
                st.received_bytes[i] += received;
                st.delivered_bytes[i] += delivered;
            }
        }
    }

    fn settled(&self) -> bool {
        self.open == 0 && self.stats.iter().all(|s| s.started)
    }

    fn settle(&mut self, now: SimTime, handovers: &[HandoverRecord], n: u64, acked: u64, delivered_now: bool) {
        if self.open == 0 {
            return;
        }
        let mut open = 0;
        for (h, st) in self.each(handovers) {
            if !st.started {
                continue;
            }
            if st.time_to_n_acked_s.is_none() && acked >= st.snd_max_at_start + n {
                st.time_to_n_acked_s = Some((now - h.start).as_secs_f64());
            }
            if st.interruption_s.is_none() && delivered_now && now >= h.start {
                let last = st.last_delivery_before.unwrap_or(h.start);
                st.interruption_s = Some((now - last).as_secs_f64());
            }
            open += usize::from(st.time_to_n_acked_s.is_none() || st.interruption_s.is_none());
        }
        self.open = open;
    }
}
