//! HyStart++ (RFC 9406), for the initial slow start.
//!
//! Rounds are the shared round counter's (a round ends when the first segment sent after its
//! start is acknowledged, RFC 9406 §4.2's windowEnd). At the start of every round of slow start
//! or CSS: lastRoundMinRTT = currentRoundMinRTT, currentRoundMinRTT = infinity,
//! rttSampleCount = 0 (§4.2). For every ACK of new data:
//!
//! - **Slow start**: the window law's growth is capped at L segments per ACK (cwnd += min(N, L)
//!   with N the segments acknowledged, §4.2; L = 8 for a sender that does not pace, §4.3). Each
//!   RTT sample lowers currentRoundMinRTT and counts. Once N_RTT_SAMPLE (8) samples were taken
//!   in a round with both minima known, RttThresh = clamp(lastRoundMinRTT / MIN_RTT_DIVISOR (8),
//!   MIN_RTT_THRESH (4 ms), MAX_RTT_THRESH (16 ms)); currentRoundMinRTT >= lastRoundMinRTT +
//!   RttThresh exits slow start into Conservative Slow Start with cssBaselineMinRtt =
//!   currentRoundMinRTT.
//! - **CSS**: the growth is divided by CSS_GROWTH_DIVISOR (4). Once N_RTT_SAMPLE samples were
//!   taken in a round, currentRoundMinRTT < cssBaselineMinRtt means the exit was spurious: back
//!   to slow start. CSS lasts at most CSS_ROUNDS (5) rounds, the partial round it started in
//!   counted; then ssthresh = cwnd: congestion avoidance.
//!
//! A loss during slow start or CSS leaves the window to the window law's loss response; after
//! it (and after CSS) the connection uses standard slow start (§4.2: HyStart++ SHOULD be used
//! only for the initial slow start). No pacing is modelled, so L = 8.

use super::{in_slow_start, SlowStart};
use crate::cc::{AckSample, Window};
use crate::config::{ConfigError, TcpConfig};
use crate::part::{Part, PartConfig};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::units::{as_duration, Duration};
use vhsim_core::{SimDuration, SimTime, TracedVar};
use vhsim_net::Engagement;

/// Options of HyStart++ (defaults: RFC 9406 §4.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HystartPpConfig {
    /// MIN_RTT_THRESH ("4ms").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub min_rtt_thresh: SimDuration,
    /// MAX_RTT_THRESH ("16ms"; >= min_rtt_thresh).
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub max_rtt_thresh: SimDuration,
    /// MIN_RTT_DIVISOR (8; >= 1).
    pub min_rtt_divisor: u32,
    /// N_RTT_SAMPLE (8; >= 1).
    pub n_rtt_sample: u32,
    /// CSS_GROWTH_DIVISOR (4; >= 2).
    pub css_growth_divisor: u32,
    /// CSS_ROUNDS (5; >= 1).
    pub css_rounds: u32,
    /// L, the most segments one ACK may add in slow start (8 for a sender that does not pace;
    /// >= 1).
    pub ack_limit: u32,
}

impl Default for HystartPpConfig {
    fn default() -> Self {
        HystartPpConfig {
            min_rtt_thresh: SimDuration::from_millis(4),
            max_rtt_thresh: SimDuration::from_millis(16),
            min_rtt_divisor: 8,
            n_rtt_sample: 8,
            css_growth_divisor: 4,
            css_rounds: 5,
            ack_limit: 8,
        }
    }
}

impl PartConfig for HystartPpConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        let at_least = |v: u32, min: u32, key: &str| {
            if v < min {
                Err(ConfigError::new(key, format!("must be at least {min}")))
            } else {
                Ok(())
            }
        };
        at_least(self.min_rtt_divisor, 1, "min_rtt_divisor")?;
        at_least(self.n_rtt_sample, 1, "n_rtt_sample")?;
        at_least(self.css_growth_divisor, 2, "css_growth_divisor")?;
        at_least(self.css_rounds, 1, "css_rounds")?;
        at_least(self.ack_limit, 1, "ack_limit")?;
        if self.min_rtt_thresh > self.max_rtt_thresh {
            return Err(ConfigError::new("min_rtt_thresh", "must not be greater than max_rtt_thresh"));
        }
        Ok(())
    }
}

/// Where HyStart++ is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HystartPpPhase {
    /// Standard slow start with the delay-increase check.
    SlowStart,
    /// Conservative Slow Start, in its `round`-th round (the partial first one is 1).
    Css {
        /// Rounds of CSS so far, the current one included.
        round: u32,
    },
    /// Not running any more (after CSS or a loss): the window law's slow start alone.
    Off,
}

