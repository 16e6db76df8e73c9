//! Reno fast recovery (RFC 5681 §3.2; ns-2 `Agent/TCP/Reno`): inflate the window by one
//! segment per duplicate ACK, deflate and leave recovery on the first new ACK. A second loss in
//! the same window cannot be fast-retransmitted (its dupACKs do not cover `recover`), so it
//! needs a timeout.

use super::{exit_recovery, start_fast_retransmit};
use crate::sender::{AckInfo, SenderCore, Transmit};
use vhsim_core::SimTime;

/// Reno's episode state: the window inflation.
#[derive(Clone, Debug, Default)]
pub struct Reno {
    dupwnd: u32,
}

impl Reno {
    pub(super) fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        let w = c.window();
        start_fast_retransmit(c, now, w, congestion);
        // One segment of inflation per dupACK received: the threshold, or as many as arrived
        // during TCP-DCR's delay.
        self.dupwnd = c.dupacks;
    }

    pub(super) fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        if ack.ack > c.snd_una {
            self.dupwnd = 0;
            exit_recovery(c, now, ack.ack);
            c.cc.on_ack();
        } else if ack.ack == c.snd_una {
            c.dupacks += 1;
            self.dupwnd += 1;
        }
    }

    pub(super) fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        c.next_in_window(self.dupwnd as f64)
    }
}
