//! TCP Vegas's window law (Brakmo & Peterson, JSAC 13(8) 1995; as ns-2.35 `tcp-vegas.cc`
//! computes it; docs/references.md §7.2). The fine-grained retransmission check is the loss
//! detection `vegas` (`detect/vegas.rs`).
//!
//! **Once per round** (when the ACK of the first segment sent in the round arrives, ns-2
//! `v_begseq_`): rtt = the average of the round's valid per-ACK samples (or, without any, the
//! round's length); BaseRTT = min(BaseRTT, rtt), or rtt itself when at most one segment was
//! sent in the round -- only from samples: unlike ns-2, a round's length never sets BaseRTT; Expected = (segments outstanding) / BaseRTT, Actual = (segments sent in
//! the round) / rtt, diff = round((Expected − Actual) · BaseRTT) segments. Then
//!
//! - slow start (cwnd < ssthresh): grow only every other round; in a growing round, diff > γ
//!   ends slow start (ssthresh = 2, cwnd −= cwnd/8, at least 2), else cwnd += 1 per ACK;
//! - congestion avoidance: diff > β → cwnd −= 1 (at least 2) and no growth this round;
//!   diff < α → cwnd += 1/cwnd per ACK (one segment per round); otherwise hold.
//!
//! Growth per ACK only while cwnd − outstanding ≤ 2 (ns-2: "unless we haven't been able to keep
//! up with it"); slow-start growth stops at ssthresh. Every valid sample also lowers BaseRTT.
//!
//! **Losses** (ns-2 Vegas's `recv` and `timeout`): at a fast retransmit, if cwnd has not been
//! cut since the lost segment was last sent, cwnd = 2 if the window is ≤ 3, else window/2 if the
//! segment was a retransmission, else window − window/4 (integer arithmetic); ssthresh = 2
//! ("vegas ssthresh is used only during slow-start"). At a timeout, ssthresh = max(2,
//! ⌊window/2⌋) as Reno and cwnd = `timeout_window` (ns-2 `v_slowstart_` 2).
//! `CongestionControl::on_base_rtt_restart` sets BaseRTT = +inf (DEMO-Vegas, A17).

use super::{halved, AckSample, CongestionControl, CongestionEvent, Window};
use crate::config::{ConfigError, TcpConfig};
use crate::estimate::Estimators;
use crate::part::{Part, PartConfig};
use crate::rtt::RttEstimator;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::units::{as_packets_u32, Packets};
use vhsim_core::{SimTime, TracedVar};

/// Options of the Vegas window law (ns-2 defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct VegasConfig {
    /// Below this many queued segments (diff), grow by one segment per round (ns-2 `v_alpha_`,
    /// 1; <= beta).
    pub alpha: u32,
    /// Above this many queued segments, shrink by one segment per round (ns-2 `v_beta_`, 3).
    pub beta: u32,
    /// Above this many queued segments, leave slow start (ns-2 `v_gamma_`, 1).
    pub gamma: u32,
    /// cwnd after a retransmission timeout (ns-2 `v_slowstart_`, 2; Reno would use 1; >= 1).
    #[serde(with = "as_packets_u32")]
    #[schemars(with = "Packets")]
    pub timeout_window: u32,
}

impl Default for VegasConfig {
    fn default() -> Self {
        VegasConfig { alpha: 1, beta: 3, gamma: 1, timeout_window: 2 }
    }
}

/// `alpha <= beta`, reported at `alpha_key` (the two keys' names differ between laws).
pub(crate) fn check_thresholds(alpha: u32, beta: u32, alpha_key: &str, beta_key: &str) -> Result<(), ConfigError> {
    if alpha > beta {
        return Err(ConfigError::new(
            alpha_key,
            format!("{alpha_key} ({alpha}) is greater than {beta_key} ({beta}); {alpha_key} must be <= {beta_key}"),
        ));
    }
    Ok(())
}

impl PartConfig for VegasConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        check_thresholds(self.alpha, self.beta, "alpha", "beta")?;
        if self.timeout_window == 0 {
            return Err(ConfigError::new("timeout_window", "must be at least 1pkt"));
        }
        Ok(())
    }
}

