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

pub use observe::capture::{CaptureError, CaptureInfo};

use std::path::Path;
use std::time::Instant;
use vhsim_scenario::{CapturePoint, Detail, Scenario};

/// The vhsim version recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What a run returns.
pub struct RunOutput {
    /// Summary metrics.
    pub summary: RunSummary,
    /// Traces at the requested detail.
    pub traces: Traces,
    /// Packet captures written (only by [`run_captured`]).
    pub captures: Vec<CaptureInfo>,
}

/// Run `scenario` at `detail` (`None` = the scenario's own detail level). Writes no packet
/// captures, whatever `output.pcap` says (they need a folder: [`run_captured`]).
pub fn run(scenario: &Scenario, detail: Option<Detail>) -> RunOutput {
    let mut world = build::build(scenario, detail.unwrap_or(scenario.detail));
    execute(&mut world)
}

/// Run `scenario` at `detail` writing packet captures into `dir`: those of its `output.pcap`
/// plus `extra` ones (from the command line's `--pcap`), one pcap file per link direction
/// (docs/pcap.md). Errors name the key that asked for the capture.
pub fn run_captured(
    scenario: &Scenario,
    detail: Option<Detail>,
    dir: &Path,
    extra: &[CapturePoint],
) -> Result<RunOutput, CaptureError> {
    let mut world = build::build(scenario, detail.unwrap_or(scenario.detail));
    let points = observe::capture::capture_points(scenario, extra);
    if !points.is_empty() {
        world.obs.set_captures(observe::capture::Captures::open(scenario, &points, dir)?);
    }
    let mut out = execute(&mut world);
    if let Some(c) = world.obs.take_captures() {
        out.captures = c.finish()?;
    }
    Ok(out)
}

/// Run the world to its end.
fn execute(world: &mut world::World) -> RunOutput {
    let started = Instant::now();
    let events = world.run();
    world.finish();
    let wall_s = started.elapsed().as_secs_f64();
    let summary = summary::summarize(world, events, wall_s);
    RunOutput { summary, traces: std::mem::take(&mut world.obs.traces), captures: Vec::new() }
}
