//! Fast retransmit as soon as the loss detection deems the first unacknowledged segment lost
//! (RFC 5681 §3.2 step 2), if `recover` allows it (RFC 6582 §3.2 step 1, ns-2 `bug_fix_`).

use super::{DupAckAction, DupAckResponse};
use crate::config::TcpConfig;
use crate::sender::SenderCore;
use vhsim_core::{SimDuration, SimTime};

/// The immediate response keeps no state.
#[derive(Clone, Debug, Default)]
pub struct Immediate;

crate::no_options_part!(Immediate, TcpConfig);

impl DupAckResponse for Immediate {
    fn on_dupack(
        &mut self,
        _: &mut SenderCore,
        _: SimTime,
        lost: bool,
        allowed: bool,
        _: SimDuration,
    ) -> DupAckAction {
        if lost && allowed {
            DupAckAction::FastRetransmit
        } else {
            DupAckAction::None
        }
    }

    fn on_new_ack(&mut self, _: &mut SenderCore) -> bool {
        false
    }

    fn cancel(&mut self, _: &mut SenderCore) {}

    fn allowance(&self, _: &SenderCore) -> Option<f64> {
        None
    }
}
