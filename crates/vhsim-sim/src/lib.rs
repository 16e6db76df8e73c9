//! vhsim-sim: builds a world from a resolved scenario, runs the event loop, and returns the
//! summary and the columnar traces.
//!
//! Layers: [`world`] routes, queues and delivers ([`routing`] by destination address, links
//! from vhsim-net) and drives the endpoints ([`transports`]) and node [`agents`];
//! [`handover`] turns a handover into link events at the mobile node and a binding change at
//! the anchor; [`observe`] records everything (ground truth, counters, handover metrics,
//! traces); [`summary`] assembles `summary.json`.

pub mod agents;
pub mod app;
pub mod build;
pub mod event;
pub mod fingerprint;
pub mod flow;
pub mod handover;
pub mod observe;
pub mod routing;
pub mod starts;
pub mod summary;
pub mod trace;
pub mod transports;
pub mod world;

pub use summary::RunSummary;
pub use trace::Traces;

use std::time::Instant;
use vhsim_scenario::{Detail, Scenario};

/// The vhsim version recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What a run returns.
pub struct RunOutput {
    /// Summary metrics.
    pub summary: RunSummary,
    /// Traces at the requested detail.
    pub traces: Traces,
}

/// Run `scenario` at `detail` (`None` = the scenario's own detail level).
pub fn run(scenario: &Scenario, detail: Option<Detail>) -> RunOutput {
    run_world(scenario, detail).0
}

/// [`run`], also returning the finished world (for tests and tools that inspect endpoints
/// after the run; its traces have moved into the output).
pub fn run_world(scenario: &Scenario, detail: Option<Detail>) -> (RunOutput, world::World) {
    let detail = detail.unwrap_or(scenario.detail);
    let mut world = build::build(scenario, detail);
    let started = Instant::now();
    let events = world.run();
    world.finish();
    let wall_s = started.elapsed().as_secs_f64();
    let summary = summary::summarize(&world, events, wall_s);
    let traces = std::mem::take(&mut world.obs.traces);
    (RunOutput { summary, traces }, world)
}
