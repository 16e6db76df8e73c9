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
mod mobile;
mod mobility;
mod msctp;
pub(crate) mod output;
mod sctp;
mod timeline;
mod topology;
mod trace;
mod warning;

use crate::error::{err, Result};
use crate::model::{Action, Detail, MobileModel, Scenario, TimelineEntry};
use crate::schema::ScenarioFile;
use crate::units::fmt_duration;
use vhsim_core::{SimDuration, SimTime};

/// Validate `file` and resolve it into a [`Scenario`].
pub(crate) fn resolve(file: ScenarioFile) -> Result<Scenario> {
    let duration = file.duration.0;
    if duration == SimDuration::ZERO {
        return Err(err("duration", "the run must last longer than 0s"));
    }
    if file.flows.is_empty() {
        return Err(err("flows", "at least one flow is required (add a [flows.<name>] table)"));
    }
    let expanded = flows::expanded_names(&file.flows);
    let flow_names: Vec<&str> = expanded.iter().map(String::as_str).collect();
    let mut topo = topology::resolve(&file.nodes, &file.links, &flow_names)?;
    let mut mobile = file.mobile.as_ref().map(|m| mobile::resolve(m, &topo)).transpose()?;
    if let Some(m) = &mobile {
        // While the initial interface is in use, every node routes as that interface says.
        for (node, routes) in topo.nodes.iter_mut().zip(&m.interfaces[m.initial as usize].routes) {
            node.routes.clone_from(routes);
        }
    }
    let flows = flows::resolve(&file.flows, &topo, mobile.as_ref(), duration)?;
    let mut timeline = timeline::resolve(&file.timeline, &topo, duration, mobile.as_ref())?;
    if let (Some(m), Some(spec)) = (&mut mobile, file.mobile.as_ref().and_then(|m| m.mobility.as_ref())) {
        let (model, entry) = mobility::resolve(spec, m, &file.timeline, duration)?;
        // After the file's entries at the same time (ties keep file order; this one comes last).
        let at = timeline.partition_point(|e| e.at <= entry.at);
        timeline.insert(at, entry);
        m.mobility = Some(model);
    }
    let metrics = timeline::metrics(&file.metrics, duration, mobile.as_ref().and_then(|m| m.mobility.as_ref()))?;
    if let (Some(m), Some(spec)) = (&mut mobile, file.mobile.as_ref()) {
        (m.warning, m.warning_rule) = warning::resolve(spec, m, &topo, &flows, duration)?;
        let by_distance = spec.mobility.as_ref().is_some_and(|x| x.warning_distance.is_some());
        let key = if by_distance { "mobile.mobility.warning_distance" } else { "mobile.warning" };
        check_link_events(m, &timeline, duration, key)?;
    }
    let mobile_node = mobile.as_ref().map(|m| m.node);
    let addresses = addresses::resolve(&file.nodes, file.mobile.as_ref().zip(mobile_node))?;
    let agent_cx = agents::Context {
        topo: &topo,
        flows: &flows,
        duration,
        mobile: mobile.as_ref().zip(file.mobile.as_ref()),
    };
    let agents = agents::resolve(&file.agents, &agent_cx)?;
    let pcap = output::resolve(&file.output, &topo.links)?;
    Ok(Scenario {
        name: file.name.unwrap_or_else(|| "scenario".to_owned()),
        duration,
        seed: file.seed.unwrap_or(1),
        nodes: topo.nodes,
        links: topo.links,
        flows,
        timeline,
        detail: file.output.detail.unwrap_or(Detail::Summary),
        metrics,
        mobile,
        addresses,
        agents,
        pcap,
    })
}

/// Every handover's warning must come after 0, and its binding update before the end of the run.
fn check_link_events(
    m: &MobileModel,
    timeline: &[TimelineEntry],
    duration: SimDuration,
    warning_key: &str,
) -> Result<()> {
    if m.binding.latency >= duration {
        let msg = format!(
            "{} is longer than the run (duration {})",
            fmt_duration(m.binding.latency),
            fmt_duration(duration)
        );
        return Err(err("mobile.binding.latency", msg));
    }
    for e in timeline {
        let Action::Handover { kind, .. } = &e.action else { continue };
        let start = e.at - SimTime::ZERO;
        if m.warning > start {
            let msg = format!(
                "the warning {} before the handover at {} would come before 0s",
                fmt_duration(m.warning),
                fmt_duration(start)
            );
            return Err(err(warning_key, msg));
        }
        let bound = start + kind.outage() + m.binding.latency;
        if bound >= duration {
            let msg = format!(
                "the binding update of the handover at {} would complete at {}, not before the end of the run (duration {})",
                fmt_duration(start),
                fmt_duration(bound),
                fmt_duration(duration)
            );
            return Err(err("mobile.binding.latency", msg));
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
