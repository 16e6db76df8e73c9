//! Start times of the flows.
//!
//! A flow with `start_spread` starts at start + floor(U * spread), U uniform in [0, 1): draw
//! `draw` of the random stream `flow/<name in the file>/start` (vhsim-core `RngStreams`). The
//! stream is named after the flow's own file entry and seeded by the run's seed, so the same
//! seed gives the same starts and adding another flow never changes them (Lim & Jang §5.1's
//! cross traffic: N flows whose starts are spread so they do not start in lockstep).

use crate::event::Event;
use crate::flow::Flow;
use vhsim_core::{EventClass, EventQueue, RngStreams, SimDuration, SimTime};
use vhsim_scenario::Scenario;

/// The start time of every flow of `scenario` in a run with its `seed`.
pub fn start_times(scenario: &Scenario) -> Vec<SimTime> {
    let streams = RngStreams::new(scenario.seed);
    scenario
        .flows
        .iter()
        .map(|f| match &f.start_spread {
            None => f.start,
            Some(s) => {
                let mut stream = streams.stream(&s.stream);
                let mut u = stream.uniform();
                for _ in 0..s.draw {
                    u = stream.uniform();
                }
                let offset = (u * s.spread.as_nanos() as f64) as u64;
                f.start + SimDuration::from_nanos(offset.min(s.spread.as_nanos().saturating_sub(1)))
            }
        })
        .collect()
}

/// The flows' start events, one waiting in the queue at a time (issue #29, memory per idle
/// flow: a start event per flow waited in the event store from the run's start, about 52 B per
/// flow at the peak of a large population's run). Each start keeps the key it would have had if
/// it had been pushed when the world was built: its sequence number is reserved then, in the
/// same place among the other events built with the world (vhsim-core `EventQueue::reserve`),
/// and the event is pushed with that key (`EventQueue::push_keyed`) when the start before it
/// in key order is handled. So the events and their order are the same as with a start event
/// per flow.
#[derive(Clone, Default)]
pub(crate) struct StartCursor {
    /// (flow, sequence number of its start event), in the order of the start events' keys.
    order: Vec<(u32, u32)>,
    /// The entry of `order` whose event is to be pushed next.
    next: usize,
}

impl StartCursor {
    /// Reserve the key of flow `flow`'s start at `start`, as if its event were pushed now.
    pub(crate) fn reserve(&mut self, queue: &mut EventQueue<Event>, flow: u32, start: SimTime) {
        let (_, _, seq) = queue.reserve(start, EventClass::Timeline).key();
        let seq = u32::try_from(seq).expect("fewer than 2^32 events are scheduled while the world is built");
        self.order.push((flow, seq));
    }

    /// Every start is reserved: push the earliest.
    pub(crate) fn begin(&mut self, queue: &mut EventQueue<Event>, flows: &[Flow]) {
        self.order.sort_unstable_by_key(|&(f, seq)| (flows[f as usize].start, seq));
        self.order.shrink_to_fit();
        self.push_next(queue, flows);
    }

    /// Push the next start event in key order (called when the one before it is handled).
    pub(crate) fn push_next(&mut self, queue: &mut EventQueue<Event>, flows: &[Flow]) {
        match self.order.get(self.next) {
            Some(&(f, seq)) => {
                self.next += 1;
                queue.push_keyed((flows[f as usize].start, EventClass::Timeline, u64::from(seq)), Event::FlowStart(f));
            }
            // Every flow has started.
            None => self.order = Vec::new(),
        }
    }
}
