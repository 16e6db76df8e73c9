//! vhsim-sim: builds a world from a resolved scenario, runs the event loop, and returns the
//! summary and the columnar traces.
//!
//! Layers: [`world`] routes, queues and delivers ([`routing`] by destination address, links
//! from vhsim-net) and drives the endpoints ([`transports`]) and node [`agents`];
//! [`handover`] turns a handover into link events at the mobile node and a binding change at
//! the anchor; [`observe`] records everything (ground truth, counters, handover metrics,
//! traces); [`summary`] assembles `summary.json`.

pub mod agents;
pub mod aggregate;
pub mod app;
pub mod branch;
pub mod build;
pub mod cells;
pub mod control;
pub mod event;
pub mod fingerprint;
pub mod flow;
pub mod groups;
pub mod handover;
pub mod named_counts;
pub mod observe;
pub mod routing;
pub mod srtt_warning;
pub mod starts;
pub mod summary;
pub mod summary_table;
pub mod trace;
pub mod trace_filter;
pub mod transports;
pub mod world;

pub use control::{Interrupted, RunControl};
pub use summary::RunSummary;
pub use trace::Traces;
pub use trace_filter::TraceFilter;

pub use observe::capture::{CaptureError, CaptureInfo};

use std::path::Path;
use std::time::Instant;
use vhsim_scenario::{CapturePoint, Detail, Scenario};

/// The vhsim version recorded in every result: the package version and, after a `+`, the
/// digest of the workspace's Rust sources this build was made from (build.rs), so that two
/// builds that could simulate differently never share a version (a campaign keys its runs by it).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("VHSIM_SOURCE_DIGEST"));

/// What a run returns.
pub struct RunOutput {
    /// Summary metrics.
    pub summary: RunSummary,
    /// Traces at the requested detail.
    pub traces: Traces,
    /// Packet captures written (only by [`run_captured`]).
    pub captures: Vec<CaptureInfo>,
    /// The flows as a table instead of in `summary` (whose `flows` are then empty), when
    /// [`RunOptions::flow_table_above`] asked for it.
    pub flow_table: Option<summary_table::Table>,
}

/// Run `scenario` at `detail` (`None` = the scenario's own detail level). Writes no packet
/// captures, whatever `output.pcap` says (they need a folder: [`run_captured`]).
pub fn run(scenario: &Scenario, detail: Option<Detail>) -> RunOutput {
    run_controlled(scenario, detail, &TraceFilter::default(), &RunControl::new())
        .expect("nothing asks this run to stop")
}

/// What else a run does besides simulating: record only what a trace filter keeps, answer to
/// a [`RunControl`], write packet captures.
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Trace rows to keep (default: all).
    pub filter: TraceFilter,
    /// Stop flag and progress (default: a private one nobody stops).
    pub control: Option<&'a RunControl>,
    /// Write packet captures into this folder: those of the scenario's `output.pcap` plus
    /// `extra_captures` (from the command line's `--pcap`).
    pub capture_dir: Option<&'a Path>,
    /// Capture points added to the scenario's.
    pub extra_captures: &'a [CapturePoint],
    /// A run of more flows than this returns them as a table ([`RunOutput::flow_table`],
    /// made while the world is freed flow by flow: `summary::summarize_as_table`).
    pub flow_table_above: Option<usize>,
}

/// Why a run with [`RunOptions`] ended without output.
#[derive(Debug)]
pub enum RunError {
    /// Its control asked it to stop.
    Interrupted(Interrupted),
    /// A packet capture could not be written.
    Capture(CaptureError),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Interrupted(i) => i.fmt(f),
            RunError::Capture(c) => c.fmt(f),
        }
    }
}

/// [`run`] recording only what `filter` keeps, under `control`: progress published, and
/// `Err(Interrupted)` (no output) once another thread has asked it to stop.
pub fn run_controlled(
    scenario: &Scenario,
    detail: Option<Detail>,
    filter: &TraceFilter,
    control: &RunControl,
) -> Result<RunOutput, Interrupted> {
    let opts = RunOptions { filter: filter.clone(), control: Some(control), ..RunOptions::default() };
    run_with_options(scenario, detail, &opts).map_err(|e| match e {
        RunError::Interrupted(i) => i,
        RunError::Capture(_) => unreachable!("no capture was asked for"),
    })
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
    let opts = RunOptions { capture_dir: Some(dir), extra_captures: extra, ..RunOptions::default() };
    run_with_options(scenario, detail, &opts).map_err(|e| match e {
        RunError::Capture(c) => c,
        RunError::Interrupted(_) => unreachable!("nothing asks this run to stop"),
    })
}

/// [`run`], also returning the finished world (for tests and tools that inspect endpoints
/// after the run; its traces have moved into the output).
pub fn run_world(scenario: &Scenario, detail: Option<Detail>) -> (RunOutput, world::World) {
    let mut world = build::build(scenario, detail.unwrap_or(scenario.detail));
    let started = Instant::now();
    let events = world.run();
    world.finish();
    let summary = summary::summarize(&world, events, started.elapsed().as_secs_f64());
    let traces = std::mem::take(&mut world.obs.traces);
    (RunOutput { summary, traces, captures: Vec::new(), flow_table: None }, world)
}

/// Run `scenario` at `detail` with `opts`. A caller that holds the scenario in an `Arc` passes
/// it so (`&Arc<Scenario>`), and the world shares it instead of copying it.
pub fn run_with_options(
    scenario: impl build::IntoShared,
    detail: Option<Detail>,
    opts: &RunOptions,
) -> Result<RunOutput, RunError> {
    let scenario = scenario.into_shared();
    let mut world = build::build(&scenario, detail.unwrap_or(scenario.detail));
    world.obs.traces.set_filter(&opts.filter);
    if let Some(dir) = opts.capture_dir {
        let points = observe::capture::capture_points(&scenario, opts.extra_captures);
        if !points.is_empty() {
            let c = observe::capture::Captures::open(&scenario, &points, dir).map_err(RunError::Capture)?;
            world.obs.set_captures(c);
        }
    }
    let own = RunControl::new();
    let control = opts.control.unwrap_or(&own);
    let started = Instant::now();
    let events = world.run_with(control);
    if control.stop_requested() {
        return Err(RunError::Interrupted(Interrupted { sim_ns: world.now.0 }));
    }
    world.finish();
    let wall_s = started.elapsed().as_secs_f64();
    let (summary, flow_table) = match opts.flow_table_above {
        Some(limit) if world.flows.len() > limit => {
            let (summary, table) = summary::summarize_as_table(&mut world, events, wall_s);
            (summary, Some(table))
        }
        _ => (summary::summarize(&world, events, wall_s), None),
    };
    let traces = std::mem::take(&mut world.obs.traces);
    let mut out = RunOutput { summary, traces, captures: Vec::new(), flow_table };
    if let Some(c) = world.obs.take_captures() {
        out.captures = c.finish().map_err(RunError::Capture)?;
    }
    Ok(out)
}

#[cfg(test)]
mod version_tests {
    #[test]
    fn version_is_the_package_version_and_the_sources_digest() {
        let (package, digest) = super::VERSION.split_once('+').expect("a `+` before the digest");
        assert_eq!(package, env!("CARGO_PKG_VERSION"));
        assert_eq!(digest.len(), 12);
        assert!(digest.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()), "{digest}");
    }
}
