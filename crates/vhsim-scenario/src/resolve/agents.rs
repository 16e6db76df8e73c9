//! Node agents (`[[agents]]`).

use super::before_end;
use super::mobile::Mobiles;
use super::topology::Topology;
use crate::error::{err, join, list, Result};
use crate::model::{
    ActiveModeAfter, AgentKind, AgentModel, DsAnchorModel, DsMobileModel, DsServed, DsTimer, FlowModel, MobileModel,
    PacketRule,
};
use std::collections::HashSet;
use crate::schema::{ActiveModeAfterSpec, AgentKindSpec, AgentSpec, DsTimerSpec, PacketKindSpec};
use crate::units::fmt_duration;
use vhsim_core::SimDuration;

/// What agents may refer to besides themselves.
pub(super) struct Context<'a> {
    pub topo: &'a Topology,
    pub flows: &'a [FlowModel],
    pub duration: SimDuration,
    /// The mobile nodes as resolved.
    pub mobiles: &'a Mobiles,
}

/// Resolve every agent, in file order.
pub(super) fn resolve(agents: &[AgentSpec], cx: &Context) -> Result<Vec<AgentModel>> {
    let mut out = agents
        .iter()
        .enumerate()
        .map(|(i, a)| agent(a, &format!("agents[{i}]"), cx))
        .collect::<Result<Vec<_>>>()?;
    delivery_service_peers(&mut out, agents, cx)?;
    Ok(out)
}

fn agent(a: &AgentSpec, path: &str, cx: &Context) -> Result<AgentModel> {
    let p = |k: &str| join(path, k);
    let node = cx.topo.node(&a.node, &p("node"))?;
    let flow = match &a.flow {
        None => None,
        Some(name) => Some(cx.flows.iter().position(|f| &f.name == name).ok_or_else(|| {
            err(
                p("flow"),
                format!("unknown flow `{name}` (flows: {})", list(cx.flows.iter().map(|f| &f.name))),
            )
        })? as u32),
    };
    let kinds = a
        .kinds
        .iter()
        .flatten()
        .map(|k| match k {
            PacketKindSpec::Data => 0,
            PacketKindSpec::Ack => 1,
            PacketKindSpec::Control => 2,
        })
        .collect();
    let rule = PacketRule { flow, kinds, seqs: a.seqs.clone() };
    let ruled = a.flow.is_some() || a.kinds.is_some() || a.seqs.is_some();
    let rule_key = if a.flow.is_some() {
        "flow"
    } else if a.kinds.is_some() {
        "kinds"
    } else {
        "seqs"
    };
    let timed = [("from", a.from.is_some(), "hold"), ("until", a.until.is_some(), "hold")];
    let ds = [
        ("interface", a.interface.is_some(), "delivery_service"),
        ("timeout", a.timeout.is_some(), "delivery_service"),
        ("buffer", a.buffer.is_some(), "delivery_service"),
        ("timer", a.timer.is_some(), "delivery_service"),
        ("ack_size", a.ack_size.is_some(), "delivery_service"),
        ("ack_every", a.ack_every.is_some(), "delivery_service"),
        ("ack_delay", a.ack_delay.is_some(), "delivery_service"),
        ("active_mode", a.active_mode.is_some(), "delivery_service"),
        ("active_mode_after", a.active_mode_after.is_some(), "delivery_service"),
    ];
    let kind = match a.kind {
        AgentKindSpec::Counter => {
            if ruled {
                return Err(err(p(rule_key), "a counter has no rule (fields: node, kind)"));
            }
            no_fields(path, &[&timed[..], &ds[..]].concat())?;
            AgentKind::Counter
        }
        AgentKindSpec::DropFilter => {
            no_fields(path, &[&timed[..], &ds[..]].concat())?;
            AgentKind::DropFilter { rule }
        }
        AgentKindSpec::Hold => {
            no_fields(path, &ds)?;
            let from = a.from.ok_or_else(|| err(path, "kind = \"hold\" needs `from` and `until`"))?.0;
            let until = a.until.ok_or_else(|| err(path, "kind = \"hold\" needs `from` and `until`"))?.0;
            let until_t = before_end(until, cx.duration, &p("until"))?;
            if from >= until {
                let msg =
                    format!("`from` {} must be before `until` {}", fmt_duration(from), fmt_duration(until));
                return Err(err(p("from"), msg));
            }
            AgentKind::Hold { rule, from: vhsim_core::SimTime(from.as_nanos()), until: until_t }
        }
        AgentKindSpec::DeliveryService => {
            if ruled {
                return Err(err(
                    p(rule_key),
                    "a Delivery Service has no rule (it serves every packet for the mobile node)",
                ));
            }
            no_fields(path, &timed)?;
            delivery_service(a, node, path, cx)?
        }
    };
    Ok(AgentModel { node, kind })
}

