//! Loss during time windows: Bernoulli loss with probability `p` only for packets leaving the
//! link in `[start, end)` of some window, none outside (Kim & Koh's WLAN: 3 % during 48–50 s,
//! and 1 % for 1 s after each ping-pong switch; docs/references.md §14).

use crate::packet::Packet;
use serde::{Deserialize, Serialize};
use vhsim_core::{RngStream, SimTime};

/// One loss window: packets leaving in `[start, end)` are lost with probability `p`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LossWindow {
    /// Start (inclusive).
    pub start: SimTime,
    /// End (exclusive), after `start`.
    pub end: SimTime,
    /// Loss probability per packet inside the window, in [0, 1].
    pub p: f64,
}

/// Bernoulli loss inside time windows.
#[derive(Clone, Debug)]
pub struct TimeWindow {
    /// Sorted by start, non-overlapping (the scenario loader checks this).
    windows: Vec<LossWindow>,
    /// Index of the first window that has not ended at the last packet's time.
    next: usize,
    rng: RngStream,
}

impl TimeWindow {
    /// A model with these windows (sorted here by start; they must not overlap).
    pub fn new(windows: &[LossWindow], rng: RngStream) -> Self {
        let mut windows = windows.to_vec();
        windows.sort_by_key(|w| w.start);
        TimeWindow { windows, next: 0, rng }
    }

    /// One draw per packet inside a window; no draw and no loss outside. Times must not
    /// decrease between calls.
    pub fn drops(&mut self, now: SimTime, _pkt: &Packet) -> bool {
        while self.windows.get(self.next).is_some_and(|w| now >= w.end) {
            self.next += 1;
        }
        match self.windows.get(self.next) {
            Some(w) if now >= w.start => self.rng.bernoulli(w.p),
            _ => false,
        }
    }
}
