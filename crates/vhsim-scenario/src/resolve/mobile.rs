//! The mobile node: its interfaces and the routes each one implies.
//!
//! A handover changes the routes of two nodes only, as Mobile IP does: the anchor (the access
//! router where the interfaces' paths part) and the mobile node itself. Every other node keeps
//! the routes of its own side. For interface `i` the routes come from a breadth-first search in
//! the network without the other interfaces' attach links; a node other than the MN and the
//! anchor takes the routes of the interface whose path reaches the MN in the fewest hops. A
//! node that reaches the MN equally close through two interfaces with different first hops is
//! a second branching point, which the model does not support (it must be the anchor).

use super::topology::{shortest_first_hops, Topology};
use crate::error::{err, list, Result};
use crate::model::{BindingModel, InterfaceModel, MobileModel, OldPath};
use crate::schema::{MobileSpec, OldPathSpec};
use std::collections::VecDeque;
use vhsim_core::SimDuration;

/// Hop distance from every node to `target` over link directions not in `excluded`.
fn hops_to(target: usize, n: usize, topo: &Topology, excluded: &[u32]) -> Vec<Option<u32>> {
    let mut dist = vec![None; n];
    dist[target] = Some(0);
    let mut queue = VecDeque::from([target]);
    while let Some(v) = queue.pop_front() {
        let d = dist[v].unwrap_or(0);
        for (id, l) in topo.links.iter().enumerate() {
            if l.to as usize == v && !excluded.contains(&(id as u32)) && dist[l.from as usize].is_none() {
                dist[l.from as usize] = Some(d + 1);
                queue.push_back(l.from as usize);
            }
        }
    }
    dist
}

/// Resolve `[mobile]`.
pub(super) fn resolve(spec: &MobileSpec, topo: &Topology) -> Result<MobileModel> {
    let mn = topo.node(&spec.node, "mobile.node")? as usize;
    let anchor = topo.node(&spec.anchor, "mobile.anchor")? as usize;
    if anchor == mn {
        return Err(err("mobile.anchor", "the anchor must be another node than the mobile node"));
    }
    if spec.interfaces.len() < 2 {
        return Err(err("mobile.interfaces", "a mobile node needs at least two interfaces"));
    }
    let initial = spec.interfaces.get_index_of(&spec.initial).ok_or_else(|| {
        err(
            "mobile.initial",
            format!("unknown interface `{}` (interfaces: {})", spec.initial, list(spec.interfaces.keys())),
        )
    })?;
    // Per interface: access link directions, and the attach directions (the MN's own link).
    let mut access = Vec::new();
    let mut attach = Vec::new();
    for (name, i) in &spec.interfaces {
        let path = format!("mobile.interfaces.{name}");
        let acc = topo.link(&i.access, &format!("{path}.access"))?.to_vec();
        let (att_name, att_path) = match &i.attach {
            Some(a) => (a.as_str(), format!("{path}.attach")),
            None => (i.access.as_str(), format!("{path}.access")),
        };
        let att = topo.link(att_name, &att_path)?.to_vec();
        let touches_mn = att.iter().any(|&d| {
            let l = &topo.links[d as usize];
            l.from as usize == mn || l.to as usize == mn
        });
        if !touches_mn {
            let msg = format!(
                "link `{att_name}` does not end at the mobile node `{}`{}",
                spec.node,
                if i.attach.is_none() { " (give `attach` = the MN's own link on this side)" } else { "" }
            );
            return Err(err(att_path, msg));
        }
        if attach.iter().any(|a: &Vec<u32>| a == &att) {
            return Err(err(att_path, format!("link `{att_name}` is already another interface's link")));
        }
        access.push(acc);
        attach.push(att);
    }
    let n = topo.names.len();
    let excluded = |i: usize| -> Vec<u32> {
        attach.iter().enumerate().filter(|&(j, _)| j != i).flat_map(|(_, a)| a.iter().copied()).collect()
    };
    let own_routes: Vec<Vec<Vec<Option<u32>>>> = (0..attach.len())
        .map(|i| (0..n).map(|s| shortest_first_hops(s, n, &topo.links, &excluded(i))).collect())
        .collect();
    let dist: Vec<Vec<Option<u32>>> = (0..attach.len()).map(|i| hops_to(mn, n, topo, &excluded(i))).collect();
    let names: Vec<&String> = spec.interfaces.keys().collect();
    for (i, d) in dist.iter().enumerate() {
        if d[anchor].is_none() {
            let msg = format!(
                "the anchor `{}` cannot reach the mobile node through interface `{}`",
                spec.anchor, names[i]
            );
            return Err(err("mobile.anchor", msg));
        }
    }
    // Home interface of every other node: the one whose path to the MN is shortest.
    let mut home = vec![initial; n];
    for v in (0..n).filter(|&v| v != mn && v != anchor) {
        let Some(best) = (0..attach.len()).filter_map(|i| dist[i][v]).min() else { continue };
        let tied: Vec<usize> = (0..attach.len()).filter(|&i| dist[i][v] == Some(best)).collect();
        home[v] = if tied.contains(&initial) { initial } else { tied[0] };
        let hops: Vec<Option<u32>> = tied.iter().map(|&i| own_routes[i][v][mn]).collect();
        if hops.windows(2).any(|w| w[0] != w[1]) {
            let msg = format!(
                "node `{}` reaches `{}` through interfaces {} at the same distance by different links: \
                 it is a second branching point; make it the anchor or change the topology",
                topo.names[v],
                spec.node,
                list(tied.iter().map(|&i| names[i]))
            );
            return Err(err("mobile.anchor", msg));
        }
    }
    let interfaces = spec
        .interfaces
        .keys()
        .enumerate()
        .map(|(i, name)| {
            let mut routes: Vec<Vec<Option<u32>>> = (0..n)
                .map(|v| {
                    if v == mn || v == anchor {
                        own_routes[i][v].clone()
                    } else {
                        own_routes[home[v]][v].clone()
                    }
                })
                .collect();
            for &(s, d, dir) in &topo.explicit_routes {
                routes[s][d] = Some(dir);
            }
            let downlink = access[i]
                .iter()
                .copied()
                .find(|&d| {
                    let l = &topo.links[d as usize];
                    dist[i][l.to as usize].unwrap_or(u32::MAX) < dist[i][l.from as usize].unwrap_or(u32::MAX)
                })
                .unwrap_or(access[i][0]);
            // Towards this interface's care-of address every node takes this interface's own
            // path, whatever interface is in use.
            let address_routes = (0..n).map(|v| own_routes[i][v][mn]).collect();
            InterfaceModel { name: name.clone(), access: access[i].clone(), downlink, routes, address_routes }
        })
        .collect();
    let binding = spec.binding.as_ref();
    let binding = BindingModel {
        latency: binding.and_then(|b| b.latency).map_or(SimDuration::ZERO, |d| d.0),
        old_path: match binding.and_then(|b| b.old_path) {
            None | Some(OldPathSpec::Drop) => OldPath::Drop,
            Some(OldPathSpec::Forward) => OldPath::Forward,
        },
    };
    Ok(MobileModel {
        node: mn as u32,
        anchor: anchor as u32,
        initial: initial as u32,
        interfaces,
        mobility: None,
        binding,
        // Resolved once the flows are known (resolve/warning.rs).
        warning: SimDuration::ZERO,
        warning_rule: Default::default(),
    })
}
