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

/// Deadlines by timer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timers {
    at: [Option<SimTime>; 4],
}

impl Timers {
    /// The deadline of `t`, if armed.
    #[inline]
    pub fn get(&self, t: Timer) -> Option<SimTime> {
        self.at[t as usize]
    }

    /// Arm `t` for `at` (replacing any earlier deadline).
    pub fn set(&mut self, t: Timer, at: SimTime) {
        self.at[t as usize] = Some(at);
    }

    /// Disarm `t`; returns whether it was armed.
    pub fn clear(&mut self, t: Timer) -> bool {
        self.at[t as usize].take().is_some()
    }

    /// Whether `t` is armed and due at `now`.
    #[inline]
    pub fn due(&self, t: Timer, now: SimTime) -> bool {
        self.get(t).is_some_and(|d| d <= now)
    }

    /// The earliest deadline.
    #[inline]
    pub fn earliest(&self) -> Option<SimTime> {
        self.at.iter().flatten().min().copied()
    }
}
