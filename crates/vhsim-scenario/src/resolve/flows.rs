//! Flows: endpoints, preset, configuration overrides, start/stop, and a route both ways.

use super::topology::Topology;
use super::{before_end, transport};
use crate::error::{err, join, list, Result};
use crate::model::{AppModel, FlowModel};
use crate::schema::{AppKind, FlowSpec, Protocol};
use crate::units::fmt_duration;
use indexmap::IndexMap;
use vhsim_core::{SimDuration, SimTime};
use vhsim_tcp::presets;

/// Resolve every flow, in file order.
pub(super) fn resolve(
    flows: &IndexMap<String, FlowSpec>,
    topo: &Topology,
    duration: SimDuration,
) -> Result<Vec<FlowModel>> {
    flows.iter().map(|(name, spec)| flow(name, spec, topo, duration)).collect()
}

fn flow(name: &str, spec: &FlowSpec, topo: &Topology, duration: SimDuration) -> Result<FlowModel> {
    let path = format!("flows.{name}");
    let p = |k: &str| join(&path, k);
    let src = topo.node(&spec.from, &p("from"))?;
    let dst = topo.node(&spec.to, &p("to"))?;
    if src == dst {
        let msg = format!("a flow needs two different nodes; `from` and `to` are both `{}`", spec.to);
        return Err(err(p("to"), msg));
    }
    let scheme = spec.scheme.clone().unwrap_or_else(|| "sack".to_owned());
    let preset = presets::preset(&scheme).ok_or_else(|| {
        err(p("scheme"), format!("unknown scheme `{scheme}` (schemes: {})", list(presets::preset_names())))
    })?;
    let start = before_end(spec.start.map_or(SimDuration::ZERO, |d| d.0), duration, &p("start"))?;
    let stop = match spec.stop {
        Some(d) if SimTime(d.0.as_nanos()) <= start => {
            let msg =
                format!("{} is not after start ({})", fmt_duration(d.0), fmt_duration(start - SimTime::ZERO));
            return Err(err(p("stop"), msg));
        }
        other => other.map(|d| SimTime(d.0.as_nanos())),
    };
    let tcp = transport::tcp(preset.tcp_config(), &spec.tcp, &p("tcp"))?;
    let sink_spec = &spec.sink;
    let sink = transport::sink(preset.sink_config(), sink_spec, tcp.segment_size, &p("sink"))?;
    check_route(topo, src, dst, &path, "")?;
    check_route(topo, dst, src, &path, " for the ACKs")?;
    // Only TCP exists for now; the match makes adding a protocol a compile error here.
    match spec.protocol.unwrap_or(Protocol::Tcp) {
        Protocol::Tcp => {}
    }
    let app = match spec.app.as_ref().map_or(AppKind::Bulk, |a| a.kind) {
        AppKind::Bulk => AppModel::Bulk,
    };
    Ok(FlowModel { name: name.to_owned(), src, dst, start, stop, scheme, tcp, sink, app })
}

/// Follow the routing tables from `from` to `to`; an error at `path` if they do not get there.
fn check_route(topo: &Topology, from: u32, to: u32, path: &str, purpose: &str) -> Result<()> {
    let name = |n: u32| &topo.names[n as usize];
    let mut at = from;
    for _ in 0..topo.nodes.len() {
        if at == to {
            return Ok(());
        }
        let Some(l) = topo.nodes[at as usize].routes[to as usize] else {
            let mut msg = format!("no route from `{}` to `{}`{purpose}", name(from), name(to));
            if at != from {
                msg += &format!(": node `{}` has none", name(at));
            }
            return Err(err(path, msg + " (check the links and the nodes' `routes`)"));
        };
        at = topo.links[l as usize].to;
    }
    if at == to {
        return Ok(());
    }
    let msg = format!(
        "routing loop on the way from `{}` to `{}`{purpose} (check the nodes' `routes`)",
        name(from),
        name(to)
    );
    Err(err(path, msg))
}
