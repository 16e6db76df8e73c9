//! Reordering models: applied to packets that crossed a link direction successfully, they may
//! hold a packet back and release it later, after packets that left the link behind it.
//!
//! Random streams: the reordering model of link direction `<name>` draws from
//! `link/<name>/reorder`, so enabling it never changes the error model's or the ARQ's draws
//! (ARCHITECTURE §2.4).

mod swap;

pub use swap::Swap;

use crate::packet::Packet;
use serde::{Deserialize, Serialize};
use vhsim_core::{RngStreams, SimDuration, SimTime};

/// Resolved configuration of a reordering model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReorderConfig {
    /// "Swap with the next packet(s)" (see [`Swap`]).
    Swap {
        /// Probability that an eligible packet is held, in [0, 1].
        q: f64,
        /// How many following packets pass a held one (>= 1; ambiguity A10).
        depth: u32,
        /// Longest wait for the next following packet; `None` = one serialization time of the
        /// held packet.
        hold_timeout: Option<SimDuration>,
    },
}

/// A packet leaving a link direction towards the next node at a given time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Arrival time at the next node.
    pub at: SimTime,
    /// The packet.
    pub packet: Packet,
}

/// What the reordering model did with a packet that crossed the link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reordered {
    /// The packet itself when it is not held; `None` when the model holds it back (it will
    /// come out as a later `released`).
    pub passed: Option<Packet>,
    /// A packet held earlier, released now. When it arrives at the same time as the current
    /// packet, it must be scheduled after it.
    pub released: Option<Delivery>,
    /// The model wants [`Reorder::wake`] to be called at this time (a hold timeout).
    pub wake: Option<SimTime>,
}

/// A running reordering model.
#[derive(Clone, Debug)]
pub enum Reorder {
    /// Swap with the next packet(s).
    Swap(Swap),
}

impl Reorder {
    /// Build the model of link direction `link` with its own stream `link/<link>/reorder`.
    pub fn new(cfg: &ReorderConfig, streams: &RngStreams, link: &str) -> Self {
        let rng = streams.stream(&format!("link/{link}/reorder"));
        match *cfg {
            ReorderConfig::Swap { q, depth, hold_timeout } => {
                Reorder::Swap(Swap::new(q, depth, hold_timeout, rng))
            }
        }
    }

    /// `pkt` finished crossing the link at `now` (serialization `ser`) and would arrive at
    /// `now + delay`.
    #[inline]
    pub fn on_delivered(
        &mut self,
        now: SimTime,
        pkt: Packet,
        delay: SimDuration,
        ser: SimDuration,
    ) -> Reordered {
        match self {
            Reorder::Swap(s) => s.on_delivered(now, pkt, delay, ser),
        }
    }

    /// A wake-up the model asked for is due at `now`: release what timed out.
    #[inline]
    pub fn wake(&mut self, now: SimTime, delay: SimDuration) -> Option<Delivery> {
        match self {
            Reorder::Swap(s) => s.wake(now, delay),
        }
    }
}
