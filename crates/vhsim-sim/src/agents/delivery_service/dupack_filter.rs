//! The Delivery Service's active mode (Sobral et al. §5.2, Figure 7): after a handover to the
//! faster path, packets sent on it overtake those still on the slower one and the receiver
//! answers with repeated ACKs, which drive the sender into fast recovery although nothing was
//! lost. For `duration` after the handover the mobile node's DS records each flow's last ACK
//! and destroys every ACK that does not advance it, then returns to neutral mode.
//!
//! Transport-neutral: it reads the trace tag's cumulative ACK (`tag.seq` of an `Ack`), never a
//! transport header. The record starts empty at each activation (the paper: "it starts building
//! information about TCP flows"), so each flow's first ACK after the handover passes.

use std::collections::BTreeMap;
use vhsim_core::{SimDuration, SimTime};

/// Repeated-ACK filter with a time window.
#[derive(Clone, Debug)]
pub struct DupAckFilter {
    duration: SimDuration,
    until: Option<SimTime>,
    last: BTreeMap<u32, u64>,
}

impl DupAckFilter {
    /// A filter that stays active `duration` after each activation.
    pub fn new(duration: SimDuration) -> Self {
        DupAckFilter { duration, until: None, last: BTreeMap::new() }
    }

    /// A handover to the guarded interface completed at `now`: active until `now + duration`,
    /// with an empty record.
    pub fn activate(&mut self, now: SimTime) {
        self.until = Some(now + self.duration);
        self.last.clear();
    }

    /// Whether an ACK of `flow` with cumulative point `ack` leaving at `now` passes: always in
    /// neutral mode; in active mode only if it advances the flow's last recorded ACK.
    pub fn passes(&mut self, now: SimTime, flow: u32, ack: u64) -> bool {
        if self.until.is_none_or(|u| now >= u) {
            return true;
        }
        match self.last.get(&flow) {
            Some(&last) if ack <= last => false,
            _ => {
                self.last.insert(flow, ack);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn neutral_before_and_after_active_mode_and_only_advancing_acks_pass_during_it() {
        let mut f = DupAckFilter::new(SimDuration::from_secs(2));
        // Neutral: repeated ACKs pass.
        assert!(f.passes(t(10), 0, 5));
        assert!(f.passes(t(11), 0, 5));
        f.activate(t(100));
        // Active: the first ACK of a flow passes and is recorded; repeats are destroyed; an
        // advancing ACK passes; flows are independent.
        assert!(f.passes(t(100), 0, 7));
        assert!(!f.passes(t(101), 0, 7));
        assert!(!f.passes(t(102), 0, 6));
        assert!(f.passes(t(103), 1, 7));
        assert!(f.passes(t(104), 0, 8));
        assert!(!f.passes(t(2099), 0, 8));
        // Neutral again at activation + duration.
        assert!(f.passes(t(2100), 0, 8));
        assert!(f.passes(t(2101), 0, 8));
        // A new activation starts an empty record.
        f.activate(t(3000));
        assert!(f.passes(t(3000), 0, 3));
        assert!(!f.passes(t(3001), 0, 3));
    }
}
