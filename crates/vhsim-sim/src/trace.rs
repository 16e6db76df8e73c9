//! Columnar traces: one `Vec` per column, handed to Python as NumPy arrays without a Python
//! object per row. What is recorded depends on the run's detail level.

use crate::trace_filter::{SampleGate, TraceFilter};
use vhsim_core::{SimTime, TracedVar};

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
    /// A control packet was sent.
    ControlSend = 7,
    /// A control packet reached its destination.
    ControlReceive = 8,
    /// A control packet was dropped.
    ControlDrop = 9,
}

impl PacketEvent {
    /// Names in code order.
    pub const NAMES: [&'static str; 10] = [
        "send",
        "retransmit",
        "receive",
        "ack_send",
        "ack_receive",
        "drop",
        "ack_drop",
        "control_send",
        "control_receive",
        "control_drop",
    ];
}

/// Names of the `cause` column (0 = none, then `DropCause` codes).
pub const CAUSE_NAMES: [&str; 6] = ["none", "queue_overflow", "error_model", "link_down", "binding", "agent"];

/// One row of the packet trace.
#[derive(Clone, Copy, Debug)]
pub struct PacketRow {
    /// Event time.
    pub time: SimTime,
    /// Flow index (`vhsim_net::NO_FLOW` for node agents' packets).
    pub flow: u32,
    /// What happened.
    pub event: PacketEvent,
    /// Data unit, or cumulative ACK.
    pub seq: u64,
    /// Link direction involved.
    pub link: Option<u32>,
    /// Drop cause code (0 = none).
    pub cause: u8,
    /// Bytes on the wire.
    pub size: u32,
    /// Source address.
    pub src: u32,
    /// Destination address.
    pub dst: u32,
    /// Interface of the mobile node the packet uses (`None`: not the mobile node's).
    pub path: Option<u32>,
    /// Transport flags (`TraceTag::flags`).
    pub flags: u8,
}

/// Per-packet event table.
#[derive(Clone, Debug, Default)]
pub struct PacketTrace {
    /// Event time (ns).
    pub time_ns: Vec<u64>,
    /// Flow index.
    pub flow: Vec<u32>,
    /// [`PacketEvent`] code.
    pub event: Vec<u8>,
    /// Data unit (data) or cumulative ACK (ACKs).
    pub seq: Vec<i64>,
    /// Link direction involved (-1 = none).
    pub link: Vec<i32>,
    /// Drop cause code (0 = none).
    pub cause: Vec<u8>,
    /// Ground-truth label of retransmissions: -1 n/a, 0 necessary, 1 spurious.
    pub spurious: Vec<i8>,
    /// Bytes on the wire.
    pub size: Vec<u32>,
    /// Source address (index into the scenario's address table).
    pub src: Vec<u32>,
    /// Destination address.
    pub dst: Vec<u32>,
    /// Interface of the mobile node used (-1 = none).
    pub path: Vec<i8>,
    /// Transport flags.
    pub flags: Vec<u8>,
    /// Rows to keep (default: all).
    pub filter: TraceFilter,
}

impl PacketTrace {
    /// The index the next row would get, or `None` if the filter drops such a row.
    pub fn row_for(&self, t: SimTime, flow: u32, event: PacketEvent, link: Option<u32>) -> Option<u32> {
        self.filter.keeps_packet(t, flow, event, link).then_some(self.time_ns.len() as u32)
    }

    /// Append a row unless the filter drops it; returns its index.
    pub fn push(&mut self, r: PacketRow) -> Option<u32> {
        let row = self.row_for(r.time, r.flow, r.event, r.link)?;
        self.time_ns.push(r.time.0);
        self.flow.push(r.flow);
        self.event.push(r.event as u8);
        self.seq.push(r.seq as i64);
        self.link.push(r.link.map_or(-1, |l| l as i32));
        self.cause.push(r.cause);
        self.spurious.push(-1);
        self.size.push(r.size);
        self.src.push(r.src);
        self.dst.push(r.dst);
        self.path.push(r.path.map_or(-1, |p| p as i8));
        self.flags.push(r.flags);
        Some(row)
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.time_ns.len()
    }

    /// True if no row was recorded.
    pub fn is_empty(&self) -> bool {
        self.time_ns.is_empty()
    }
}

/// One traced variable's column.
#[derive(Clone, Debug)]
pub struct VarColumn {
    /// Variable name.
    pub name: &'static str,
    /// Unit.
    pub unit: &'static str,
    /// One value per row (NaN where the row's endpoint has no such variable).
    pub values: Vec<f64>,
}

/// Endpoint state over time: one row whenever a traced variable that starts rows changes, with
/// one column per variable any endpoint of the run reports (vhsim-core `TracedVar`). A column
/// is a (name, unit) pair, so TCP's `cwnd` in packets and SCTP's in bytes stay apart.
#[derive(Clone, Debug, Default)]
pub struct TimeSeries {
    /// Time (ns).
    pub time_ns: Vec<u64>,
    /// Flow index.
    pub flow: Vec<u32>,
    /// Path index within the endpoint (0 for single-path transports).
    pub path: Vec<u32>,
    /// Variable columns, in order of first appearance.
    pub columns: Vec<VarColumn>,
    /// Flow and window selection (default: all rows).
    pub gate: SampleGate,
}

