//! CUBIC (RFC 9438), in segments and seconds (§4.1), with f64 windows as every window law here.
//!
//! - **Window increase** (§4.2, Figures 1-3): in congestion avoidance W_cubic(t) = C·(t−K)³ +
//!   W_max with K = ∛((W_max − cwnd_epoch)/C), t the time since the stage started (minus the
//!   application-limited time, below); each new ACK moves cwnd by (target − cwnd)/cwnd towards
//!   target = W_cubic(t + RTT) clamped to [cwnd, 1.5·cwnd] (§4.4 concave, §4.5 convex region),
//!   RTT the smoothed RTT. `growth = "per_segment"` multiplies that step by the segments the ACK
//!   acknowledges, as Linux's `tcp_cong_avoid_ai` counts them.
//! - **Reno-friendly region** (§4.3, Figure 4): W_est starts at cwnd_epoch and grows by
//!   α·segments_acked/cwnd per ACK with α = 3(1−β)/(1+β), and α = 1 once W_est >= cwnd_prior;
//!   while W_cubic(t) < W_est, cwnd = W_est (never lowered).
//! - **Multiplicative decrease** (§4.6): at a congestion loss ssthresh = max(β·window, 2) and
//!   cwnd = ssthresh, where the window is the one the recovery part reduces from (RFC 6675 and
//!   PRR give the FlightSize, §4.6's flight_size) or cwnd (`reduce_from = "cwnd"`, Linux's
//!   `cubictcp_recalc_ssthresh`); cwnd_prior = cwnd.
//! - **Fast convergence** (§4.7): at a loss W_max = cwnd·(1+β)/2 if cwnd < W_max, else cwnd.
//! - **Timeout** (§4.8): ssthresh as §4.6, cwnd = 1; the next congestion-avoidance stage starts
//!   with K = 0 and W_max = cwnd_epoch, W_est = cwnd_epoch.
//! - **Spurious loss** (§4.9): an undone timeout (F-RTO) restores W_max, cwnd_prior and K.
//! - **Slow start** (§4.10): cwnd += segments acknowledged up to ssthresh, the rest of the ACK
//!   counted in congestion avoidance (Linux's `tcp_slow_start`). Leaving slow start without a
//!   loss (a slow-start part, HyStart or HyStart++) starts the stage with cwnd_prior = W_max =
//!   cwnd, K = 0.
//! - **Application-limited flows** (§5.8; §4.6 requires it of implementations that reduce from
//!   cwnd, citing congestion window validation, RFC 7661): the window does not grow while the
//!   flow is not cwnd-limited, and t excludes that time (§4.2). "cwnd-limited" is RFC 7661
//!   §4.3's validated phase -- the path carried at least half of cwnd -- with the flight as
//!   the measure of what the path carried: the largest FlightSize seen on an ACK in this round
//!   or the last (rounds of the shared counter) is at least cwnd/2. (RFC 7661's pipeACK, the
//!   data acknowledged over an RTT, trails a window that doubles every round in slow start by
//!   one round; Linux likewise compares cwnd with twice the largest flight.)
//!
//! The cube root is computed by Newton's method with IEEE basic operations only, so runs stay
//! bit-for-bit reproducible across platforms (a libm `cbrt` may differ in the last bit).

use super::{AckSample, CongestionControl, CongestionEvent, Window};
use crate::config::{ConfigError, TcpConfig};
use crate::estimate::Estimators;
use crate::part::{Part, PartConfig};
use crate::rtt::RttEstimator;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::{SimDuration, SimTime, TracedVar};
use vhsim_net::Engagement;

crate::named_enum! {
    /// The window CUBIC's multiplicative decrease starts from (RFC 9438 §4.6).
    pub enum CubicReduceFrom {
        /// The window the recovery part reduces from (the FlightSize with RFC 6675 and PRR,
        /// RFC 9438's flight_size; min(cwnd, window_) with ns-2's Sack1).
        "loss_window" => LossWindow,
        /// cwnd, as Linux's `cubictcp_recalc_ssthresh` (RFC 9438 §4.6 allows it together with
        /// the application-limited rule, `cwnd_validation`).
        "cwnd" => Cwnd,
    }
}

