//! Gilbert–Elliott two-state loss, time-based form with deterministic sojourns, as Lim & Jang
//! parameterise the WLAN (Lim & Jang §5.1 and Table 1; docs/references.md §12; ns-2
//! `TwoStateErrorModel`, queue/errmodel.{h,cc}).
//!
//! Good lasts exactly `good_duration` (L&J: 1 s), Bad exactly `bad_duration` (100 ms). At the
//! end of every sojourn the next state is Bad with probability `p_bad` (0.5), else Good; a state
//! may repeat. A packet is lost with the loss probability of the state at the time it leaves
//! the link (L&J: 0.1 % in Good, 10 % in Bad).
//!
//! The state is a function of time only: transitions are evaluated lazily up to the time of each
//! packet, drawing from their own random stream, so the channel's state trajectory is the same
//! whatever traffic crosses it. Sojourns are half-open: a packet at exactly the end of a sojourn
//! sees the next state. The channel starts in Good at t = 0.
//!
//! Analytic values: the fraction of sojourns that are Bad is `p_bad`, so the time share of Bad is
//! `p_bad * bad / (p_bad * bad + (1 - p_bad) * good)` (L&J: 0.05 / 0.55 = 1/11 = 0.0909), and
//! the mean loss is `(1 - share) * loss_good + share * loss_bad` (L&J: (10/11) * 0.001 +
//! (1/11) * 0.1 = 0.011 / 1.1 = 0.01 exactly). Consecutive Bad sojourns form a run of geometric
//! length with mean `1 / (1 - p_bad)` sojourns (L&J: 2, i.e. 200 ms of Bad).

use crate::error::gilbert_elliott::ChannelState;
use crate::packet::Packet;
use vhsim_core::{RngStream, SimDuration, SimTime};

/// Time-based Gilbert–Elliott loss with deterministic sojourns.
#[derive(Clone, Debug)]
pub struct GilbertElliottTimed {
    good_duration: SimDuration,
    bad_duration: SimDuration,
    p_bad: f64,
    loss_good: f64,
    loss_bad: f64,
    state: ChannelState,
    state_end: SimTime,
    loss_rng: RngStream,
    state_rng: RngStream,
}

impl GilbertElliottTimed {
    /// A channel in Good from t = 0. Durations must be > 0 (validated by the scenario loader).
    pub fn new(
        good_duration: SimDuration,
        bad_duration: SimDuration,
        p_bad: f64,
        loss_good: f64,
        loss_bad: f64,
        loss_rng: RngStream,
        state_rng: RngStream,
    ) -> Self {
        assert!(
            good_duration > SimDuration::ZERO && bad_duration > SimDuration::ZERO,
            "sojourns must be > 0"
        );
        GilbertElliottTimed {
            good_duration,
            bad_duration,
            p_bad,
            loss_good,
            loss_bad,
            state: ChannelState::Good,
            state_end: SimTime::ZERO + good_duration,
            loss_rng,
            state_rng,
        }
    }

    /// Time share of Bad in the long run.
    pub fn bad_time_share(&self) -> f64 {
        let b = self.p_bad * self.bad_duration.as_secs_f64();
        let g = (1.0 - self.p_bad) * self.good_duration.as_secs_f64();
        if b + g == 0.0 {
            0.0
        } else {
            b / (b + g)
        }
    }

    /// Long-run loss probability of a packet sent at a uniformly random time.
    pub fn mean_loss(&self) -> f64 {
        let s = self.bad_time_share();
        (1.0 - s) * self.loss_good + s * self.loss_bad
    }

    /// The state at `now`, advancing the sojourns up to `now`. Times must not decrease
    /// between calls.
    pub fn state_at(&mut self, now: SimTime) -> ChannelState {
        while now >= self.state_end {
            let (state, d) = if self.state_rng.bernoulli(self.p_bad) {
                (ChannelState::Bad, self.bad_duration)
            } else {
                (ChannelState::Good, self.good_duration)
            };
            self.state = state;
            self.state_end += d;
        }
        self.state
    }

    /// Lost with the loss probability of the state at `now`.
    pub fn drops(&mut self, now: SimTime, _pkt: &Packet) -> bool {
        match self.state_at(now) {
            ChannelState::Good => self.loss_rng.bernoulli(self.loss_good),
            ChannelState::Bad => self.loss_rng.bernoulli(self.loss_bad),
        }
    }
}
