//! One simplex link direction: drop-tail queue -> serialization at `rate` -> error model
//! (per attempt, with optional link-layer ARQ) -> optional reordering -> propagation `delay` ->
//! the next node (ARCHITECTURE §4; the models are in [`crate::error`], [`crate::arq`] and
//! [`crate::reorder`]). A recorded trace ([`crate::trace_link`]) may take the rate's role: it
//! then says when each transmission (and ARQ attempt) ends.
//!
//! The link is passive and is the single place that decides a packet's fate and timing: the
//! world calls [`Link::offer`] when a packet arrives at the link, [`Link::finish_transmission`]
//! when the serialization it was told about ends, and [`Link::wake`] at a wake-up time the link
//! asked for; the link answers with what happened, and the world schedules the events
//! (`TxDone` at `next_done`, one `Arrive` per [`Finished::arrivals`] in that order, a
//! wake-up at `wake` in the timer class, i.e. after packet events of the same time). The link
//! never sees the event queue.

use crate::arq::{Arq, ArqConfig, AttemptResult};
use crate::error::{ErrorModel, ErrorModelConfig};
use crate::packet::{DropCause, Packet, TraceTag};
use crate::queue::{DropTailQueue, QueueLimit};
use crate::reorder::{Delivery, Reorder, ReorderConfig};
use crate::trace_link::TracePacer;
use vhsim_core::{Rate, RngStreams, SimDuration, SimTime};

/// Rate and delay of a link direction (may change during a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkParams {
    /// Transmission rate.
    pub rate: Rate,
    /// One-way propagation delay.
    pub delay: SimDuration,
}

/// What happened to a packet offered to the link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The link was idle: serialization starts now and ends at the given time.
    Transmitting(SimTime),
    /// The packet waits in the queue.
    Queued,
    /// The packet was dropped (and is handed back, for the record).
    Dropped(Packet, DropCause),
}

/// Fate of the packet whose serialization (or ARQ attempt) just ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It arrives at the next node.
    Arrives(Delivery),
    /// It is lost.
    Dropped(Packet, DropCause),
    /// The reordering model holds it; it comes out later as a `released` delivery of
    /// [`Finished`] or of [`Link::wake`].
    Held,
    /// ARQ: this attempt failed and the frame is sent again; it stays on the link until
    /// `next_done`.
    Retrying,
}

/// Outcome of a finished serialization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Uid of the packet that finished.
    pub uid: u64,
    /// Its trace tag (the packet itself is in `outcome` when it leaves the link now).
    pub tag: TraceTag,
    /// What happened to the packet that finished.
    pub outcome: Outcome,
    /// Attempts this frame has used so far (1 without ARQ).
    pub attempts: u32,
    /// A packet held by the reordering model, released now; it arrives after the packet that
    /// finished if both arrive at the same time.
    pub released: Option<Delivery>,
    /// When the serialization now in progress (the next packet, or the same frame again after
    /// a failed ARQ attempt) ends, if any.
    pub next_done: Option<SimTime>,
    /// The link wants [`Link::wake`] to be called at this time.
    pub wake: Option<SimTime>,
}

impl Finished {
    /// The packets that leave the link now towards the next node, in the order in which their
    /// `Arrive` events must be scheduled, and the dropped packet with its cause, if any.
    pub fn into_parts(self) -> (impl Iterator<Item = Delivery>, Option<(Packet, DropCause)>) {
        let (own, dropped) = match self.outcome {
            Outcome::Arrives(d) => (Some(d), None),
            Outcome::Dropped(p, c) => (None, Some((p, c))),
            Outcome::Held | Outcome::Retrying => (None, None),
        };
        (own.into_iter().chain(self.released), dropped)
    }

    /// The drop cause, if the packet was lost.
    pub fn dropped(&self) -> Option<DropCause> {
        match self.outcome {
            Outcome::Dropped(_, c) => Some(c),
            _ => None,
        }
    }
}

/// Where [`Link::finish_into`] hands the packets that leave the link: the world puts them
/// straight into its in-flight store, so a packet is moved once, not through a returned
/// [`Finished`] (the engine's largest copy before; docs/performance.md).
pub trait Departures {
    /// A packet leaves towards the next node (the finished one first, then a released one).
    fn arrive(&mut self, d: Delivery);
    /// The finished packet is lost.
    fn dropped(&mut self, packet: Packet, cause: DropCause);
}

