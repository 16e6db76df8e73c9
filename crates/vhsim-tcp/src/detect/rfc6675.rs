//! RFC 6675 loss detection: duplicate ACKs count only with new SACK information (§2 DupAck),
//! and the first unacknowledged segment is lost at the DupThresh-th of them or, before that,
//! as soon as IsLost(HighACK + 1) holds: DupThresh segments above it are SACKed (§5 step 2;
//! with whole-segment SACKs this is the byte rule of §4).

use crate::config::TcpConfig;
use crate::detect::LossDetection;
use crate::sender::{AckInfo, SenderCore};

/// RFC 6675 detection.
#[derive(Clone, Debug, Default)]
pub struct Rfc6675;

crate::no_options_part!(Rfc6675, TcpConfig);

impl LossDetection for Rfc6675 {
    fn counts(&mut self, c: &mut SenderCore, ack: &AckInfo, _window_changed: bool) -> bool {
        c.scoreboard_mut().apply_sack(ack.sack.iter().copied())
    }

    fn lost(&mut self, c: &SenderCore, _now: vhsim_core::SimTime) -> bool {
        let threshold = c.config().dupack_threshold;
        c.dupacks() == threshold
            || (c.dupacks() < threshold && c.scoreboard().sacked_above(c.snd_una()) >= threshold as usize)
    }
}
