//! Node agents (`[[agents]]`).

use super::before_end;
use super::topology::Topology;
use crate::error::{err, join, list, Result};
use crate::model::{
    ActiveModeAfter, AgentKind, AgentModel, DsAnchorModel, DsMobileModel, DsTimer, FlowModel, MobileModel,
    PacketRule,
};
use crate::schema::{ActiveModeAfterSpec, AgentKindSpec, AgentSpec, DsTimerSpec, MobileSpec, PacketKindSpec};
use crate::units::fmt_duration;
use vhsim_core::SimDuration;

/// What agents may refer to besides themselves.
pub(super) struct Context<'a> {
    pub topo: &'a Topology,
    pub flows: &'a [FlowModel],
    pub duration: SimDuration,
    /// The mobile node as resolved, and as written (for its interfaces' attach links).
    pub mobile: Option<(&'a MobileModel, &'a MobileSpec)>,
}

/// Resolve every agent, in file order.
pub(super) fn resolve(agents: &[AgentSpec], cx: &Context) -> Result<Vec<AgentModel>> {
    let out = agents
        .iter()
        .enumerate()
        .map(|(i, a)| agent(a, &format!("agents[{i}]"), cx))
        .collect::<Result<Vec<_>>>()?;
    check_peers(&out, cx)?;
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

/// A Delivery Service: its side follows from its node (the anchor or the mobile node).
fn delivery_service(a: &AgentSpec, node: u32, path: &str, cx: &Context) -> Result<AgentKind> {
    let p = |k: &str| join(path, k);
    let Some((m, spec)) = cx.mobile else {
        return Err(err(
            p("kind"),
            "a Delivery Service needs a [mobile] section (it serves the mobile node)",
        ));
    };
    let names = || list(m.interfaces.iter().map(|i| &i.name));
    let node_name = |n: u32| &cx.topo.names[n as usize];
    let iface_name = a.interface.as_deref().ok_or_else(|| {
        err(path, format!("kind = \"delivery_service\" needs `interface`, the one given the acknowledged service (interfaces: {})", names()))
    })?;
    let interface = m.interfaces.iter().position(|i| i.name == iface_name).ok_or_else(|| {
        err(p("interface"), format!("unknown interface `{iface_name}` (interfaces: {})", names()))
    })?;
    let (anchor, mn) = (node_name(m.anchor), node_name(m.node));
    if node == m.anchor {
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
        let iface = &m.interfaces[interface];
        let guarded_link = iface.address_routes[m.anchor as usize].ok_or_else(|| {
            err(
                p("interface"),
                format!("the anchor `{anchor}` has no path to the mobile node through `{iface_name}`"),
            )
        })?;
        let n_nodes = cx.topo.names.len() as u32;
        let mobile_addresses =
            std::iter::once(m.node).chain((0..m.interfaces.len() as u32).map(|k| n_nodes + k)).collect();
        let buffer = match a.buffer {
            Some(b) if b.0 == 0 => return Err(err(p("buffer"), "must be at least 1B (omit it for no bound)")),
            b => b.map(|b| b.0),
        };
        let timer = match a.timer {
            None | Some(DsTimerSpec::RestartOnProgress) => DsTimer::RestartOnProgress,
            Some(DsTimerSpec::PacketAge) => DsTimer::PacketAge,
        };
        Ok(AgentKind::DeliveryServiceAnchor(DsAnchorModel {
            interface: interface as u32,
            timeout,
            guarded_link,
            mobile_addresses,
            buffer,
            timer,
        }))
    } else if node == m.node {
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
            Some(s) => {
                u32::try_from(s.0).map_err(|_| err(p("ack_size"), format!("{}B is too large", s.0)))?
            }
        };
        let active_mode = match a.active_mode {
            Some(d) if d.0 == SimDuration::ZERO => {
                return Err(err(p("active_mode"), "must be greater than 0s"))
            }
            d => d.map(|d| d.0),
        };
        if a.active_mode_after.is_some() && active_mode.is_none() {
            return Err(err(p("active_mode_after"), "needs `active_mode` (how long the active mode lasts)"));
        }
        let active_mode_after = match a.active_mode_after {
            None | Some(ActiveModeAfterSpec::HandoverTo) => ActiveModeAfter::HandoverTo,
            Some(ActiveModeAfterSpec::AnyHandover) => ActiveModeAfter::AnyHandover,
        };
        let (attach_name, attach_path) = {
            let i = &spec.interfaces[interface];
            (i.attach.as_deref().unwrap_or(&i.access), format!("mobile.interfaces.{iface_name}"))
        };
        let arrivals = cx
            .topo
            .link(attach_name, &attach_path)?
            .iter()
            .copied()
            .filter(|&d| cx.topo.links[d as usize].to == m.node)
            .collect();
        let address = cx.topo.names.len() as u32 + interface as u32;
        Ok(AgentKind::DeliveryServiceMobile(DsMobileModel {
            interface: interface as u32,
            address,
            anchor_address: m.anchor,
            arrivals,
            ack_size,
            ack_every,
            ack_delay,
            active_mode,
            active_mode_after,
        }))
    } else {
        let msg = format!(
            "a Delivery Service runs at the mobile node's anchor (`{anchor}`) or at the mobile node (`{mn}`), not at `{}`",
            node_name(node)
        );
        Err(err(p("node"), msg))
    }
}

/// Every Delivery Service needs exactly one peer at the other end, for the same interface.
fn check_peers(agents: &[AgentModel], cx: &Context) -> Result<()> {
    let side = |a: &AgentModel| match &a.kind {
        AgentKind::DeliveryServiceAnchor(d) => Some((0, d.interface)),
        AgentKind::DeliveryServiceMobile(d) => Some((1, d.interface)),
        _ => None,
    };
    for (i, a) in agents.iter().enumerate() {
        let Some((s, iface)) = side(a) else { continue };
        let Some((m, _)) = cx.mobile else { continue };
        let path = format!("agents[{i}]");
        if agents[..i].iter().any(|b| side(b) == Some((s, iface))) {
            return Err(err(path, "a second Delivery Service on the same node for the same interface"));
        }
        if !agents.iter().any(|b| side(b) == Some((1 - s, iface))) {
            let peer = cx.topo.names[if s == 0 { m.node } else { m.anchor } as usize].as_str();
            let iface_name = &m.interfaces[iface as usize].name;
            let msg = format!(
                "a Delivery Service needs its peer: add an agent with node = \"{peer}\", kind = \"delivery_service\", interface = \"{iface_name}\""
            );
            return Err(err(path, msg));
        }
    }
    Ok(())
}

fn no_fields(path: &str, fields: &[(&str, bool, &str)]) -> Result<()> {
    match fields.iter().find(|(_, present, _)| *present) {
        Some((key, _, kind)) => {
            Err(err(join(path, key), format!("`{key}` is only allowed with kind = \"{kind}\"")))
        }
        None => Ok(()),
    }
}
