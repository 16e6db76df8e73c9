//! Build a [`World`] from a resolved scenario.

use crate::agents::AnyAgent;
use crate::app::AppState;
use crate::flow::Flow;
use crate::observe::{FlowInit, Observers};
use crate::trace::{FlowBins, GoodputSeries, PacketTrace, TimeSeries, Traces};
use crate::transports;
use crate::world::World;
use vhsim_core::RngStreams;
use vhsim_net::{Endpoint, Link, LinkParams, TracePacer};
use std::sync::Arc;
use vhsim_scenario::{Detail, Scenario};

/// A scenario the world keeps for the run: an `Arc` is shared as it is, a reference is copied
/// once. A scenario of 10,000 users is about a kilobyte per user (issue #29: memory per flow),
/// so callers that hold it in an `Arc` pass that.
pub trait IntoShared {
    /// The scenario, shared.
    fn into_shared(self) -> Arc<Scenario>;
}

impl IntoShared for &Scenario {
    fn into_shared(self) -> Arc<Scenario> {
        Arc::new(self.clone())
    }
}

impl IntoShared for Arc<Scenario> {
    fn into_shared(self) -> Arc<Scenario> {
        self
    }
}

impl IntoShared for &Arc<Scenario> {
    fn into_shared(self) -> Arc<Scenario> {
        Arc::clone(self)
    }
}

/// Build the world of `scenario` with its own seed and the given detail level.
pub fn build(scenario: impl IntoShared, detail: Detail) -> World {
    let scenario = scenario.into_shared();
    let streams = RngStreams::new(scenario.seed);
    let links = scenario
        .links
        .iter()
        .map(|l| {
            // Each model draws from streams named after its link direction (`link/<name>/error`,
            // `/arq`, `/reorder`), so adding a link or a flow never changes another link's draws.
            let params = LinkParams { rate: l.rate, delay: l.delay };
            let link = Link::build(&l.name, params, l.queue, &l.error, l.arq.as_ref(), l.reorder.as_ref(), &streams);
            match &l.trace {
                Some(t) => link.with_trace(TracePacer::new(t)),
                None => link,
            }
        })
        .collect();
    let starts = crate::starts::start_times(&scenario);
    let flows: Vec<Flow> = scenario
        .flows
        .iter()
        .zip(starts)
        .enumerate()
        .map(|(i, (f, start))| {
            let app = AppState::new(&f.app);
            let endpoints = transports::endpoints(f, i as u32, &app, &streams);
            Flow { nodes: [f.src, f.dst], endpoints, wakeup: [None; 2], start, started: false, app }
        })
        .collect();
    let init: Vec<FlowInit> = flows
        .iter()
        .map(|fl| FlowInit {
            acknowledged: fl.endpoints[0].acknowledged(),
            classifies: fl.endpoints[0].classifies_losses(),
        })
        .collect();
    let traces = Traces {
        packets: (detail >= Detail::Packets).then(PacketTrace::default),
        timeseries: (detail >= Detail::Timeseries).then(TimeSeries::default),
        goodput: GoodputSeries { bins: vec![FlowBins::Empty; scenario.flows.len()] },
    };
    let obs = Observers::new(&scenario, traces, &init, crate::handover::records(&scenario));
    let agents = scenario.agents.iter().map(AnyAgent::new).collect();
    World::new(scenario, links, flows, agents, obs)
}
