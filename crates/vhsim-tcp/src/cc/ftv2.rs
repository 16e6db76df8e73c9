//! Freeze-TCPv2's window law (Park, Lee, Koo & Choo, HCII 2009, §3; protocol-facts §8, A8, A9).
//! The receiver side is Freeze-TCP's (`sink/freeze.rs`), the freeze itself the sender's
//! zero-window persist mode (`sender/persist.rs`), which calls [`CongestionControl::on_freeze`]
//! at the ZWA and [`CongestionControl::on_resume`] at the PACK (the first window-reopening ACK).
//!
//! - **Normal** ACKs follow Reno ("it follows the congestion control algorithm of TCP Reno as
//!   Freeze TCP"), losses too.
//! - **ZWA**: save cwnd and ssthresh; RTT_prev := "the RTT value for the ZWA" (`rtt_prev`:
//!   the last raw per-ACK sample, default, or srtt). Persist mode freezes the RTO.
//! - **PACK**: restore cwnd and ssthresh; RTT_base := RTT_prev ("it refreshes the RTT_base as
//!   RTT_prev"); P = the first segment sent after it. RTT_curr = P's RTT sample.
//! - **WAVE**, first when P's ACK arrives, then once per round (a round ends when its first
//!   segment is acknowledged, as Vegas): Δ = (W/RTT_base − W/RTT)·RTT_base, Eq. (3), W = cwnd.
//!   - Δ < `wave_alpha` (14): **DABE**. RTT_prev < RTT_curr: "linearly increases the window
//!     size saved prior to the handoff" (+1 segment per round, 1/cwnd per ACK). RTT_prev >
//!     RTT_curr: Eq. (1), cwnd += PacketSize / |RTT_prev − RTT_curr|, read as A8 does: per ACK,
//!     cwnd_bytes += min(MSS, MSS/|ΔRTT|_ms), i.e. min(1, 1/|ΔRTT|_ms) segments (`eq1 =
//!     "per_ack"`), or that increment once per round (`"per_round"`). Equal RTTs: linear.
//!   - Δ > `wave_beta` (16): Westwood+'s estimate (A9): cwnd = ssthresh = max(2,
//!     ⌊BWE·RTTmin/MSS⌋) ([`super::westwood::bdp_window`]); then linear growth.
//!   - otherwise the Vegas congestion-avoidance rule with `vegas_alpha`/`vegas_beta` (1/3, A8
//!     item 4): diff = round(Δ) > β → cwnd −= 1, < α → +1 per round, else hold.
//! - RTT in Δ (`delta_rtt`): RTT_curr for the first decision, then the round's average RTT as
//!   Vegas (`"curr_then_average"`, default), or the latest raw sample (`"latest_sample"`). Later
//!   decisions use RTT_base = the minimum of RTT_prev and the samples since.
//! - WAVE lasts (`wave_duration`) until the first loss or the next ZWA (`"until_loss"`,
//!   default), or for the first decision's round only (`"one_decision"`); then Reno again.

use super::reno::Reno;
use super::vegas::{avoidance_step, check_thresholds, grow_if_sending, VegasRounds};
use super::westwood::bdp_window;
use super::{halved, AckSample, CongestionControl, CongestionEvent, Window};
use crate::config::{ConfigError, TcpConfig};
use crate::estimate::Estimators;
use crate::part::{Part, PartConfig};
use crate::rtt::RttEstimator;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::{SimTime, TracedVar};

crate::named_enum! {
    /// How often Eq. (1)'s increment applies (A8).
    pub enum Eq1Frequency {
        /// On every ACK (A8's recommendation).
        "per_ack" => PerAck,
        /// Once per round, at the WAVE decision.
        "per_round" => PerRound,
    }
}

crate::named_enum! {
    /// Which RTT enters Δ after the first decision.
    pub enum DeltaRtt {
        /// RTT_curr first, then the round's average (as Vegas).
        "curr_then_average" => CurrThenAverage,
        /// The latest raw per-ACK sample.
        "latest_sample" => LatestSample,
    }
}

crate::named_enum! {
    /// How long WAVE stays active after a PACK.
    pub enum WaveDuration {
        /// Until the first loss or the next ZWA, one decision per round.
        "until_loss" => UntilLoss,
        /// The first decision only; Reno from the next round on.
        "one_decision" => OneDecision,
    }
}

crate::named_enum! {
    /// What RTT_prev is.
    pub enum RttPrev {
        /// The last raw per-ACK sample before the ZWA was processed.
        "sample" => Sample,
        /// The smoothed RTT (RFC 6298 srtt).
        "srtt" => Srtt,
    }
}

