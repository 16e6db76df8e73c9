//! Flows: endpoints, preset, configuration overrides, application, start/stop, and a route
//! both ways.
//!
//! `count = N` (N > 1) makes N identical flows `<name>.0` ... `<name>.<N-1>`, in place of the
//! file's flow (Lim & Jang §5.1: "forward cross traffic consisting of several TCP
//! connections"). With `start_spread`, each flow's start is drawn when the world is built:
//! flow `<name>.i` takes draw i of the stream `flow/<name>/start`, so adding or removing another
//! flow never changes its start.

use super::mobile::Mobiles;
use super::topology::Topology;
use super::{app, before_end, datagram, sctp};
use crate::error::{err, join, list, Result};
use crate::model::{AppModel, CbrModel, FlowModel, StartSpread, TransportModel};
use std::collections::HashSet;
use std::sync::Arc;
use crate::schema::{FlowSpec, Protocol};
use crate::units::fmt_duration;
use indexmap::IndexMap;
use vhsim_core::{SimDuration, SimTime};
use vhsim_tcp::{presets, Defaults, SinkConfig, TcpConfig};

/// Names of the flows after `count` expansion, in order (a `count` of 0 is reported by
/// [`resolve`]; here it yields no names).
pub(super) fn expanded_names(flows: &IndexMap<String, FlowSpec>) -> Vec<String> {
    let mut names = Vec::new();
    for (name, spec) in flows {
        match spec.count.unwrap_or(1) {
            1 => names.push(name.clone()),
            n => names.extend((0..n).map(|i| format!("{name}.{i}"))),
        }
    }
    names
}

/// Resolve every flow, in file order, expanding `count`.
pub(super) fn resolve(
    flows: &IndexMap<String, FlowSpec>,
    topo: &Topology,
    mobiles: &Mobiles,
    duration: SimDuration,
    defaults: Defaults,
) -> Result<Vec<FlowModel>> {
    let mut out: Vec<FlowModel> = Vec::new();
    // One allocation for them all (a population's thousands); a count too large to allocate is
    // left to fail where it is reported.
    let total = flows.values().try_fold(0usize, |n, s| n.checked_add(usize::try_from(s.count.unwrap_or(1)).ok()?));
    if let Some(total) = total {
        let _ = out.try_reserve_exact(total);
    }
    // A name can repeat only through a `count` (`<name>.<i>` against another flow's name; the
    // map's keys are distinct): without one, no set of names. A population's members have none,
    // and the set (a copy of every name) added to loading's peak (issue #29, memory per flow).
    let expands = flows.values().any(|s| s.count.unwrap_or(1) > 1);
    let mut names: HashSet<String> = HashSet::new();
    let mut configs = Configs { defaults, read: Vec::new(), schemes: Vec::new(), cbr: None };
    for (name, spec) in flows {
        let path = format!("flows.{name}");
        let count = spec.count.unwrap_or(1);
        if count == 0 {
            return Err(err(join(&path, "count"), "must be at least 1"));
        }
        let template = flow(name, spec, topo, mobiles, duration, &mut configs)?;
        for i in 0..count {
            let mut f = template.clone();
            if count > 1 {
                f.name = format!("{name}.{i}");
            }
            if let Some(s) = &mut f.start_spread {
                s.draw = i;
            }
            if expands && !names.insert(f.name.clone()) {
                let msg =
                    format!("flow `{}` already exists (flows with `count` are named <name>.<i>)", f.name);
                return Err(err(if count > 1 { join(&path, "count") } else { path }, msg));
            }
            out.push(f);
        }
    }
    Ok(out)
}

