//! TCP Vegas's fine-grained retransmission check (Brakmo & Peterson 1995 §3.1; ns-2
//! `tcp-vegas.cc` `vegas_expire`; docs/references.md §7.2).
//!
//! Vegas keeps its own retransmission timeout from every valid per-ACK sample, unquantized:
//! with ns-2's scaled averages sa (8·rtt) and sd, timeout = (sa/4 + sd)/2 · 17/16 (about srtt +
//! 2·mdev); the first sample sets sa = 8·rtt, sd = rtt. The first unacknowledged segment is
//! deemed lost
//!
//! - at the `dupack_threshold`-th duplicate ACK, as Reno (counting by RFC 5681 §2), or
//! - at *any* duplicate ACK if it was last sent at least one fine-grained timeout ago.
//!
//! Each such decision backs the timeout off (×2 if the segment had been retransmitted, else
//! ×9/8, until the next sample) and makes the sender "worried" for the next min(2,
//! outstanding) new ACKs: on each, if the new first unacknowledged segment has also been
//! outstanding for a timeout it is retransmitted at once, without another window cut; the
//! first ACK that finds nothing expired ends the worry.

use crate::config::TcpConfig;
use crate::detect::LossDetection;
use crate::sender::{AckInfo, SenderCore};
use vhsim_core::SimTime;

/// The fine-grained timer's state.
#[derive(Clone, Debug)]
pub struct VegasDetect {
    /// 8 × smoothed RTT (s), ns-2 `v_sa_`.
    sa: f64,
    /// Scaled mean deviation (s), ns-2 `v_sd_`.
    sd: f64,
    /// The fine-grained timeout (s); +inf before the first sample.
    timeout: f64,
    /// New ACKs still to check after a retransmission (ns-2 `v_worried_`).
    worried: u64,
}

impl Default for VegasDetect {
    fn default() -> Self {
        VegasDetect { sa: 0.0, sd: 0.0, timeout: f64::INFINITY, worried: 0 }
    }
}

crate::no_options_part!(VegasDetect, TcpConfig);

impl VegasDetect {
    /// The fine-grained timeout in seconds (+inf before the first sample).
    pub fn timeout(&self) -> f64 {
        self.timeout
    }

    fn on_sample(&mut self, rtt: f64) {
        if self.timeout.is_infinite() && self.sa == 0.0 {
            self.sa = 8.0 * rtt;
            self.sd = rtt;
            self.timeout = (self.sa / 4.0 + self.sd) / 2.0;
            return;
        }
        let mut n = rtt - self.sa / 8.0;
        self.sa += n;
        n = n.abs() - self.sd / 4.0;
        self.sd += n;
        self.timeout = (self.sa / 4.0 + self.sd) / 2.0;
        self.timeout += self.timeout / 16.0;
    }

    /// Whether `seq` is outstanding and was last sent at least one fine-grained timeout ago.
    fn expired(&self, c: &SenderCore, seq: u64, now: SimTime) -> bool {
        c.scoreboard()
            .sent_info(seq)
            .is_some_and(|(sent, _)| now.saturating_since(sent).as_secs_f64() >= self.timeout)
    }
}

impl LossDetection for VegasDetect {
    fn counts(&mut self, _: &mut SenderCore, _: &AckInfo, window_changed: bool) -> bool {
        !window_changed
    }

    fn lost(&mut self, c: &SenderCore, now: SimTime) -> bool {
        let una = c.snd_una();
        let lost = c.dupacks() == c.config().dupack_threshold || self.expired(c, una, now);
        if lost {
            let transmissions = c.scoreboard().sent_info(una).map_or(1, |(_, n)| n);
            self.timeout *= if transmissions > 1 { 2.0 } else { 9.0 / 8.0 };
            self.worried = 2.min(c.snd_nxt().saturating_sub(una));
        }
        lost
    }

    fn on_new_ack(&mut self, c: &SenderCore, now: SimTime) -> Option<u64> {
        if let Some((_, rtt)) = c.ack_sample() {
            self.on_sample(rtt.as_secs_f64());
        }
        if self.worried == 0 {
            return None;
        }
        self.worried -= 1;
        let una = c.snd_una();
        if una < c.snd_max() && self.expired(c, una, now) && !c.is_queued(una) {
            Some(una)
        } else {
            self.worried = 0;
            None
        }
    }
}