/// Options of Freeze-TCPv2 (defaults: protocol-facts §8's recommendations).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Ftv2Config {
    /// WAVE's lower buffer threshold α in segments (paper: 14; <= wave_beta).
    pub wave_alpha: u32,
    /// WAVE's upper buffer threshold β in segments (paper: 16).
    pub wave_beta: u32,
    /// Vegas α of the middle branch (ns-2: 1; <= vegas_beta).
    pub vegas_alpha: u32,
    /// Vegas β of the middle branch (ns-2: 3).
    pub vegas_beta: u32,
    /// How often Eq. (1) applies (`per_ack`, default; `per_round`).
    pub eq1: Eq1Frequency,
    /// Which RTT enters Δ (`curr_then_average`, default; `latest_sample`).
    pub delta_rtt: DeltaRtt,
    /// How long WAVE stays active (`until_loss`, default; `one_decision`).
    pub wave_duration: WaveDuration,
    /// What RTT_prev is (`sample`, default; `srtt`).
    pub rtt_prev: RttPrev,
}

impl Default for Ftv2Config {
    fn default() -> Self {
        Ftv2Config {
            wave_alpha: 14,
            wave_beta: 16,
            vegas_alpha: 1,
            vegas_beta: 3,
            eq1: Eq1Frequency::PerAck,
            delta_rtt: DeltaRtt::CurrThenAverage,
            wave_duration: WaveDuration::UntilLoss,
            rtt_prev: RttPrev::Sample,
        }
    }
}

impl PartConfig for Ftv2Config {
    fn validate(&self) -> Result<(), ConfigError> {
        check_thresholds(self.wave_alpha, self.wave_beta, "wave_alpha", "wave_beta")?;
        check_thresholds(self.vegas_alpha, self.vegas_beta, "vegas_alpha", "vegas_beta")
    }
}

/// Where the sender is in the freeze cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Ftv2Phase {
    /// Ordinary Reno.
    Normal = 0,
    /// Between ZWA and PACK.
    Frozen = 1,
    /// After a PACK, WAVE active.
    Resumed = 2,
}

/// The branch a WAVE decision took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WaveBranch {
    /// Δ < α, RTT_prev < RTT_curr (or equal): linear increase.
    DabeLinear,
    /// Δ < α, RTT_prev > RTT_curr: Eq. (1) with this increment (segments).
    DabeEq1(f64),
    /// Δ > β: cwnd = ssthresh = the Westwood+ window.
    Bandwidth,
    /// α ≤ Δ ≤ β: the Vegas rule.
    Vegas,
}

/// Per-ACK growth until the next decision.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Growth {
    Reno,
    Linear,
    PerAck(f64),
    Vegas(f64),
}

/// Freeze-TCPv2's state.
#[derive(Clone, Debug)]
pub struct Ftv2 {
    cfg: Ftv2Config,
    segment_bytes: u32,
    phase: Ftv2Phase,
    last_sample: Option<f64>,
    saved: Option<Window>,
    rtt_prev: Option<f64>,
    rtt_curr: Option<f64>,
    rounds: VegasRounds,
    growth: Growth,
    wave_active: bool,
    last_delta: f64,
    decisions: Vec<(SimTime, WaveBranch, f64)>,
}

impl Part for Ftv2 {
    type Config = Ftv2Config;
    type Settings = TcpConfig;
    fn new(cfg: &Ftv2Config, tcp: &TcpConfig) -> Self {
        Ftv2 {
            cfg: cfg.clone(),
            segment_bytes: tcp.segment_size,
            phase: Ftv2Phase::Normal,
            last_sample: None,
            saved: None,
            rtt_prev: None,
            rtt_curr: None,
            rounds: VegasRounds::default(),
            growth: Growth::Reno,
            wave_active: false,
            last_delta: f64::NAN,
            decisions: Vec::new(),
        }
    }
}

impl Ftv2 {
    /// The phase.
    pub fn phase(&self) -> Ftv2Phase {
        self.phase
    }

    /// RTT_prev (s), saved at the last ZWA.
    pub fn rtt_prev(&self) -> Option<f64> {
        self.rtt_prev
    }

    /// RTT_curr (s), P's sample after the last PACK.
    pub fn rtt_curr(&self) -> Option<f64> {
        self.rtt_curr
    }

    /// Every WAVE decision: when, the branch, and Δ (segments).
    pub fn decisions(&self) -> &[(SimTime, WaveBranch, f64)] {
        &self.decisions
    }

