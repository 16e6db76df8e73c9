//! One flow as the world holds it: its two endpoints, where they are, and their wake-ups.

use crate::app::AppState;
use crate::transports::AnyEndpoint;
use vhsim_core::SimTime;

/// A flow: a pair of endpoints of one transport.
#[derive(Clone)]
pub struct Flow {
    /// Nodes of the sending (0) and receiving (1) endpoints.
    pub nodes: [u32; 2],
    /// The endpoints: `[sending, receiving]`.
    pub endpoints: [AnyEndpoint; 2],
    /// Pending wake-up of each endpoint (at most one each: the earliest deadline reported).
    /// An `Option`, not a word with a sentinel: the sentinel saved 16 bytes per flow but made
    /// bulk-sack1 3% slower side by side (docs/performance.md, "The fifth sitting merged").
    pub wakeup: [Option<SimTime>; 2],
    /// When the flow starts (drawn if the flow has a `start_spread`).
    pub start: SimTime,
    /// Whether the start time has passed.
    pub started: bool,
    /// The application feeding the sending endpoint.
    pub app: AppState,
}

impl Flow {
    /// Which endpoint runs at `node` (0 = sending, 1 = receiving).
    pub fn side_at(&self, node: u32) -> usize {
        usize::from(self.nodes[0] != node)
    }
}
