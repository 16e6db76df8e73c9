//! Window laws (the `CongestionControl` axis, ARCHITECTURE.md §3).
//!
//! cwnd and ssthresh live in a [`Window`] that the sender owns: the window law changes it on
//! the events below, and recovery algorithms, F-RTO's spurious response and handover policies
//! set it directly where their papers say so. The sender calls the law
//!
//! - [`CongestionControl::on_ack`] for each ACK of new data outside recovery, and when an ACK
//!   ends NewReno or Reno recovery (ns-2 `opencwnd`), with the ACK's [`AckSample`], the RTT
//!   estimator and the shared [`Estimators`];
//! - [`CongestionControl::on_congestion`] once per fast retransmit classified as congestion;
//! - [`CongestionControl::on_rto`] on every retransmission timeout;
//! - [`CongestionControl::on_undo`] after F-RTO declared a timeout spurious (after F-RTO's
//!   own response set the window);
//! - [`CongestionControl::on_path_change`] on a handover notification;
//! - [`CongestionControl::on_freeze`] / [`CongestionControl::on_resume`] when the sender stops
//!   sending because the peer closed its window (or a handover policy halts it, DEMO-Vegas's
//!   SIG) and when it may send again (Freeze-TCPv2 saves and compares RTTs there);
//! - [`CongestionControl::on_base_rtt_restart`] when a part asks for the base RTT to be measured
//!   anew (DEMO-Vegas when SIG clears).

use crate::config::TcpConfig;
use crate::estimate::Estimators;
use crate::handover::HandoverNotice;
use crate::rtt::RttEstimator;
use vhsim_core::{SimDuration, SimTime, TracedVar};
use vhsim_net::Engagement;

/// Congestion window and slow-start threshold, in segments (may be fractional, as ns-2's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Congestion window.
    pub cwnd: f64,
    /// Slow-start threshold.
    pub ssthresh: f64,
}

/// What an ACK of new data tells the window law.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AckSample {
    /// Segments this ACK newly acknowledged cumulatively.
    pub acked: u64,
    /// First-send time of the newest segment this ACK acknowledged, if the ACK gives a valid
    /// RTT sample (none from an ACK that fills a hole).
    pub newest_sent: Option<SimTime>,
    /// That sample, unquantized.
    pub rtt: Option<SimDuration>,
    /// Segments outstanding after the ACK.
    pub in_flight: u64,
    /// Whether this ACK ended a round (see [`crate::estimate::Rounds`]).
    pub round_start: bool,
    /// The first unacknowledged segment after the ACK.
    pub snd_una: u64,
    /// The next segment to send (ns-2 `t_seqno_`: one past the highest sent, or the go-back-N
    /// point after a timeout).
    pub snd_nxt: u64,
}

/// A loss the window law reacts to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CongestionEvent {
    /// The window in effect to reduce from: min(cwnd, window caps) as ns-2 halves, or the
    /// FlightSize (RFC 6675 §5, RFC 5681 eq. (4)) as the recovery algorithm chooses.
    pub window: f64,
    /// Segments outstanding.
    pub in_flight: u64,
    /// When the segment about to be retransmitted (at a fast retransmit or a timeout) was
    /// last sent and how many times it was; `None` if nothing is outstanding.
    pub lost: Option<(SimTime, u32)>,
    /// The shared delivery-rate estimate (bit/s of payload, Westwood+'s), if a round was
    /// measured.
    pub bandwidth: Option<f64>,
    /// The smallest per-ACK RTT sample of the connection, if any.
    pub min_rtt: Option<SimDuration>,
}

/// A change of the path the connection runs over: the handover notification's old and new
/// access links.
pub type PathChange = HandoverNotice;

