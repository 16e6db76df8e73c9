//! Nodes, link directions and static routes.
//!
//! Node ids follow file order. A duplex link `l` becomes `l/forward` (first node -> second) then
//! `l/reverse`; a simplex link becomes one direction named `l`; direction ids follow file order.
//! Routes: for every source other than a mobile node, a breadth-first search over the link
//! directions between nodes that are not mobile nodes (visiting each node's outgoing directions
//! in id order; the first path found wins) gives shortest-hop first hops; mobile nodes are
//! leaves, reached through their interfaces (`super::mobile`); then the nodes' explicit
//! `routes` replace the automatic entry for their destinations ([`Topology::apply_explicit`]).

use super::{link_models, trace};
use crate::error::{err, join, list, Result};
use crate::model::{LinkModel, NodeModel};
use crate::schema::{DirectionSpec, LinkSpec, NodeSpec};
use crate::units::AmountKind;
use indexmap::IndexMap;
use std::collections::{HashMap, VecDeque};
use vhsim_core::Rate;
use vhsim_net::{ErrorModelConfig, QueueLimit, TraceConfig};

/// The resolved network plus the name lookups later stages need.
pub(crate) struct Topology {
    /// Node names, by id.
    pub names: Vec<String>,
    /// Node ids by name.
    index: HashMap<String, u32>,
    /// Nodes with their routes.
    pub nodes: Vec<NodeModel>,
    /// Link directions.
    pub links: Vec<LinkModel>,
    /// File link name -> its direction ids (`[forward, reverse]` or `[only]`).
    pub link_dirs: IndexMap<String, Vec<u32>>,
    /// Explicit routes from the file: (node, destination, link direction).
    pub explicit_routes: Vec<(usize, usize, u32)>,
    /// Whether each node is a mobile node (a leaf: it routes by its interfaces).
    pub mobile: Vec<bool>,
    /// Hop counts between nodes that are not mobile nodes (`dist[s][d]`; empty rows for
    /// mobile nodes).
    pub dist: Vec<Vec<Option<u32>>>,
}

impl Topology {
    /// Id of node `name`, or an error at `path` listing the nodes.
    pub fn node(&self, name: &str, path: &str) -> Result<u32> {
        node_id(&self.names, &self.index, name, path)
    }

    /// Direction ids of link `name`, or an error at `path` listing the links.
    pub fn link(&self, name: &str, path: &str) -> Result<&[u32]> {
        self.link_dirs.get(name).map(Vec::as_slice).ok_or_else(|| {
            err(path, format!("unknown link `{name}` (links: {})", list(self.link_dirs.keys())))
        })
    }
}

fn node_id(names: &[String], index: &HashMap<String, u32>, name: &str, path: &str) -> Result<u32> {
    match index.get(name) {
        Some(&i) => Ok(i),
        None if names.is_empty() => Err(err(path, format!("unknown node `{name}` (no nodes are defined)"))),
        None => Err(err(path, format!("unknown node `{name}` (nodes: {})", list(names)))),
    }
}

/// Resolve nodes, links and routes between the nodes that are not mobile nodes (`mobile[i]`
/// says whether node i is one). `flow_names` are needed by drop-list error models. The
/// explicit routes are checked and kept, applied by [`Topology::apply_explicit`].
pub(crate) fn resolve(
    nodes: &IndexMap<String, NodeSpec>,
    links: &IndexMap<String, LinkSpec>,
    flow_names: &[&str],
    mobile: Vec<bool>,
) -> Result<Topology> {
    let names: Vec<String> = nodes.keys().cloned().collect();
    let index = names.iter().enumerate().map(|(i, n)| (n.clone(), i as u32)).collect();
    let mut topo = Topology {
        names,
        index,
        nodes: Vec::new(),
        links: Vec::new(),
        link_dirs: IndexMap::new(),
        explicit_routes: Vec::new(),
        mobile,
        dist: Vec::new(),
    };
    for (name, spec) in links {
        let ids = link(&mut topo, name, spec, flow_names)?;
        topo.link_dirs.insert(name.clone(), ids);
    }
    let n = topo.names.len();
    // Outgoing directions of every node between nodes that are not mobile nodes, in id order.
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (id, l) in topo.links.iter().enumerate() {
        if !topo.mobile[l.from as usize] && !topo.mobile[l.to as usize] {
            out[l.from as usize].push(id as u32);
        }
    }
    let mut dist = Vec::with_capacity(n);
    for (s, spec) in nodes.values().enumerate() {
        let (routes, d) = if topo.mobile[s] { (Vec::new(), Vec::new()) } else { breadth_first(s, &topo.links, &out) };
        topo.nodes.push(NodeModel { name: topo.names[s].clone(), routes, cell: spec.cell });
        dist.push(d);
    }
    topo.dist = dist;
    for (s, (name, spec)) in nodes.iter().enumerate() {
        if topo.mobile[s] && !spec.routes.is_empty() {
            let msg = "a mobile node takes no routes: it leaves by the interface in use (docs/handover.md)";
            return Err(err(format!("nodes.{name}.routes"), msg));
        }
        for (dst, link_name) in &spec.routes {
            let path = format!("nodes.{name}.routes.{dst}");
            let d = topo.node(dst, &path)?;
            if d as usize == s {
                return Err(err(path, format!("a node needs no route to itself (`{dst}`)")));
            }
            let dirs = topo.link(link_name, &path)?;
            let Some(&dir) = dirs.iter().find(|&&l| topo.links[l as usize].from as usize == s) else {
                let ends = |l: u32| &topo.names[topo.links[l as usize].from as usize];
                let shape = match dirs {
                    [f, _] => format!(
                        "it joins `{}` and `{}`",
                        ends(*f),
                        topo.names[topo.links[*f as usize].to as usize]
                    ),
                    _ => format!("it goes from `{}`", ends(dirs[0])),
                };
                return Err(err(path, format!("link `{link_name}` does not leave node `{name}` ({shape})")));
            };
            topo.explicit_routes.push((s, d as usize, dir));
        }
    }
    Ok(topo)
}