/// A Delivery Service: its side follows from its node (a mobile node, or a mobile node's
/// anchor). The anchor's serves every mobile node anchored there that has the interface and a
/// Delivery Service of its own for it; which those are is settled by
/// [`delivery_service_peers`].
fn delivery_service(a: &AgentSpec, node: u32, path: &str, cx: &Context) -> Result<AgentKind> {
    let p = |k: &str| join(path, k);
    let list_ = &cx.mobiles.list;
    if list_.is_empty() {
        return Err(err(p("kind"), "a Delivery Service needs a [mobile] section (it serves the mobile node)"));
    }
    let node_name = |n: u32| &cx.topo.names[n as usize];
    let anchored: Vec<&MobileModel> = list_.iter().filter(|m| m.anchor == node).collect();
    let here = cx.mobiles.at(node).map(|(_, m)| m);
    // The interfaces it may name: its mobile node's, or those of the mobile nodes anchored here.
    let candidates: Vec<&MobileModel> = match here {
        Some(m) => vec![m],
        None if !anchored.is_empty() => anchored.clone(),
        None => {
            let msg = match list_.as_slice() {
                [m] => format!(
                    "a Delivery Service runs at the mobile node's anchor (`{}`) or at the mobile node (`{}`), not at `{}`",
                    node_name(m.anchor),
                    node_name(m.node),
                    node_name(node)
                ),
                _ => format!("a Delivery Service runs at a mobile node's anchor or at a mobile node, not at `{}`", node_name(node)),
            };
            return Err(err(p("node"), msg));
        }
    };
    let mut names: Vec<&str> = Vec::new();
    for m in &candidates {
        for i in &m.interfaces {
            if !names.contains(&&*i.name) {
                names.push(&i.name[..]);
            }
        }
    }
    let iface_name = a.interface.as_deref().ok_or_else(|| {
        err(path, format!("kind = \"delivery_service\" needs `interface`, the one given the acknowledged service (interfaces: {})", list(&names)))
    })?;
    if !names.iter().any(|n| *n == iface_name) {
        return Err(err(p("interface"), format!("unknown interface `{iface_name}` (interfaces: {})", list(&names))));
    }
    let (anchor, mn) = (node_name(candidates[0].anchor), node_name(candidates[0].node));
    let Some(m) = here else {
        let mobile_keys = [
            ("ack_size", a.ack_size.is_some()),
            ("ack_every", a.ack_every.is_some()),
            ("ack_delay", a.ack_delay.is_some()),
            ("active_mode", a.active_mode.is_some()),
            ("active_mode_after", a.active_mode_after.is_some()),
        ];
        if let Some((key, _)) = mobile_keys.iter().find(|(_, present)| *present) {
            let msg = format!("`{key}` belongs to the mobile node's Delivery Service (node `{mn}`); this one runs at the anchor `{anchor}`");
            return Err(err(p(key), msg));
        }
        let timeout = a
            .timeout
            .ok_or_else(|| err(path, format!("the Delivery Service at the anchor `{anchor}` needs `timeout` (Sobral et al.: \"90ms\")")))?
            .0;
        if timeout == SimDuration::ZERO {
            return Err(err(p("timeout"), "must be greater than 0s"));
        }
        let buffer = match a.buffer {
            Some(b) if b.0 == 0 => return Err(err(p("buffer"), "must be at least 1B (omit it for no bound)")),
            b => b.map(|b| b.0),
        };
        let timer = match a.timer {
            None | Some(DsTimerSpec::RestartOnProgress) => DsTimer::RestartOnProgress,
            Some(DsTimerSpec::PacketAge) => DsTimer::PacketAge,
        };
        // The mobile nodes served are filled in by `delivery_service_peers`.
        return Ok(AgentKind::DeliveryServiceAnchor(DsAnchorModel { timeout, buffer, timer, served: Vec::new() }));
    };
    let anchor_keys = [("timeout", a.timeout.is_some()), ("buffer", a.buffer.is_some()), ("timer", a.timer.is_some())];
    if let Some((key, _)) = anchor_keys.iter().find(|(_, present)| *present) {
        let msg = format!("`{key}` belongs to the anchor's Delivery Service (node `{anchor}`); this one runs at the mobile node `{mn}`");
        return Err(err(p(key), msg));
    }
    let ack_every = match a.ack_every {
        None => 1,
        Some(0) => return Err(err(p("ack_every"), "must be at least 1 (packets per acknowledgement)")),
        Some(n) => n,
    };
    let ack_delay = match a.ack_delay {
        Some(_) if ack_every == 1 => {
            return Err(err(p("ack_delay"), "needs `ack_every` > 1 (with 1 every packet is acknowledged at once)"))
        }
        Some(d) if d.0 == SimDuration::ZERO => return Err(err(p("ack_delay"), "must be greater than 0s")),
        Some(d) => d.0,
        None => SimDuration::from_millis(10),
    };
    let ack_size = match a.ack_size {
        None => 40,
        Some(s) if s.0 == 0 => return Err(err(p("ack_size"), "must be at least 1B")),
        Some(s) => u32::try_from(s.0).map_err(|_| err(p("ack_size"), format!("{}B is too large", s.0)))?,
    };
    let active_mode = match a.active_mode {
        Some(d) if d.0 == SimDuration::ZERO => return Err(err(p("active_mode"), "must be greater than 0s")),
        d => d.map(|d| d.0),
    };
    if a.active_mode_after.is_some() && active_mode.is_none() {
        return Err(err(p("active_mode_after"), "needs `active_mode` (how long the active mode lasts)"));
    }
    let active_mode_after = match a.active_mode_after {
        None | Some(ActiveModeAfterSpec::HandoverTo) => ActiveModeAfter::HandoverTo,
        Some(ActiveModeAfterSpec::AnyHandover) => ActiveModeAfter::AnyHandover,
    };
    let interface = m.interfaces.iter().position(|i| &*i.name == iface_name).expect("checked above");
    let iface = &m.interfaces[interface];
    Ok(AgentKind::DeliveryServiceMobile(DsMobileModel {
        mobile: cx.mobiles.at(node).map_or(0, |(k, _)| k as u32),
        interface: interface as u32,
        address: iface.address,
        anchor_address: m.anchor,
        arrivals: vec![iface.attach.map_or(iface.downlink, |[down, _]| down)],
        ack_size,
        ack_every,
        ack_delay,
        active_mode,
        active_mode_after,
    }))
}

