//! Lim & Jang's loss differentiation (LD; IET Communications 2(2) 2008, summarised in Lim &
//! Jang, EURASIP JWCN 2009 §4.1; docs/references.md §5), with the paper's handover modification
//! (§4.1.2, §4.2; docs/references.md §3.4 and A3, A4, A7).
//!
//! State, in seconds: Tcur (the latest RTT sample), Tavg (initially 0), Tdev (initially 0.5 s)
//! and Tmin (initially +inf).
//!
//! Per sample R (Lim & Jang §4.1.1; the paper updates "on receipt of an acknowledgement
//! packet", so every new cumulative ACK gives one, timing its last segment from its first send,
//! unquantized; except an ACK that fills a hole, see [`crate::sender::SenderCore::take_new_ack`]):
//! - Tcur = R;
//! - Tdev = 3/4·Tdev + 1/4·|Tavg − R|, with the Tavg before this sample (as RFC 6298 §2.3
//!   orders SRTT and RTTVAR; docs/references.md §5);
//! - Tavg = 7/8·Tavg + 1/8·R;
//! - Tmin = min(Tmin, R).
//!
//! Tmin returns to +inf on every retransmission-timer expiry (§4.1.1: "reset by the expiration
//! of the retransmission timer").
//!
//! Decision (inequality (1)/(2), §4.1.1-4.1.2): the loss is **congestion** if
//! (Tcur − Tavg)/Tdev > 2·(Tmin/Tcur)^k − 1, evaluated as Tcur > Tavg + Tdev·(2·(Tmin/Tcur)^k − 1)
//! (the right-hand side is the threshold of (2)); otherwise **wireless**. Equality is
//! wireless, as (1) is strict. Without any sample yet the loss counts as congestion (the
//! standard response). k is configurable (default 2, docs/references.md A7).
//!
//! Handover modification, when F-RTO declares a timeout spurious (§4.2, Fig. 4; A3): Tmin =
//! +inf; the first sample of a segment sent at or after that timeout sets Tavg = R,
//! Tdev = R/2, Tmin = R (samples of older segments measure the old path plus the outage and
//! are ignored until then); and LD is not invoked for n rounds, a round ending when the first
//! segment sent after its start is acknowledged (n = 1 in the paper). A loss decided while LD
//! is suspended, or before the first new sample, is wireless (docs/references.md A4).

use super::{LossClass, LossClassification, LossClassifier};
use crate::config::{ConfigError, TcpConfig};
use crate::part::{Part, PartConfig};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::units::{as_duration, Duration};
use vhsim_core::{SimDuration, SimTime, TracedVar};
use vhsim_net::Engagement;

/// Options of LD (defaults: Lim & Jang's original LD, scheme I).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct LdConfig {
    /// Exponent k of inequality (1) (docs/references.md A7: not stated by the paper; default 2; a
    /// finite number > 0).
    pub k: f64,
    /// Rounds after a detected spurious timeout during which LD is not invoked (Lim & Jang
    /// §4.2: n = 1, the default); a loss in them is treated as wireless (docs/references.md A4).
    pub suspend_rounds: u32,
    /// Lim & Jang's handover modification (§4.1.2, §4.2): on F-RTO's spurious detection,
    /// Tmin = +inf, Tavg = the first new sample, Tdev = half of it, and the suspension. Off
    /// (the default) = the original LD (scheme I).
    pub handover_reset: bool,
    /// Initial Tdev (Lim & Jang §4.1.1: "500ms"); Tavg starts at 0.
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub initial_tdev: SimDuration,
}

impl Default for LdConfig {
    fn default() -> Self {
        LdConfig {
            k: 2.0,
            suspend_rounds: 1,
            handover_reset: false,
            initial_tdev: SimDuration::from_millis(500),
        }
    }
}

impl PartConfig for LdConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if !(self.k.is_finite() && self.k > 0.0) {
            return Err(ConfigError::new("k", format!("{} is not a finite number greater than 0", self.k)));
        }
        Ok(())
    }
}