fn flow(
    name: &str,
    spec: &FlowSpec,
    topo: &Topology,
    mobiles: &Mobiles,
    duration: SimDuration,
    configs: &mut Configs,
) -> Result<FlowModel> {
    let path = format!("flows.{name}");
    let p = |k: &str| join(&path, k);
    let src = topo.node(&spec.from, &p("from"))?;
    let dst = topo.node(&spec.to, &p("to"))?;
    if src == dst {
        let msg = format!("a flow needs two different nodes; `from` and `to` are both `{}`", spec.to);
        return Err(err(p("to"), msg));
    }
    let start = before_end(spec.start.map_or(SimDuration::ZERO, |d| d.0), duration, &p("start"))?;
    let spread = spec.start_spread.map_or(SimDuration::ZERO, |d| d.0);
    let latest = start + spread;
    if latest > SimTime::ZERO + duration {
        let msg = format!(
            "start {} + start_spread {} ends after the end of the run (duration {})",
            fmt_duration(start - SimTime::ZERO),
            fmt_duration(spread),
            fmt_duration(duration)
        );
        return Err(err(p("start_spread"), msg));
    }
    let stop = match spec.stop {
        Some(d) if SimTime(d.0.as_nanos()) <= start => {
            let msg =
                format!("{} is not after start ({})", fmt_duration(d.0), fmt_duration(start - SimTime::ZERO));
            return Err(err(p("stop"), msg));
        }
        Some(d) if SimTime(d.0.as_nanos()) < latest => {
            let msg = format!(
                "{} is before the latest possible start, start + start_spread ({})",
                fmt_duration(d.0),
                fmt_duration(latest - SimTime::ZERO)
            );
            return Err(err(p("stop"), msg));
        }
        other => other.map(|d| SimTime(d.0.as_nanos())),
    };
    let start_spread = (spread > SimDuration::ZERO).then(|| StartSpread {
        spread,
        stream: format!("flow/{name}/start"),
        draw: 0,
    });
    let protocol = spec.protocol.unwrap_or(Protocol::Tcp);
    if protocol != Protocol::Sctp && spec.sctp.is_some() {
        return Err(err(p("sctp"), "`sctp` is only allowed with protocol = \"sctp\""));
    }
    let dst_addr = match &spec.to_interface {
        _ if protocol == Protocol::Sctp => dst, // set to the primary below
        None => {
            check_route(topo, mobiles, src, dst, &path, "")?;
            dst
        }
        Some(iface) => mobiles.care_of(dst, iface, &p("to_interface"))?,
    };
    let mut scheme = spec.scheme.clone().unwrap_or_else(|| "sack".to_owned());
    let transport = match protocol {
        Protocol::Tcp => {
            if spec.datagram.is_some() {
                return Err(err(p("datagram"), "`datagram` is only allowed with protocol = \"datagram\""));
            }
            let preset = presets::preset(&scheme).ok_or_else(|| {
                let names = list(presets::preset_names());
                let msg = if vhsim_sctp::presets::preset(&scheme).is_some() {
                    format!("`{scheme}` is an SCTP scheme: set protocol = \"sctp\" (TCP schemes: {names})")
                } else {
                    format!("unknown scheme `{scheme}` (schemes: {names})")
                };
                err(p("scheme"), msg)
            })?;
            // The preset's tables, then the flow's, read and checked by vhsim-tcp
            // (docs/schemes.md).
            let (tcp, sink) = configs.tcp(&scheme, preset, spec, &path)?;
            check_route(topo, mobiles, dst, src, &path, " for the ACKs")?;
            TransportModel::Tcp { tcp, sink }
        }
        Protocol::Datagram => datagram::resolve(spec, &path)?,
        Protocol::Sctp => {
            scheme = spec.scheme.clone().unwrap_or_else(|| "sctp".to_owned());
            let t = sctp::resolve(spec, src, dst, mobiles, duration, configs.defaults, &path)?;
            for (from, to, purpose) in [(src, dst, ""), (dst, src, " for the SACKs")] {
                if mobiles.at(to).is_none() {
                    check_route(topo, mobiles, from, to, &path, purpose)?;
                }
            }
            t
        }
    };
    let dst_addr = match &transport {
        TransportModel::Sctp(s) => s.primary,
        _ => dst_addr,
    };
    let app = configs.app(app::resolve(spec.app.as_ref(), transport_unit(&transport), &p("app"))?);
    if matches!(transport, TransportModel::Datagram { .. }) && !matches!(app, AppModel::Cbr(_))
    {
        return Err(err(p("app"), "protocol = \"datagram\" needs app = { kind = \"cbr\", ... } (a bulk datagram source would send without limit)"));
    }
    Ok(FlowModel {
        name: name.to_owned(),
        src,
        dst,
        dst_addr,
        start,
        start_spread: start_spread.map(Box::new),
        stop,
        scheme: configs.scheme(&scheme),
        transport,
        app,
    })
}