/// What Vegas measures in one round: the per-round RTT average and the base RTT.
#[derive(Clone, Debug)]
pub(crate) struct VegasRounds {
    /// Minimum RTT (s); +inf until measured.
    pub(crate) base_rtt: f64,
    sum_rtt: f64,
    samples: u32,
    /// The first segment sent in the current round (ns-2 `v_begseq_`).
    begin_seq: u64,
    /// When the current round began (`None` before the first round ended).
    begin_time: Option<SimTime>,
    /// diff of the last round (segments), for traces.
    pub(crate) last_diff: f64,
}

/// The outcome of a round that ended: its RTT (s) and diff (segments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RoundEnd {
    pub(crate) rtt: f64,
    pub(crate) diff: i64,
}

impl Default for VegasRounds {
    fn default() -> Self {
        VegasRounds {
            base_rtt: f64::INFINITY,
            sum_rtt: 0.0,
            samples: 0,
            begin_seq: 0,
            begin_time: None,
            last_diff: f64::NAN,
        }
    }
}

impl VegasRounds {
    /// An ACK of new data: if it ends the round (it acknowledges the round's first segment),
    /// the round's RTT and diff; then its own sample joins the next round's average.
    pub(crate) fn on_ack(&mut self, now: SimTime, ack: &AckSample) -> Option<RoundEnd> {
        let mut end = None;
        if ack.snd_una > self.begin_seq {
            // (rtt, measured): the round's mean sample, else its length (ns-2), which is no
            // RTT measurement (after loss recovery a burst of ACKs can end a round in far less
            // than the path's RTT), so it never sets BaseRTT -- ns-2 would let it.
            let rtt = if self.samples > 0 {
                Some((self.sum_rtt / self.samples as f64, true))
            } else {
                match self.begin_time {
                    Some(t) => Some((now.saturating_since(t).as_secs_f64(), false)),
                    None => ack.rtt.map(|r| (r.as_secs_f64(), true)),
                }
            };
            self.sum_rtt = 0.0;
            self.samples = 0;
            let in_round = ack.snd_nxt.saturating_sub(self.begin_seq);
            if let Some((rtt, measured)) = rtt.filter(|&(r, _)| r > 0.0) {
                if measured && (rtt < self.base_rtt || in_round <= 1) {
                    self.base_rtt = rtt;
                }
                let outstanding = ack.snd_nxt.saturating_sub(ack.snd_una) as f64;
                let expected = outstanding / self.base_rtt;
                let actual = in_round as f64 / rtt;
                let diff = ((expected - actual) * self.base_rtt + 0.5).floor() as i64;
                self.last_diff = diff as f64;
                end = Some(RoundEnd { rtt, diff });
            }
            self.begin_seq = ack.snd_nxt;
            self.begin_time = Some(now);
        }
        if let Some(r) = ack.rtt {
            let r = r.as_secs_f64();
            self.sum_rtt += r;
            self.samples += 1;
            self.base_rtt = self.base_rtt.min(r);
        }
        end
    }

    /// A new measurement from segment `seq` on with base RTT `base` (s): Freeze-TCPv2's PACK.
    pub(crate) fn restart_at(&mut self, seq: u64, base: f64) {
        self.base_rtt = base;
        self.sum_rtt = 0.0;
        self.samples = 0;
        self.begin_seq = seq;
        self.begin_time = None;
    }

    /// Measure the base RTT anew (and forget the round's samples, taken on the old path).
    pub(crate) fn restart_base(&mut self) {
        self.base_rtt = f64::INFINITY;
        self.sum_rtt = 0.0;
        self.samples = 0;
    }
}

/// The Vegas window law's state.
#[derive(Clone, Debug)]
pub struct Vegas {
    cfg: VegasConfig,
    rounds: VegasRounds,
    /// Growth per ACK decided for this round (ns-2 `v_incr_`).
    incr: f64,
    /// Slow start grows in every other round (ns-2 `v_inc_flag_`, 1 at the start: the first
    /// round flips it off).
    grow_this_round: bool,
    /// When cwnd was last cut for a loss (ns-2 `t_cwnd_changed_`).
    last_cut: Option<SimTime>,
}

