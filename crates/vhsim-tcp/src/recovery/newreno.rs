//! NewReno (RFC 6582; ns-2 `Agent/TCP/Newreno`, docs/references.md §1.4).
//!
//! Recovery lasts until `recover` is acknowledged. Each partial ACK retransmits the next
//! unacknowledged segment and deflates the window by the amount acknowledged minus one
//! (RFC 6582 §3.2 step 3, ns-2 `partial_window_deflation_`). The timer restarts on the first
//! partial ACK only ("Impatient", the ns-2 default) or on every one ("Slow-but-Steady"),
//! RFC 6582 §4 (`timer`).
//!
//! `exit_fast_retrans` is ns-2's `exitFastRetrans_` (tcp-newreno.cc, `NewRenoTcpAgent::recv`;
//! added to ns-2 on 2003-07-28, default true). With `true` (ns-2's default and RFC 6582) the
//! window is inflated by duplicate ACKs only inside fast recovery. With `false` (ns-2's older
//! behaviour, kept by some of its test suites) the window is also inflated when the dupACK
//! threshold is reached but `recover` blocks the fast retransmit (RFC 6582 §3.2 step 1, ns-2
//! `bugFix_`; e.g. the duplicates of go-back-N retransmissions after a timeout): cwnd + 3 at
//! the threshold, one more segment per further duplicate, the inflation removed by the next
//! new ACK. No retransmission and no window cut come with it.

use super::RecoveryPolicy;
use crate::config::TcpConfig;
use crate::part::{Part, PartConfig};
use crate::sender::{AckInfo, SenderCore, Transmit, TxCause};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::SimTime;

crate::named_enum! {
    /// When NewReno restarts the retransmission timer on partial ACKs (RFC 6582 §4 / RFC 3782 §4).
    pub enum NewRenoTimer {
        /// Restart only on the first partial ACK (ns-2 `newreno_changes1_` = 1, the default).
        "impatient" => Impatient,
        /// Restart on every partial ACK.
        "slow_but_steady" => SlowButSteady,
    }
}

/// Options of NewReno.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct NewRenoConfig {
    /// Timer variant: `impatient` (default) or `slow_but_steady`.
    pub timer: NewRenoTimer,
    /// ns-2 `exitFastRetrans_` (default true, ns-2's default): false also inflates the window
    /// on duplicate ACKs at and beyond the threshold when `recover` blocks the fast retransmit.
    pub exit_fast_retrans: bool,
}

impl Default for NewRenoConfig {
    fn default() -> Self {
        NewRenoConfig { timer: NewRenoTimer::default(), exit_fast_retrans: true }
    }
}

impl PartConfig for NewRenoConfig {}

/// NewReno's episode state.
#[derive(Clone, Debug)]
pub struct NewReno {
    timer: NewRenoTimer,
    exit_fast_retrans: bool,
    dupwnd: u32,
    first_partial_seen: bool,
}

impl Part for NewReno {
    type Config = NewRenoConfig;
    type Settings = TcpConfig;
    fn new(cfg: &NewRenoConfig, _: &TcpConfig) -> Self {
        NewReno { timer: cfg.timer, exit_fast_retrans: cfg.exit_fast_retrans, dupwnd: 0, first_partial_seen: false }
    }
}

impl RecoveryPolicy for NewReno {
    fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        let w = c.window();
        c.start_fast_retransmit(now, w, congestion);
        // One segment of inflation per dupACK received: the threshold, or as many as arrived
        // during TCP-DCR's delay.
        self.dupwnd = c.dupacks();
        self.first_partial_seen = false;
    }

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        let recover = c.recover().unwrap_or(0);
        if ack.ack >= recover {
            // Full ACK: deflate to ssthresh (cwnd was set to it at entry) and open as usual.
            self.dupwnd = 0;
            c.exit_recovery(now, ack.ack);
            c.open_cwnd(now);
        } else if ack.ack > c.snd_una() {
            if self.timer == NewRenoTimer::SlowButSteady || !self.first_partial_seen {
                self.first_partial_seen = true;
                c.restart_or_stop_timer(now);
            }
            let deflate = (ack.ack - c.snd_una()) as u32;
            if self.dupwnd > deflate {
                self.dupwnd -= deflate - 1;
            } else {
                let cwnd = (c.cwnd() - (deflate - self.dupwnd) as f64).max(1.0);
                c.set_cwnd(cwnd);
                self.dupwnd = 1; // room for one new segment in response to this ACK
            }
            c.advance_una(ack.ack);
            c.reset_dupacks();
            c.rtt_mut().abandon_if_covered(ack.ack);
            let una = c.snd_una();
            c.queue_retransmission(una, TxCause::Recovery);
        } else if ack.ack == c.snd_una() {
            c.count_dupack();
            self.dupwnd += 1;
        }
    }

    fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        c.next_in_window(self.dupwnd as f64)
    }

    fn reset(&mut self) {
        self.dupwnd = 0;
        self.first_partial_seen = false;
    }

    /// ns-2 with `exitFastRetrans_` false: `dupwnd_ = numdupacks_` at the threshold whether or
    /// not `dupack_action` retransmitted, then `++dupwnd_` per duplicate; so the inflation is
    /// the dupACK count from the threshold on (tcp-newreno.cc `recv`).
    fn blocked_inflation(&self, c: &SenderCore) -> f64 {
        if !self.exit_fast_retrans && c.dupacks() >= c.config().dupack_threshold {
            c.dupacks() as f64
        } else {
            0.0
        }
    }
}