/// Every Delivery Service needs its peer for the same interface: the anchor's serves the
/// mobile nodes anchored there with one of their own (at least one), and a mobile node's needs
/// one at its anchor; at most one per node and interface.
fn delivery_service_peers(out: &mut [AgentModel], specs: &[AgentSpec], cx: &Context) -> Result<()> {
    let iface = |i: usize| specs[i].interface.clone().unwrap_or_default();
    let mut anchors: HashSet<(u32, String)> = HashSet::new();
    let mut mobiles: HashSet<(u32, String)> = HashSet::new();
    for (i, a) in out.iter().enumerate() {
        let fresh = match &a.kind {
            AgentKind::DeliveryServiceAnchor(_) => anchors.insert((a.node, iface(i))),
            AgentKind::DeliveryServiceMobile(_) => mobiles.insert((a.node, iface(i))),
            _ => true,
        };
        if !fresh {
            return Err(err(format!("agents[{i}]"), "a second Delivery Service on the same node for the same interface"));
        }
    }
    let peer_msg = |node: u32, name: &str| {
        format!(
            "a Delivery Service needs its peer: add an agent with node = \"{}\", kind = \"delivery_service\", interface = \"{name}\"",
            cx.topo.names[node as usize]
        )
    };
    for (i, a) in out.iter_mut().enumerate() {
        let name = iface(i);
        match &mut a.kind {
            AgentKind::DeliveryServiceAnchor(ds) => {
                for (k, m) in cx.mobiles.list.iter().enumerate().filter(|(_, m)| m.anchor == a.node) {
                    let Some(j) = m.interfaces.iter().position(|x| &*x.name == name) else { continue };
                    if !mobiles.contains(&(m.node, name.clone())) {
                        continue;
                    }
                    ds.served.push(served(k, m, j, &name, cx, &format!("agents[{i}].interface"))?);
                }
                if ds.served.is_empty() {
                    let first = cx.mobiles.list.iter().find(|m| m.anchor == a.node && m.interfaces.iter().any(|x| &*x.name == name));
                    let mn = first.expect("the interface is one of a mobile node anchored here").node;
                    return Err(err(format!("agents[{i}]"), peer_msg(mn, &name)));
                }
            }
            AgentKind::DeliveryServiceMobile(_) => {
                let (_, m) = cx.mobiles.at(a.node).expect("a mobile node's Delivery Service");
                if !anchors.contains(&(m.anchor, name.clone())) {
                    return Err(err(format!("agents[{i}]"), peer_msg(m.anchor, &name)));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Mobile node `k` (`m`) served on its interface `j` (`name`) by the Delivery Service at its
/// anchor: the anchor's first hop onto the interface's path is the link it guards.
fn served(k: usize, m: &MobileModel, j: usize, name: &str, cx: &Context, path: &str) -> Result<DsServed> {
    let iface = &m.interfaces[j];
    let guarded_link = if m.anchor == iface.attach_node {
        iface.attach.map(|[down, _]| down)
    } else {
        cx.topo.nodes[m.anchor as usize].routes[iface.attach_node as usize]
    };
    let guarded_link = guarded_link.ok_or_else(|| {
        let anchor = &cx.topo.names[m.anchor as usize];
        err(path, format!("the anchor `{anchor}` has no path to the mobile node through `{name}`"))
    })?;
    let addresses = std::iter::once(m.node).chain(m.interfaces.iter().map(|i| i.address)).collect();
    Ok(DsServed { mobile: k as u32, interface: j as u32, guarded_link, addresses })
}

fn no_fields(path: &str, fields: &[(&str, bool, &str)]) -> Result<()> {
    match fields.iter().find(|(_, present, _)| *present) {
        Some((key, _, kind)) => {
            Err(err(join(path, key), format!("`{key}` is only allowed with kind = \"{kind}\"")))
        }
        None => Ok(()),
    }
}
