//! Freeze-TCP's receiver (Goff, Moronski, Phatak & Gupta, INFOCOM 2000; docs/references.md §6).
//!
//! - At the handover warning (`Imminent`, sent `mobile.warning` before the old link is lost;
//!   the paper prefers about one RTT) the receiver sends a Zero Window Advertisement: an ACK
//!   of the latest in-order data with window 0. Until the new link is up every ACK it sends
//!   advertises 0 (data still in flight is accepted and acknowledged, with window 0).
//! - When the new link is up (`Up`, or `Completed` for a handover that brings no link up) it
//!   sends `tr_acks` copies of the ACK of the last segment received, with the window reopened
//!   ("TR-ACKs", three in the paper).
//!
//! The sender freezes in zero-window persist mode (`sender/persist.rs`). How it reads the
//! TR-ACKs (A6) is its option `tcp.reopening_copies`: by default (`window_update`) the first
//! reopens the window and restores the frozen state, and repeats of it within half its smallest
//! RTT are copies of that window update, not duplicate ACKs (`SenderCore::repeats_reopening`),
//! so they never trigger a fast retransmit or a halving; with `duplicate_acks` they count as
//! duplicate ACKs (and may fast-retransmit a segment lost just before the freeze).

use super::{SinkLinkEvent, SinkPolicy};
use crate::config::{ConfigError, SinkConfig};
use crate::part::{Part, PartConfig};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::SimTime;
use vhsim_net::Engagement;

/// Options of the Freeze-TCP receiver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FreezeConfig {
    /// Copies of the window-reopening ACK sent when the new link is up (default 3, the paper's
    /// TR-ACKs; >= 1).
    pub tr_acks: u32,
}

impl Default for FreezeConfig {
    fn default() -> Self {
        FreezeConfig { tr_acks: 3 }
    }
}

impl PartConfig for FreezeConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if self.tr_acks == 0 {
            return Err(ConfigError::new("tr_acks", "must be at least 1 (the ACK that reopens the window)"));
        }
        Ok(())
    }
}

/// The Freeze-TCP receiver's state.
#[derive(Clone, Debug)]
pub struct Freeze {
    tr_acks: u32,
    frozen: bool,
    /// Zero-window advertisements so far (for tests and traces).
    freezes: u32,
    /// Window-reopening ACKs (TR-ACKs) sent so far.
    tr_acks_sent: u64,
}

impl Part for Freeze {
    type Config = FreezeConfig;
    type Settings = SinkConfig;
    fn new(cfg: &FreezeConfig, _: &SinkConfig) -> Self {
        Freeze { tr_acks: cfg.tr_acks, frozen: false, freezes: 0, tr_acks_sent: 0 }
    }
}

impl Freeze {
    /// Whether the receiver advertises a zero window now.
    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// Zero-window advertisements sent so far.
    pub fn freezes(&self) -> u32 {
        self.freezes
    }
}

impl SinkPolicy for Freeze {
    fn advertised_window(&self, configured: u32) -> u32 {
        if self.frozen {
            0
        } else {
            configured
        }
    }

    fn on_link_event(&mut self, _: SimTime, ev: &SinkLinkEvent) -> u32 {
        match ev {
            SinkLinkEvent::Imminent { .. } if !self.frozen => {
                self.frozen = true;
                self.freezes += 1;
                1 // the ZWA
            }
            SinkLinkEvent::Up | SinkLinkEvent::Completed if self.frozen => {
                self.frozen = false;
                self.tr_acks_sent += u64::from(self.tr_acks);
                self.tr_acks
            }
            _ => 0,
        }
    }

    /// `zwa_sent` (freezes: zero-window advertisements at a warning), `tr_acks_sent` (the
    /// window-reopening copies).
    fn engagement(&self, out: &mut Engagement) {
        out.insert("zwa_sent", u64::from(self.freezes));
        out.insert("tr_acks_sent", self.tr_acks_sent);
    }
}
