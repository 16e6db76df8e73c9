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
//!
//! **Leaving early.** When a serialization starts with nothing waiting behind it on a link
//! that can lose a frame only by going down (no error model, no ARQ, no reordering), its fate
//! is known at once: it arrives `delay` after its transmission ends (by the rate or the trace). The world may then take it off
//! the link at once ([`Link::leave_early`]) instead of scheduling a `TxDone`: the link stays
//! busy, and the world ends the serialization ([`Link::end_early`]) when a `TxDone` would have
//! come, or gives the frame back ([`Link::call_back`]) if the link goes down or changes before
//! (vhsim-sim `world`, docs/performance.md).

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

/// What a link direction is serializing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wire {
    /// Nothing.
    Idle,
    /// The head of the queue, in its `n`-th attempt.
    Frame(u32),
    /// A frame that left early: the link is busy without holding it.
    Departed,
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
    /// Whether only the link going down can lose a frame (no error model, no ARQ, no
    /// reordering): kept with those three, read once per frame.
    fate_known: bool,
    /// A recorded trace in the rate's role ([`crate::trace_link`]): when set, it says when a
    /// transmission ends, and `params.rate` is only the trace's mean rate (for notices).
    trace: Option<TracePacer>,
    /// What is being serialized: nothing, the head of `queue` (attempt number, 1-based), or a
    /// frame that left early.
    wire: Wire,
    /// The last two (size, serialization time) at the current rate (size 0: none).
    serialization_of: [(u32, SimDuration); 2],
    /// Frames whose fate was decided (delivered, held or lost), each counted once.
    pub packets_sent: u64,
    /// Serializations, ARQ retries included.
    pub attempts: u64,
}

