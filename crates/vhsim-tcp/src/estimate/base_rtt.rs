//! The base RTT: the smallest RTT sample since the last path change (Vegas's BaseRTT; reset on
//! a handover as DEMO-Vegas re-measures it, docs/references.md §7.1).

use vhsim_core::SimDuration;

/// Minimum RTT. No sample is `SimDuration::MAX` long (a run ends long before), so that value
/// stands for none: one word instead of an `Option`'s two, and every sender keeps two of these
/// (issue #29, memory per flow); a sample then needs no test of whether one came before.
#[derive(Clone, Debug)]
pub struct BaseRtt {
    min: SimDuration,
}

impl Default for BaseRtt {
    fn default() -> Self {
        BaseRtt { min: SimDuration::MAX }
    }
}

impl BaseRtt {
    /// A valid RTT sample.
    #[inline]
    pub fn on_sample(&mut self, rtt: SimDuration) {
        debug_assert!(rtt < SimDuration::MAX, "an RTT sample shorter than any run");
        self.min = self.min.min(rtt);
    }

    /// Forget the minimum (a new path).
    pub fn reset(&mut self) {
        self.min = SimDuration::MAX;
    }

    /// The minimum since the last reset, if any sample came.
    #[inline]
    pub fn get(&self) -> Option<SimDuration> {
        (self.min != SimDuration::MAX).then_some(self.min)
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
