//! F-RTO, forward RTO recovery (RFC 5682; Sarolahti, Kojo & Raatikainen, CCR 33(2) 2003;
//! docs/references.md §3), basic (§2) and SACK-enhanced (§3), with ns-2's responses to a spurious
//! timeout (`spurious_response_`, docs/references.md §3.3).
//!
//! Step 1 (timeout): the common timeout steps (ssthresh halved, cwnd = 1, backoff) and the
//! retransmission of the first unacknowledged segment, but no go-back-N. The window at the
//! timeout and ssthresh are kept as `pipe_prev` = max(window, ssthresh) (RFC 4015 §3.2; ns-2
//! `pipe_prev_`), taken at the first timeout of the episode.
//! - Never during fast recovery (RFC 5682 §2.1 step 1 note; ns-2 Sack1 `no_frto`): conventional.
//! - A timeout while conventional RTO recovery is under way (or in step 3) with
//!   `recover` >= SND.UNA uses conventional recovery (RFC 5682 §2.1 step 1). A timeout that
//!   recurs in step 2, before any ACK, restarts F-RTO at step 1 (RFC 5682 §3 step 2: "if the
//!   RTO expires again, go to step 1"; ns-2 sets `frto_` on every expiry).
//!
//! Step 2 (first ACK after the timeout; `recover` = highest segment sent):
//! - Basic: a duplicate ACK -> conventional recovery (§2.1 step 2a). SACK: duplicate ACKs only
//!   update the scoreboard (§3 step 2).
//! - A new ACK covering `recover` -> conventional (§2.1 step 2a); the SACK variant caps cwnd at 2
//!   (§3 step 2a).
//! - A new ACK below `recover`: send up to two never-sent segments and go to step 3 (§2.1 step
//!   2b; ns-2 forces exactly two); if none can go (application- or window-limited),
//!   conventional recovery.
//!
//! Step 3 (second ACK):
//! - Basic: a duplicate ACK -> genuine: cwnd = 2 (ns-2 `recv_frto_helper` sets cwnd = 2; RFC
//!   5682 §2.1 step 3a allows up to 3) and go-back-N; a new ACK -> spurious (§2.1 step 3b).
//! - SACK: if the ACK acknowledges (cumulatively or by SACK) a segment at or above `recover`, or
//!   acknowledges nothing new below it -> genuine as above (§3 step 3a); else spurious (§3b).
//!
//! Spurious response (ns-2 `spurious_timeout`): cwnd = FlightSize before the detecting ACK
//! (full revert), the halved ssthresh, or 1 (slow start without retransmissions); in all three
//! ssthresh = `pipe_prev` and `recover` is cleared so later fast retransmits are not blocked
//! (ns-2 `recover_ = highest_ack_ - 1`).

use super::{AckOutcome, RtoResponse};
use crate::config::TcpConfig;
use crate::part::{Part, PartConfig};
use crate::sender::{AckInfo, SenderCore, TxCause};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::SimTime;
use vhsim_net::Engagement;

crate::named_enum! {
    /// Which F-RTO detection algorithm runs (RFC 5682 §2 or §3).
    pub enum FrtoVariant {
        /// Basic F-RTO (RFC 5682 §2; ns-2 `frto_enabled_`): decided by cumulative ACKs only.
        "basic" => Basic,
        /// SACK-enhanced F-RTO (RFC 5682 §3; ns-2 `sfrto_enabled_`): SACK blocks count too.
        "sack" => Sack,
    }
}

crate::named_enum! {
    /// What the sender does after F-RTO declares a timeout spurious (ns-2 `spurious_response_`,
    /// docs/references.md §3.3). In all three, ssthresh returns to max(window, ssthresh) at the
    /// timeout (RFC 4015 §3.2 `pipe_prev`, ns-2 `spurious_timeout`).
    pub enum SpuriousResponse {
        /// `spurious_response_` = 1 (ns-2 default): cwnd = the FlightSize before the detecting ACK.
        "full_revert" => FullRevert,
        /// `spurious_response_` = 2: cwnd = the ssthresh the timeout halved.
        "ssthresh" => Ssthresh,
        /// `spurious_response_` = 3: cwnd = 1, slow start with new data (no retransmissions).
        "slow_start" => SlowStart,
    }
}

/// Options of F-RTO (defaults: ns-2's, basic F-RTO with full revert).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FrtoConfig {
    /// Detection algorithm: `basic` (RFC 5682 §2) or `sack` (§3).
    pub variant: FrtoVariant,
    /// Response to a detected spurious timeout: `full_revert`, `ssthresh` or `slow_start`
    /// (ns-2 spurious_response_ 1, 2, 3).
    pub response: SpuriousResponse,
}

impl PartConfig for FrtoConfig {}

/// Where F-RTO is in its algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrtoStep {
    /// Not running (no timeout, or the episode was decided).
    Idle,
    /// Step 2: waiting for the first ACK after the timeout retransmission.
    FirstAck,
    /// Step 3: two new segments were sent; waiting for the next ACK.
    SecondAck,
}

/// F-RTO's state.
#[derive(Clone, Debug)]
pub struct Frto {
    cfg: FrtoConfig,
    step: FrtoStep,
    /// max(window, ssthresh) at the first timeout of the episode.
    pipe_prev: f64,
    /// `recover` / RecoveryPoint as set in step 2: one past the highest segment sent then.
    recovery_point: u64,
    /// Engagement counters: timeouts that started F-RTO at step 1 (a restart in step 2 is the
    /// same episode), and the episodes it found spurious.
    episodes: u64,
    spurious: u64,
}