/// LD's estimator and suspension state.
#[derive(Clone, Debug)]
pub struct Ld {
    cfg: LdConfig,
    tcur: Option<f64>,
    tavg: f64,
    tdev: f64,
    tmin: f64,
    last_rto: Option<SimTime>,
    /// After a spurious timeout: the first sample of a segment sent at or after this time
    /// re-initialises the estimator.
    awaiting_since: Option<SimTime>,
    /// Rounds of suspension left, and the segment whose acknowledgment ends the current one.
    suspend_left: u32,
    round_end: u64,
    /// Verdicts given at fast retransmits, by class (`LossClass` order), and how many of the
    /// wireless ones only because LD was suspended (engagement counters).
    verdicts: [u64; 2],
    suspended_verdicts: u64,
}

impl Part for Ld {
    type Config = LdConfig;
    type Settings = TcpConfig;
    fn new(cfg: &LdConfig, _: &TcpConfig) -> Self {
        Ld::with(*cfg)
    }
}

impl Ld {
    /// Tavg = 0, Tdev = `cfg.initial_tdev`, Tmin = +inf, no sample.
    pub fn with(cfg: LdConfig) -> Self {
        Ld {
            tcur: None,
            tavg: 0.0,
            tdev: secs(cfg.initial_tdev),
            tmin: f64::INFINITY,
            last_rto: None,
            awaiting_since: None,
            suspend_left: 0,
            round_end: 0,
            verdicts: [0; 2],
            suspended_verdicts: 0,
            cfg,
        }
    }

    /// Settings.
    pub fn config(&self) -> &LdConfig {
        &self.cfg
    }

    /// Latest sample (s).
    pub fn tcur(&self) -> Option<f64> {
        self.tcur
    }

    /// Moving average of the samples (s).
    pub fn tavg(&self) -> f64 {
        self.tavg
    }

    /// Moving deviation (s).
    pub fn tdev(&self) -> f64 {
        self.tdev
    }

    /// Smallest sample since the last timeout (s; +inf if none).
    pub fn tmin(&self) -> f64 {
        self.tmin
    }

    /// Tavg as a duration (TCP-DCR's tau in Lim & Jang's schemes).
    pub fn tavg_duration(&self) -> SimDuration {
        if self.tavg.is_finite() && self.tavg > 0.0 {
            SimDuration((self.tavg * 1e9).round() as u64)
        } else {
            SimDuration::ZERO
        }
    }

    /// Whether a loss now would not be classified by inequality (1).
    pub fn suspended(&self) -> bool {
        self.suspend_left > 0 || self.awaiting_since.is_some()
    }

    /// The right-hand side of inequality (2), Tavg + Tdev·(2·(Tmin/Tcur)^k − 1), in seconds
    /// (+inf while Tmin is); `None` before the first sample.
    pub fn threshold(&self) -> Option<f64> {
        let tcur = self.tcur?;
        if !self.tmin.is_finite() {
            return Some(f64::INFINITY);
        }
        Some(self.tavg + self.tdev * (2.0 * pow(self.tmin / tcur, self.cfg.k) - 1.0))
    }

    /// A Karn-valid RTT sample `rtt` of a segment first sent at `sent_at`.
    pub fn on_sample(&mut self, sent_at: SimTime, rtt: SimDuration) {
        let r = secs(rtt);
        if let Some(since) = self.awaiting_since {
            if sent_at < since {
                return;
            }
            // §4.2: "Tavg is set to a new measured RTT. Tdev is set to a half of [it]."
            self.awaiting_since = None;
            self.tcur = Some(r);
            self.tavg = r;
            self.tdev = r / 2.0;
            self.tmin = self.tmin.min(r);
            return;
        }
        self.tcur = Some(r);
        self.tdev = 0.75 * self.tdev + 0.25 * (self.tavg - r).abs();
        self.tavg = 0.875 * self.tavg + 0.125 * r;
        self.tmin = self.tmin.min(r);
    }