    /// One WAVE decision with RTT_base `base` and RTT `rtt` (s).
    fn decide(&mut self, w: &mut Window, now: SimTime, base: f64, rtt: f64, est: &Estimators) {
        let delta = (w.cwnd / base - w.cwnd / rtt) * base;
        self.last_delta = delta;
        let branch = if delta < self.cfg.wave_alpha as f64 {
            self.dabe(w)
        } else if delta > self.cfg.wave_beta as f64 {
            if let Some(win) = bdp_window(est.bandwidth.estimate(), est.min_rtt.get(), self.segment_bytes) {
                w.cwnd = win;
                w.ssthresh = win;
            }
            self.growth = Growth::Linear;
            WaveBranch::Bandwidth
        } else {
            let diff = (delta + 0.5).floor() as i64;
            self.growth = Growth::Vegas(avoidance_step(w, diff, self.cfg.vegas_alpha as i64, self.cfg.vegas_beta as i64));
            WaveBranch::Vegas
        };
        self.decisions.push((now, branch, delta));
    }

    /// DABE (§3.1): compare RTT_prev with RTT_curr.
    fn dabe(&mut self, w: &mut Window) -> WaveBranch {
        match (self.rtt_prev, self.rtt_curr) {
            (Some(prev), Some(curr)) if prev > curr => {
                let ms = (prev - curr) * 1000.0;
                let step = (1.0 / ms).min(1.0);
                match self.cfg.eq1 {
                    Eq1Frequency::PerAck => self.growth = Growth::PerAck(step),
                    Eq1Frequency::PerRound => {
                        w.cwnd += step;
                        self.growth = Growth::Vegas(0.0);
                    }
                }
                WaveBranch::DabeEq1(step)
            }
            _ => {
                self.growth = Growth::Linear;
                WaveBranch::DabeLinear
            }
        }
    }

    fn end_wave(&mut self) {
        self.phase = Ftv2Phase::Normal;
        self.wave_active = false;
        self.growth = Growth::Reno;
    }
}

impl CongestionControl for Ftv2 {
    fn on_ack(&mut self, w: &mut Window, now: SimTime, ack: &AckSample, rtt: &RttEstimator, est: &Estimators) {
        if self.phase == Ftv2Phase::Resumed {
            if let Some(end) = self.rounds.on_ack(now, ack) {
                if !self.wave_active {
                    self.end_wave();
                } else if self.rtt_curr.is_none() {
                    self.rtt_curr = Some(end.rtt);
                    let base = self.rtt_prev.unwrap_or(end.rtt);
                    self.decide(w, now, base, end.rtt, est);
                    if self.cfg.wave_duration == WaveDuration::OneDecision {
                        self.wave_active = false;
                    }
                } else {
                    let r = match self.cfg.delta_rtt {
                        DeltaRtt::CurrThenAverage => end.rtt,
                        DeltaRtt::LatestSample => ack.rtt.map_or(end.rtt, |r| r.as_secs_f64()),
                    };
                    self.decide(w, now, self.rounds.base_rtt, r, est);
                }
            }
        }
        if let Some(r) = ack.rtt {
            self.last_sample = Some(r.as_secs_f64());
        }
        match self.growth {
            Growth::Reno => Reno.on_ack(w, now, ack, rtt, est),
            Growth::Linear => w.cwnd += 1.0 / w.cwnd,
            Growth::PerAck(step) => w.cwnd += step,
            Growth::Vegas(incr) => grow_if_sending(w, incr, ack),
        }
    }

    fn on_congestion(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        self.end_wave();
        w.ssthresh = halved(ev.window);
        w.cwnd = w.ssthresh;
    }

    fn on_rto(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        self.end_wave();
        w.ssthresh = halved(ev.window);
        w.cwnd = 1.0;
    }

    fn on_freeze(&mut self, w: &mut Window, _: SimTime, rtt: &RttEstimator) {
        self.end_wave();
        self.phase = Ftv2Phase::Frozen;
        self.saved = Some(*w);
        self.rtt_prev = match self.cfg.rtt_prev {
            RttPrev::Sample => self.last_sample,
            RttPrev::Srtt => rtt.srtt().map(|d| d.as_secs_f64()),
        };
    }

    fn on_resume(&mut self, w: &mut Window, _: SimTime, next_seq: u64) {
        if self.phase != Ftv2Phase::Frozen {
            return;
        }
        if let Some(saved) = self.saved.take() {
            *w = saved;
        }
        self.phase = Ftv2Phase::Resumed;
        self.wave_active = true;
        self.rtt_curr = None;
        self.rounds.restart_at(next_seq, self.rtt_prev.unwrap_or(f64::INFINITY));
    }

    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        out.push(TracedVar::new("ftv2_phase", "code", self.phase as u8 as f64));
        out.push(TracedVar::new("ftv2_delta", "pkts", self.last_delta));
    }
}
