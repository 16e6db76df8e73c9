//! Integer simulation time and link rates.
//!
//! All per-packet arithmetic is integer: time is a count of nanoseconds, a rate is a count of
//! bits per second, and the serialization time of `S` bytes at rate `R` is `ceil(8·S·1e9 / R)` ns.
//! Floats appear only at the Python boundary and in statistics.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// Nanoseconds in one second.
pub const NANOS_PER_SEC: u64 = 1_000_000_000;

/// A point in simulated time, in nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimTime(pub u64);

/// A length of simulated time, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimDuration(pub u64);

impl SimTime {
    /// Time zero: the start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// The latest representable time ("never").
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// Nanoseconds since the start of the run.
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    /// Seconds since the start, as a float (for output only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }
    /// Time elapsed since `earlier` (zero if `earlier` is later).
    pub fn saturating_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    /// Zero length.
    pub const ZERO: SimDuration = SimDuration(0);
    /// The longest representable duration.
    pub const MAX: SimDuration = SimDuration(u64::MAX);

    /// From whole nanoseconds.
    pub const fn from_nanos(ns: u64) -> Self {
        SimDuration(ns)
    }
    /// From whole microseconds.
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us * 1_000)
    }
    /// From whole milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000_000)
    }
    /// From whole seconds.
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * NANOS_PER_SEC)
    }
    /// Nanoseconds.
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    /// Seconds as a float (for output only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }
    /// `self * k`, saturating at [`SimDuration::MAX`].
    pub fn saturating_mul(self, k: u64) -> Self {
        SimDuration(self.0.saturating_mul(k))
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub<SimDuration> for SimTime {
    type Output = SimTime;
    /// `d` before `self`, or time 0 if that is earlier.
    fn sub(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_sub(d.0))
    }
}

impl Sub<SimTime> for SimTime {
    type Output = SimDuration;
    fn sub(self, rhs: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(rhs.0))
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}
impl Sub for SimDuration {
    type Output = SimDuration;
    fn sub(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(d.0))
    }
}
impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}
impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

/// A link rate in bits per second (never zero once validated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rate(pub u64);

impl Rate {
    /// From bits per second.
    pub const fn bps(b: u64) -> Self {
        Rate(b)
    }
    /// From kilobits per second (1 kbps = 1000 b/s, as ns-2 and the papers use).
    pub const fn kbps(k: u64) -> Self {
        Rate(k * 1_000)
    }
    /// From megabits per second.
    pub const fn mbps(m: u64) -> Self {
        Rate(m * 1_000_000)
    }
    /// Bits per second.
    pub fn bits_per_sec(self) -> u64 {
        self.0
    }
    /// Time to serialize `bytes` at this rate: `ceil(8·bytes·1e9 / rate)` nanoseconds.
    pub fn serialization(self, bytes: u64) -> SimDuration {
        let num = bytes as u128 * 8 * NANOS_PER_SEC as u128;
        let r = self.0.max(1) as u128;
        SimDuration(num.div_ceil(r) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization_is_eight_s_over_r() {
        // 1500 B at 6400 kbps = 12000 b / 6.4e6 b/s = 1.875 ms exactly.
        assert_eq!(Rate::kbps(6400).serialization(1500), SimDuration(1_875_000));
        // 1040 B at 1 Mbps = 8.32 ms.
        assert_eq!(Rate::mbps(1).serialization(1040), SimDuration::from_micros(8320));
        // 40 B at 100 Mbps = 3.2 us.
        assert_eq!(Rate::mbps(100).serialization(40), SimDuration(3_200));
        // Non-integer results round up to the next nanosecond.
        assert_eq!(Rate::bps(3).serialization(1), SimDuration(2_666_666_667));
    }

    #[test]
    fn time_arithmetic_saturates() {
        assert_eq!(SimTime::MAX + SimDuration(5), SimTime::MAX);
        assert_eq!(SimTime(3) - SimTime(5), SimDuration::ZERO);
    }
}
