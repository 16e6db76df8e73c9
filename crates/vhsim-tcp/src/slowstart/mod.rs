//! Slow-start exits (the `SlowStart` axis): when slow start ends before a loss does it, and how
//! fast the window grows until then. The window law still computes its own slow-start growth
//! (Reno's +1 per ACK, CUBIC's +segments acknowledged); a slow-start part only watches the RTT
//! samples and either ends slow start (ssthresh = cwnd, as Linux's HyStart does) or scales the
//! growth the law made (HyStart++'s Conservative Slow Start), so it works with any window law.
//!
//! The sender calls it around the window law's `on_ack` for every ACK of new data outside
//! recovery ([`crate::sender::SenderCore`]'s `open_cwnd`):
//!
//! - [`SlowStart::before_growth`] first (Linux's HyStart decides there, so the ACK that ends
//!   slow start does not grow the window, as `pkts_acked` runs before `cong_avoid` in Linux);
//! - [`SlowStart::after_growth`] after the law's step, with the window before it (RFC 9406's
//!   per-ACK steps: cwnd += min(N, L), divided by CSS_GROWTH_DIVISOR in CSS, then the checks);
//! - [`SlowStart::on_loss`] after every loss response (fast retransmit or timeout).

use crate::cc::{AckSample, Window};
use crate::config::TcpConfig;
use vhsim_core::{SimTime, TracedVar};
use vhsim_net::Engagement;

/// A slow-start exit.
pub trait SlowStart {
    /// An ACK of new data outside recovery, before the window law grows the window.
    fn before_growth(&mut self, _w: &mut Window, _now: SimTime, _ack: &AckSample) {}
    /// The same ACK after the window law's step; `before` is the window before it.
    fn after_growth(&mut self, _before: Window, _w: &mut Window, _now: SimTime, _ack: &AckSample) {}
    /// A loss response changed the window (`timeout` = a retransmission timeout).
    fn on_loss(&mut self, _timeout: bool) {}
    /// Times slow start was ended by this part (not by a loss).
    fn exits(&self) -> u64 {
        0
    }
    /// The part's own traced variables.
    fn traced_vars(&self, _out: &mut Vec<TracedVar>) {}
    /// How often the part's exits acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

crate::axis! {
    /// How slow start ends besides a loss (`slow_start`).
    config SlowStartConfig;
    /// The slow-start exit of one sender.
    state AnySlowStart;
    dispatch dispatch;
    settings TcpConfig;
    /// Slow start until a loss or ssthresh (RFC 5681 §3.1): the window law alone.
    "standard" => Standard(standard::Standard),
    /// Linux's HyStart (tcp_cubic.c, Ha & Rhee 2008): the ACK-train and delay-increase exits,
    /// ssthresh = cwnd when either fires.
    "hystart" => Hystart(hystart::Hystart) boxed,
    /// HyStart++ (RFC 9406): delay-increase exit into Conservative Slow Start, then congestion
    /// avoidance after CSS_ROUNDS rounds.
    "hystart_pp" => HystartPp(hystart_pp::HystartPp) boxed,
}

impl SlowStartConfig {
    /// Whether this is the default (plain slow start): the configuration leaves the key out
    /// then, so scenarios written before the axis existed resolve to the same canonical form.
    pub fn is_standard(&self) -> bool {
        matches!(self, SlowStartConfig::Standard(_))
    }
}

impl SlowStart for AnySlowStart {
    fn before_growth(&mut self, w: &mut Window, now: SimTime, ack: &AckSample) {
        dispatch!(self, p => p.before_growth(w, now, ack))
    }
    fn after_growth(&mut self, before: Window, w: &mut Window, now: SimTime, ack: &AckSample) {
        dispatch!(self, p => p.after_growth(before, w, now, ack))
    }
    fn on_loss(&mut self, timeout: bool) {
        dispatch!(self, p => p.on_loss(timeout))
    }
    fn exits(&self) -> u64 {
        dispatch!(self, p => p.exits())
    }
    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        dispatch!(self, p => p.traced_vars(out))
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}

/// Whether `w` is in slow start (RFC 5681 §3.1: cwnd < ssthresh).
pub fn in_slow_start(w: &Window) -> bool {
    w.cwnd < w.ssthresh
}
