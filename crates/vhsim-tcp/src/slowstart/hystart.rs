//! Linux's HyStart, as `net/ipv4/tcp_cubic.c` of Linux 6.17 runs it (Ha & Rhee, "Taming the
//! elephants: new TCP slow start", 2008; module parameters `hystart_detect` = 3 (both exits),
//! `hystart_low_window` = 16, `hystart_ack_delta_us` = 2000, constants HYSTART_MIN_SAMPLES = 8,
//! HYSTART_DELAY_MIN = 4 ms, HYSTART_DELAY_MAX = 16 ms).
//!
//! Rounds: a round starts when the ACK point passes the highest segment sent when the previous
//! round started (the shared round counter); at each start the ACK-train clock restarts and the
//! round's RTT minimum is forgotten. While in slow start and cwnd >= `low_window`, every ACK of
//! new data with an RTT sample is checked by both exits, and the first that fires sets
//! ssthresh = cwnd (slow start ends before this ACK grows the window):
//!
//! - **ACK train**: ACKs arriving within `ack_delta` of the previous one extend the train; when
//!   the train has lasted longer than (delay_min + `ack_delay`)/2 since the round started, the
//!   window has filled the path (Linux halves the threshold for a sender that does not pace;
//!   `ack_delay` is Linux's `hystart_ack_delay()`, min(1 ms, 4 GSO packets at the pacing rate),
//!   which is 1 ms below 262 MB/s).
//! - **Delay increase**: once `min_samples` samples were taken in the round, the round's
//!   minimum RTT exceeding delay_min + clamp(delay_min/8, 4 ms, 16 ms) means a queue builds.
//!
//! delay_min is the smallest sample of the connection. A timeout (Linux's `CA_Loss` state)
//! resets delay_min and re-arms the exits for the slow start that follows; a fast retransmit
//! leaves them as they are (the next slow start comes only after a timeout).

use super::{in_slow_start, SlowStart};
use crate::cc::{AckSample, Window};
use crate::config::{ConfigError, TcpConfig};
use crate::part::{Part, PartConfig};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::units::{as_duration, as_packets_u32, Duration, Packets};
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::Engagement;

crate::named_enum! {
    /// Which of HyStart's exits run (Linux `hystart_detect`).
    pub enum HystartDetect {
        /// Both (`hystart_detect` = 3, Linux's default).
        "both" => Both,
        /// The ACK-train exit only (1).
        "ack_train" => AckTrain,
        /// The delay-increase exit only (2).
        "delay" => Delay,
    }
}

/// Options of HyStart (defaults: Linux 6.17's module parameters and constants).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HystartConfig {
    /// Which exits run: "both" (default), "ack_train" or "delay".
    pub detect: HystartDetect,
    /// No exit below this cwnd (`hystart_low_window`, "16pkt"; >= 1).
    #[serde(with = "as_packets_u32")]
    #[schemars(with = "Packets")]
    pub low_window: u32,
    /// Largest gap between ACKs of one train (`hystart_ack_delta_us`, "2ms").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub ack_delta: SimDuration,
    /// Allowance added to delay_min before halving it into the train threshold (Linux's
    /// `hystart_ack_delay()`, "1ms"; "0s" = the original HyStart, delay_min/2).
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub ack_delay: SimDuration,
    /// RTT samples per round before the delay exit may fire (HYSTART_MIN_SAMPLES, 8; >= 1).
    pub min_samples: u32,
    /// Lower bound of the delay threshold (HYSTART_DELAY_MIN, "4ms").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub delay_min_thresh: SimDuration,
    /// Upper bound of the delay threshold (HYSTART_DELAY_MAX, "16ms"; >= delay_min_thresh).
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub delay_max_thresh: SimDuration,
}

impl Default for HystartConfig {
    fn default() -> Self {
        HystartConfig {
            detect: HystartDetect::Both,
            low_window: 16,
            ack_delta: SimDuration::from_millis(2),
            ack_delay: SimDuration::from_millis(1),
            min_samples: 8,
            delay_min_thresh: SimDuration::from_millis(4),
            delay_max_thresh: SimDuration::from_millis(16),
        }
    }
}

impl PartConfig for HystartConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if self.low_window == 0 {
            return Err(ConfigError::new("low_window", "must be at least 1pkt"));
        }
        if self.min_samples == 0 {
            return Err(ConfigError::new("min_samples", "must be at least 1"));
        }
        if self.delay_min_thresh > self.delay_max_thresh {
            return Err(ConfigError::new("delay_min_thresh", "must not be greater than delay_max_thresh"));
        }
        Ok(())
    }
}

/// Which exit ended slow start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HystartExit {
    /// The ACK train lasted longer than half the minimum RTT.
    AckTrain,
    /// The round's minimum RTT rose above the threshold.
    Delay,
}