/// What [`Link::finish_into`] decided besides the packets it handed over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Fate of the finished packet: `Arrives`/`Dropped` went to the [`Departures`].
    pub fate: Fate,
    /// Attempts this frame has used so far (1 without ARQ).
    pub attempts: u32,
    /// When the serialization now in progress ends, if any (as [`Finished::next_done`]).
    pub next_done: Option<SimTime>,
    /// The link wants [`Link::wake`] to be called at this time.
    pub wake: Option<SimTime>,
}

/// [`Outcome`] without the packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// It arrives at the next node.
    Arrives,
    /// It is lost.
    Dropped(DropCause),
    /// The reordering model holds it.
    Held,
    /// ARQ: the frame is sent again.
    Retrying,
}

/// Collects the departures of one finish into a [`Finished`].
#[derive(Default)]
struct Collect {
    arrivals: Vec<Delivery>,
    dropped: Option<(Packet, DropCause)>,
}

impl Departures for Collect {
    fn arrive(&mut self, d: Delivery) {
        self.arrivals.push(d);
    }
    fn dropped(&mut self, packet: Packet, cause: DropCause) {
        self.dropped = Some((packet, cause));
    }
}

/// A simplex link direction with its queue, error model and optional ARQ and reordering.
#[derive(Clone, Debug)]
pub struct Link {
    params: LinkParams,
    up: bool,
    paused: bool,
    queue: DropTailQueue,
    error: ErrorModel,
    arq: Option<Arq>,
    reorder: Option<Reorder>,
    /// A recorded trace in the rate's role ([`crate::trace_link`]): when set, it says when a
    /// transmission ends, and `params.rate` is only the trace's mean rate (for notices).
    trace: Option<TracePacer>,
    /// The frame being serialized and its attempt number (1-based).
    on_wire: Option<(Packet, u32)>,
    /// Frames whose fate was decided (delivered, held or lost), each counted once.
    pub packets_sent: u64,
    /// Serializations, ARQ retries included.
    pub attempts: u64,
}

impl Link {
    /// A link direction, up, idle, with an empty queue, no ARQ and no reordering.
    pub fn new(params: LinkParams, limit: QueueLimit, error: ErrorModel) -> Self {
        Link {
            params,
            up: true,
            paused: false,
            queue: DropTailQueue::new(limit),
            error,
            arq: None,
            reorder: None,
            trace: None,
            on_wire: None,
            packets_sent: 0,
            attempts: 0,
        }
    }

    /// The link direction called `name` with its models built from their configurations,
    /// each drawing from its own stream (`link/<name>/error`, `link/<name>/arq`,
    /// `link/<name>/reorder`), so enabling one never changes another's draws.
    pub fn build(
        name: &str,
        params: LinkParams,
        limit: QueueLimit,
        error: &ErrorModelConfig,
        arq: Option<&ArqConfig>,
        reorder: Option<&ReorderConfig>,
        streams: &RngStreams,
    ) -> Self {
        let mut link = Link::new(params, limit, ErrorModel::new(error, streams, name));
        link.arq = arq.map(|c| Arq::new(c, streams, name));
        link.reorder = reorder.map(|c| Reorder::new(c, streams, name));
        link
    }

    /// Add a link-layer ARQ.
    pub fn with_arq(mut self, arq: Arq) -> Self {
        self.arq = Some(arq);
        self
    }

    /// Add a reordering model.
    pub fn with_reorder(mut self, reorder: Reorder) -> Self {
        self.reorder = Some(reorder);
        self
    }

    /// Drive the transmissions by a recorded trace instead of the rate.
    pub fn with_trace(mut self, trace: TracePacer) -> Self {
        self.trace = Some(trace);
        self
    }

    /// Current rate and delay.
    pub fn params(&self) -> LinkParams {
        self.params
    }

    /// Change rate and/or delay; applies to serializations (and ARQ attempts) that start
    /// afterwards.
    pub fn set_params(&mut self, params: LinkParams) {
        self.params = params;
    }

    /// Whether the link is up.
    pub fn is_up(&self) -> bool {
        self.up
    }

    /// Bring the link up or down. While down, every packet offered to it or finishing
    /// serialization (or an ARQ attempt) on it is dropped with [`DropCause::LinkDown`].
    /// Packets already propagating, or held by the reordering model, are not affected.
    pub fn set_up(&mut self, up: bool) {
        self.up = up;
    }

