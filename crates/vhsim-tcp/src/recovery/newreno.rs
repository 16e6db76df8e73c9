//! NewReno (RFC 6582; ns-2 `Agent/TCP/Newreno`, protocol-facts §1.4).
//!
//! Recovery lasts until `recover` is acknowledged. Each partial ACK retransmits the next
//! unacknowledged segment and deflates the window by the amount acknowledged minus one
//! (RFC 6582 §3.2 step 3, ns-2 `partial_window_deflation_`). The timer restarts on the first
//! partial ACK only ("Impatient", the ns-2 default) or on every one ("Slow-but-Steady"),
//! RFC 6582 §4.

use super::{exit_recovery, start_fast_retransmit};
use crate::config::NewRenoTimer;
use crate::sender::{AckInfo, SenderCore, Transmit, TxCause};
use vhsim_core::SimTime;

/// NewReno's episode state.
#[derive(Clone, Debug, Default)]
pub struct NewReno {
    dupwnd: u32,
    first_partial_seen: bool,
}

impl NewReno {
    pub(super) fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        let w = c.window();
        start_fast_retransmit(c, now, w, congestion);
        // One segment of inflation per dupACK received: the threshold, or as many as arrived
        // during TCP-DCR's delay.
        self.dupwnd = c.dupacks;
        self.first_partial_seen = false;
    }

    pub(super) fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        let recover = c.recover.unwrap_or(0);
        if ack.ack >= recover {
            // Full ACK: deflate to ssthresh (cwnd was set to it at entry) and open as usual.
            self.dupwnd = 0;
            exit_recovery(c, now, ack.ack);
            c.cc.on_ack();
        } else if ack.ack > c.snd_una {
            if c.cfg.newreno_timer == NewRenoTimer::SlowButSteady || !self.first_partial_seen {
                self.first_partial_seen = true;
                c.restart_or_stop_timer(now);
            }
            let deflate = (ack.ack - c.snd_una) as u32;
            if self.dupwnd > deflate {
                self.dupwnd -= deflate - 1;
            } else {
                let cwnd = (c.cc.cwnd() - (deflate - self.dupwnd) as f64).max(1.0);
                c.cc.set_cwnd(cwnd);
                self.dupwnd = 1; // room for one new segment in response to this ACK
            }
            c.advance_una(ack.ack);
            c.dupacks = 0;
            c.rtt.abandon_if_covered(ack.ack);
            c.queue_retransmission(c.snd_una, TxCause::Recovery);
        } else if ack.ack == c.snd_una {
            c.dupacks += 1;
            self.dupwnd += 1;
        }
    }

    pub(super) fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        c.next_in_window(self.dupwnd as f64)
    }
}
