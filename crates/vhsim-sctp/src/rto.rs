//! Retransmission timeout of one destination (RFC 4960 §6.3.1).
//!
//! C1: RTO = RTO.Initial until the first measurement. C2: the first measurement R sets
//! SRTT = R, RTTVAR = R/2. C3: later ones set RTTVAR = (1 - β)·RTTVAR + β·|SRTT - R| (with the
//! old SRTT), then SRTT = (1 - α)·SRTT + α·R. After each: RTO = SRTT + 4·RTTVAR, clamped to
//! [RTO.Min, RTO.Max] (C6, C7). Times are whole nanoseconds; the two gains are applied in
//! floating point and rounded to the nearest nanosecond (IEEE arithmetic, deterministic).
//! There is no clock-granularity term: simulated clocks are exact (C5's G = 0).
//!
//! Backoff (§6.3.3 E2, §8.3) doubles the RTO itself, capped at RTO.Max; the next measurement
//! recomputes it (as ns-2's `dRto *= 2`).

use vhsim_core::SimDuration;

/// SRTT, RTTVAR and RTO of one destination.
#[derive(Clone, Debug, PartialEq)]
pub struct RtoEstimator {
    srtt: Option<u64>,
    rttvar: u64,
    rto: u64,
    min: u64,
    max: u64,
    alpha: f64,
    beta: f64,
}

impl RtoEstimator {
    /// No measurement yet: RTO = `initial`.
    pub fn new(initial: SimDuration, min: SimDuration, max: SimDuration, alpha: f64, beta: f64) -> Self {
        RtoEstimator { srtt: None, rttvar: 0, rto: initial.0, min: min.0, max: max.0, alpha, beta }
    }

    /// Smoothed RTT, once measured.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt.map(SimDuration)
    }

    /// RTT variation.
    pub fn rttvar(&self) -> SimDuration {
        SimDuration(self.rttvar)
    }

    /// Current RTO (after any backoff).
    pub fn rto(&self) -> SimDuration {
        SimDuration(self.rto)
    }

    /// A round-trip measurement `r` (C2/C3, then C6/C7).
    pub fn measure(&mut self, r: SimDuration) {
        let r = r.0;
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(srtt) => {
                let err = srtt.abs_diff(r) as f64;
                self.rttvar = ((1.0 - self.beta) * self.rttvar as f64 + self.beta * err).round() as u64;
                self.srtt = Some(((1.0 - self.alpha) * srtt as f64 + self.alpha * r as f64).round() as u64);
            }
        }
        let raw = self.srtt.unwrap_or(r).saturating_add(4 * self.rttvar);
        self.rto = raw.clamp(self.min, self.max);
    }

    /// Double the RTO, capped at RTO.Max (§6.3.3 E2).
    pub fn back_off(&mut self) {
        self.rto = self.rto.saturating_mul(2).min(self.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est() -> RtoEstimator {
        RtoEstimator::new(
            SimDuration::from_secs(3),
            SimDuration::from_secs(1),
            SimDuration::from_secs(60),
            0.125,
            0.25,
        )
    }

    #[test]
    fn first_measurement_then_smoothing() {
        let mut e = est();
        assert_eq!(e.rto(), SimDuration::from_secs(3));
        e.measure(SimDuration::from_millis(400));
        // SRTT 400, RTTVAR 200: 400 + 800 = 1.2 s.
        assert_eq!(e.rto(), SimDuration::from_millis(1200));
        e.measure(SimDuration::from_millis(800));
        // RTTVAR = 3/4·200 + 1/4·400 = 250; SRTT = 7/8·400 + 1/8·800 = 450; RTO = 1450 ms.
        assert_eq!(e.rttvar(), SimDuration::from_millis(250));
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(450)));
        assert_eq!(e.rto(), SimDuration::from_millis(1450));
    }

    #[test]
    fn clamped_to_min_and_backoff_capped_at_max() {
        let mut e = est();
        e.measure(SimDuration::from_millis(50));
        assert_eq!(e.rto(), SimDuration::from_secs(1), "RTO.Min");
        for _ in 0..10 {
            e.back_off();
        }
        assert_eq!(e.rto(), SimDuration::from_secs(60), "RTO.Max");
        e.measure(SimDuration::from_millis(50));
        assert_eq!(e.rto(), SimDuration::from_secs(1), "a measurement ends the backoff");
    }
}