/// A window law.
pub trait CongestionControl {
    /// Once, when the sender is built, after cwnd = the initial window and ssthresh = the
    /// initial ssthresh.
    fn init(&mut self, _w: &mut Window) {}
    /// An ACK of new data outside recovery, after the RTT estimator and the estimators took it.
    fn on_ack(&mut self, w: &mut Window, now: SimTime, ack: &AckSample, rtt: &RttEstimator, est: &Estimators);
    /// A fast retransmit of a congestion loss (once per window).
    fn on_congestion(&mut self, w: &mut Window, now: SimTime, ev: &CongestionEvent);
    /// A retransmission timeout.
    fn on_rto(&mut self, w: &mut Window, now: SimTime, ev: &CongestionEvent);
    /// The last loss response was found spurious (F-RTO) and undone.
    fn on_undo(&mut self, _w: &mut Window, _now: SimTime) {}
    /// The path changed (a handover notification).
    fn on_path_change(&mut self, _w: &mut Window, _now: SimTime, _change: &PathChange) {}
    /// The sender stops sending at `now` (zero window or a halt), after the ACK that stopped it
    /// was processed.
    fn on_freeze(&mut self, _w: &mut Window, _now: SimTime, _rtt: &RttEstimator) {}
    /// The sender may send again at `now`, after the ACK that reopened the window was processed;
    /// `next_seq` is the next segment it will send.
    fn on_resume(&mut self, _w: &mut Window, _now: SimTime, _next_seq: u64) {}
    /// The base RTT is to be measured anew from the next samples.
    fn on_base_rtt_restart(&mut self, _now: SimTime) {}
    /// The law's own traced variables (beyond cwnd and ssthresh, which the sender reports).
    fn traced_vars(&self, _out: &mut Vec<TracedVar>) {}
    /// How often the law's own mechanisms acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// Window law (`congestion_control`).
    config CongestionControlConfig;
    /// The window law of one sender.
    state AnyCc;
    dispatch dispatch;
    settings TcpConfig;
    /// Slow start and additive increase, halving on loss (RFC 5681, as ns-2 computes it).
    "reno" => Reno(reno::Reno),
    /// A fixed window of `window` segments: the worked example of adding a window law
    /// (docs/schemes.md), not a scheme of any paper.
    "constant" => Constant(constant::Constant),
    /// TCP Vegas (Brakmo & Peterson 1995, ns-2 `tcp-vegas.cc`): per-round Expected/Actual diff
    /// against `alpha`/`beta`/`gamma`, the 3/4 - 1/2 - 2 loss cuts.
    "vegas" => Vegas(vegas::Vegas) boxed,
    /// TCP Westwood+ (Grieco & Mascolo 2004): Reno growth, ssthresh = the estimated
    /// bandwidth-delay product after a loss.
    "westwood" => Westwood(westwood::Westwood),
    /// Freeze-TCPv2 (Park et al. 2009 §3): Reno, plus DABE and WAVE after a freeze.
    "ftv2" => Ftv2(ftv2::Ftv2) boxed,
    /// CUBIC (RFC 9438): W_cubic(t) = C(t−K)³ + W_max, β = 0.7, Reno-friendly region, fast
    /// convergence, no growth while application-limited.
    "cubic" => Cubic(cubic::Cubic) boxed,
}

impl CongestionControlConfig {
    /// Whether the window law reads the estimates since the sender last resumed from persist
    /// mode ([`crate::estimate::SinceResume`]; only Freeze-TCPv2's WAVE does).
    pub fn reads_estimates_since_resume(&self) -> bool {
        matches!(self, CongestionControlConfig::Ftv2(_))
    }

    /// Whether the window law reads the shared delivery-rate estimate
    /// ([`crate::estimate::Estimators::bandwidth`], kept only then): Westwood+ at a loss,
    /// Freeze-TCPv2's WAVE.
    pub fn reads_delivery_rate(&self) -> bool {
        matches!(self, CongestionControlConfig::Westwood(_) | CongestionControlConfig::Ftv2(_))
    }
}

impl AnyCc {
    /// The Vegas law's state, if this is it.
    pub fn vegas(&self) -> Option<&vegas::Vegas> {
        match self {
            AnyCc::Vegas(v) => Some(v),
            _ => None,
        }
    }

    /// CUBIC's state, if this is it.
    pub fn cubic(&self) -> Option<&cubic::Cubic> {
        match self {
            AnyCc::Cubic(c) => Some(c),
            _ => None,
        }
    }

    /// Freeze-TCPv2's state, if this is it.
    pub fn ftv2(&self) -> Option<&ftv2::Ftv2> {
        match self {
            AnyCc::Ftv2(f) => Some(f),
            _ => None,
        }
    }
}

impl CongestionControl for AnyCc {
    fn init(&mut self, w: &mut Window) {
        dispatch!(self, p => p.init(w))
    }
    fn on_ack(
        &mut self,
        w: &mut Window,
        now: SimTime,
        ack: &AckSample,
        rtt: &RttEstimator,
        est: &Estimators,
    ) {
        dispatch!(self, p => p.on_ack(w, now, ack, rtt, est))
    }
    fn on_congestion(&mut self, w: &mut Window, now: SimTime, ev: &CongestionEvent) {
        dispatch!(self, p => p.on_congestion(w, now, ev))
    }
    fn on_rto(&mut self, w: &mut Window, now: SimTime, ev: &CongestionEvent) {
        dispatch!(self, p => p.on_rto(w, now, ev))
    }
    fn on_undo(&mut self, w: &mut Window, now: SimTime) {
        dispatch!(self, p => p.on_undo(w, now))
    }
    fn on_path_change(&mut self, w: &mut Window, now: SimTime, change: &PathChange) {
        dispatch!(self, p => p.on_path_change(w, now, change))
    }
    fn on_freeze(&mut self, w: &mut Window, now: SimTime, rtt: &RttEstimator) {
        dispatch!(self, p => p.on_freeze(w, now, rtt))
    }
    fn on_resume(&mut self, w: &mut Window, now: SimTime, next_seq: u64) {
        dispatch!(self, p => p.on_resume(w, now, next_seq))
    }
    fn on_base_rtt_restart(&mut self, now: SimTime) {
        dispatch!(self, p => p.on_base_rtt_restart(now))
    }
    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        dispatch!(self, p => p.traced_vars(out))
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}

/// ssthresh after a loss: max(2, ⌊⌊window⌋ / 2⌋) (RFC 5681 eq. (4) with ns-2's integer halving
/// of min(cwnd, window_)).
pub fn halved(window: f64) -> f64 {
    (window.floor() / 2.0).floor().max(2.0)
}
