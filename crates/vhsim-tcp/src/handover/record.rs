//! A policy that records every notification with its arrival time and changes nothing (for
//! tests and traces).

use super::{HandoverNotice, HandoverPolicy};
use crate::config::TcpConfig;
use crate::sender::SenderCore;
use vhsim_core::SimTime;

/// The notifications received so far.
#[derive(Clone, Debug, Default)]
pub struct Record {
    log: Vec<(SimTime, HandoverNotice)>,
}

crate::no_options_part!(Record, TcpConfig);

impl Record {
    /// Every notification with its arrival time.
    pub fn notices(&self) -> &[(SimTime, HandoverNotice)] {
        &self.log
    }
}

impl HandoverPolicy for Record {
    fn on_notice(&mut self, _: &mut SenderCore, now: SimTime, notice: &HandoverNotice) {
        self.log.push((now, *notice));
    }
}
