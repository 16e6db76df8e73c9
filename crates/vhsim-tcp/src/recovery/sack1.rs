//! ns-2 `Agent/TCP/Sack1` recovery (tcp-sack1.cc; docs/references.md §1.3).
//!
//! At entry `pipe` = outstanding − dupACKs counted (the threshold, or more after a TCP-DCR
//! delay). Every ACK in recovery takes one from `pipe`, a partial ACK one more (and restarts
//! the timer, backoff 1). While `pipe < ⌊cwnd⌋` the sender retransmits the lowest hole below
//! the highest SACKed segment not yet retransmitted in this episode (any hole, no IsLost
//! rule), else new data within `window_`; each transmission adds one to `pipe`. Recovery ends
//! when `recover` is acknowledged; cwnd stays halved and `recover` is cleared (ns-2 sets
//! `recover_ = 0`). After a wireless loss (a loss classifier's verdict) cwnd was not halved.

use super::RecoveryPolicy;
use crate::config::TcpConfig;
use crate::sender::{AckInfo, SenderCore, Transmit, TxCause};
use vhsim_core::SimTime;

/// Sack1's episode state.
#[derive(Clone, Debug, Default)]
pub struct Sack1 {
    pipe: i64,
}

crate::no_options_part!(Sack1, TcpConfig);

impl RecoveryPolicy for Sack1 {
    fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        // ns-2: pipe = maxseq - highest_ack - numdupacks, i.e. the outstanding segments minus
        // those the counted dupACKs report as having left the network: the threshold, or as
        // many as arrived during TCP-DCR's delay.
        self.pipe = c.flight_size() as i64 - c.dupacks() as i64;
        let w = c.window();
        c.start_fast_retransmit(now, w, congestion);
    }

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        self.pipe -= 1;
        let recover = c.recover().unwrap_or(0);
        if ack.ack >= recover {
            c.exit_recovery(now, ack.ack);
            c.clear_recover();
        } else if ack.ack > c.snd_una() {
            c.advance_una(ack.ack);
            c.scoreboard_mut().apply_sack(ack.sack.iter().copied());
            self.pipe -= 1;
            c.restart_or_stop_timer(now);
            c.rtt_mut().reset_backoff();
        } else if ack.ack == c.snd_una()
            && c.scoreboard_mut().apply_sack(ack.sack.iter().copied())
            && c.dupacks() > 0
        {
            c.count_dupack();
        }
    }

    fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        if self.pipe >= c.cwnd().floor() as i64 {
            return None;
        }
        let cap = c.cap();
        let tx = match c.scoreboard().next_hole() {
            Some(hole) if c.fits(hole, cap) => {
                c.scoreboard_mut().mark_retransmitted(hole);
                Transmit { seq: hole, cause: TxCause::Recovery }
            }
            Some(_) => return None,
            None => c.next_in_window_capped(cap)?,
        };
        self.pipe += 1;
        Some(tx)
    }

    fn reset(&mut self) {
        self.pipe = 0;
    }
}
