//! DEMO-Vegas's receiver (Ho, Chan & Chen, INFOCOM 2005, as Park et al. 2009 §2.2 describe it;
//! protocol-facts §7.1, A17): the mobile node "handles a change in the care-of-address ... by
//! using a reserved bit in the header of the acknowledgement packet"; "upon the completion of
//! the handoff, the MN resets the reserved bit".
//!
//! - The bit is set from the handover's start (`set_at`: the warning `Imminent`, default, or
//!   the loss of the old link `Down`) until `Completed`; every ACK sent meanwhile carries it.
//! - Setting it sends `notify_acks` ACKs at once (the sender has to hear of it while data may
//!   not be flowing); clearing it sends `notify_acks` ACKs without it (the sender has stopped,
//!   so no data would prompt one). If those are lost the sender's window probes get an ACK
//!   with the current bit.
//!
//! Which event starts "the handoff" is not in the paper: with a break-before-make handover an
//! ACK sent at `Down` is lost with the old link, so `imminent` is the default (the make-before
//! -break overlap of Park et al.'s cells lets the warning's ACK through).

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
        /// The handover warning (`Imminent`).
        "imminent" => Imminent,
        /// The loss of the old link (`Down`).
        "down" => Down,
    }
}

/// Options of the DEMO-Vegas receiver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SigConfig {
    /// When SIG is set (`imminent`, default, or `down`); it is cleared at `Completed`.
    pub set_at: SigStart,
    /// ACKs sent at once when the bit is set and when it is cleared (default 1; >= 1).
    pub notify_acks: u32,
}

impl Default for SigConfig {
    fn default() -> Self {
        SigConfig { set_at: SigStart::Imminent, notify_acks: 1 }
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
    /// Handovers signalled so far (times the bit was set).
    signalled: u64,
}

impl Part for Sig {
    type Config = SigConfig;
    type Settings = SinkConfig;
    fn new(cfg: &SigConfig, _: &SinkConfig) -> Self {
        Sig { cfg: cfg.clone(), set: false, signalled: 0 }
    }
}

impl SinkPolicy for Sig {
    fn on_link_event(&mut self, _: SimTime, ev: &SinkLinkEvent) -> u32 {
        let starts = match ev {
            SinkLinkEvent::Imminent { .. } => self.cfg.set_at == SigStart::Imminent,
            SinkLinkEvent::Down => self.cfg.set_at == SigStart::Down,
            _ => false,
        };
        if starts && !self.set {
            self.set = true;
            self.signalled += 1;
            self.cfg.notify_acks
        } else if *ev == SinkLinkEvent::Completed && self.set {
            self.set = false;
            self.cfg.notify_acks
        } else {
            0
        }
    }

    fn sig(&self) -> bool {
        self.set
    }

    /// `sig_set`: handovers the receiver signalled (times it set the bit).
    fn engagement(&self, out: &mut Engagement) {
        out.insert("sig_set", self.signalled);
    }
}