crate::named_enum! {
    /// How much one ACK moves cwnd towards the target in the cubic region.
    pub enum CubicGrowth {
        /// (target − cwnd)/cwnd per new ACK (RFC 9438 §4.4, §4.5).
        "per_ack" => PerAck,
        /// That step times the segments the ACK acknowledges (Linux's `tcp_cong_avoid_ai`).
        "per_segment" => PerSegment,
    }
}

/// Options of CUBIC (defaults: RFC 9438).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CubicConfig {
    /// C in segments/s³ (§5.1: 0.4; > 0).
    pub c: f64,
    /// β_cubic, the multiplicative decrease factor (§4.6: 0.7; between 0 and 1).
    pub beta: f64,
    /// Fast convergence (§4.7, default true).
    pub fast_convergence: bool,
    /// The Reno-friendly region (§4.3, default true).
    pub reno_friendly: bool,
    /// The window the decrease starts from: "loss_window" (default) or "cwnd".
    pub reduce_from: CubicReduceFrom,
    /// Cubic-region growth per ACK: "per_ack" (default, the RFC) or "per_segment" (Linux).
    pub growth: CubicGrowth,
    /// No growth, and no epoch time, while the flow is not cwnd-limited (§5.8 with RFC 7661
    /// §4.3's pipeACK; default true).
    pub cwnd_validation: bool,
}

impl Default for CubicConfig {
    fn default() -> Self {
        CubicConfig {
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
            reno_friendly: true,
            reduce_from: CubicReduceFrom::LossWindow,
            growth: CubicGrowth::PerAck,
            cwnd_validation: true,
        }
    }
}

impl PartConfig for CubicConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if !(self.c > 0.0 && self.c.is_finite()) {
            return Err(ConfigError::new("c", "must be a number greater than 0"));
        }
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(ConfigError::new("beta", "must be between 0 and 1 (exclusive)"));
        }
        Ok(())
    }
}

/// The current congestion-avoidance stage.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Epoch {
    /// t_epoch.
    start: SimTime,
    /// cwnd_epoch.
    cwnd: f64,
}

/// What an undone loss response restores (§4.9).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Saved {
    w_max: Option<f64>,
    cwnd_prior: Option<f64>,
}

/// CUBIC's state.
#[derive(Clone, Debug)]
pub struct Cubic {
    cfg: CubicConfig,
    /// W_max; `None` before the first loss and after a timeout (the stage then takes
    /// W_max = cwnd_epoch, K = 0).
    w_max: Option<f64>,
    /// cwnd_prior; `None` until ssthresh was first set.
    cwnd_prior: Option<f64>,
    /// K in seconds.
    k: f64,
    epoch: Option<Epoch>,
    w_est: f64,
    /// Application-limited time inside the stage, left out of t.
    paused: SimDuration,
    last_ack: Option<SimTime>,
    /// Whether the flow was application-limited after the last ACK.
    was_limited: bool,
    /// The largest FlightSize seen on an ACK in the current round and in the last one.
    flight_max: (u64, u64),
    saved: Option<Saved>,
    /// Engagement counters: losses where fast convergence lowered W_max (§4.7), ACKs on which
    /// the Reno-friendly estimate set cwnd (§4.3), ACKs of an application-limited flow that
    /// did not grow cwnd (§5.8).
    fast_convergences: u64,
    reno_friendly_acks: u64,
    app_limited_acks: u64,
}

impl Part for Cubic {
    type Config = CubicConfig;
    type Settings = TcpConfig;
    fn new(cfg: &CubicConfig, _: &TcpConfig) -> Self {
        Cubic {
            cfg: cfg.clone(),
            w_max: None,
            cwnd_prior: None,
            k: 0.0,
            epoch: None,
            w_est: 0.0,
            paused: SimDuration::ZERO,
            last_ack: None,
            was_limited: false,
            flight_max: (0, 0),
            saved: None,
            fast_convergences: 0,
            reno_friendly_acks: 0,
            app_limited_acks: 0,
        }
    }
}

