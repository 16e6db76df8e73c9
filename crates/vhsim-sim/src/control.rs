//! Control of a run from another thread: a stop request and progress counters.
//!
//! The event loop never calls back into its caller. Every [`CHECK_EVERY`] events it publishes
//! the simulated time and the event count, and reads the stop flag; a caller on another
//! thread (the Python front end polls from its main thread, where signal handlers run) reads
//! the counters and sets the flag. Relaxed atomics suffice: the values are advisory, and the
//! thread that joins the run sees the final state through the join.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Events between two looks at the stop flag. At 5-15 M events/s this is well under a
/// millisecond, so a stop takes effect at once; the check itself costs nothing measurable.
pub const CHECK_EVERY: u64 = 1 << 14;

/// Stop flag and progress counters shared between a running world and its caller.
#[derive(Debug, Default)]
pub struct RunControl {
    stop: AtomicBool,
    sim_ns: AtomicU64,
    end_ns: AtomicU64,
    events: AtomicU64,
}

/// A snapshot of a run's progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached (ns).
    pub sim_ns: u64,
    /// Simulated time at which the run ends (ns; 0 before the run starts).
    pub end_ns: u64,
    /// Events processed so far.
    pub events: u64,
}

impl RunControl {
    /// A control with the flag down and the counters at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask the run to stop at its next check (any thread; idempotent).
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was requested.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Publish progress (called by the event loop).
    pub fn publish(&self, sim_ns: u64, end_ns: u64, events: u64) {
        self.sim_ns.store(sim_ns, Ordering::Relaxed);
        self.end_ns.store(end_ns, Ordering::Relaxed);
        self.events.store(events, Ordering::Relaxed);
    }

    /// The latest published progress.
    pub fn progress(&self) -> Progress {
        Progress {
            sim_ns: self.sim_ns.load(Ordering::Relaxed),
            end_ns: self.end_ns.load(Ordering::Relaxed),
            events: self.events.load(Ordering::Relaxed),
        }
    }
}

/// A run that stopped because its [`RunControl`] asked it to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// Simulated time reached when it stopped (ns).
    pub sim_ns: u64,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted at {:.3} s of simulated time", self.sim_ns as f64 / 1e9)
    }
}

impl std::error::Error for Interrupted {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_and_counters_round_trip() {
        let c = RunControl::new();
        assert!(!c.stop_requested());
        c.publish(5, 10, 7);
        assert_eq!(c.progress(), Progress { sim_ns: 5, end_ns: 10, events: 7 });
        c.request_stop();
        c.request_stop();
        assert!(c.stop_requested());
    }
}
