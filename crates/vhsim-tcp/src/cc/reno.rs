//! The Reno window law as ns-2 computes it (tcp.cc `opencwnd`, `slowdown`).

use crate::config::TcpConfig;

/// cwnd and ssthresh in segments.
#[derive(Clone, Debug)]
pub struct Reno {
    /// Congestion window.
    pub cwnd: f64,
    /// Slow-start threshold.
    pub ssthresh: f64,
}

impl Reno {
    /// cwnd = initial window; ssthresh = configured or the window cap (ns-2 `reset()`).
    pub fn new(cfg: &TcpConfig) -> Self {
        Reno {
            cwnd: cfg.initial_window as f64,
            ssthresh: cfg.initial_ssthresh.unwrap_or(cfg.window) as f64,
        }
    }

    /// Per ACK of new data: +1 segment in slow start, +1/cwnd in congestion avoidance
    /// (RFC 5681 §3.1 in segments, ns-2 `opencwnd` with `wnd_option_` 1).
    pub fn on_ack(&mut self) {
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
        } else {
            self.cwnd += 1.0 / self.cwnd;
        }
    }

    /// Fast retransmit: ssthresh = max(2, ⌊window/2⌋), cwnd = ssthresh (RFC 5681 eq. (4) with
    /// ns-2's integer halving of min(cwnd, window_)).
    pub fn on_congestion(&mut self, window: f64) {
        self.ssthresh = halved(window);
        self.cwnd = self.ssthresh;
    }

    /// Timeout: ssthresh = max(2, ⌊window/2⌋), cwnd = 1 (RFC 5681 eq. (4), §3.1).
    pub fn on_rto(&mut self, window: f64) {
        self.ssthresh = halved(window);
        self.cwnd = 1.0;
    }
}

fn halved(window: f64) -> f64 {
    (window.floor() / 2.0).floor().max(2.0)
}