    /// After each ACK: a round of suspension ends when its first segment is acknowledged.
    pub fn on_ack(&mut self, snd_una: u64, snd_max: u64) {
        if self.suspend_left > 0 && snd_una > self.round_end {
            self.suspend_left -= 1;
            self.round_end = snd_max;
        }
    }

    /// The retransmission timer expired at `now`: Tmin = +inf.
    pub fn on_rto(&mut self, now: SimTime) {
        self.tmin = f64::INFINITY;
        self.last_rto = Some(now);
    }

    /// F-RTO found the last timeout spurious ("handover"); `snd_max` = the next segment to be
    /// sent, whose acknowledgment ends the first round of suspension. Nothing happens unless
    /// `handover_reset` is on (scheme II).
    pub fn on_spurious_rto(&mut self, snd_max: u64) {
        if !self.cfg.handover_reset {
            return;
        }
        self.tmin = f64::INFINITY;
        self.awaiting_since = Some(self.last_rto.unwrap_or(SimTime::ZERO));
        self.suspend_left = self.cfg.suspend_rounds;
        self.round_end = snd_max;
    }

    /// Classify the loss of `seq` at `now`.
    pub fn classify(&self, now: SimTime, seq: u64) -> LossClassification {
        let suspended = self.suspended();
        let threshold = self.threshold();
        let class = match (suspended, self.tcur, threshold) {
            (true, _, _) => LossClass::Wireless,
            (false, Some(tcur), Some(th)) if tcur <= th => LossClass::Wireless,
            _ => LossClass::Congestion,
        };
        LossClassification { at: now, seq, class, suspended, tcur: self.tcur, threshold }
    }
}

fn secs(d: SimDuration) -> f64 {
    d.0 as f64 / 1e9
}

/// x^k, by repeated multiplication for small whole k (bit-identical everywhere), else `powf`.
fn pow(x: f64, k: f64) -> f64 {
    if k.fract() == 0.0 && (0.0..=64.0).contains(&k) {
        (0..k as u32).fold(1.0, |acc, _| acc * x)
    } else {
        x.powf(k)
    }
}

impl LossClassifier for Ld {
    fn on_sample(&mut self, sent_at: SimTime, rtt: SimDuration) {
        Ld::on_sample(self, sent_at, rtt);
    }
    fn on_ack(&mut self, snd_una: u64, snd_max: u64) {
        Ld::on_ack(self, snd_una, snd_max);
    }
    fn on_rto(&mut self, now: SimTime) {
        Ld::on_rto(self, now);
    }
    fn on_spurious_rto(&mut self, snd_max: u64) {
        Ld::on_spurious_rto(self, snd_max);
    }
    fn classify(&mut self, now: SimTime, seq: u64) -> Option<LossClassification> {
        let verdict = Ld::classify(self, now, seq);
        self.verdicts[verdict.class as usize] += 1;
        self.suspended_verdicts += u64::from(verdict.suspended);
        Some(verdict)
    }
    fn tavg(&self) -> Option<SimDuration> {
        Some(self.tavg_duration())
    }
    /// `ld_tcur` and `ld_threshold` (s; NaN before the first sample), Lim & Jang Figs. 2-3.
    fn traced_vars(&self, out: &mut Vec<TracedVar>) {
        out.push(TracedVar::new("ld_tcur", "s", self.tcur.unwrap_or(f64::NAN)));
        out.push(TracedVar::new("ld_threshold", "s", self.threshold().unwrap_or(f64::NAN)));
    }
    /// `ld_verdicts`, `ld_congestion`, `ld_wireless` (`ld_wireless_suspended` of them while
    /// suspended, the A4 default rather than inequality (1)).
    fn engagement(&self, out: &mut Engagement) {
        let [congestion, wireless] = self.verdicts;
        out.insert("ld_verdicts", congestion + wireless);
        out.insert("ld_congestion", congestion);
        out.insert("ld_wireless", wireless);
        out.insert("ld_wireless_suspended", self.suspended_verdicts);
    }
}