/// ∛v for any real v, by Newton's method from above (basic operations only: deterministic).
pub fn cube_root(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let a = v.abs();
    let mut x = a.max(1.0);
    loop {
        let next = (2.0 * x + a / (x * x)) / 3.0;
        if next >= x {
            break;
        }
        x = next;
    }
    if v < 0.0 {
        -x
    } else {
        x
    }
}

impl Cubic {
    /// W_max (segments), if defined.
    pub fn w_max(&self) -> Option<f64> {
        self.w_max
    }

    /// K (seconds) of the current stage.
    pub fn k(&self) -> f64 {
        self.k
    }

    /// W_est (segments).
    pub fn w_est(&self) -> f64 {
        self.w_est
    }

    /// cwnd_prior (segments), if set.
    pub fn cwnd_prior(&self) -> Option<f64> {
        self.cwnd_prior
    }

    /// Times fast convergence lowered W_max (§4.7).
    pub fn fast_convergences(&self) -> u64 {
        self.fast_convergences
    }

    /// W_cubic(t) of the current stage (Figure 1).
    pub fn w_cubic(&self, t: f64) -> f64 {
        let d = t - self.k;
        self.cfg.c * d * d * d + self.w_max.unwrap_or(0.0)
    }

    /// α_cubic of the Reno-friendly estimate (§4.3).
    fn alpha(&self) -> f64 {
        if self.cwnd_prior.is_some_and(|p| self.w_est >= p) {
            1.0
        } else {
            3.0 * (1.0 - self.cfg.beta) / (1.0 + self.cfg.beta)
        }
    }

    /// RFC 7661 §4.3: the validated phase (the path carried at least cwnd/2).
    fn cwnd_limited(&self, w: &Window) -> bool {
        !self.cfg.cwnd_validation || 2.0 * self.flight_max.0.max(self.flight_max.1) as f64 >= w.cwnd
    }

    fn start_epoch(&mut self, now: SimTime, cwnd: f64) {
        self.epoch = Some(Epoch { start: now, cwnd });
        self.paused = SimDuration::ZERO;
        // §4.10 (no loss yet) and §4.8 (after a timeout): W_max = cwnd_epoch, K = 0.
        let w_max = *self.w_max.get_or_insert(cwnd);
        self.cwnd_prior.get_or_insert(cwnd);
        self.k = cube_root((w_max - cwnd) / self.cfg.c);
        self.w_est = cwnd;
    }

    /// The common part of every loss response (§4.6, §4.7): remember what §4.9 restores, end
    /// the stage, return the new ssthresh.
    fn decrease(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        self.saved = Some(Saved { w_max: self.w_max, cwnd_prior: self.cwnd_prior });
        self.epoch = None;
        self.last_ack = None;
        self.cwnd_prior = Some(w.cwnd);
        let base = match self.cfg.reduce_from {
            CubicReduceFrom::LossWindow => ev.window,
            CubicReduceFrom::Cwnd => w.cwnd,
        };
        (base * self.cfg.beta).max(2.0)
    }

    fn congestion_avoidance(&mut self, w: &mut Window, now: SimTime, acked: f64, rtt: &RttEstimator) {
        let epoch = match self.epoch {
            Some(e) => e,
            None => {
                self.start_epoch(now, w.cwnd);
                self.epoch.expect("just started")
            }
        };
        let t = (now.saturating_since(epoch.start) - self.paused).as_secs_f64();
        let srtt = rtt.srtt().or(rtt.latest()).unwrap_or(SimDuration::ZERO).as_secs_f64();
        // §4.3: the Reno-friendly estimate.
        self.w_est += self.alpha() * acked / w.cwnd;
        if self.cfg.reno_friendly && self.w_cubic(t) < self.w_est {
            w.cwnd = w.cwnd.max(self.w_est);
            self.reno_friendly_acks += 1;
            return;
        }
        // §4.2: the target one RTT ahead, bounded; §4.4-4.5: the step towards it.
        let target = self.w_cubic(t + srtt).clamp(w.cwnd, 1.5 * w.cwnd);
        let step = (target - w.cwnd) / w.cwnd;
        w.cwnd += match self.cfg.growth {
            CubicGrowth::PerAck => step,
            CubicGrowth::PerSegment => step * acked,
        };
    }
}