/// The scenario's set of defaults and the TCP configurations read so far, by (scheme, `tcp`
/// table, `sink` table): a population's thousands of flows share a few, and reading one costs
/// far more than comparing tables.
pub(super) struct Configs {
    defaults: Defaults,
    read: Vec<((String, toml::Table, toml::Table), Shared)>,
    /// The scheme names given so far, one string each for all the flows that name it.
    schemes: Vec<Arc<str>>,
    /// The CBR model of the latest flow that has one (a population's flows follow one another).
    cbr: Option<Arc<CbrModel>>,
}

/// A sender's and a sink's configuration, shared by the flows that read the same tables (and
/// by their endpoints: one copy per population, not per flow).
type Shared = (Arc<TcpConfig>, Arc<SinkConfig>);

impl Configs {
    /// `app`, its CBR model shared with the flow before's if they are the same.
    fn app(&mut self, app: AppModel) -> AppModel {
        let AppModel::Cbr(model) = &app else { return app };
        match &self.cbr {
            Some(shared) if shared == model => AppModel::Cbr(shared.clone()),
            _ => {
                self.cbr = Some(model.clone());
                app
            }
        }
    }

    /// The shared string of scheme name `name`.
    fn scheme(&mut self, name: &str) -> Arc<str> {
        super::shared(&mut self.schemes, name)
    }

    fn tcp(&mut self, scheme: &str, preset: &presets::Preset, spec: &FlowSpec, path: &str) -> Result<Shared> {
        let (tcp, sink) = (spec.tcp.table(), spec.sink.table());
        let same = |(s, t, k): &(String, toml::Table, toml::Table)| s == scheme && t == tcp && k == sink;
        if let Some((_, c)) = self.read.iter().find(|(key, _)| same(key)) {
            return Ok(c.clone());
        }
        let (tcp, sink) =
            preset.resolve(self.defaults, tcp, sink).map_err(|e| err(join(path, &e.path), e.message))?;
        let c = (Arc::new(tcp), Arc::new(sink));
        self.read.push(((scheme.to_owned(), spec.tcp.table().clone(), spec.sink.table().clone()), c.clone()));
        Ok(c)
    }
}

fn transport_unit(t: &TransportModel) -> u32 {
    match t {
        TransportModel::Tcp { tcp, .. } => tcp.segment_size,
        TransportModel::Datagram { size, .. } => *size,
        TransportModel::Sctp(s) => s.config.chunk_payload(),
    }
}

/// Follow the routing tables from `from` to `to`; an error at `path` if they do not get there.
fn check_route(topo: &Topology, mobiles: &Mobiles, from: u32, to: u32, path: &str, purpose: &str) -> Result<()> {
    let name = |n: u32| &topo.names[n as usize];
    let mut at = from;
    for _ in 0..topo.nodes.len() {
        if at == to {
            return Ok(());
        }
        let Some((_, next)) = mobiles.hop(topo, at, to) else {
            let mut msg = format!("no route from `{}` to `{}`{purpose}", name(from), name(to));
            if at != from {
                msg += &format!(": node `{}` has none", name(at));
            }
            return Err(err(path, msg + " (check the links and the nodes' `routes`)"));
        };
        at = next;
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
