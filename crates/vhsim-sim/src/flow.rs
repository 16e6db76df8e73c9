//! One flow as the world holds it: sender, sink, ground truth and counters.

use crate::app::AppState;
use crate::handover::FlowHandoverStats;
use crate::trace::SenderSnapshot;
use crate::truth::{FlowTruth, Label};
use crate::world::DropCounts;
use vhsim_core::SimTime;
use vhsim_net::DropCause;
use vhsim_tcp::{AckInfo, LossClass, TcpSender, TcpSink};

/// A TCP flow between two nodes.
pub struct Flow {
    /// Sender's node.
    pub src: u32,
    /// Receiver's node.
    pub dst: u32,
    /// When the flow starts (drawn if the flow has a `start_spread`).
    pub start: SimTime,
    /// Whether the start time has passed.
    pub started: bool,
    /// The application feeding the sender.
    pub app: AppState,
    /// The sender.
    pub sender: TcpSender,
    /// The sink.
    pub sink: TcpSink,
    /// Bytes on the wire of a data segment.
    pub packet_size: u32,
    /// Payload bytes of a data segment.
    pub segment_size: u64,
    /// Bytes on the wire of an ACK.
    pub ack_size: u32,
    /// Ground truth.
    pub truth: FlowTruth,
    /// Resolved labels waiting to be written to the trace.
    pub labels: Vec<Label>,
    /// Segments delivered in order.
    pub delivered_segments: u64,
    /// Drops of this flow's packets by cause.
    pub drops: DropCounts,
    /// Goodput windows `[start, end)`.
    pub windows: Vec<(SimTime, SimTime)>,
    /// Bytes delivered in each window.
    pub window_bytes: Vec<u64>,
    /// Pending sender wake-up.
    pub sender_wakeup: Option<SimTime>,
    /// Pending sink wake-up.
    pub sink_wakeup: Option<SimTime>,
    /// Last recorded time-series row.
    pub last_snapshot: Option<SenderSnapshot>,
    /// Reused ACK buffer (no allocation per ACK).
    pub ack_scratch: AckInfo,
    /// Measurements around each handover of the run.
    pub handover_stats: Vec<FlowHandoverStats>,
    /// Handovers whose indices are not settled yet.
    pub open_handovers: usize,
    /// Time of the last in-order delivery.
    pub last_delivery: Option<SimTime>,
    /// Loss-classifier decisions against ground truth: `ld_matrix[truth][verdict]`, truth
    /// 0 = not lost (reordered or delayed), 1 = congestion (queue overflow), 2 = wireless
    /// (error model), 3 = link down; verdict 0 = congestion, 1 = wireless.
    pub ld_matrix: [[u64; 2]; 4],
}

impl Flow {
    /// Compare the sender's new loss classifications with what really happened to the
    /// segment (issue #5 item 5: the simulator knows whether a loss was a queue overflow or a
    /// wireless drop).
    pub fn judge_classifications(&mut self) {
        for c in self.sender.take_loss_classifications() {
            let truth = match self.truth.drop_cause(c.seq) {
                0 => 0,
                x if x == DropCause::QueueOverflow as u8 => 1,
                x if x == DropCause::ErrorModel as u8 => 2,
                _ => 3,
            };
            let verdict = usize::from(c.class == LossClass::Wireless);
            self.ld_matrix[truth][verdict] += 1;
        }
    }
}