/// HyStart's state.
#[derive(Clone, Debug)]
pub struct Hystart {
    cfg: HystartConfig,
    /// Slow start was ended by an exit (Linux `found`); cleared by a timeout.
    found: Option<HystartExit>,
    /// Smallest RTT sample (Linux `delay_min`; None = 0, no sample since the last reset).
    delay_min: Option<SimDuration>,
    round_start: SimTime,
    last_ack: SimTime,
    /// The round's smallest sample (Linux `curr_rtt`).
    curr_rtt: Option<SimDuration>,
    sample_cnt: u32,
    /// A timeout asked for a new round at the next ACK (Linux resets it in `CA_Loss`).
    reset_pending: bool,
    /// Slow starts each exit ended (engagement counters).
    ack_train_exits: u64,
    delay_exits: u64,
}

impl Part for Hystart {
    type Config = HystartConfig;
    type Settings = TcpConfig;
    fn new(cfg: &HystartConfig, _: &TcpConfig) -> Self {
        Hystart {
            cfg: cfg.clone(),
            found: None,
            delay_min: None,
            round_start: SimTime::ZERO,
            last_ack: SimTime::ZERO,
            curr_rtt: None,
            sample_cnt: 0,
            reset_pending: false,
            ack_train_exits: 0,
            delay_exits: 0,
        }
    }
}

impl Hystart {
    /// The exit that ended the current slow start, if any.
    pub fn found(&self) -> Option<HystartExit> {
        self.found
    }

    /// The smallest RTT sample since the start (or the last timeout).
    pub fn delay_min(&self) -> Option<SimDuration> {
        self.delay_min
    }

    /// A new round starts at `now` (Linux `bictcp_hystart_reset`).
    fn reset_round(&mut self, now: SimTime) {
        self.round_start = now;
        self.last_ack = now;
        self.curr_rtt = None;
        self.sample_cnt = 0;
    }

    fn detects(&self, exit: HystartExit) -> bool {
        match self.cfg.detect {
            HystartDetect::Both => true,
            HystartDetect::AckTrain => exit == HystartExit::AckTrain,
            HystartDetect::Delay => exit == HystartExit::Delay,
        }
    }

    /// Linux `hystart_update`: whether this sample ends slow start, and by which exit.
    fn check(&mut self, w: &Window, now: SimTime, delay: SimDuration) -> Option<HystartExit> {
        if w.cwnd < self.cfg.low_window as f64 {
            return None;
        }
        let delay_min = self.delay_min?;
        let mut found = None;
        if self.detects(HystartExit::AckTrain) && now.saturating_since(self.last_ack) <= self.cfg.ack_delta {
            self.last_ack = now;
            let threshold = SimDuration((delay_min.0 + self.cfg.ack_delay.0) / 2);
            if now.saturating_since(self.round_start) > threshold {
                found = Some(HystartExit::AckTrain);
            }
        }
        if self.detects(HystartExit::Delay) {
            self.curr_rtt = Some(self.curr_rtt.map_or(delay, |c| c.min(delay)));
            if self.sample_cnt < self.cfg.min_samples {
                self.sample_cnt += 1;
            } else {
                let eta =
                    SimDuration(delay_min.0 / 8).clamp(self.cfg.delay_min_thresh, self.cfg.delay_max_thresh);
                if self.curr_rtt.is_some_and(|c| c > delay_min + eta) {
                    found = found.or(Some(HystartExit::Delay));
                }
            }
        }
        found
    }
}

impl SlowStart for Hystart {
    fn before_growth(&mut self, w: &mut Window, now: SimTime, ack: &AckSample) {
        if ack.round_start || self.reset_pending {
            self.reset_pending = false;
            self.reset_round(now);
        }
        let Some(delay) = ack.rtt else { return };
        self.delay_min = Some(self.delay_min.map_or(delay, |d| d.min(delay)));
        if self.found.is_some() || !in_slow_start(w) {
            return;
        }
        if let Some(exit) = self.check(w, now, delay) {
            self.found = Some(exit);
            match exit {
                HystartExit::AckTrain => self.ack_train_exits += 1,
                HystartExit::Delay => self.delay_exits += 1,
            }
            w.ssthresh = w.cwnd;
        }
    }

    fn on_loss(&mut self, timeout: bool) {
        if timeout {
            self.found = None;
            self.delay_min = None;
            self.reset_pending = true;
        }
    }

    fn exits(&self) -> u64 {
        self.ack_train_exits + self.delay_exits
    }

    /// `hystart_exits`, and by exit `hystart_exits_ack_train`, `hystart_exits_delay` (those
    /// that `detect` runs).
    fn engagement(&self, out: &mut Engagement) {
        out.insert("hystart_exits", self.exits());
        if self.detects(HystartExit::AckTrain) {
            out.insert("hystart_exits_ack_train", self.ack_train_exits);
        }
        if self.detects(HystartExit::Delay) {
            out.insert("hystart_exits_delay", self.delay_exits);
        }
    }
}
