//! The conventional timeout response (RFC 6298 §5.4-5.6, RFC 5681 §3.1; ns-2 `timeout`): the
//! common timeout steps ([`SenderCore::start_rto`]), then go-back-N from the first
//! unacknowledged segment.

use super::{AckOutcome, RtoResponse};
use crate::config::TcpConfig;
use crate::sender::{AckInfo, SenderCore};
use vhsim_core::SimTime;

/// The conventional response keeps no state.
#[derive(Clone, Debug, Default)]
pub struct Conventional;

crate::no_options_part!(Conventional, TcpConfig);

impl RtoResponse for Conventional {
    fn on_timeout(&mut self, c: &mut SenderCore, now: SimTime, _in_fast_recovery: bool) {
        c.start_rto(now);
        c.go_back_n();
    }

    fn on_ack(&mut self, _: &mut SenderCore, _: SimTime, _: &AckInfo) -> AckOutcome {
        AckOutcome::Pass
    }
}
