//! The base RTT: the smallest RTT sample since the last path change (Vegas's BaseRTT; reset on
//! a handover as DEMO-Vegas re-measures it, docs/references.md §7.1).

use vhsim_core::SimDuration;

/// Minimum RTT.
#[derive(Clone, Debug, Default)]
pub struct BaseRtt {
    min: Option<SimDuration>,
}

impl BaseRtt {
    /// A valid RTT sample.
    #[inline]
    pub fn on_sample(&mut self, rtt: SimDuration) {
        self.min = Some(self.min.map_or(rtt, |m| m.min(rtt)));
    }

    /// Forget the minimum (a new path).
    pub fn reset(&mut self) {
        self.min = None;
    }

    /// The minimum since the last reset, if any sample came.
    pub fn get(&self) -> Option<SimDuration> {
        self.min
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_minimum_until_reset() {
        let mut b = BaseRtt::default();
        assert_eq!(b.get(), None);
        for ms in [50, 40, 70] {
            b.on_sample(SimDuration::from_millis(ms));
        }
        assert_eq!(b.get(), Some(SimDuration::from_millis(40)));
        b.reset();
        b.on_sample(SimDuration::from_millis(300));
        assert_eq!(b.get(), Some(SimDuration::from_millis(300)));
    }
}
