//! Reno fast recovery (RFC 5681 §3.2; ns-2 `Agent/TCP/Reno`): inflate the window by one
//! segment per duplicate ACK, deflate and leave recovery on the first new ACK. A second loss in
//! the same window cannot be fast-retransmitted (its dupACKs do not cover `recover`), so it
//! needs a timeout.

use super::RecoveryPolicy;
use crate::config::TcpConfig;
use crate::sender::{AckInfo, SenderCore, Transmit};
use vhsim_core::SimTime;

/// Reno's episode state: the window inflation.
#[derive(Clone, Debug, Default)]
pub struct Reno {
    dupwnd: u32,
}

crate::no_options_part!(Reno, TcpConfig);

impl RecoveryPolicy for Reno {
    fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        let w = c.window();
        c.start_fast_retransmit(now, w, congestion);
        // One segment of inflation per dupACK received: the threshold, or as many as arrived
        // during TCP-DCR's delay.
        self.dupwnd = c.dupacks();
    }

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        if ack.ack > c.snd_una() {
            self.dupwnd = 0;
            c.exit_recovery(now, ack.ack);
            c.open_cwnd(now);
        } else if ack.ack == c.snd_una() {
            c.count_dupack();
            self.dupwnd += 1;
        }
    }

    fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        c.next_in_window(self.dupwnd as f64)
    }

    fn reset(&mut self) {
        *self = Reno::default();
    }
}
