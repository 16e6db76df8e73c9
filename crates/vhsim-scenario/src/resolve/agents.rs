//! Node agents (`[[agents]]`).

use super::before_end;
use super::topology::Topology;
use crate::error::{err, join, list, Result};
use crate::model::{AgentKind, AgentModel, FlowModel, PacketRule};
use crate::schema::{AgentKindSpec, AgentSpec, PacketKindSpec};
use crate::units::fmt_duration;
use vhsim_core::SimDuration;

/// Resolve every agent, in file order.
pub(super) fn resolve(
    agents: &[AgentSpec],
    topo: &Topology,
    flows: &[FlowModel],
    duration: SimDuration,
) -> Result<Vec<AgentModel>> {
    agents.iter().enumerate().map(|(i, a)| agent(a, &format!("agents[{i}]"), topo, flows, duration)).collect()
}

fn agent(a: &AgentSpec, path: &str, topo: &Topology, flows: &[FlowModel], duration: SimDuration) -> Result<AgentModel> {
    let p = |k: &str| join(path, k);
    let node = topo.node(&a.node, &p("node"))?;
    let flow = match &a.flow {
        None => None,
        Some(name) => Some(flows.iter().position(|f| &f.name == name).ok_or_else(|| {
            err(p("flow"), format!("unknown flow `{name}` (flows: {})", list(flows.iter().map(|f| &f.name))))
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
    let timed = [("from", a.from.is_some()), ("until", a.until.is_some())];
    let kind = match a.kind {
        AgentKindSpec::Counter => {
            if ruled {
                let key = if a.flow.is_some() { "flow" } else if a.kinds.is_some() { "kinds" } else { "seqs" };
                return Err(err(p(key), "a counter has no rule (fields: node, kind)"));
            }
            no_fields(path, &timed, "counter")?;
            AgentKind::Counter
        }
        AgentKindSpec::DropFilter => {
            no_fields(path, &timed, "drop_filter")?;
            AgentKind::DropFilter { rule }
        }
        AgentKindSpec::Hold => {
            let from = a.from.ok_or_else(|| err(path, "kind = \"hold\" needs `from` and `until`"))?.0;
            let until = a.until.ok_or_else(|| err(path, "kind = \"hold\" needs `from` and `until`"))?.0;
            let until_t = before_end(until, duration, &p("until"))?;
            if from >= until {
                let msg = format!("`from` {} must be before `until` {}", fmt_duration(from), fmt_duration(until));
                return Err(err(p("from"), msg));
            }
            AgentKind::Hold { rule, from: vhsim_core::SimTime(from.as_nanos()), until: until_t }
        }
    };
    Ok(AgentModel { node, kind })
}

fn no_fields(path: &str, fields: &[(&str, bool)], kind: &str) -> Result<()> {
    match fields.iter().find(|(_, present)| *present) {
        Some((key, _)) => Err(err(join(path, key), format!("`{key}` is only allowed with kind = \"hold\", not \"{kind}\""))),
        None => Ok(()),
    }
}
