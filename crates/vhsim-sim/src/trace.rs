//! Columnar traces: one `Vec` per column, handed to Python as NumPy arrays without a Python
//! object per row. What is recorded depends on the run's detail level.

use crate::trace_filter::{SampleGate, TraceFilter};
use vhsim_core::SimTime;

/// Packet events (codes of the `event` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketEvent {
    /// First transmission of a data segment.
    Send = 0,
    /// Retransmission of a data segment.
    Retransmit = 1,
    /// A data segment reached the receiver.
    Receive = 2,
    /// The receiver sent an ACK.
    AckSend = 3,
    /// An ACK reached the sender.
    AckReceive = 4,
    /// A data segment was dropped.
    Drop = 5,
    /// An ACK was dropped.
    AckDrop = 6,
}

impl PacketEvent {
    /// Names in code order.
    pub const NAMES: [&'static str; 7] =
        ["send", "retransmit", "receive", "ack_send", "ack_receive", "drop", "ack_drop"];
}

/// Names of the `cause` column (0 = none, then `DropCause` codes).
pub const CAUSE_NAMES: [&str; 4] = ["none", "queue_overflow", "error_model", "link_down"];

/// Per-packet event table.
#[derive(Clone, Debug, Default)]
pub struct PacketTrace {
    /// Event time (ns).
    pub time_ns: Vec<u64>,
    /// Flow index.
    pub flow: Vec<u32>,
    /// [`PacketEvent`] code.
    pub event: Vec<u8>,
    /// Segment number (data) or cumulative ACK (ACKs).
    pub seq: Vec<i64>,
    /// Link direction involved (-1 = none).
    pub link: Vec<i32>,
    /// Drop cause code (0 = none).
    pub cause: Vec<u8>,
    /// Ground-truth label of retransmissions: -1 n/a, 0 necessary, 1 spurious.
    pub spurious: Vec<i8>,
    /// Rows to keep (default: all).
    pub filter: TraceFilter,
}

impl PacketTrace {
    /// The index the next row would get, or `None` if the filter drops such a row.
    pub fn row_for(&self, t: SimTime, flow: u32, event: PacketEvent, link: Option<u32>) -> Option<u32> {
        self.filter.keeps_packet(t, flow, event, link).then_some(self.time_ns.len() as u32)
    }

    /// Append a row unless the filter drops it; returns its index.
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        t: SimTime,
        flow: u32,
        event: PacketEvent,
        seq: u64,
        link: Option<u32>,
        cause: u8,
    ) -> Option<u32> {
        let row = self.row_for(t, flow, event, link)?;
        self.time_ns.push(t.0);
        self.flow.push(flow);
        self.event.push(event as u8);
        self.seq.push(seq as i64);
        self.link.push(link.map_or(-1, |l| l as i32));
        self.cause.push(cause);
        self.spurious.push(-1);
        Some(row)
    }
}

/// Per-flow sender state over time: one row whenever it changes.
#[derive(Clone, Debug, Default)]
pub struct TimeSeries {
    /// Time (ns).
    pub time_ns: Vec<u64>,
    /// Flow index.
    pub flow: Vec<u32>,
    /// cwnd (segments).
    pub cwnd: Vec<f64>,
    /// ssthresh (segments).
    pub ssthresh: Vec<f64>,
    /// Smoothed RTT (s; NaN before the first sample).
    pub srtt_s: Vec<f64>,
    /// Current RTO (s).
    pub rto_s: Vec<f64>,
    /// Segments outstanding.
    pub flight: Vec<i64>,
    /// `CaState` code.
    pub state: Vec<u8>,
    /// Loss differentiation's measured RTT Tcur (s; NaN without LD or before a sample).
    pub ld_tcur_s: Vec<f64>,
    /// Loss differentiation's threshold, the right side of Lim & Jang's inequality (2)
    /// (s; NaN without LD).
    pub ld_threshold_s: Vec<f64>,
    /// Flow and window selection (default: all rows).
    pub gate: SampleGate,
}

/// One row of [`TimeSeries`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenderSnapshot {
    /// cwnd.
    pub cwnd: f64,
    /// ssthresh.
    pub ssthresh: f64,
    /// srtt (s).
    pub srtt_s: f64,
    /// rto (s).
    pub rto_s: f64,
    /// flight size.
    pub flight: i64,
    /// state code.
    pub state: u8,
    /// LD Tcur (s).
    pub ld_tcur_s: f64,
    /// LD threshold (s).
    pub ld_threshold_s: f64,
}

impl TimeSeries {
    /// Append a row, as far as the gate lets it through.
    pub fn push(&mut self, t: SimTime, flow: u32, s: &SenderSnapshot) {
        if self.gate.passes_all() {
            return self.push_row(t, flow, s);
        }
        let mut gate = std::mem::take(&mut self.gate);
        gate.offer(t, flow, s, |t, f, s| self.push_row(t, f, s));
        self.gate = gate;
    }

    fn push_row(&mut self, t: SimTime, flow: u32, s: &SenderSnapshot) {
        self.time_ns.push(t.0);
        self.flow.push(flow);
        self.cwnd.push(s.cwnd);
        self.ssthresh.push(s.ssthresh);
        self.srtt_s.push(s.srtt_s);
        self.rto_s.push(s.rto_s);
        self.flight.push(s.flight);
        self.state.push(s.state);
        self.ld_tcur_s.push(s.ld_tcur_s);
        self.ld_threshold_s.push(s.ld_threshold_s);
    }
}

/// Goodput per interval per flow: bytes delivered in order to the application.
#[derive(Clone, Debug, Default)]
pub struct GoodputSeries {
    /// `bins[flow][i]` = bytes delivered in `[i·interval, (i+1)·interval)`.
    pub bins: Vec<Vec<u64>>,
}

impl GoodputSeries {
    /// Add `bytes` delivered to `flow` in bin `bin`.
    pub fn add(&mut self, flow: usize, bin: usize, bytes: u64) {
        let b = &mut self.bins[flow];
        if b.len() <= bin {
            b.resize(bin + 1, 0);
        }
        b[bin] += bytes;
    }
}

/// All traces of a run.
#[derive(Clone, Debug, Default)]
pub struct Traces {
    /// Per-packet events (detail = packets).
    pub packets: Option<PacketTrace>,
    /// Sender state series (detail ≥ timeseries).
    pub timeseries: Option<TimeSeries>,
    /// Goodput per interval (always).
    pub goodput: GoodputSeries,
}

impl Traces {
    /// Record only what `filter` keeps (call before the run).
    pub fn set_filter(&mut self, filter: &TraceFilter) {
        if let Some(p) = self.packets.as_mut() {
            p.filter = filter.clone();
        }
        if let Some(ts) = self.timeseries.as_mut() {
            ts.gate = SampleGate::new(filter.clone());
        }
    }

    /// Write rows a filter still holds back (call at the end of a run that reached `end`).
    pub fn finish(&mut self, end: SimTime) {
        if let Some(ts) = self.timeseries.as_mut() {
            let mut gate = std::mem::take(&mut ts.gate);
            gate.finish(end, |t, f, s| ts.push_row(t, f, s));
            ts.gate = gate;
        }
    }
}