/// HyStart++'s state.
#[derive(Clone, Debug)]
pub struct HystartPp {
    cfg: HystartPpConfig,
    phase: HystartPpPhase,
    last_round_min: Option<SimDuration>,
    current_round_min: Option<SimDuration>,
    samples: u32,
    css_baseline: Option<SimDuration>,
    /// Engagement counters: entries into CSS, CSS left for slow start (a spurious exit), CSS
    /// completed (ssthresh = cwnd after CSS_ROUNDS rounds).
    exits: u64,
    css_returns: u64,
    css_completions: u64,
}

impl Part for HystartPp {
    type Config = HystartPpConfig;
    type Settings = TcpConfig;
    fn new(cfg: &HystartPpConfig, _: &TcpConfig) -> Self {
        HystartPp {
            cfg: cfg.clone(),
            phase: HystartPpPhase::SlowStart,
            last_round_min: None,
            current_round_min: None,
            samples: 0,
            css_baseline: None,
            exits: 0,
            css_returns: 0,
            css_completions: 0,
        }
    }
}

impl HystartPp {
    /// The current phase.
    pub fn phase(&self) -> HystartPpPhase {
        self.phase
    }

    /// The delay-increase threshold for a last-round minimum `last` (RFC 9406 §4.2 RttThresh).
    pub fn rtt_thresh(&self, last: SimDuration) -> SimDuration {
        SimDuration(last.0 / self.cfg.min_rtt_divisor as u64)
            .clamp(self.cfg.min_rtt_thresh, self.cfg.max_rtt_thresh)
    }

    fn start_round(&mut self, w: &mut Window) {
        self.last_round_min = self.current_round_min;
        self.current_round_min = None;
        self.samples = 0;
        if let HystartPpPhase::Css { round } = self.phase {
            if round >= self.cfg.css_rounds {
                // CSS_ROUNDS rounds done: congestion avoidance.
                w.ssthresh = w.cwnd;
                self.phase = HystartPpPhase::Off;
                self.css_completions += 1;
            } else {
                self.phase = HystartPpPhase::Css { round: round + 1 };
            }
        }
    }

    /// The growth the window law made for this ACK, capped at L and divided in CSS.
    fn limit_growth(&self, before: Window, w: &mut Window) {
        let grown = w.cwnd - before.cwnd;
        if grown <= 0.0 {
            return;
        }
        let mut step = grown.min(self.cfg.ack_limit as f64);
        if matches!(self.phase, HystartPpPhase::Css { .. }) {
            step /= self.cfg.css_growth_divisor as f64;
        }
        w.cwnd = before.cwnd + step;
    }

    fn check(&mut self) {
        if self.samples < self.cfg.n_rtt_sample {
            return;
        }
        let Some(current) = self.current_round_min else { return };
        match self.phase {
            HystartPpPhase::SlowStart => {
                let Some(last) = self.last_round_min else { return };
                if current >= last + self.rtt_thresh(last) {
                    self.css_baseline = Some(current);
                    self.phase = HystartPpPhase::Css { round: 1 };
                    self.exits += 1;
                }
            }
            HystartPpPhase::Css { .. } => {
                if self.css_baseline.is_some_and(|b| current < b) {
                    // The exit was spurious: back to slow start with HyStart++.
                    self.css_baseline = None;
                    self.phase = HystartPpPhase::SlowStart;
                    self.css_returns += 1;
                }
            }
            HystartPpPhase::Off => {}
        }
    }
}

impl SlowStart for HystartPp {
    fn after_growth(&mut self, before: Window, w: &mut Window, _now: SimTime, ack: &AckSample) {
        if self.phase == HystartPpPhase::Off || !in_slow_start(&before) {
            return;
        }
        self.limit_growth(before, w);
        if ack.round_start {
            self.start_round(w);
            if self.phase == HystartPpPhase::Off {
                return;
            }
        }
        if let Some(rtt) = ack.rtt {
            self.current_round_min = Some(self.current_round_min.map_or(rtt, |m| m.min(rtt)));
            self.samples += 1;
        }
        self.check();
    }

    fn on_loss(&mut self, _timeout: bool) {
        self.phase = HystartPpPhase::Off;
    }

    fn exits(&self) -> u64 {
        self.exits
    }

    /// `hystart_pp_css_entries`, `hystart_pp_css_returns`, `hystart_pp_css_completions`.
    fn engagement(&self, out: &mut Engagement) {
        out.insert("hystart_pp_css_entries", self.exits);
        out.insert("hystart_pp_css_returns", self.css_returns);
        out.insert("hystart_pp_css_completions", self.css_completions);
    }

    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        let code = match self.phase {
            HystartPpPhase::SlowStart => 0.0,
            HystartPpPhase::Css { .. } => 1.0,
            HystartPpPhase::Off => 2.0,
        };
        out.push(TracedVar::new("hystart_pp_phase", "code", code));
    }
}