impl Topology {
    /// Let the nodes' explicit `routes` replace the automatic first hops.
    pub fn apply_explicit(&mut self) {
        for &(s, d, dir) in &self.explicit_routes {
            self.nodes[s].routes[d] = Some(dir);
        }
    }
}

/// First hop from `src` to every node, and the hop count, by breadth-first search over the
/// directions `out[node]` leaves by.
fn breadth_first(src: usize, links: &[LinkModel], out: &[Vec<u32>]) -> (Vec<Option<u32>>, Vec<Option<u32>>) {
    let n = out.len();
    let mut first: Vec<Option<u32>> = vec![None; n];
    let mut dist: Vec<Option<u32>> = vec![None; n];
    dist[src] = Some(0);
    let mut queue = VecDeque::from([src]);
    while let Some(u) = queue.pop_front() {
        for &id in &out[u] {
            let v = links[id as usize].to as usize;
            if dist[v].is_none() {
                dist[v] = dist[u].map(|d| d + 1);
                first[v] = if u == src { Some(id) } else { first[u] };
                queue.push_back(v);
            }
        }
    }
    (first, dist)
}

/// Resolve one file link into its directions; returns their ids.
fn link(topo: &mut Topology, name: &str, spec: &LinkSpec, flow_names: &[&str]) -> Result<Vec<u32>> {
    let path = format!("links.{name}");
    let p = |k: &str| join(&path, k);
    let ends = match (&spec.between, &spec.from, &spec.to) {
        (Some([a, b]), None, None) => {
            let a_id = topo.node(a, &format!("{path}.between[0]"))?;
            let b_id = topo.node(b, &format!("{path}.between[1]"))?;
            vec![
                ("forward", a_id, b_id, spec.forward.as_ref()),
                ("reverse", b_id, a_id, spec.reverse.as_ref()),
            ]
        }
        (None, Some(f), Some(t)) => {
            if spec.forward.is_some() || spec.reverse.is_some() {
                let which = if spec.forward.is_some() { "forward" } else { "reverse" };
                return Err(err(
                    p(which),
                    "per-direction tables are only allowed on a duplex link (`between`)",
                ));
            }
            let from = topo.node(f, &p("from"))?;
            vec![("", from, topo.node(t, &p("to"))?, None)]
        }
        (Some(_), _, _) => {
            return Err(err(
                path,
                "give either `between = [a, b]` (duplex) or `from` and `to` (simplex), not both",
            ))
        }
        (None, Some(_), None) => {
            return Err(err(p("to"), "missing field `to` (a simplex link needs `from` and `to`)"))
        }
        (None, None, Some(_)) => {
            return Err(err(p("from"), "missing field `from` (a simplex link needs `from` and `to`)"))
        }
        (None, None, None) => {
            return Err(err(path, "a link needs `between = [a, b]` (duplex) or `from` and `to` (simplex)"))
        }
    };
    if ends[0].1 == ends[0].2 {
        let key = if spec.between.is_some() { "between" } else { "to" };
        let msg = format!(
            "a link must join two different nodes; both ends are `{}`",
            topo.names[ends[0].1 as usize]
        );
        return Err(err(p(key), msg));
    }
    let mut ids = Vec::new();
    for (dir, from, to, over) in ends {
        let dir_path = join(&path, dir);
        let name = if dir.is_empty() { name.to_owned() } else { format!("{name}/{dir}") };
        ids.push(topo.links.len() as u32);
        topo.links.push(direction((name, from, to), spec, over, &path, &dir_path, flow_names)?);
    }
    Ok(ids)
}

