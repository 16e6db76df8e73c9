//! Loss detection (the `LossDetection` axis, ARCHITECTURE.md §3): which duplicate ACKs count,
//! and when the first unacknowledged segment is deemed lost. What the sender then does -- a
//! fast retransmit at once, or TCP-DCR's delay -- is the dupACK response's choice
//! ([`crate::response`]).
//!
//! The sender asks [`LossDetection::counts`] for each ACK that repeats the cumulative ACK point
//! while data is outstanding (and not right after a timeout, ns-2 Sack1 `timeout_`), counts it
//! if so, then asks [`LossDetection::lost`].

use crate::config::TcpConfig;
use crate::sender::{AckInfo, SenderCore};
use vhsim_core::SimTime;

/// A loss-detection algorithm.
pub trait LossDetection {
    /// An ACK repeats the cumulative ACK point; `window_changed` = it advertises a different
    /// window. Whether it counts as a duplicate ACK (it may update the scoreboard).
    fn counts(&mut self, c: &mut SenderCore, ack: &AckInfo, window_changed: bool) -> bool;
    /// After a counted duplicate ACK (`c.dupacks()` includes it): whether the first
    /// unacknowledged segment is now deemed lost.
    fn lost(&mut self, c: &SenderCore, now: SimTime) -> bool;
    /// After a new cumulative ACK outside recovery was taken: a segment to retransmit at once
    /// (Vegas's fine-grained check after a retransmission), if any.
    fn on_new_ack(&mut self, _c: &SenderCore, _now: SimTime) -> Option<u64> {
        None
    }
}

crate::axis! {
    /// How losses are detected (`loss_detection`).
    config LossDetectionConfig;
    /// The loss detection of one sender.
    state AnyLossDetection;
    dispatch dispatch;
    settings TcpConfig;
    /// Duplicate-ACK counting: lost at the `dupack_threshold`-th (RFC 5681 §3.2), counting by
    /// RFC 5681 §2 or by new SACK information (`sack`).
    "dupack" => DupAck(dupack::DupAck),
    /// RFC 6675: SACK counting, and lost also when `dupack_threshold` segments above it are
    /// SACKed (IsLost, §5 step 2).
    "rfc6675" => Rfc6675(rfc6675::Rfc6675),
    /// TCP Vegas: `dupack` counting by RFC 5681 §2, plus the fine-grained timeout checked on
    /// every duplicate ACK and on the first two new ACKs after a retransmission.
    "vegas" => Vegas(vegas::VegasDetect),
}

impl LossDetection for AnyLossDetection {
    fn counts(&mut self, c: &mut SenderCore, ack: &AckInfo, window_changed: bool) -> bool {
        dispatch!(self, p => p.counts(c, ack, window_changed))
    }
    fn lost(&mut self, c: &SenderCore, now: SimTime) -> bool {
        dispatch!(self, p => p.lost(c, now))
    }
    fn on_new_ack(&mut self, c: &SenderCore, now: SimTime) -> Option<u64> {
        dispatch!(self, p => p.on_new_ack(c, now))
    }
}