impl Part for Frto {
    type Config = FrtoConfig;
    type Settings = TcpConfig;
    fn new(cfg: &FrtoConfig, _: &TcpConfig) -> Self {
        Frto { cfg: *cfg, step: FrtoStep::Idle, pipe_prev: 0.0, recovery_point: 0, episodes: 0, spurious: 0 }
    }
}

impl Frto {
    /// The current step.
    pub fn step(&self) -> FrtoStep {
        self.step
    }

    /// Settings.
    pub fn config(&self) -> &FrtoConfig {
        &self.cfg
    }

    fn first_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> AckOutcome {
        if ack.ack <= c.snd_una() {
            match self.cfg.variant {
                // §2.1 step 2a: a duplicate ACK means the timeout was genuine.
                FrtoVariant::Basic => self.conventional(c, true),
                // §3 step 2: wait for the new ACK, keeping the SACK information.
                FrtoVariant::Sack => {
                    c.scoreboard_mut().apply_sack(ack.sack.iter().copied());
                }
            }
            return AckOutcome::Consumed;
        }
        c.open_new_ack(now, ack.ack);
        let rp = c.snd_max();
        self.recovery_point = rp;
        c.set_recover(rp);
        if ack.ack >= rp {
            // Step 2a: the retransmission repaired everything; nothing to probe with.
            if self.cfg.variant == FrtoVariant::Sack && c.cwnd() > 2.0 {
                c.set_cwnd(2.0);
            }
            self.step = FrtoStep::Idle;
            return AckOutcome::Consumed;
        }
        // Step 2b: up to two previously unsent segments, within the window cap and the data
        // the application has.
        let cap = c.cap();
        let mut queued = 0;
        for seq in rp..rp + 2 {
            if seq < c.app_limit() && c.fits(seq, cap) {
                c.queue_new(seq);
                queued += 1;
            }
        }
        if queued == 0 {
            self.conventional(c, false);
            return AckOutcome::Consumed;
        }
        if self.cfg.variant == FrtoVariant::Sack {
            c.scoreboard_mut().apply_sack(ack.sack.iter().copied());
        }
        self.step = FrtoStep::SecondAck;
        AckOutcome::Consumed
    }

    fn second_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> AckOutcome {
        let rp = self.recovery_point;
        let prev_una = c.snd_una();
        let advances = ack.ack > prev_una;
        let spurious = match self.cfg.variant {
            // §2.1 step 3: a new ACK acknowledges never-retransmitted data.
            FrtoVariant::Basic => advances,
            FrtoVariant::Sack => {
                let above = ack.ack > rp || ack.sack.iter().any(|&(_, end)| end > rp);
                let sb = c.scoreboard();
                let new_below = advances
                    || ack.sack.iter().any(|&(start, end)| {
                        (start.max(prev_una)..end.min(rp)).any(|seq| !sb.is_sacked(seq))
                    });
                !above && new_below
            }
        };
        if advances {
            c.open_new_ack(now, ack.ack);
        }
        if self.cfg.variant == FrtoVariant::Sack {
            c.scoreboard_mut().apply_sack(ack.sack.iter().copied());
        }
        if !spurious {
            // Step 3a: genuine. ns-2 sets cwnd = 2, then slow-start retransmissions.
            c.set_cwnd(2.0);
            self.conventional(c, false);
            return AckOutcome::Consumed;
        }
        // Step 3b: spurious.
        let cwnd = match self.cfg.response {
            SpuriousResponse::FullRevert => (c.snd_max() - prev_una) as f64,
            SpuriousResponse::Ssthresh => c.ssthresh(),
            SpuriousResponse::SlowStart => 1.0,
        };
        c.set_window(cwnd.max(1.0), self.pipe_prev);
        c.end_rto_recovery();
        c.stats_mut().spurious_rto_detected += 1;
        self.spurious += 1;
        self.step = FrtoStep::Idle;
        AckOutcome::Spurious
    }

    /// Fall back to the conventional RTO recovery: go-back-N (slow-start retransmissions) from
    /// the first unacknowledged segment. Before any new ACK that segment is the one the timeout
    /// retransmitted, so go-back-N continues after it (ns-2 would send it once more).
    fn conventional(&mut self, c: &mut SenderCore, una_was_retransmitted: bool) {
        self.step = FrtoStep::Idle;
        let una = c.snd_una();
        let rto_copy_sent = una_was_retransmitted && !c.is_queued(una);
        c.rewind_to(if rto_copy_sent { (una + 1).min(c.snd_max()) } else { una });
    }
}

impl RtoResponse for Frto {
    fn on_timeout(&mut self, c: &mut SenderCore, now: SimTime, in_fast_recovery: bool) {
        let restart = self.step == FrtoStep::FirstAck;
        let repeated = c.in_rto_recovery() && c.recover().is_some_and(|r| r >= c.snd_una());
        let outstanding = c.snd_max() > c.snd_una();
        if !restart {
            self.pipe_prev = c.window().max(c.ssthresh());
        }
        c.start_rto(now);
        if in_fast_recovery || (repeated && !restart) || !outstanding {
            self.step = FrtoStep::Idle;
            c.go_back_n();
        } else {
            // Step 1: retransmit the first unacknowledged segment only.
            self.episodes += u64::from(!restart);
            self.step = FrtoStep::FirstAck;
            let una = c.snd_una();
            c.queue_retransmission(una, TxCause::Rto);
        }
    }

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> AckOutcome {
        match self.step {
            FrtoStep::Idle => AckOutcome::Pass,
            FrtoStep::FirstAck => self.first_ack(c, now, ack),
            FrtoStep::SecondAck => self.second_ack(c, now, ack),
        }
    }

    /// `frto_episodes`, `frto_spurious_detected`.
    fn engagement(&self, out: &mut Engagement) {
        out.insert("frto_episodes", self.episodes);
        out.insert("frto_spurious_detected", self.spurious);
    }
}
