//! The Reno window law as ns-2 computes it (tcp.cc `opencwnd`, `slowdown`).

use super::{halved, AckSample, CongestionControl, CongestionEvent, Window};
use crate::config::TcpConfig;
use crate::estimate::Estimators;
use crate::rtt::RttEstimator;
use vhsim_core::SimTime;

/// Reno keeps no state beyond the window.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reno;

crate::no_options_part!(Reno, TcpConfig);

impl CongestionControl for Reno {
    /// +1 segment in slow start, +1/cwnd in congestion avoidance (RFC 5681 §3.1 in segments,
    /// ns-2 `opencwnd` with `wnd_option_` 1).
    fn on_ack(&mut self, w: &mut Window, _: SimTime, _: &AckSample, _: &RttEstimator, _: &Estimators) {
        if w.cwnd < w.ssthresh {
            w.cwnd += 1.0;
        } else {
            w.cwnd += 1.0 / w.cwnd;
        }
    }

    /// Fast retransmit: ssthresh = max(2, ⌊window/2⌋), cwnd = ssthresh (RFC 5681 eq. (4)).
    fn on_congestion(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        w.ssthresh = halved(ev.window);
        w.cwnd = w.ssthresh;
    }

    /// Timeout: ssthresh = max(2, ⌊window/2⌋), cwnd = 1 (RFC 5681 eq. (4), §3.1).
    fn on_rto(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        w.ssthresh = halved(ev.window);
        w.cwnd = 1.0;
    }
}
