//! Duplicate-ACK loss detection (RFC 5681 §3.2): the first unacknowledged segment is deemed
//! lost at the `dupack_threshold`-th counted duplicate ACK (exactly that one: later dupACKs do
//! not signal a new loss).
//!
//! Which ACKs count (`sack`):
//! - off, RFC 5681 §2: an ACK that changes the advertised window is not a duplicate (a pure
//!   window update);
//! - on, ns-2 Sack1 `CheckUpdate` and RFC 6675 §2's DupAck: only an ACK carrying SACK
//!   information new to the scoreboard counts.

use crate::config::TcpConfig;
use crate::detect::LossDetection;
use crate::part::{Part, PartConfig};
use crate::sender::{AckInfo, SenderCore};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Options of duplicate-ACK detection.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DupAckConfig {
    /// Count a duplicate ACK only if it carries new SACK information (default false: RFC 5681
    /// §2 counting; the SACK presets set true).
    pub sack: bool,
}

impl PartConfig for DupAckConfig {}

/// Duplicate-ACK detection.
#[derive(Clone, Debug)]
pub struct DupAck {
    sack: bool,
}

impl Part for DupAck {
    type Config = DupAckConfig;
    type Settings = TcpConfig;
    fn new(cfg: &DupAckConfig, _: &TcpConfig) -> Self {
        DupAck { sack: cfg.sack }
    }
}

impl LossDetection for DupAck {
    fn counts(&mut self, c: &mut SenderCore, ack: &AckInfo, window_changed: bool) -> bool {
        if self.sack {
            c.scoreboard_mut().apply_sack(ack.sack.iter().copied())
        } else {
            !window_changed
        }
    }

    fn lost(&mut self, c: &SenderCore, _now: vhsim_core::SimTime) -> bool {
        c.dupacks() == c.config().dupack_threshold
    }
}
