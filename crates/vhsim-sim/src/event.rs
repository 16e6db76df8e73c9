//! Events of the world. Their order at equal times is the queue's contract (vhsim-core
//! `events`): class `Timeline` (scenario actions, application writes, handover steps), then
//! `Packet` (links finishing a serialization, packets arriving, notifications), then `Timer`
//! (endpoint and agent timers, link wake-ups), each FIFO.

/// Events of the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A link direction finished serializing its current packet (class Packet).
    TxDone(u32),
    /// A link direction asked to be woken up, e.g. a reordering hold timeout (class Timer).
    LinkWake(u32),
    /// A packet arrives at the far end of a link direction (class Packet); the packet waits in
    /// the world's in-flight slab at the given slot, so that events stay small (the heap moves
    /// them on every push and pop).
    Arrive(u32, u32),
    /// Endpoint `side` (0 = sending, 1 = receiving) of flow `flow` may have a timer due
    /// (class Timer).
    EndpointTimer {
        /// Flow index.
        flow: u32,
        /// Which endpoint.
        side: u8,
    },
    /// Node agent `i` may have a timer due (class Timer).
    AgentTimer(u32),
    /// A flow starts (class Timeline).
    FlowStart(u32),
    /// A flow's application stops offering data (class Timeline).
    FlowStop(u32),
    /// A flow's CBR application writes (class Timeline; crate::app).
    AppWrite(u32),
    /// Timeline entry `i` of the scenario (class Timeline).
    Timeline(u32),
    /// Handover `k`'s warning time has come: `Imminent` to the mobile node (class Timeline).
    HandoverWarning(u32),
    /// Handover `k` completes: traffic takes the new interface (class Timeline).
    HandoverDone(u32),
    /// The binding update of handover `k` reaches the anchor (class Timeline).
    BindingUpdate(u32),
    /// The cross-layer notification of handover `k` reaches the senders (class Packet).
    HandoverNotice(u32),
}
