//! DEMO-Vegas's receiver (Ho, Chan & Chen, INFOCOM 2005, as Park et al. 2009 §2.2 describe it;
//! docs/references.md §7.1, A17): the mobile node "handles a change in the care-of-address ... by
//! using a reserved bit in the header of the acknowledgement packet"; "upon the completion of
//! the handoff, the MN resets the reserved bit".
//!
//! When the bit is set is `set_at`:
//!
//! - `completed` (default, the original's): at the care-of-address change, when the MN is on
//!   the new link (`Completed`). The handoff is complete once the new address is registered;
//!   the scenarios here bind it at once (`mobile.binding.latency` = 0), so the MN sends
//!   `notify_acks` ACKs with SIG and right after them `notify_acks` without it: the sender
//!   halts, then resumes with its BaseRTT measured anew. It learns of the handoff after the
//!   break, as the original's sender does; what it sent into the break is lost.
//! - `imminent`: at the handover warning (`Imminent`), until `Completed`: the sender stops
//!   before the break (an early warning the original does not have; it favours DEMO-Vegas).
//! - `down`: at the loss of the old link (`Down`), until `Completed`; under break-before-make
//!   the ACKs sent then are lost with the old link, and the sender hears of SIG only if one
//!   gets through.
//!
//! Setting the bit sends `notify_acks` ACKs at once (the sender has to hear of it while data may
//! not be flowing); clearing it sends `notify_acks` ACKs without it (the sender has stopped, so
//! no data would prompt one). If those are lost the sender's window probes get an ACK with the
//! current bit.

use super::{SinkLinkEvent, SinkPolicy};
use crate::config::{ConfigError, SinkConfig};
use crate::part::{Part, PartConfig};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::SimTime;
use vhsim_net::Engagement;

crate::named_enum! {
    /// The link event at which the mobile node starts setting SIG.
    pub enum SigStart {
        /// The care-of-address change, when the handover completes (`Completed`): set and
        /// cleared at once (the original's).
        "completed" => Completed,
        /// The handover warning (`Imminent`), until `Completed`.
        "imminent" => Imminent,
        /// The loss of the old link (`Down`), until `Completed`.
        "down" => Down,
    }
}

/// Options of the DEMO-Vegas receiver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SigConfig {
    /// When SIG is set (`completed`, default; `imminent` or `down`, cleared at `Completed`).
    pub set_at: SigStart,
    /// ACKs sent at once when the bit is set and when it is cleared (default 1; >= 1).
    pub notify_acks: u32,
}

impl Default for SigConfig {
    fn default() -> Self {
        SigConfig { set_at: SigStart::Completed, notify_acks: 1 }
    }
}

impl PartConfig for SigConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if self.notify_acks == 0 {
            return Err(ConfigError::new("notify_acks", "must be at least 1"));
        }
        Ok(())
    }
}

/// The DEMO-Vegas receiver's state.
#[derive(Clone, Debug)]
pub struct Sig {
    cfg: SigConfig,
    set: bool,
    /// `completed`: the bit is to be cleared once the ACKs that set it are made.
    clear_next: bool,
    /// Handovers signalled so far (times the bit was set).
    signalled: u64,
}

impl Part for Sig {
    type Config = SigConfig;
    type Settings = SinkConfig;
    fn new(cfg: &SigConfig, _: &SinkConfig) -> Self {
        Sig { cfg: cfg.clone(), set: false, clear_next: false, signalled: 0 }
    }
}

impl SinkPolicy for Sig {
    fn on_link_event(&mut self, _: SimTime, ev: &SinkLinkEvent) -> u32 {
        let starts = match ev {
            SinkLinkEvent::Imminent { .. } => self.cfg.set_at == SigStart::Imminent,
            SinkLinkEvent::Down => self.cfg.set_at == SigStart::Down,
            SinkLinkEvent::Completed => self.cfg.set_at == SigStart::Completed,
            SinkLinkEvent::Up => false,
        };
        if starts && !self.set {
            self.set = true;
            self.signalled += 1;
            self.clear_next = self.cfg.set_at == SigStart::Completed;
            self.cfg.notify_acks
        } else if *ev == SinkLinkEvent::Completed && self.set {
            self.set = false;
            self.cfg.notify_acks
        } else {
            0
        }
    }

    fn follow_up_acks(&mut self) -> u32 {
        if !std::mem::take(&mut self.clear_next) {
            return 0;
        }
        self.set = false;
        self.cfg.notify_acks
    }

    fn sig(&self) -> bool {
        self.set
    }

    /// `sig_set`: handovers the receiver signalled (times it set the bit).
    fn engagement(&self, out: &mut Engagement) {
        out.insert("sig_set", self.signalled);
    }
}
