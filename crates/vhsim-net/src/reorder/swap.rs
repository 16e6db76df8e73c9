//! "Swap with the next packet" reordering, as Lim & Jang model 3G SR-ARQ following TCP-DCR
//! (Lim & Jang §5.1 and Table 1; docs/references.md §12; depth: ambiguity A10 in §15).
//!
//! A packet that crossed the link is held with probability `q` and released right after the
//! `depth` following packets have crossed, so with depth 1, n+1 arrives before n. The
//! following packets are never held themselves (they take no draw). If no following packet
//! crosses within the hold timeout (default: one serialization time of the held packet,
//! measured from the hold and again from each following packet), the held packet is released
//! at the deadline. A following packet whose serialization ends exactly at the deadline still
//! counts (the world schedules the wake-up after packet events of the same time). Packets lost
//! on the link do not count as following packets. A released packet arrives `delay` after its
//! release, and after the packet that released it.
//!
//! Consequence at a TCP receiver without delayed ACKs: a swap of depth d produces exactly d
//! duplicate ACKs, so d = 1 never reaches dupthresh 3 (the A10 caution) and d >= 3 triggers a
//! spurious fast retransmit.

use super::{Delivery, Reordered};
use crate::packet::Packet;
use vhsim_core::{RngStream, SimDuration, SimTime};

/// A packet being held back.
#[derive(Clone, Debug)]
struct Held {
    packet: Packet,
    /// Following packets still to pass.
    left: u32,
    /// Released at this time unless a following packet crosses by then.
    deadline: SimTime,
    /// Timeout restarted after each following packet.
    timeout: SimDuration,
}

/// Swap reordering of depth `depth`.
#[derive(Clone, Debug)]
pub struct Swap {
    q: f64,
    depth: u32,
    hold_timeout: Option<SimDuration>,
    held: Option<Held>,
    rng: RngStream,
}

impl Swap {
    /// Hold with probability `q` until `depth` (>= 1) packets have passed or `hold_timeout`
    /// (`None` = the held packet's serialization time) elapses without one.
    pub fn new(q: f64, depth: u32, hold_timeout: Option<SimDuration>, rng: RngStream) -> Self {
        assert!(depth >= 1, "swap depth must be >= 1");
        Swap { q, depth, hold_timeout, held: None, rng }
    }

    /// See [`super::Reorder::on_delivered`].
    pub fn on_delivered(
        &mut self,
        now: SimTime,
        pkt: Packet,
        delay: SimDuration,
        ser: SimDuration,
    ) -> Reordered {
        // A hold that timed out without the world calling `wake` (only possible when the link
        // is driven without honouring wake-ups): release it first, never in the past.
        let mut released = None;
        if self.held.as_ref().is_some_and(|h| now > h.deadline) {
            let h = self.held.take().expect("checked");
            released = Some(Delivery { at: (h.deadline + delay).max(now), packet: h.packet });
        }
        if let Some(h) = self.held.as_mut() {
            h.left -= 1;
            if h.left == 0 {
                let packet = self.held.take().expect("checked").packet;
                return Reordered {
                    passed: Some(pkt),
                    released: Some(Delivery { at: now + delay, packet }),
                    wake: None,
                };
            }
            h.deadline = now + h.timeout;
            return Reordered { passed: Some(pkt), released: None, wake: Some(h.deadline) };
        }
        if self.rng.bernoulli(self.q) {
            let timeout = self.hold_timeout.unwrap_or(ser);
            let deadline = now + timeout;
            self.held = Some(Held { packet: pkt, left: self.depth, deadline, timeout });
            return Reordered { passed: None, released, wake: Some(deadline) };
        }
        Reordered { passed: Some(pkt), released, wake: None }
    }

    /// Release the held packet if its deadline has come.
    pub fn wake(&mut self, now: SimTime, delay: SimDuration) -> Option<Delivery> {
        if self.held.as_ref()?.deadline > now {
            return None;
        }
        let h = self.held.take()?;
        Some(Delivery { at: now + delay, packet: h.packet })
    }
}
