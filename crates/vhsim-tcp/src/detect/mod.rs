//! Loss detection (the `LossDetection` axis, ARCHITECTURE.md §3): which duplicate ACKs count,
//! and when the first unacknowledged segment is deemed lost. What the sender then does -- a
//! fast retransmit at once, or TCP-DCR's delay -- is the dupACK response's choice
//! ([`crate::response`]).
//!
//! The sender asks [`LossDetection::counts`] for each ACK that repeats the cumulative ACK point
//! while data is outstanding (and not right after a timeout, ns-2 Sack1 `timeout_`), counts it
//! if so, then asks [`LossDetection::lost`].
//!
//! A detection that decides by time (RACK-TLP, RFC 8985) also hears of every ACK after the
//! sender processed it ([`LossDetection::on_ack`]), of its own timer ([`crate::sender::Timer::Loss`]:
//! reordering timer or loss probe), of timeouts and of every segment sent; it marks the
//! segments it deems lost on the scoreboard and asks for recovery by returning true.

use crate::config::TcpConfig;
use crate::sender::{AckInfo, SenderCore, Transmit};
use vhsim_core::SimTime;
use vhsim_net::Engagement;

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
    /// After every ACK was processed (in recovery or not): whether segments are now deemed
    /// lost and fast recovery should start (the sender starts it only outside fast and RTO
    /// recovery).
    fn on_ack(&mut self, _c: &mut SenderCore, _now: SimTime, _ack: &AckInfo) -> bool {
        false
    }
    /// Its timer ([`crate::sender::Timer::Loss`]) fired: whether fast recovery should start.
    fn on_timer(&mut self, _c: &mut SenderCore, _now: SimTime) -> bool {
        false
    }
    /// The retransmission timer expired (after the timeout response ran).
    fn on_rto(&mut self, _c: &mut SenderCore, _now: SimTime) {}
    /// A segment was just sent.
    fn on_sent(&mut self, _c: &mut SenderCore, _now: SimTime, _tx: Transmit) {}
    /// How often the detection's mechanisms acted (docs/schemes.md "Engagement counters").
    fn engagement(&self, _out: &mut Engagement) {}
}

pub mod tlp;

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
    "vegas" => Vegas(vegas::VegasDetect) boxed,
    /// RACK-TLP (RFC 8985): a segment is lost when one sent after it was delivered at least
    /// RACK.rtt + reo_wnd ago (reordering window min_RTT/4, grown on DSACKs); a tail loss probe
    /// after 2 SRTT without ACKs.
    "rack" => Rack(rack::Rack) boxed,
}

impl LossDetectionConfig {
    /// Whether the sender's scoreboard keeps SACK information across new cumulative ACKs
    /// (RACK reads the scoreboard between ACKs, RFC 8985 §4 and RFC 6675 §3); ns-2's schemes
    /// clear it (`ClearScoreBoard`).
    pub fn keeps_sack_information(&self) -> bool {
        matches!(self, LossDetectionConfig::Rack(_))
    }
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
    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime, ack: &AckInfo) -> bool {
        dispatch!(self, p => p.on_ack(c, now, ack))
    }
    fn on_timer(&mut self, c: &mut SenderCore, now: SimTime) -> bool {
        dispatch!(self, p => p.on_timer(c, now))
    }
    fn on_rto(&mut self, c: &mut SenderCore, now: SimTime) {
        dispatch!(self, p => p.on_rto(c, now))
    }
    fn on_sent(&mut self, c: &mut SenderCore, now: SimTime, tx: Transmit) {
        dispatch!(self, p => p.on_sent(c, now, tx))
    }
    fn engagement(&self, out: &mut Engagement) {
        dispatch!(self, p => p.engagement(out))
    }
}

impl AnyLossDetection {
    /// RACK-TLP's state, if this is RACK-TLP.
    pub fn rack(&self) -> Option<&rack::Rack> {
        match self {
            AnyLossDetection::Rack(r) => Some(r),
            _ => None,
        }
    }
}