impl CongestionControl for Cubic {
    fn on_ack(&mut self, w: &mut Window, now: SimTime, ack: &AckSample, rtt: &RttEstimator, _: &Estimators) {
        if ack.round_start {
            self.flight_max = (0, self.flight_max.0);
        }
        // The flight when this ACK arrived.
        self.flight_max.0 = self.flight_max.0.max(ack.in_flight + ack.acked);
        let limited = !self.cwnd_limited(w);
        self.app_limited_acks += u64::from(limited);
        // §5.8, §4.2: the time since the last ACK does not count in t if the flow was
        // application-limited during it.
        if let (Some(last), Some(_), true) = (self.last_ack, self.epoch, self.was_limited) {
            self.paused = self.paused + now.saturating_since(last);
        }
        self.last_ack = Some(now);
        self.was_limited = limited;
        let mut acked = ack.acked as f64;
        if w.cwnd < w.ssthresh {
            if limited {
                return;
            }
            // §4.10 and RFC 5681 §3.1: slow start, the rest of the ACK beyond ssthresh
            // counted in congestion avoidance.
            let room = w.ssthresh - w.cwnd;
            if acked <= room {
                w.cwnd += acked;
                return;
            }
            w.cwnd = w.ssthresh;
            acked -= room;
        }
        // §5.8: no growth while application-limited.
        if !limited {
            self.congestion_avoidance(w, now, acked, rtt);
        }
    }

    fn on_congestion(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        // §4.7, before the reduction.
        let cwnd = w.cwnd;
        self.w_max = Some(match self.w_max {
            Some(m) if self.cfg.fast_convergence && cwnd < m => {
                self.fast_convergences += 1;
                cwnd * (1.0 + self.cfg.beta) / 2.0
            }
            _ => cwnd,
        });
        let ssthresh = self.decrease(w, ev);
        // §4.6: cwnd = max(ssthresh, 2) on a loss.
        w.ssthresh = ssthresh;
        w.cwnd = ssthresh;
    }

    fn on_rto(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        // §4.8: ssthresh as §4.6, cwnd = 1 as Reno; the next stage starts with K = 0.
        let ssthresh = self.decrease(w, ev);
        self.w_max = None;
        w.ssthresh = ssthresh;
        w.cwnd = 1.0;
    }

    fn on_undo(&mut self, _: &mut Window, _: SimTime) {
        // §4.9: the loss was spurious; the window was restored by the timeout response.
        if let Some(s) = self.saved.take() {
            self.w_max = s.w_max;
            self.cwnd_prior = s.cwnd_prior;
            self.epoch = None;
        }
    }

    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        out.push(TracedVar::new("cubic_w_max", "pkts", self.w_max.unwrap_or(f64::NAN)));
    }

    /// `cubic_fast_convergences` (with `fast_convergence`), `cubic_reno_friendly_acks` (with
    /// `reno_friendly`), `cubic_app_limited_acks` (with `cwnd_validation`).
    fn engagement(&self, out: &mut Engagement) {
        if self.cfg.fast_convergence {
            out.insert("cubic_fast_convergences", self.fast_convergences);
        }
        if self.cfg.reno_friendly {
            out.insert("cubic_reno_friendly_acks", self.reno_friendly_acks);
        }
        if self.cfg.cwnd_validation {
            out.insert("cubic_app_limited_acks", self.app_limited_acks);
        }
    }
}