    /// Whether the link is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Pause the link (Lim & Jang's "pause" handover: nothing moves, nothing is lost). While
    /// paused, offered packets wait in the queue (a full queue still drops) and no new
    /// serialization starts; a serialization already under way finishes. The world holds the
    /// packets that were propagating when the pause began (vhsim-sim `handover`).
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// End a pause at `now`: if idle, start serializing the head of the queue and return when
    /// that ends.
    pub fn resume(&mut self, now: SimTime) -> Option<SimTime> {
        self.paused = false;
        if self.on_wire.is_some() {
            return None;
        }
        let next = self.queue.pop()?;
        let done = self.transmission_end(now, &next);
        self.on_wire = Some((next, 1));
        Some(done)
    }

    /// The frame being serialized (or retried) now and its attempt number (1 = first), if any:
    /// what a capture on the link records when a serialization starts.
    pub fn on_wire(&self) -> Option<(&Packet, u32)> {
        self.on_wire.as_ref().map(|(p, a)| (p, *a))
    }

    /// Packets waiting in the queue.
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    fn serialization(&self, pkt: &Packet) -> SimDuration {
        self.params.rate.serialization(pkt.size as u64)
    }

    /// When the transmission of `pkt` starting at `start` ends: by the rate, or by the trace.
    fn transmission_end(&mut self, start: SimTime, pkt: &Packet) -> SimTime {
        match self.trace.as_mut() {
            None => start + self.serialization(pkt),
            Some(t) => t.finish(start, pkt.size),
        }
    }

    /// A packet arrives at the link at `now`.
    pub fn offer(&mut self, now: SimTime, pkt: Packet) -> Offer {
        if !self.up {
            return Offer::Dropped(pkt, DropCause::LinkDown);
        }
        if self.on_wire.is_none() && !self.paused {
            let done = self.transmission_end(now, &pkt);
            self.on_wire = Some((pkt, 1));
            return Offer::Transmitting(done);
        }
        match self.queue.push(pkt) {
            Ok(()) => Offer::Queued,
            Err(pkt) => Offer::Dropped(pkt, DropCause::QueueOverflow),
        }
    }

    /// The serialization in progress ends at `now`: decide the packet's fate and start the
    /// next serialization (a retry of the same frame, or the head of the queue). The packets
    /// that leave go to `out`, the finished one before a released one.
    ///
    /// # Panics
    /// If nothing was being serialized (a world bookkeeping bug).
    #[inline]
    pub fn finish_into(&mut self, now: SimTime, out: &mut impl Departures) -> Finish {
        let (packet, attempt) = self.on_wire.take().expect("finish_transmission on an idle link");
        self.attempts += 1;
        let mut f = Finish { fate: Fate::Retrying, attempts: attempt, next_done: None, wake: None };
        let lost = if !self.up {
            Some(DropCause::LinkDown)
        } else {
            let error_lost = self.error.drops(now, &packet);
            match self.arq.as_mut().map(|a| a.after_attempt(attempt, error_lost)) {
                None => error_lost.then_some(DropCause::ErrorModel),
                Some(AttemptResult::Delivered) => None,
                Some(AttemptResult::GiveUp) => Some(DropCause::ErrorModel),
                Some(AttemptResult::Retry(wait)) => {
                    f.next_done = Some(self.transmission_end(now + wait, &packet));
                    self.on_wire = Some((packet, attempt + 1));
                    return f;
                }
            }
        };
        self.packets_sent += 1;
        let delay = self.params.delay;
        match lost {
            Some(cause) => {
                f.fate = Fate::Dropped(cause);
                out.dropped(packet, cause);
            }
            None => match self.reorder.as_mut() {
                None => {
                    f.fate = Fate::Arrives;
                    out.arrive(Delivery { at: now + delay, packet });
                }
                Some(r) => {
                    let ser = self.params.rate.serialization(packet.size as u64);
                    let ro = r.on_delivered(now, packet, delay, ser);
                    f.wake = ro.wake;
                    f.fate = Fate::Held;
                    if let Some(packet) = ro.passed {
                        f.fate = Fate::Arrives;
                        out.arrive(Delivery { at: now + delay, packet });
                    }
                    if let Some(d) = ro.released {
                        out.arrive(d);
                    }
                }
            },
        }
        if self.paused {
            return f;
        }
        f.next_done = self.queue.pop().map(|next| {
            let done = self.transmission_end(now, &next);
            self.on_wire = Some((next, 1));
            done
        });
        f
    }