impl Link {
    /// A link direction, up, idle, with an empty queue, no ARQ and no reordering.
    pub fn new(params: LinkParams, limit: QueueLimit, error: ErrorModel) -> Self {
        let fate_known = matches!(error, ErrorModel::None);
        Link {
            params,
            up: true,
            paused: false,
            queue: DropTailQueue::new(limit),
            error,
            arq: None,
            reorder: None,
            fate_known,
            trace: None,
            wire: Wire::Idle,
            serialization_of: [(0, SimDuration::ZERO); 2],
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
        link.fate_known &= link.arq.is_none() && link.reorder.is_none();
        link
    }

    /// Add a link-layer ARQ.
    pub fn with_arq(mut self, arq: Arq) -> Self {
        self.arq = Some(arq);
        self.fate_known = false;
        self
    }

    /// Add a reordering model.
    pub fn with_reorder(mut self, reorder: Reorder) -> Self {
        self.reorder = Some(reorder);
        self.fate_known = false;
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
        self.serialization_of = [(0, SimDuration::ZERO); 2];
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
        if !matches!(self.wire, Wire::Idle) {
            return None;
        }
        self.start_next(now)
    }

    /// Start serializing the head of the queue at `now`; returns when that ends.
    fn start_next(&mut self, now: SimTime) -> Option<SimTime> {
        let size = self.queue.serve()?.size;
        self.wire = Wire::Frame(1);
        Some(self.transmission_end(now, size))
    }

    /// Whether only the link going down can lose a frame (no error model, no ARQ, no
    /// reordering): its fate is known when its serialization starts.
    fn fate_known_at_start(&self) -> bool {
        debug_assert_eq!(self.fate_known, matches!(self.error, ErrorModel::None) && self.arq.is_none() && self.reorder.is_none());
        self.fate_known
    }

    /// Whether the frame whose serialization just started may leave early (module docs): its
    /// fate cannot depend on anything but the link going down, and nothing waits behind it.
    pub fn can_leave_early(&self) -> bool {
        matches!(self.wire, Wire::Frame(1)) && self.queue.is_empty() && self.up && self.fate_known_at_start()
    }

    /// A packet of `size` bytes arrives at the link at `now`: if the link is idle and the
    /// frame may leave early, it does at once (the caller keeps the packet): returns when its
    /// serialization ends and when it reaches the far end. `None`: offer it ([`Link::offer`]).
    #[inline]
    pub fn leave_at_once(&mut self, now: SimTime, size: u32) -> Option<(SimTime, SimTime)> {
        if !matches!(self.wire, Wire::Idle) || self.paused || !self.up || !self.fate_known_at_start() {
            return None;
        }
        debug_assert!(self.queue.is_empty(), "an idle link has nothing waiting");
        let done = self.transmission_end(now, size);
        self.wire = Wire::Departed;
        self.attempts += 1;
        self.packets_sent += 1;
        Some((done, done + self.params.delay))
    }

    /// The frame whose serialization just started, ending at `done`, leaves the link now: it
    /// arrives at the far end at `done + delay` (the delay as it is now: a change of the
    /// link before `done` calls it back). The link stays busy until [`Link::end_early`].
    pub fn leave_early(&mut self, done: SimTime) -> Delivery {
        debug_assert!(self.can_leave_early());
        let packet = self.queue.finish();
        self.wire = Wire::Departed;
        self.attempts += 1;
        self.packets_sent += 1;
        Delivery { at: done + self.params.delay, packet }
    }

    /// The serialization of the frame that left early has ended at `now`: start the next
    /// (as [`Link::finish_into`] does); returns when that ends.
    #[inline]
    pub fn end_early(&mut self, now: SimTime) -> Option<SimTime> {
        debug_assert_eq!(self.wire, Wire::Departed, "end_early without a frame that left early");
        self.wire = Wire::Idle;
        if self.paused {
            return None;
        }
        self.start_next(now)
    }

    /// The frame that left early comes back before its serialization ended (the link is about
    /// to change): the link is as if it had never left.
    pub fn call_back(&mut self, packet: Packet) {
        debug_assert_eq!(self.wire, Wire::Departed);
        self.attempts -= 1;
        self.packets_sent -= 1;
        self.queue.serve_first(packet);
        self.wire = Wire::Frame(1);
    }

    /// The frame being serialized (or retried) now and its attempt number (1 = first), if any:
    /// what a capture on the link records when a serialization starts.
    pub fn on_wire(&self) -> Option<(&Packet, u32)> {
        match self.wire {
            Wire::Frame(attempt) => self.queue.served().map(|p| (p, attempt)),
            Wire::Idle | Wire::Departed => None,
        }
    }

    /// Packets waiting in the queue.
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// Serialization time of `size` bytes at the current rate. Most frames of a link have one
    /// of two sizes (data, ACK), so the last two are kept: a 128-bit division saved per frame.
    #[inline(always)]
    fn serialization(&mut self, size: u32) -> SimDuration {
        let [a, b] = self.serialization_of;
        if a.0 == size {
            return a.1;
        }
        if b.0 == size {
            return b.1;
        }
        let d = self.params.rate.serialization(size as u64);
        self.serialization_of = [(size, d), a];
        d
    }

    /// When a transmission of `size` bytes starting at `start` ends: by the rate, or by the
    /// trace. A trace moves on with each call: exactly one per transmission (or ARQ attempt)
    /// that starts, whether its frame leaves early or waits for its `TxDone`.
    #[inline]
    fn transmission_end(&mut self, start: SimTime, size: u32) -> SimTime {
        match self.trace.as_mut() {
            None => start + self.serialization(size),
            Some(t) => t.finish(start, size),
        }
    }

    /// A packet arrives at the link at `now`.
    pub fn offer(&mut self, now: SimTime, pkt: Packet) -> Offer {
        if !self.up {
            return Offer::Dropped(pkt, DropCause::LinkDown);
        }
        if matches!(self.wire, Wire::Idle) && !self.paused {
            let done = self.transmission_end(now, pkt.size);
            self.queue.serve_first(pkt);
            self.wire = Wire::Frame(1);
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
        let Wire::Frame(attempt) = self.wire else { panic!("finish_transmission on an idle link") };
        self.attempts += 1;
        let mut f = Finish { fate: Fate::Retrying, attempts: attempt, next_done: None, wake: None };
        let lost = if !self.up {
            Some(DropCause::LinkDown)
        } else {
            let head = self.queue.served().expect("the frame on the wire");
            let error_lost = self.error.drops(now, head);
            match self.arq.as_mut().map(|a| a.after_attempt(attempt, error_lost)) {
                None => error_lost.then_some(DropCause::ErrorModel),
                Some(AttemptResult::Delivered) => None,
                Some(AttemptResult::GiveUp) => Some(DropCause::ErrorModel),
                Some(AttemptResult::Retry(wait)) => {
                    let size = head.size;
                    f.next_done = Some(self.transmission_end(now + wait, size));
                    self.wire = Wire::Frame(attempt + 1);
                    return f;
                }
            }
        };
        let packet = self.queue.finish();
        self.wire = Wire::Idle;
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
        if !self.paused {
            f.next_done = self.start_next(now);
        }
        f
    }

    /// [`Link::finish_into`] with the packets returned in a [`Finished`] (for tests and simple
    /// drivers; the world uses `finish_into`).
    pub fn finish_transmission(&mut self, now: SimTime) -> Finished {
        let (uid, tag) = self.on_wire().map(|(p, _)| (p.uid, p.tag)).expect("finish_transmission on an idle link");
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
    fn a_frame_that_leaves_early_keeps_the_link_busy_until_it_ends() {
        let params = LinkParams { rate: Rate::mbps(8), delay: SimDuration::from_millis(1) };
        let mut l = Link::new(params, QueueLimit::Packets(10), ErrorModel::None);
        assert_eq!(l.offer(SimTime::ZERO, pkt(0, 1000)), Offer::Transmitting(SimTime(1_000_000)));
        assert!(l.can_leave_early());
        assert_eq!(l.leave_early(SimTime(1_000_000)), Delivery { at: SimTime(2_000_000), packet: pkt(0, 1000) });
        assert_eq!((l.packets_sent, l.attempts), (1, 1));
        // Still serializing: the next packet waits, then starts when the first one ends.
        assert_eq!(l.offer(SimTime(10), pkt(1, 1000)), Offer::Queued);
        assert_eq!(l.resume(SimTime(20)), None);
        assert_eq!(l.end_early(SimTime(1_000_000)), Some(SimTime(2_000_000)));
        assert!(l.can_leave_early());
        // It leaves early too, then is called back (the link is about to change): as before.
        l.leave_early(SimTime(2_000_000));
        l.call_back(pkt(1, 1000));
        assert_eq!((l.packets_sent, l.attempts), (1, 1));
        l.set_up(false);
        let f = l.finish_transmission(SimTime(2_000_000));
        assert_eq!(f.dropped(), Some(DropCause::LinkDown));
        assert_eq!((l.packets_sent, l.attempts), (2, 2));
    }

    #[test]
    fn only_a_frame_nothing_waits_behind_and_only_a_link_down_can_lose_leaves_early() {
        let params = LinkParams { rate: Rate::mbps(8), delay: SimDuration::from_millis(1) };
        let streams = RngStreams::new(1);
        let lossy = ErrorModel::new(&crate::error::ErrorModelConfig::Bernoulli { p: 0.5 }, &streams, "l");
        let mut l = Link::new(params, QueueLimit::Packets(10), lossy);
        l.offer(SimTime::ZERO, pkt(0, 1000));
        assert!(!l.can_leave_early(), "an error model decides at the end of serialization");
        let mut l = Link::new(params, QueueLimit::Packets(10), ErrorModel::None);
        assert!(!l.can_leave_early(), "nothing on the wire");
        l.offer(SimTime::ZERO, pkt(0, 1000));
        l.offer(SimTime::ZERO, pkt(1, 1000));
        assert!(!l.can_leave_early(), "a packet waits behind it");
    }

    #[test]
    fn a_down_link_drops_with_cause_link_down() {
        let params = LinkParams { rate: Rate::mbps(1), delay: SimDuration::ZERO };
        let mut l = Link::new(params, QueueLimit::Packets(10), ErrorModel::None);
        l.set_up(false);
        assert_eq!(l.offer(SimTime::ZERO, pkt(0, 100)), Offer::Dropped(pkt(0, 100), DropCause::LinkDown));
    }
}
