//! TCP Westwood+'s window law (Mascolo et al. 2001; Grieco & Mascolo 2004; docs/references.md §7.3).
//!
//! Growth is Reno's. The bandwidth estimate BWE is the shared delivery-rate estimator
//! (`estimate/bandwidth.rs`: one sample per round, Tustin filter α = 0.9), RTTmin the smallest
//! per-ACK sample of the connection (`Estimators::min_rtt`). After a loss the window is set to
//! the estimated bandwidth-delay product instead of halved:
//!
//! - after 3 duplicate ACKs: ssthresh = max(2, ⌊BWE·RTTmin / segment⌋); cwnd = ssthresh if
//!   cwnd > ssthresh;
//! - after a timeout: the same ssthresh; cwnd = 1.
//!
//! Before the first round has been measured (no BWE yet) the law halves as Reno does.
//! [`bdp_window`] is the shared rule (Freeze-TCPv2's WAVE uses it too).

use super::{halved, reno::Reno, AckSample, CongestionControl, CongestionEvent, Window};
use crate::config::TcpConfig;
use crate::estimate::Estimators;
use crate::part::{Part, NoOptions};
use crate::rtt::RttEstimator;
use vhsim_core::{SimDuration, SimTime};

/// max(2, ⌊BWE·RTTmin / segment⌋) in segments, with BWE in bit/s of payload; `None` without an
/// estimate or a sample.
pub fn bdp_window(bandwidth: Option<f64>, min_rtt: Option<SimDuration>, segment_bytes: u32) -> Option<f64> {
    let (bw, rtt) = (bandwidth?, min_rtt?);
    let segments = bw * rtt.as_secs_f64() / (8.0 * segment_bytes as f64);
    Some(segments.floor().max(2.0))
}

/// The Westwood+ window law.
#[derive(Clone, Debug)]
pub struct Westwood {
    segment_bytes: u32,
}

impl Part for Westwood {
    type Config = NoOptions;
    type Settings = TcpConfig;
    fn new(_: &NoOptions, cfg: &TcpConfig) -> Self {
        Westwood { segment_bytes: cfg.segment_size }
    }
}

impl Westwood {
    fn ssthresh(&self, ev: &CongestionEvent) -> f64 {
        bdp_window(ev.bandwidth, ev.min_rtt, self.segment_bytes).unwrap_or_else(|| halved(ev.window))
    }
}

impl CongestionControl for Westwood {
    fn on_ack(&mut self, w: &mut Window, now: SimTime, ack: &AckSample, rtt: &RttEstimator, est: &Estimators) {
        Reno.on_ack(w, now, ack, rtt, est);
    }

    fn on_congestion(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        w.ssthresh = self.ssthresh(ev);
        if w.cwnd > w.ssthresh {
            w.cwnd = w.ssthresh;
        }
    }

    fn on_rto(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        w.ssthresh = self.ssthresh(ev);
        w.cwnd = 1.0;
    }
}
