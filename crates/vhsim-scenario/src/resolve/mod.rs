//! From the file as written ([`crate::schema`]) to the resolved model ([`crate::model`]).
//!
//! Checks run in file order of concerns: run settings, topology (nodes, links, routes), flows,
//! timeline, metrics. The first error found is returned.

mod addresses;
mod agents;
mod app;
mod datagram;
mod flows;
mod link_models;
pub(crate) mod mobile;
mod mobility;
mod msctp;
pub(crate) mod output;
mod sctp;
mod timeline;
mod topology;
mod trace;
mod warning;

use crate::error::{err, join, Result};
use crate::model::{Action, Detail, FlowModel, Scenario, TimelineEntry};
use crate::schema::ScenarioFile;
use crate::units::fmt_duration;
use vhsim_core::{SimDuration, SimTime};

/// Validate `file` and resolve it into a [`Scenario`].
pub(crate) fn resolve(mut file: ScenarioFile) -> Result<Scenario> {
    let duration = file.duration.0;
    if duration == SimDuration::ZERO {
        return Err(err("duration", "the run must last longer than 0s"));
    }
    // The flows' tables are dropped once read: with a population they are the largest part of
    // the file, and the models built after them would otherwise add to them at the peak of
    // loading (issue #29, memory per flow).
    let flow_specs = std::mem::take(&mut file.flows);
    if flow_specs.is_empty() {
        return Err(err("flows", "at least one flow is required (add a [flows.<name>] table)"));
    }
    let expanded = flows::expanded_names(&flow_specs);
    let flow_names: Vec<&str> = expanded.iter().map(String::as_str).collect();
    let specs = mobile::specs(&file)?;
    let mut topo = topology::resolve(&file.nodes, &file.links, &flow_names, mobile::flags(&file, &specs))?;
    drop(flow_names);
    drop(expanded);
    let mut mobiles = mobile::resolve(&specs, &mut topo)?;
    topo.apply_explicit();
    let flows = flows::resolve(&flow_specs, &topo, &mobiles, duration, file.defaults.unwrap_or_default())?;
    drop(flow_specs);
    let mut timeline = timeline::resolve(&file.timeline, &topo, duration, &mobiles)?;
    let mut moved = Vec::new();
    for (k, (path, spec)) in specs.iter().enumerate() {
        let Some(movement) = &spec.mobility else { continue };
        let cx = mobility::Context { path, index: k as u32, mobile: &mobiles.list[k], timeline: &file.timeline, several: specs.len() > 1, mobile_node_name: &spec.node };
        let (model, entry) = mobility::resolve(movement, &cx, duration)?;
        moved.push(entry);
        mobiles.list[k].mobility = Some(Box::new(model));
    }
    // After the file's entries at the same time (ties keep file order; these come last, in
    // mobile node order).
    timeline.extend(moved);
    timeline.sort_by_key(|e| e.at);
    // "overlap" windows follow the movement of the one mobile node.
    let movement = match mobiles.list.as_slice() {
        [one] => one.mobility.as_deref(),
        _ => None,
    };
    let metrics = timeline::metrics(&file.metrics, duration, movement)?;
    let touching = flows_touching(&flows, &mobiles);
    let mut warning_keys = Vec::with_capacity(specs.len());
    for (k, (path, spec)) in specs.iter().enumerate() {
        let mine: Vec<&FlowModel> = touching[k].iter().map(|&f| &flows[f]).collect();
        (mobiles.list[k].warning, mobiles.list[k].warning_rule) =
            warning::resolve(spec, path, &mobiles.list[k], &topo, &mobiles, &mine, duration)?;
        let by_distance = spec.mobility.as_ref().is_some_and(|x| x.warning_distance.is_some());
        warning_keys.push(if by_distance { join(path, "mobility.warning_distance") } else { join(path, "warning") });
    }
    // A list per mobile node, no longer needed: freed before the address table is made, the
    // last of loading's large allocations (issue #29, memory per flow).
    drop(touching);
    check_link_events(&mobiles, &timeline, duration, &warning_keys)?;
    let addresses = addresses::resolve(&file.nodes, &specs, &mobiles.list)?;
    let agent_cx = agents::Context { topo: &topo, flows: &flows, duration, mobiles: &mobiles };
    let agents = agents::resolve(&file.agents, &agent_cx)?;
    let pcap = output::resolve(&file.output, &topo.links)?;
    Ok(Scenario {
        name: file.name.unwrap_or_else(|| "scenario".to_owned()),
        duration,
        seed: file.seed.unwrap_or(1),
        nodes: tight(topo.nodes),
        links: topo.links,
        flows: tight(flows),
        timeline,
        detail: file.output.detail.unwrap_or(Detail::Summary),
        metrics,
        mobiles: tight(mobiles.list),
        addresses: tight(addresses),
        agents,
        pcap,
    })
}

