//! RFC 6675 conservative SACK-based loss recovery (docs/references.md §2.3).
//!
//! IsLost(S): at least DupThresh SACKed segments lie above S (with whole-segment SACKs this is
//! the byte rule of §4). SetPipe counts unSACKed outstanding segments not deemed lost, plus
//! one for each at or below HighRxt. NextSeg follows rules (1)-(4) of §4, with one rescue
//! retransmission per episode.

use super::RecoveryPolicy;
use crate::config::TcpConfig;
use crate::optseq::OptSeq;
use crate::sender::{AckInfo, SenderCore, Transmit, TxCause};
use vhsim_core::SimTime;

/// RFC 6675's episode state.
#[derive(Clone, Debug, Default)]
pub struct Rfc6675 {
    /// HighRxt (one word: it keeps the recovery axis's state at two words, issue #29).
    high_rxt: OptSeq,
    rescue_sent: bool,
}

crate::no_options_part!(Rfc6675, TcpConfig);

impl Rfc6675 {
    fn is_lost(c: &SenderCore, seq: u64) -> bool {
        c.scoreboard().sacked_above(seq) >= c.config().dupack_threshold as usize
    }

    /// SetPipe (§4): each unSACKed outstanding segment S counts 1 unless IsLost(S), and 1 more
    /// if S <= HighRxt. The rescue retransmission does not move HighRxt (§4 NextSeg rule 4),
    /// so it is not counted twice. One pass from the top keeps the SACKed count above S.
    fn pipe(&self, c: &SenderCore) -> u64 {
        let threshold = c.config().dupack_threshold as usize;
        let segs: Vec<(u64, bool, bool)> = c.scoreboard().iter().collect();
        let mut sacked_above = 0;
        let mut pipe = 0;
        for &(seq, sacked, _) in segs.iter().rev() {
            if sacked {
                sacked_above += 1;
            } else {
                pipe +=
                    u64::from(sacked_above < threshold) + u64::from(self.high_rxt.get().is_some_and(|h| seq <= h));
            }
        }
        pipe
    }
}

impl RecoveryPolicy for Rfc6675 {
    fn enter(&mut self, c: &mut SenderCore, now: SimTime, congestion: bool) {
        // §5 step (4.2): ssthresh = cwnd = FlightSize / 2 (RFC 5681 eq. (4)), where segments
        // sent by limited transmit are not counted (RFC 6675 §5 (4.2), RFC 5681 §3.2 step 2).
        let flight = c.flight_size().saturating_sub(c.limited_transmit_sent() as u64) as f64;
        c.start_fast_retransmit(now, flight, congestion);
        self.high_rxt = OptSeq::some(c.snd_una());
        self.rescue_sent = false;
    }

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) {
        c.scoreboard_mut().apply_sack(ack.sack.iter().copied());
        let recovery_point = c.recover().unwrap_or(0);
        if ack.ack >= recovery_point {
            c.exit_recovery(now, ack.ack);
        } else if ack.ack > c.snd_una() {
            c.advance_una(ack.ack);
            c.restart_or_stop_timer(now);
        } else if ack.ack == c.snd_una() {
            c.count_dupack();
        }
    }

    fn next_segment(&mut self, c: &mut SenderCore) -> Option<Transmit> {
        if c.cwnd() - (self.pipe(c) as f64) < 1.0 {
            return None;
        }
        let above_rxt = |s: u64| self.high_rxt.get().is_none_or(|h| s > h);
        let hi = c.scoreboard().highest_sacked_end().unwrap_or(c.snd_una());
        let unsacked: Vec<u64> =
            c.scoreboard().iter().filter(|&(s, sacked, _)| !sacked && s < hi).map(|(s, _, _)| s).collect();
        // (1) the first unSACKed segment above HighRxt that IsLost.
        let rule1 = unsacked.iter().copied().find(|&s| above_rxt(s) && Self::is_lost(c, s));
        // (2) new data.
        if rule1.is_none() {
            if let Some(tx) = c.next_in_window_capped(c.cap()) {
                return Some(tx);
            }
        }
        // (3) the first unSACKed segment above HighRxt below the highest SACK.
        let pick = rule1.or_else(|| unsacked.iter().copied().find(|&s| above_rxt(s)));
        if let Some(seq) = pick {
            self.high_rxt = OptSeq::some(seq);
            c.scoreboard_mut().mark_retransmitted(seq);
            return Some(Transmit { seq, cause: TxCause::Recovery });
        }
        // (4) one rescue retransmission of the highest outstanding unSACKed segment.
        if !self.rescue_sent {
            let last = c.scoreboard().iter().filter(|&(_, sacked, _)| !sacked).map(|(s, _, _)| s).last()?;
            self.rescue_sent = true;
            c.scoreboard_mut().mark_retransmitted(last);
            return Some(Transmit { seq: last, cause: TxCause::Recovery });
        }
        None
    }

    fn reset(&mut self) {
        *self = Rfc6675::default();
    }
}
