//! Window laws (the `CongestionControl` axis). Dispatch is an enum built from the config.

mod reno;

pub use reno::Reno;

use crate::config::{CongestionControlKind, TcpConfig};

/// The window law of one sender; windows are in segments.
#[derive(Clone, Debug)]
pub enum AnyCc {
    /// Slow start / additive increase / halving.
    Reno(Reno),
}

impl AnyCc {
    /// Build from the sender configuration.
    pub fn new(cfg: &TcpConfig) -> Self {
        match cfg.congestion_control {
            CongestionControlKind::Reno => AnyCc::Reno(Reno::new(cfg)),
        }
    }

    /// Congestion window (segments, may be fractional).
    pub fn cwnd(&self) -> f64 {
        match self {
            AnyCc::Reno(c) => c.cwnd,
        }
    }

    /// Slow-start threshold (segments).
    pub fn ssthresh(&self) -> f64 {
        match self {
            AnyCc::Reno(c) => c.ssthresh,
        }
    }

    /// Set both windows (recovery algorithms and later handover policies do this).
    pub fn set(&mut self, cwnd: f64, ssthresh: f64) {
        match self {
            AnyCc::Reno(c) => {
                c.cwnd = cwnd;
                c.ssthresh = ssthresh;
            }
        }
    }

    /// Set only cwnd.
    pub fn set_cwnd(&mut self, cwnd: f64) {
        let s = self.ssthresh();
        self.set(cwnd, s);
    }

    /// An ACK of new data outside recovery.
    pub fn on_ack(&mut self) {
        match self {
            AnyCc::Reno(c) => c.on_ack(),
        }
    }

    /// A loss detected by duplicate ACKs, once per window; `window` = min(cwnd, window cap).
    pub fn on_congestion(&mut self, window: f64) {
        match self {
            AnyCc::Reno(c) => c.on_congestion(window),
        }
    }

    /// A retransmission timeout.
    pub fn on_rto(&mut self, window: f64) {
        match self {
            AnyCc::Reno(c) => c.on_rto(window),
        }
    }
}