/// The one string of `name` among `names`, added if new: a name many entries give alike (a
/// scheme, a population's interface) is kept once, not once per entry (issue #29, memory per
/// flow).
fn shared(names: &mut Vec<std::sync::Arc<str>>, name: &str) -> std::sync::Arc<str> {
    if let Some(s) = names.iter().find(|s| &***s == name) {
        return s.clone();
    }
    let s: std::sync::Arc<str> = std::sync::Arc::from(name);
    names.push(s.clone());
    s
}

/// `v` without the spare capacity it grew (a population's lists hold one entry per user, and
/// the run keeps them: issue #29, memory per flow).
fn tight<T>(mut v: Vec<T>) -> Vec<T> {
    v.shrink_to_fit();
    v
}

/// The flows with an endpoint on each mobile node.
fn flows_touching(flows: &[FlowModel], mobiles: &mobile::Mobiles) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); mobiles.list.len()];
    for (f, flow) in flows.iter().enumerate() {
        for (k, _) in [flow.src, flow.dst].into_iter().filter_map(|n| mobiles.at(n)) {
            if out[k].last() != Some(&f) {
                out[k].push(f);
            }
        }
    }
    out
}

/// Every handover's warning must come after 0, and its binding update before the end of the
/// run; `warning_keys[k]` is the key mobile node k's warning came from.
fn check_link_events(
    mobiles: &mobile::Mobiles,
    timeline: &[TimelineEntry],
    duration: SimDuration,
    warning_keys: &[String],
) -> Result<()> {
    for (m, path) in mobiles.list.iter().zip(&mobiles.paths) {
        if m.binding.latency >= duration {
            let msg = format!(
                "{} is longer than the run (duration {})",
                fmt_duration(m.binding.latency),
                fmt_duration(duration)
            );
            return Err(err(join(path, "binding.latency"), msg));
        }
    }
    for e in timeline {
        let Action::Handover { kind, mobile, .. } = &e.action else { continue };
        let (m, path) = (&mobiles.list[*mobile as usize], &mobiles.paths[*mobile as usize]);
        let start = e.at - SimTime::ZERO;
        if m.warning > start {
            let msg = format!(
                "the warning {} before the handover at {} would come before 0s",
                fmt_duration(m.warning),
                fmt_duration(start)
            );
            return Err(err(&warning_keys[*mobile as usize], msg));
        }
        let bound = start + kind.outage() + m.binding.latency;
        if bound >= duration {
            let msg = format!(
                "the binding update of the handover at {} would complete at {}, not before the end of the run (duration {})",
                fmt_duration(start),
                fmt_duration(bound),
                fmt_duration(duration)
            );
            return Err(err(join(path, "binding.latency"), msg));
        }
    }
    Ok(())
}

/// Check that a point in time lies before the end of the run.
fn before_end(at: SimDuration, duration: SimDuration, path: &str) -> Result<SimTime> {
    if at >= duration {
        let msg = format!(
            "{} is not before the end of the run (duration {})",
            fmt_duration(at),
            fmt_duration(duration)
        );
        return Err(err(path, msg));
    }
    Ok(SimTime(at.as_nanos()))
}
