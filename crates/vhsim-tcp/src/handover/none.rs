//! The policy that ignores handover notifications.

use super::{HandoverNotice, HandoverPolicy};
use crate::config::TcpConfig;
use crate::sender::SenderCore;
use vhsim_core::SimTime;

/// Ignores notifications.
#[derive(Clone, Debug, Default)]
pub struct Ignore;

crate::no_options_part!(Ignore, TcpConfig);

impl HandoverPolicy for Ignore {
    fn on_notice(&mut self, _: &mut SenderCore, _: SimTime, _: &HandoverNotice) {}
}
