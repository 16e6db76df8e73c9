//! Freeze-TCPv2's window law (Park, Lee, Koo & Choo, HCII 2009, §3; docs/references.md §8, A8, A9).
//! The receiver side is Freeze-TCP's (`sink/freeze.rs`), the freeze itself the sender's
//! zero-window persist mode (`sender/persist.rs`), which calls [`CongestionControl::on_freeze`]
//! at the ZWA and [`CongestionControl::on_resume`] at the PACK (the first window-reopening ACK).
//!
//! - **Normal** ACKs follow Reno ("it follows the congestion control algorithm of TCP Reno as
//!   Freeze TCP"), losses too, also while WAVE runs.
//! - **ZWA**: save cwnd and ssthresh; RTT_prev := "the RTT value for the ZWA" (`rtt_prev`:
//!   the last raw per-ACK sample, default, or srtt). Persist mode freezes the RTO.
//! - **PACK**: restore cwnd and ssthresh; RTT_base := RTT_prev ("it refreshes the RTT_base as
//!   RTT_prev"); WAVE starts. RTT_curr = "the RTT value for the first packet transmitted after
//!   the handoff": the first valid per-ACK sample of a segment first sent at or after the PACK.
//! - **WAVE**, the first decision at RTT_curr, whatever losses the handoff caused before it
//!   (the segments lost at the break and in the resume burst are no congestion signal of the
//!   new cell; Reno's loss handling meanwhile runs as usual); then once per round (a round
//!   ends when its first segment is acknowledged, as Vegas):
//!   Δ = (W/RTT_base − W/RTT)·RTT_base, Eq. (3), W = the window in use, min(cwnd, window_)
//!   (Reno's cwnd grows on past a window cap it does not use; Eq. (2)'s WindowSize is what is
//!   sent).
//!   - Δ < `wave_alpha` (14): **DABE**, comparing RTT_prev with the decision's RTT (RTT_curr
//!     at the first). RTT_prev < RTT (or equal): "linearly increases the window size saved
//!     prior to the handoff" (+1 segment per round, 1/cwnd per ACK). RTT_prev > RTT: Eq. (1),
//!     cwnd += PacketSize / |RTT_prev − RTT|, a rate as printed; `eq1` chooses its reading:
//!     `"per_decision"` (default): once per decision, cwnd += W·(RTT_prev − RTT)/RTT, the
//!     window the RTT drop says the new cell carries more ("the bandwidth provided by the new
//!     network cell is increased"), then held until the next decision; `"per_ack"` (A8): per
//!     ACK, cwnd_bytes += min(MSS, MSS/|ΔRTT|_ms), i.e. min(1, 1/|ΔRTT|_ms) segments;
//!     `"per_round"`: A8's increment once per decision.
//!   - Δ > `wave_beta` (16): Westwood's bandwidth estimate (A9): cwnd = ssthresh = max(2,
//!     ⌊BWE·RTTmin/MSS⌋) ([`super::westwood::bdp_window`]), then linear growth. BWE and RTTmin
//!     are measured from the PACK on ("counts the number of ACK packets which the sender
//!     received during one window transmission time": `bandwidth_since = "resume"`, default;
//!     before a round has ended, the delivery rate since the PACK), or over the whole
//!     connection (`"connection"`: the old cell's bandwidth enters).
//!   - otherwise the Vegas congestion-avoidance rule with `vegas_alpha`/`vegas_beta` (1/3, A8
//!     item 4): diff = round(Δ) > β → cwnd −= 1, < α → +1 per round, else hold.
//! - RTT in Δ (`delta_rtt`): RTT_curr for the first decision, then the round's average RTT as
//!   Vegas (`"curr_then_average"`, default), or the latest raw sample (`"latest_sample"`). Later
//!   decisions use RTT_base = the minimum of RTT_prev and the samples since.
//! - How long WAVE lasts (`wave_duration`): `"until_new_loss"` (default): until the loss of a
//!   segment last sent at or after the first decision (a congestion signal of the new cell),
//!   a timeout after the first decision, or the next ZWA; losses of segments sent before it are
//!   the handoff's. `"until_loss"`: until any loss (one before the first decision cancels
//!   WAVE for that handoff) or the next ZWA. `"one_decision"`: the first decision (taken as
//!   for `until_new_loss`), its round, then Reno.
//! - A timeout always returns to Reno's growth (slow start from cwnd = 1): no decision's growth
//!   survives it.

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
use vhsim_net::Engagement;

