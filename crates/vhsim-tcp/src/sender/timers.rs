//! The sender's timers as one table: each kind has at most one deadline, the sender wakes at
//! the earliest ([`Timers::earliest`]), and due timers are served in the order of [`Timer`].

use vhsim_core::SimTime;

/// The timers of a sender, in the order they are served when due at the same time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Timer {
    /// TCP-DCR's delay tau (served first: its fast retransmit restarts the RTO timer,
    /// docs/references.md A5).
    DcrDelay = 0,
    /// The loss detection's own timer: RACK's reordering timer or the tail loss probe's PTO
    /// (RFC 8985 §5.4; served before the RTO, which a probe re-arms, §7.3).
    Loss = 1,
    /// The retransmission timer (RFC 6298).
    Rto = 2,
    /// The persist timer: window probes while the peer advertises a zero window (RFC 9293
    /// §3.8.6.1).
    Persist = 3,
}

impl Timer {
    /// Every timer, in serving order.
    pub const ALL: [Timer; 4] = [Timer::DcrDelay, Timer::Loss, Timer::Rto, Timer::Persist];
}

/// Deadlines by timer; an unarmed timer holds [`NEVER`] (half the size of a table of
/// `Option`s, and every sender carries one: issue #29, memory per flow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timers {
    at: [SimTime; 4],
}

/// The deadline of an unarmed timer: the last representable instant, after any run's end (a
/// deadline computed to it by saturating arithmetic is one that never comes, as before).
const NEVER: SimTime = SimTime::MAX;

impl Default for Timers {
    fn default() -> Self {
        Timers { at: [NEVER; 4] }
    }
}

impl Timers {
    /// The deadline of `t`, if armed.
    #[inline]
    pub fn get(&self, t: Timer) -> Option<SimTime> {
        armed(self.at[t as usize])
    }

    /// Arm `t` for `at` (replacing any earlier deadline).
    pub fn set(&mut self, t: Timer, at: SimTime) {
        self.at[t as usize] = at;
    }

    /// Disarm `t`; returns whether it was armed.
    pub fn clear(&mut self, t: Timer) -> bool {
        std::mem::replace(&mut self.at[t as usize], NEVER) != NEVER
    }

    /// Whether `t` is armed and due at `now`.
    #[inline]
    pub fn due(&self, t: Timer, now: SimTime) -> bool {
        self.get(t).is_some_and(|d| d <= now)
    }

    /// The earliest deadline.
    #[inline]
    pub fn earliest(&self) -> Option<SimTime> {
        self.at.iter().min().copied().and_then(armed)
    }
}

fn armed(at: SimTime) -> Option<SimTime> {
    (at != NEVER).then_some(at)
}