/// One direction `name` (`from` -> `to`) with its rate (or trace), delay, queue, error model, ARQ
/// and reordering: the
/// direction table's value if given, else the link's, else the default. Errors point at the key
/// the value came from.
fn direction(
    (name, from, to): (String, u32, u32),
    spec: &LinkSpec,
    over: Option<&DirectionSpec>,
    path: &str,
    dir_path: &str,
    flow_names: &[&str],
) -> Result<LinkModel> {
    let missing = |key: &str| {
        let msg = format!(
            "missing field `{key}` (give `{key}`, or on a duplex link `forward.{key}` and `reverse.{key}`)"
        );
        err(join(path, key), msg)
    };
    let (rate, trace) = pace(spec, over, path, dir_path)?;
    let delay = over.and_then(|d| d.delay).or(spec.delay).ok_or_else(|| missing("delay"))?.0;
    let (queue, queue_path) = match over.and_then(|d| d.queue) {
        Some(q) => (Some(q), join(dir_path, "queue")),
        None => (spec.queue, join(path, "queue")),
    };
    let queue = match queue.map(|a| a.0) {
        None => QueueLimit::Packets(100),
        Some(AmountKind::Packets(0) | AmountKind::Bytes(0)) => {
            return Err(err(queue_path, "a queue must hold at least one packet or byte"))
        }
        Some(AmountKind::Packets(n)) => QueueLimit::Packets(
            u32::try_from(n).map_err(|_| err(queue_path, format!("{n}pkt is too large")))?,
        ),
        Some(AmountKind::Bytes(b)) => QueueLimit::Bytes(b),
    };
    // Each model: the direction's spec if given, else the link's (with the path it came from).
    let pick = |d: Option<&DirectionSpec>, key: &str, f: fn(&DirectionSpec) -> bool| match d {
        Some(d) if f(d) => join(dir_path, key),
        _ => join(path, key),
    };
    let error = match over.and_then(|d| d.error.as_ref()).or(spec.error.as_ref()) {
        Some(e) => link_models::error_model(e, &pick(over, "error", |d| d.error.is_some()), flow_names)?,
        None => ErrorModelConfig::None,
    };
    let arq = match over.and_then(|d| d.arq.as_ref()).or(spec.arq.as_ref()) {
        Some(a) => link_models::arq(a, &pick(over, "arq", |d| d.arq.is_some()))?,
        None => None,
    };
    let reorder = match over.and_then(|d| d.reorder.as_ref()).or(spec.reorder.as_ref()) {
        Some(r) => link_models::reorder(r, &pick(over, "reorder", |d| d.reorder.is_some()))?,
        None => None,
    };
    Ok(LinkModel { name, from, to, rate, delay, queue, error, arq, reorder, trace })
}

/// The direction's rate, or its trace and the trace's mean rate: from the direction table if it
/// gives either, else from the link's. A table may give one of the two, not both.
fn pace(
    spec: &LinkSpec,
    over: Option<&DirectionSpec>,
    path: &str,
    dir_path: &str,
) -> Result<(Rate, Option<TraceConfig>)> {
    let both = |at: &str| err(join(at, "trace"), "give `rate` or `trace`, not both (a trace sets the rate)");
    if spec.rate.is_some() && spec.trace.is_some() {
        return Err(both(path));
    }
    let (rate, traced, at) = match over {
        Some(d) if d.rate.is_some() && d.trace.is_some() => return Err(both(dir_path)),
        Some(d) if d.rate.is_some() || d.trace.is_some() => (d.rate, d.trace.as_ref(), dir_path),
        _ => (spec.rate, spec.trace.as_ref(), path),
    };
    match (rate, traced) {
        (Some(r), _) => Ok((r.0, None)),
        (None, Some(t)) => {
            let config = trace::resolve(t, &join(at, "trace"))?;
            Ok((config.trace.mean_rate(config.opportunity_size), Some(config)))
        }
        (None, None) => {
            let msg = "missing field `rate` (give `rate` or a recorded `trace`, or on a duplex link \
                       `forward.rate` and `reverse.rate`)";
            Err(err(join(path, "rate"), msg))
        }
    }
}
