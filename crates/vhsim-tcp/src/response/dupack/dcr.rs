//! TCP-DCR, delayed congestion response (Bhandarkar, Sadry, Reddy & Vaidya, IEEE TMC 4(5), 2005;
//! docs/references.md §4).
//!
//! - **Trigger**: the `trigger`-th counted duplicate ACK arms a delay tau (TCP-DCR: the first
//!   dupACK and one RTT; Lim & Jang §4.2-4.3: the third dupACK and tau = Tavg; docs/references.md
//!   A5). It is armed only if `recover` allows a new fast retransmit (RFC 6582 §3.2 step 1).
//! - **During the delay**: no retransmission and no cwnd change; each duplicate ACK lets one
//!   more new segment out (limited transmit, RFC 3042, extended over the whole delay).
//! - **A new cumulative ACK before tau** (it covers the hole): the delay is cancelled and cwnd
//!   is left alone; the sender counts a reordering (Lim & Jang Fig. 5).
//! - **tau expires**: fast retransmit and the base recovery (Lim & Jang Figs. 6-7: after the
//!   loss classifier).
//! - **RTO timer**: kept from expiring before tau (docs/references.md A5): arming moves an earlier
//!   deadline to tau's, and at equal times the delay is handled first, so the fast retransmit
//!   restarts the timer. A timeout that does run cancels the delay.
//! - **tau** (`tau`): one RTT (`srtt`: [`crate::rtt::RttEstimator::round_trip`], never the
//!   backed-off RTO) or LD's Tavg (`tavg`, Lim & Jang §4.2). The delay's deadline is the
//!   [`Timer::DcrDelay`] entry of the sender's timer table.

use super::{DupAckAction, DupAckResponse};
use crate::config::{ConfigError, TcpConfig};
use crate::part::{Part, PartConfig};
use crate::sender::{SenderCore, Timer};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::Engagement;

crate::named_enum! {
    /// Where TCP-DCR's delay tau comes from.
    pub enum DcrTau {
        /// One RTT (TCP-DCR): the smoothed RTT, or the latest valid sample once SRTT was
        /// cleared, or the RTO without backoff before any sample
        /// ([`crate::rtt::RttEstimator::round_trip`]).
        "srtt" => Srtt,
        /// LD's Tavg (Lim & Jang §4.2: "The DCR uses only Tavg"); needs `loss_classifier = "ld"`.
        "tavg" => Tavg,
    }
}

/// Options of TCP-DCR (defaults: TCP-DCR as published, 1st dupACK and one RTT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DcrConfig {
    /// The counted duplicate ACK that arms the delay: an integer >= 1 or `first`, `second`,
    /// `third` (TCP-DCR: 1; Lim & Jang's schemes: 3; docs/references.md A5).
    pub trigger: DupAckCount,
    /// The delay: `srtt` (one RTT) or `tavg` (LD's Tavg).
    pub tau: DcrTau,
}

impl Default for DcrConfig {
    fn default() -> Self {
        DcrConfig { trigger: DupAckCount(1), tau: DcrTau::Srtt }
    }
}

impl PartConfig for DcrConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if self.trigger.0 == 0 {
            return Err(ConfigError::new("trigger", "must be at least 1"));
        }
        Ok(())
    }
}

/// A count of duplicate ACKs, written as an integer (`3`) or a name (`"third"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct DupAckCount(pub u32);

/// Names accepted for [`DupAckCount`], meaning 1, 2, 3.
pub const DUPACK_COUNT_NAMES: [&str; 3] = ["first", "second", "third"];

impl<'de> Deserialize<'de> for DupAckCount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = DupAckCount;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a dupACK count: an integer >= 1 or one of `first`, `second`, `third`")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DupAckCount, E> {
                match u32::try_from(v) {
                    Ok(n) if n >= 1 => Ok(DupAckCount(n)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self)),
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DupAckCount, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DupAckCount, E> {
                match DUPACK_COUNT_NAMES.iter().position(|n| *n == v) {
                    Some(i) => Ok(DupAckCount(i as u32 + 1)),
                    None => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for DupAckCount {
    fn schema_name() -> Cow<'static, str> {
        "DupAckCount".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A count of duplicate ACKs: an integer >= 1 or a name.",
            "anyOf": [
                { "type": "integer", "minimum": 1 },
                { "type": "string", "enum": DUPACK_COUNT_NAMES }
            ]
        })
    }
}

/// TCP-DCR: its settings (the pending delay is the sender's [`Timer::DcrDelay`]).
#[derive(Clone, Debug)]
pub struct Dcr {
    cfg: DcrConfig,
    limited_transmit: bool,
    /// Engagement counters: delays armed, fast retransmits they led to (at tau, or at once
    /// when tau is 0), and delays a new cumulative ACK cancelled (reorderings).
    delays: u64,
    delayed_fast_retransmits: u64,
    reorderings: u64,
}

impl Part for Dcr {
    type Config = DcrConfig;
    type Settings = TcpConfig;
    fn new(cfg: &DcrConfig, tcp: &TcpConfig) -> Self {
        Dcr { cfg: *cfg, limited_transmit: tcp.limited_transmit, delays: 0, delayed_fast_retransmits: 0, reorderings: 0 }
    }
}

impl Dcr {
    /// Settings.
    pub fn config(&self) -> &DcrConfig {
        &self.cfg
    }
}

impl DupAckResponse for Dcr {
    fn on_dupack(
        &mut self,
        c: &mut SenderCore,
        now: SimTime,
        _lost: bool,
        allowed: bool,
        tau: SimDuration,
    ) -> DupAckAction {
        if c.timer(Timer::DcrDelay).is_some() || c.dupacks() != self.cfg.trigger.0 || !allowed {
            return DupAckAction::None;
        }
        c.stats_mut().dcr_delays += 1;
        self.delays += 1;
        if tau == SimDuration::ZERO {
            self.delayed_fast_retransmits += 1;
            return DupAckAction::FastRetransmit; // nothing to wait for (e.g. Tavg still 0)
        }
        let deadline = now + tau;
        c.set_timer(Timer::DcrDelay, deadline);
        // Protocol-facts A5: the RTO must not expire before tau.
        c.defer_rto_to(deadline);
        DupAckAction::None
    }

    fn on_new_ack(&mut self, c: &mut SenderCore) -> bool {
        let cancelled = c.clear_timer(Timer::DcrDelay);
        self.reorderings += u64::from(cancelled);
        cancelled
    }

    fn cancel(&mut self, c: &mut SenderCore) {
        c.clear_timer(Timer::DcrDelay);
    }

    /// While the delay is pending: one segment beyond cwnd per duplicate ACK. With limited
    /// transmit on, the dupACKs before the trigger already had their allowance (RFC 3042), so
    /// all count; with it off, counting starts at the trigger.
    fn allowance(&self, c: &SenderCore) -> Option<f64> {
        c.timer(Timer::DcrDelay)?;
        let uncounted = if self.limited_transmit { 0 } else { self.cfg.trigger.0 - 1 };
        Some(c.dupacks().saturating_sub(uncounted) as f64)
    }

    fn on_delayed_retransmit(&mut self) {
        self.delayed_fast_retransmits += 1;
    }

    /// `dcr_delays`, `dcr_delayed_fast_retransmits`, `dcr_reorderings`.
    fn engagement(&self, out: &mut Engagement) {
        out.insert("dcr_delays", self.delays);
        out.insert("dcr_delayed_fast_retransmits", self.delayed_fast_retransmits);
        out.insert("dcr_reorderings", self.reorderings);
    }
}