impl TimeSeries {
    /// Append a row with `vars`, as far as the gate lets it through.
    pub fn push(&mut self, t: SimTime, flow: u32, path: u32, vars: &[TracedVar]) {
        if self.gate.passes_all() {
            return self.push_row(t, flow, path, vars);
        }
        let mut gate = std::mem::take(&mut self.gate);
        gate.offer(t, flow, path, vars, |t, f, p, v| self.push_row(t, f, p, v));
        self.gate = gate;
    }

    /// Append a row; other columns get NaN.
    fn push_row(&mut self, t: SimTime, flow: u32, path: u32, vars: &[TracedVar]) {
        let row = self.time_ns.len();
        self.time_ns.push(t.0);
        self.flow.push(flow);
        self.path.push(path);
        for v in vars {
            let c = match self.columns.iter().position(|c| c.name == v.name && c.unit == v.unit) {
                Some(c) => c,
                None => {
                    self.columns.push(VarColumn { name: v.name, unit: v.unit, values: vec![f64::NAN; row] });
                    self.columns.len() - 1
                }
            };
            self.columns[c].values.push(v.value);
        }
        for c in &mut self.columns {
            if c.values.len() == row {
                c.values.push(f64::NAN);
            }
        }
    }

    /// The column of variable `name` (the first such column if several units), if any
    /// endpoint reported it.
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.columns.iter().find(|c| c.name == name).map(|c| c.values.as_slice())
    }

    /// The column of variable `name` in `unit`, if any endpoint reported it.
    pub fn column_in(&self, name: &str, unit: &str) -> Option<&[f64]> {
        self.columns.iter().find(|c| c.name == name && c.unit == unit).map(|c| c.values.as_slice())
    }
}

/// Goodput per interval per flow: bytes delivered in order to the application.
#[derive(Clone, Debug, Default)]
pub struct GoodputSeries {
    /// `bins[flow].get(i)` = bytes delivered in `[i·interval, (i+1)·interval)`.
    pub bins: Vec<FlowBins>,
}

impl GoodputSeries {
    /// Add `bytes` delivered to `flow` in bin `bin`.
    #[inline]
    pub fn add(&mut self, flow: usize, bin: usize, bytes: u64) {
        self.bins[flow].add(bin, bytes);
    }
}

/// One flow's goodput bins. A flow that delivered in one bin only (an idle flow of a population
/// that wrote one segment) keeps it inline, without a buffer of its own: the same 24 bytes as
/// the list, and a heap block less per such flow (issue #29, memory per idle flow).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum FlowBins {
    /// Nothing delivered yet.
    #[default]
    Empty,
    /// Every delivery so far in bin `.0`: `.1` bytes.
    One(usize, u64),
    /// `.0[i]` = bytes delivered in bin `i`.
    Many(Vec<u64>),
}

impl FlowBins {
    /// Add `bytes` delivered in bin `bin`.
    #[inline]
    pub fn add(&mut self, bin: usize, bytes: u64) {
        match self {
            FlowBins::Many(b) => {
                if b.len() <= bin {
                    b.resize(bin + 1, 0);
                }
                b[bin] += bytes;
            }
            FlowBins::One(k, n) if *k == bin => *n += bytes,
            _ => self.add_elsewhere(bin, bytes),
        }
    }

    /// The first delivery, or the first in a second bin (which makes the list).
    #[cold]
    #[inline(never)]
    fn add_elsewhere(&mut self, bin: usize, bytes: u64) {
        *self = match std::mem::take(self) {
            FlowBins::Empty => FlowBins::One(bin, 0),
            FlowBins::One(k, n) => {
                let mut b = vec![0; k + 1];
                b[k] = n;
                FlowBins::Many(b)
            }
            many => many,
        };
        self.add(bin, bytes);
    }

    /// Bytes delivered in bin `i`, if the flow delivered in it (`None` = 0: nothing delivered
    /// there).
    pub fn get(&self, i: usize) -> Option<&u64> {
        match self {
            FlowBins::Empty => None,
            FlowBins::One(k, n) => (*k == i).then_some(n),
            FlowBins::Many(b) => b.get(i),
        }
    }
}

/// All traces of a run.
#[derive(Clone, Debug, Default)]
pub struct Traces {
    /// Per-packet events (detail = packets).
    pub packets: Option<PacketTrace>,
    /// Endpoint state series (detail ≥ timeseries).
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
            gate.finish(end, |t, f, p, v| ts.push_row(t, f, p, v));
            ts.gate = gate;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FlowBins;

    #[test]
    fn a_flows_bins_hold_what_a_list_of_bins_holds() {
        for adds in [vec![], vec![(3, 10)], vec![(3, 10), (3, 5)], vec![(3, 10), (1, 7), (3, 1), (6, 2)], vec![(0, 1), (2, 4)]] {
            let mut bins = FlowBins::default();
            let mut list = vec![0u64; 8];
            for &(bin, bytes) in &adds {
                bins.add(bin, bytes);
                list[bin] += bytes;
            }
            for (i, &want) in list.iter().enumerate() {
                assert_eq!(bins.get(i).copied().unwrap_or(0), want, "bin {i} after {adds:?}");
            }
        }
        let mut one = FlowBins::default();
        one.add(4, 1000);
        assert_eq!(one, FlowBins::One(4, 1000), "one bin needs no list");
        assert_eq!(std::mem::size_of::<FlowBins>(), std::mem::size_of::<Vec<u64>>());
    }
}