    /// [`Link::finish_into`] with the packets returned in a [`Finished`] (for tests and simple
    /// drivers; the world uses `finish_into`).
    pub fn finish_transmission(&mut self, now: SimTime) -> Finished {
        let (uid, tag) = self.on_wire.as_ref().map(|(p, _)| (p.uid, p.tag)).expect("finish_transmission on an idle link");
        let mut c = Collect::default();
        let f = self.finish_into(now, &mut c);
        let mut arrivals = c.arrivals.into_iter();
        let outcome = match f.fate {
            Fate::Arrives => Outcome::Arrives(arrivals.next().expect("an arriving packet was handed over")),
            Fate::Dropped(_) => {
                let (p, cause) = c.dropped.expect("a dropped packet was handed over");
                Outcome::Dropped(p, cause)
            }
            Fate::Held => Outcome::Held,
            Fate::Retrying => Outcome::Retrying,
        };
        Finished { uid, tag, outcome, attempts: f.attempts, released: arrivals.next(), next_done: f.next_done, wake: f.wake }
    }

    /// A wake-up the link asked for (in [`Finished::wake`]) is due at `now`: returns a held
    /// packet released by its timeout, if any. Stale wake-ups return `None`.
    pub fn wake(&mut self, now: SimTime) -> Option<Delivery> {
        let delay = self.params.delay;
        self.reorder.as_mut()?.wake(now, delay)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addr::Addr;
    use crate::error::ErrorModel;
    use crate::packet::{Payload, RetxCause};

    fn pkt(uid: u64, size: u32) -> Packet {
        let tag = TraceTag::data(uid, size, RetxCause::New);
        Packet { uid, flow: 0, src: Addr(0), dst: Addr(1), size, tag, payload: Payload::Empty }
    }

    #[test]
    fn serializes_back_to_back_and_overflows_the_queue() {
        let params = LinkParams { rate: Rate::kbps(6400), delay: SimDuration::from_millis(9) };
        let mut l = Link::new(params, QueueLimit::Packets(1), ErrorModel::None);
        let t0 = SimTime::ZERO;
        assert_eq!(l.offer(t0, pkt(0, 1500)), Offer::Transmitting(SimTime(1_875_000)));
        assert_eq!(l.offer(t0, pkt(1, 1500)), Offer::Queued);
        assert_eq!(l.offer(t0, pkt(2, 1500)), Offer::Dropped(pkt(2, 1500), DropCause::QueueOverflow));
        let f = l.finish_transmission(SimTime(1_875_000));
        assert_eq!(f.outcome, Outcome::Arrives(Delivery { at: SimTime(1_875_000 + 9_000_000), packet: pkt(0, 1500) }));
        assert_eq!(f.next_done, Some(SimTime(3_750_000)));
        let f = l.finish_transmission(SimTime(3_750_000));
        assert_eq!(f.uid, 1);
        assert_eq!(f.next_done, None);
    }

    #[test]
    fn a_paused_link_queues_and_resumes_without_loss() {
        let params = LinkParams { rate: Rate::mbps(8), delay: SimDuration::from_millis(1) };
        let mut l = Link::new(params, QueueLimit::Packets(10), ErrorModel::None);
        assert_eq!(l.offer(SimTime::ZERO, pkt(0, 1000)), Offer::Transmitting(SimTime(1_000_000)));
        l.pause();
        assert_eq!(l.offer(SimTime(10), pkt(1, 1000)), Offer::Queued);
        // The frame on the wire finishes; nothing new starts while paused.
        let f = l.finish_transmission(SimTime(1_000_000));
        assert_eq!(f.outcome, Outcome::Arrives(Delivery { at: SimTime(2_000_000), packet: pkt(0, 1000) }));
        assert_eq!(f.next_done, None);
        assert_eq!(l.resume(SimTime(5_000_000)), Some(SimTime(6_000_000)));
        assert_eq!(l.finish_transmission(SimTime(6_000_000)).uid, 1);
    }

    #[test]
    fn a_down_link_drops_with_cause_link_down() {
        let params = LinkParams { rate: Rate::mbps(1), delay: SimDuration::ZERO };
        let mut l = Link::new(params, QueueLimit::Packets(10), ErrorModel::None);
        l.set_up(false);
        assert_eq!(l.offer(SimTime::ZERO, pkt(0, 100)), Offer::Dropped(pkt(0, 100), DropCause::LinkDown));
    }
}
