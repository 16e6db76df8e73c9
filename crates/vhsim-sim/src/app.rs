//! Applications feeding the senders: bulk (infinite backlog) and constant bit rate.
//!
//! A CBR application (Sobral et al. §5: "500 Kbps CBR traffic using TCP ... packets with 1,000
//! bytes of data") writes `packet_size` bytes at the flow's start and then at each later write
//! time (`CbrModel::write_offset`), until its `stop` or the end of the run. Each write raises the
//! sender's application limit by `segments_per_write` units (ns-2 `TcpAgent::sendmsg`), so
//! the sender is application-limited while the path keeps up and builds a backlog when it does
//! not. Written data stays in the sender when the application stops.
//!
//! The send buffer (`app.send_buffer`, in segments) is unlimited by default, as in ns-2, whose
//! `TcpAgent` takes every write. With a limit, a write is accepted only if the data written and
//! not yet cumulatively acknowledged (`written - SendProgress::acked`, unsent data included)
//! plus the write fit in it; otherwise the write is refused and its data discarded (a source
//! that cannot wait, writing into a non-blocking socket), counted as `refused_writes`. The
//! writes keep their schedule either way.
//!
//! One `AppWrite` event per write, at most one pending per flow. Class: `Timeline`, like
//! `FlowStart`/`FlowStop`: the writes are input from outside the network, scheduled from the
//! start regardless of network state, so at equal times the data written at t is already
//! available to an ACK processed at t. (As `Packet` events they would interleave with the
//! network by insertion order, which depends on when the previous write happened to be
//! scheduled relative to packet events.)

use crate::event::Event;
use crate::world::World;
use vhsim_core::{EventClass, SimTime};
use vhsim_net::{AppOffer, Endpoint};
use vhsim_scenario::AppModel;

/// What feeds a flow's sender.
#[derive(Clone, Debug)]
pub enum AppState {
    /// Infinite backlog.
    Bulk,
    /// Constant bit rate.
    Cbr(CbrState),
}

/// Progress of a CBR application (its model stays in the scenario's flow: issue #29, memory
/// per flow).
#[derive(Clone, Debug)]
pub struct CbrState {
    /// Writes accepted so far.
    pub writes: u64,
    /// Writes refused because the send buffer was full.
    pub refused: u64,
    /// No more writes (the flow's `stop` has passed).
    pub stopped: bool,
}

impl AppState {
    /// The state of `app` before the flow starts.
    pub fn new(app: &AppModel) -> Self {
        match app {
            AppModel::Bulk => AppState::Bulk,
            AppModel::Cbr(_) => AppState::Cbr(CbrState { writes: 0, refused: 0, stopped: false }),
        }
    }

    /// Segments available to the sender before the first write.
    pub fn initial_limit(&self) -> u64 {
        match self {
            AppState::Bulk => u64::MAX,
            AppState::Cbr(_) => 0,
        }
    }
}

impl World {
    /// Flow `f` starts now: a bulk application offers unlimited data (a no-op for a TCP
    /// sender, built with that limit), a CBR application makes its first write.
    pub(crate) fn app_start(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        match fl.app {
            AppState::Bulk => fl.endpoints[0].on_app(self.now, AppOffer::More(u64::MAX)),
            AppState::Cbr(_) => self.on_app_write(f),
        }
    }

    /// The CBR application of flow `f` writes now; the next write is scheduled.
    pub(crate) fn on_app_write(&mut self, f: u32) {
        let end = SimTime::ZERO + self.scenario.duration;
        let model = &self.scenario.flows[f as usize];
        let (stop, AppModel::Cbr(cbr)) = (model.stop, &model.app) else { return };
        let fl = &mut self.flows[f as usize];
        let AppState::Cbr(c) = &mut fl.app else { return };
        if c.stopped {
            return;
        }
        let units = cbr.segments_per_write;
        let fits = cbr.send_buffer.is_none_or(|limit| {
            let acked = fl.endpoints[0].progress().map_or(0, |p| p.acked);
            let outstanding = (c.writes * units).saturating_sub(acked);
            outstanding + units <= limit
        });
        if fits {
            c.writes += 1;
        } else {
            c.refused += 1;
        }
        let next = fl.start + cbr.write_offset(c.writes + c.refused);
        if fits {
            fl.endpoints[0].on_app(self.now, AppOffer::More(units));
        }
        if next <= end && stop.is_none_or(|s| next < s) {
            self.queue.push(next, EventClass::Timeline, Event::AppWrite(f));
        }
        self.pump(f, 0);
    }

    /// The application of flow `f` stops offering data now. Bulk: the sender keeps only what
    /// it has sent; CBR: no more writes, written data is still sent.
    pub(crate) fn app_stop(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        match &mut fl.app {
            AppState::Bulk => fl.endpoints[0].on_app(self.now, AppOffer::Stop),
            AppState::Cbr(c) => c.stopped = true,
        }
    }
}
