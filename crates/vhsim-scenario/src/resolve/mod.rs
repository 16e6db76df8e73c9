//! From the file as written ([`crate::schema`]) to the resolved model ([`crate::model`]).
//!
//! Checks run in file order of concerns: run settings, topology (nodes, links, routes), flows,
//! timeline, metrics. The first error found is returned.

mod app;
mod flows;
mod link_models;
mod mobile;
mod mobility;
mod timeline;
mod topology;

use crate::error::{err, Result};
use crate::model::{Detail, Scenario};
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
    let flows = flows::resolve(&file.flows, &topo, duration)?;
    let mut timeline = timeline::resolve(&file.timeline, &topo, duration, mobile.as_ref())?;
    if let (Some(m), Some(spec)) = (&mut mobile, file.mobile.as_ref().and_then(|m| m.mobility.as_ref())) {
        let (model, entry) = mobility::resolve(spec, m, &file.timeline, duration)?;
        // After the file's entries at the same time (ties keep file order; this one comes last).
        let at = timeline.partition_point(|e| e.at <= entry.at);
        timeline.insert(at, entry);
        m.mobility = Some(model);
    }
    let metrics = timeline::metrics(&file.metrics, duration)?;
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
    })
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