crate::named_enum! {
    /// How Eq. (1), cwnd += PacketSize / |RTT_prev − RTT_curr| (a rate as printed), becomes a
    /// window increment.
    pub enum Eq1Frequency {
        /// Once per WAVE decision, scaled by the RTT drop: cwnd += cwnd·(RTT_prev − RTT)/RTT.
        "per_decision" => PerDecision,
        /// On every ACK, min(1, 1/|ΔRTT|_ms) segments (A8's reading).
        "per_ack" => PerAck,
        /// A8's increment once per WAVE decision.
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
        /// The first decision whatever losses the handoff caused, then one per round until a
        /// segment sent after it is lost, a timeout, or the next ZWA.
        "until_new_loss" => UntilNewLoss,
        /// Until the first loss of any segment or the next ZWA, one decision per round.
        "until_loss" => UntilLoss,
        /// The first decision only (taken as for `until_new_loss`); Reno from the next round on.
        "one_decision" => OneDecision,
    }
}

crate::named_enum! {
    /// Over which ACKs the Westwood branch measures the bandwidth and RTTmin.
    pub enum BandwidthSince {
        /// From the PACK on: the new cell's.
        "resume" => Resume,
        /// The whole connection (Westwood+'s shared estimate and the connection's RTTmin).
        "connection" => Connection,
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

/// Options of Freeze-TCPv2 (defaults: docs/references.md §8's recommendations).
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
    /// How Eq. (1) applies (`per_decision`, default; `per_ack`; `per_round`).
    pub eq1: Eq1Frequency,
    /// Which RTT enters Δ (`curr_then_average`, default; `latest_sample`).
    pub delta_rtt: DeltaRtt,
    /// How long WAVE stays active (`until_new_loss`, default; `until_loss`; `one_decision`).
    pub wave_duration: WaveDuration,
    /// What RTT_prev is (`sample`, default; `srtt`).
    pub rtt_prev: RttPrev,
    /// Where the Westwood branch's bandwidth and RTTmin come from (`resume`, default;
    /// `connection`).
    pub bandwidth_since: BandwidthSince,
}

impl Default for Ftv2Config {
    fn default() -> Self {
        Ftv2Config {
            wave_alpha: 14,
            wave_beta: 16,
            vegas_alpha: 1,
            vegas_beta: 3,
            eq1: Eq1Frequency::PerDecision,
            delta_rtt: DeltaRtt::CurrThenAverage,
            wave_duration: WaveDuration::UntilNewLoss,
            rtt_prev: RttPrev::Sample,
            bandwidth_since: BandwidthSince::Resume,
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
    /// Δ < α, RTT_prev > RTT_curr: Eq. (1) with this increment (segments: per ACK for
    /// `per_ack`, once for the others).
    DabeEq1(f64),
    /// Δ > β: cwnd = ssthresh = the Westwood+ window.
    Bandwidth,
    /// α ≤ Δ ≤ β: the Vegas rule.
    Vegas,
}

impl WaveBranch {
    /// Names of the branches, in counter order: DABE's linear increase, DABE's Eq. (1), the
    /// Vegas rule, Westwood's bandwidth estimate.
    pub const NAMES: [&'static str; 4] = ["dabe_linear", "dabe_eq1", "vegas", "westwood"];

    /// Index into [`WaveBranch::NAMES`].
    pub fn index(self) -> usize {
        match self {
            WaveBranch::DabeLinear => 0,
            WaveBranch::DabeEq1(_) => 1,
            WaveBranch::Vegas => 2,
            WaveBranch::Bandwidth => 3,
        }
    }
}

/// How often WAVE acted (engagement counters, docs/schemes.md "Engagement counters").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WaveCounters {
    /// PACKs that started WAVE (one per handover the sender froze for).
    pub started: u64,
    /// Decisions by branch, in [`WaveBranch::NAMES`] order.
    pub decisions: [u64; 4],
    /// The branch of the first decision after each PACK, same order: the branch each
    /// handover took.
    pub first: [u64; 4],
    /// WAVE periods a loss or a timeout ended (before their first decision with
    /// `until_loss`).
    pub ended_by_loss: u64,
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
    /// The sender's window cap `window_` (segments): W = min(cwnd, it).
    window_cap: f64,
    phase: Ftv2Phase,
    last_sample: Option<f64>,
    saved: Option<Window>,
    rtt_prev: Option<f64>,
    rtt_curr: Option<f64>,
    /// When the last PACK resumed the sender.
    resumed_at: SimTime,
    /// When WAVE took its first decision after the last PACK.
    first_decision_at: Option<SimTime>,
    rounds: VegasRounds,
    growth: Growth,
    wave_active: bool,
    last_delta: f64,
    decisions: Vec<(SimTime, WaveBranch, f64)>,
    counters: WaveCounters,
}

impl Part for Ftv2 {
    type Config = Ftv2Config;
    type Settings = TcpConfig;
    fn new(cfg: &Ftv2Config, tcp: &TcpConfig) -> Self {
        Ftv2 {
            cfg: cfg.clone(),
            segment_bytes: tcp.segment_size,
            window_cap: f64::from(tcp.window),
            phase: Ftv2Phase::Normal,
            last_sample: None,
            saved: None,
            rtt_prev: None,
            rtt_curr: None,
            resumed_at: SimTime::ZERO,
            first_decision_at: None,
            rounds: VegasRounds::default(),
            growth: Growth::Reno,
            wave_active: false,
            last_delta: f64::NAN,
            decisions: Vec::new(),
            counters: WaveCounters::default(),
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

    /// RTT_curr (s), the first post-PACK sample after the last PACK.
    pub fn rtt_curr(&self) -> Option<f64> {
        self.rtt_curr
    }

    /// Every WAVE decision: when, the branch, and Δ (segments).
    pub fn decisions(&self) -> &[(SimTime, WaveBranch, f64)] {
        &self.decisions
    }

    /// How often WAVE acted.
    pub fn counters(&self) -> &WaveCounters {
        &self.counters
    }

    /// One WAVE decision with RTT_base `base` and RTT `rtt` (s).
    fn decide(&mut self, w: &mut Window, now: SimTime, base: f64, rtt: f64, est: &Estimators) {
        let size = w.cwnd.min(self.window_cap);
        let delta = (size / base - size / rtt) * base;
        self.last_delta = delta;
        let branch = if delta < self.cfg.wave_alpha as f64 {
            self.dabe(w, size, rtt)
        } else if delta > self.cfg.wave_beta as f64 {
            let (bw, min_rtt) = match self.cfg.bandwidth_since {
                BandwidthSince::Resume => match est.since_resume.as_deref() {
                    Some(r) => (r.bandwidth.estimate_at(now), r.min_rtt.get()),
                    None => unreachable!("an FTv2 sender keeps the estimates since a resume (SenderCore::new)"),
                },
                BandwidthSince::Connection => match est.bandwidth.as_deref() {
                    Some(b) => (b.estimate(), est.min_rtt.get()),
                    None => unreachable!("an FTv2 sender keeps the delivery rate (SenderCore::new)"),
                },
            };
            if let Some(win) = bdp_window(bw, min_rtt, self.segment_bytes) {
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
        if self.first_decision_at.is_none() {
            self.first_decision_at = Some(now);
            self.counters.first[branch.index()] += 1;
        }
        self.counters.decisions[branch.index()] += 1;
        self.decisions.push((now, branch, delta));
    }

    /// DABE (§3.1): compare RTT_prev with the decision's RTT `rtt` (RTT_curr at the first);
    /// `size` is the window in use.
    fn dabe(&mut self, w: &mut Window, size: f64, rtt: f64) -> WaveBranch {
        match self.rtt_prev {
            Some(prev) if prev > rtt => {
                let per_ack = (1.0 / ((prev - rtt) * 1000.0)).min(1.0);
                let step = match self.cfg.eq1 {
                    Eq1Frequency::PerAck => {
                        self.growth = Growth::PerAck(per_ack);
                        return WaveBranch::DabeEq1(per_ack);
                    }
                    Eq1Frequency::PerRound => per_ack,
                    Eq1Frequency::PerDecision => size * (prev - rtt) / rtt,
                };
                w.cwnd += step;
                self.growth = Growth::Vegas(0.0);
                WaveBranch::DabeEq1(step)
            }
            _ => {
                self.growth = Growth::Linear;
                WaveBranch::DabeLinear
            }
        }
    }

    /// The first WAVE decision, at the first valid sample of a segment first sent at or after
    /// the PACK; later rounds are counted from the segments sent after it.
    fn first_decision(&mut self, w: &mut Window, now: SimTime, ack: &AckSample, est: &Estimators) {
        let (Some(sample), Some(sent)) = (ack.rtt, ack.newest_sent) else { return };
        if sent < self.resumed_at {
            return;
        }
        let r = sample.as_secs_f64();
        self.rtt_curr = Some(r);
        let base = self.rtt_prev.unwrap_or(r);
        self.decide(w, now, base, r, est);
        self.rounds.restart_at(ack.snd_nxt, base.min(r));
        if self.cfg.wave_duration == WaveDuration::OneDecision {
            self.wave_active = false;
        }
    }

    /// Whether a loss (or timeout) of a segment last sent at `lost_sent` ends WAVE.
    fn loss_ends_wave(&self, lost_sent: Option<SimTime>, timeout: bool) -> bool {
        match self.cfg.wave_duration {
            WaveDuration::UntilLoss => true,
            WaveDuration::UntilNewLoss | WaveDuration::OneDecision => self.first_decision_at.is_some_and(|first| {
                timeout || lost_sent.is_none_or(|sent| sent >= first)
            }),
        }
    }

    /// A loss or timeout while resumed: count and end WAVE if it ends it.
    fn on_loss(&mut self, lost_sent: Option<SimTime>, timeout: bool) {
        if self.phase == Ftv2Phase::Resumed && self.loss_ends_wave(lost_sent, timeout) {
            self.counters.ended_by_loss += u64::from(self.wave_active);
            self.end_wave();
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
            if self.wave_active && self.rtt_curr.is_none() {
                self.first_decision(w, now, ack, est);
            } else if let Some(end) = self.rounds.on_ack(now, ack) {
                if !self.wave_active {
                    self.end_wave();
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
        self.on_loss(ev.lost.map(|(sent, _)| sent), false);
        w.ssthresh = halved(ev.window);
        w.cwnd = w.ssthresh;
    }

    fn on_rto(&mut self, w: &mut Window, _: SimTime, ev: &CongestionEvent) {
        self.on_loss(ev.lost.map(|(sent, _)| sent), true);
        // Reno's slow start restarts the window: no decision's growth survives a timeout.
        self.growth = Growth::Reno;
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

    fn on_resume(&mut self, w: &mut Window, now: SimTime, next_seq: u64) {
        if self.phase != Ftv2Phase::Frozen {
            return;
        }
        if let Some(saved) = self.saved.take() {
            *w = saved;
        }
        self.phase = Ftv2Phase::Resumed;
        self.wave_active = true;
        self.rtt_curr = None;
        self.resumed_at = now;
        self.first_decision_at = None;
        self.counters.started += 1;
        self.rounds.restart_at(next_seq, self.rtt_prev.unwrap_or(f64::INFINITY));
    }

    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        out.push(TracedVar::new("ftv2_phase", "code", self.phase as u8 as f64));
        out.push(TracedVar::new("ftv2_delta", "pkts", self.last_delta));
    }

    /// `wave_started`, `wave_decisions` and `wave_decisions_<branch>`, `wave_first_<branch>`
    /// (the branch each handover's first decision took), `wave_ended_by_loss`.
    fn engagement(&self, out: &mut Engagement) {
        const DECISIONS: [&str; 4] =
            ["wave_decisions_dabe_linear", "wave_decisions_dabe_eq1", "wave_decisions_vegas", "wave_decisions_westwood"];
        const FIRST: [&str; 4] = ["wave_first_dabe_linear", "wave_first_dabe_eq1", "wave_first_vegas", "wave_first_westwood"];
        let k = &self.counters;
        out.insert("wave_started", k.started);
        out.insert("wave_decisions", k.decisions.iter().sum());
        for i in 0..4 {
            out.insert(DECISIONS[i], k.decisions[i]);
            out.insert(FIRST[i], k.first[i]);
        }
        out.insert("wave_ended_by_loss", k.ended_by_loss);
    }
}