impl Part for Vegas {
    type Config = VegasConfig;
    type Settings = TcpConfig;
    fn new(cfg: &VegasConfig, _: &TcpConfig) -> Self {
        Vegas { cfg: cfg.clone(), rounds: VegasRounds::default(), incr: 0.0, grow_this_round: true, last_cut: None }
    }
}

impl Vegas {
    /// BaseRTT in seconds (+inf before the first sample or after a restart).
    pub fn base_rtt(&self) -> f64 {
        self.rounds.base_rtt
    }

    /// The per-round decision (ns-2's "once per-rtt actions").
    fn decide(&mut self, w: &mut Window, diff: i64) {
        let (alpha, beta, gamma) = (self.cfg.alpha as i64, self.cfg.beta as i64, self.cfg.gamma as i64);
        if w.cwnd < w.ssthresh {
            self.grow_this_round = !self.grow_this_round;
            if !self.grow_this_round {
                self.incr = 0.0;
            } else if diff > gamma {
                w.ssthresh = 2.0;
                w.cwnd = (w.cwnd - w.cwnd / 8.0).max(2.0);
                self.incr = 0.0;
            } else {
                self.incr = 1.0;
            }
        } else {
            self.incr = avoidance_step(w, diff, alpha, beta);
        }
    }
}

/// Vegas's congestion-avoidance decision at the end of a round (ns-2 `tcp-vegas.cc`): more
/// than `beta` packets queued, cwnd - 1 (at least 2) and no growth; fewer than `alpha`, grow by
/// 1/cwnd per ACK; else hold. Returns the per-ACK increment (FTv2's Vegas branch uses it too).
pub(crate) fn avoidance_step(w: &mut Window, diff: i64, alpha: i64, beta: i64) -> f64 {
    if diff > beta {
        w.cwnd = (w.cwnd - 1.0).max(2.0);
        0.0
    } else if diff < alpha {
        1.0 / w.cwnd
    } else {
        0.0
    }
}

/// Vegas grows cwnd by `incr` only while cwnd is at most 2 packets above what is outstanding
/// (ns-2 `tcp-vegas.cc`).
pub(crate) fn grow_if_sending(w: &mut Window, incr: f64, ack: &AckSample) {
    let outstanding = ack.snd_nxt.saturating_sub(ack.snd_una) as f64;
    if incr > 0.0 && w.cwnd - outstanding <= 2.0 {
        w.cwnd += incr;
    }
}

impl CongestionControl for Vegas {
    fn on_ack(&mut self, w: &mut Window, now: SimTime, ack: &AckSample, _: &RttEstimator, _: &Estimators) {
        if let Some(end) = self.rounds.on_ack(now, ack) {
            self.decide(w, end.diff);
        }
        if self.incr == 1.0 && w.cwnd >= w.ssthresh {
            self.incr = 0.0;
        }
        grow_if_sending(w, self.incr, ack);
    }

    fn on_congestion(&mut self, w: &mut Window, now: SimTime, ev: &CongestionEvent) {
        let (sent, transmissions) = ev.lost.unwrap_or((now, 1));
        if self.last_cut.is_none_or(|t| t < sent) {
            let win = ev.window.floor();
            w.cwnd = if win <= 3.0 {
                2.0
            } else if transmissions > 1 {
                (win / 2.0).floor()
            } else {
                win - (win / 4.0).floor()
            };
            self.last_cut = Some(now);
        }
        w.ssthresh = 2.0;
        self.incr = 0.0;
    }

    fn on_rto(&mut self, w: &mut Window, now: SimTime, ev: &CongestionEvent) {
        w.ssthresh = halved(ev.window);
        w.cwnd = self.cfg.timeout_window as f64;
        self.last_cut = Some(now);
        self.incr = 0.0;
    }

    fn on_base_rtt_restart(&mut self, _: SimTime) {
        self.rounds.restart_base();
    }

    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        let base = if self.rounds.base_rtt.is_finite() { self.rounds.base_rtt } else { f64::NAN };
        out.push(TracedVar::new("vegas_base_rtt", "s", base));
        out.push(TracedVar::new("vegas_diff", "pkts", self.rounds.last_diff));
    }
}
