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
pub mod control;
pub mod event;
pub mod fingerprint;
pub mod flow;
pub mod handover;
pub mod observe;
pub mod routing;
pub mod starts;
pub mod summary;
pub mod trace;
pub mod trace_filter;
pub mod transports;
pub mod world;

pub use control::{Interrupted, RunControl};
pub use summary::RunSummary;
pub use trace::Traces;
pub use trace_filter::TraceFilter;

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
    run_controlled(scenario, detail, &TraceFilter::default(), &RunControl::new())
        .expect("nothing asks this run to stop")
}

/// [`run`] recording only what `filter` keeps, under `control`: progress published, and
/// `Err(Interrupted)` (no output) once another thread has asked it to stop.
pub fn run_controlled(
    scenario: &Scenario,
    detail: Option<Detail>,
    filter: &TraceFilter,
    control: &RunControl,
) -> Result<RunOutput, Interrupted> {
    let detail = detail.unwrap_or(scenario.detail);
    let mut world = build::build(scenario, detail);
    world.obs.traces.set_filter(filter);
    let started = Instant::now();
    let events = world.run_with(control);
    if control.stop_requested() {
        return Err(Interrupted { sim_ns: world.now.0 });
    }
    world.finish();
    let wall_s = started.elapsed().as_secs_f64();
    let summary = summary::summarize(&world, events, wall_s);
    Ok(RunOutput { summary, traces: std::mem::take(&mut world.obs.traces) })
}
