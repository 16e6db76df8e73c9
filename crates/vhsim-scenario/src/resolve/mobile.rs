//! The mobile nodes: their interfaces, and the routes towards them.
//!
//! A mobile node is a leaf of the network: on each interface it has one neighbour, the other
//! end of its own link (`attach`, by default the access link) or the shared cell it attaches to
//! (`cell`), and every link it has is one of these. A handover changes the routes of two
//! nodes only, as Mobile IP does: the anchor (where the interfaces' paths part) follows the
//! binding, and the mobile node leaves by the interface in use. Every other node reaches the
//! mobile node through the interface whose attachment it reaches in the fewest hops (the
//! initial one on a tie); a node that reaches two attachments equally close by different
//! first hops is a second branching point, which the model does not support (it must be the
//! anchor). So the routes towards N mobile nodes cost O(N) per node, not a table per mobile
//! node (docs/handover.md).

use super::topology::Topology;
use crate::error::{err, join, list, Result};
use crate::model::{BindingModel, InterfaceModel, MobileModel, OldPath};
use crate::schema::{MobileSpec, OldPathSpec, ScenarioFile};
use std::sync::Arc;
use vhsim_core::SimDuration;

/// The resolved mobile nodes, with what later stages look up.
pub(crate) struct Mobiles {
    /// In order: `[mobile]`, `[[mobiles]]` (populations' come last there).
    pub list: Vec<MobileModel>,
    /// The key path of each one's table (`mobile`, `mobiles[3]`).
    pub paths: Vec<String>,
    /// Index of the mobile node at each node.
    of_node: Vec<Option<u32>>,
}

impl Mobiles {
    /// The mobile node at `node`, with its index.
    pub fn at(&self, node: u32) -> Option<(usize, &MobileModel)> {
        self.of_node[node as usize].map(|k| (k as usize, &self.list[k as usize]))
    }
}

/// The files's mobile node tables with their key paths: `[mobile]` or `[[mobiles]]`.
pub(super) fn specs(file: &ScenarioFile) -> Result<Vec<(String, &MobileSpec)>> {
    if file.mobile.is_some() && !file.mobiles.is_empty() {
        return Err(err("mobiles", "give either [mobile] (one mobile node) or [[mobiles]], not both"));
    }
    let one = file.mobile.iter().map(|m| ("mobile".to_owned(), m));
    Ok(one.chain(file.mobiles.iter().enumerate().map(|(k, m)| (format!("mobiles[{k}]"), m))).collect())
}

/// Which nodes the tables in `specs` make mobile nodes (unknown names are reported later).
pub(super) fn flags(file: &ScenarioFile, specs: &[(String, &MobileSpec)]) -> Vec<bool> {
    let mut mobile = vec![false; file.nodes.len()];
    for (_, m) in specs {
        if let Some(i) = file.nodes.get_index_of(&m.node) {
            mobile[i] = true;
        }
    }
    mobile
}

/// Resolve every mobile node and fill the routes towards them into `topo`'s node routes.
pub(super) fn resolve(specs: &[(String, &MobileSpec)], topo: &mut Topology) -> Result<Mobiles> {
    check_cells(topo)?;
    let n = topo.names.len();
    let mut of_node = vec![None; n];
    let mut list = Vec::with_capacity(specs.len());
    let mut next_address = n as u32;
    let mut names = Vec::new();
    for (k, (path, spec)) in specs.iter().enumerate() {
        let m = one(path, spec, topo, &mut next_address, &mut names)?;
        if let Some(other) = of_node[m.node as usize].replace(k as u32) {
            let msg = format!("node `{}` is already the mobile node of {}", spec.node, specs[other as usize].0);
            return Err(err(join(path, "node"), msg));
        }
        list.push(m);
    }
    check_leaves(topo, &list, &of_node)?;
    let mobiles = Mobiles { list, paths: specs.iter().map(|(p, _)| p.clone()).collect(), of_node };
    fill_routes(topo, &mobiles)?;
    Ok(mobiles)
}

/// A shared cell joins exactly one duplex link, to a node that is not a mobile node.
fn check_cells(topo: &Topology) -> Result<()> {
    for (c, node) in topo.nodes.iter().enumerate().filter(|(_, n)| n.cell) {
        let path = format!("nodes.{}.cell", node.name);
        if topo.mobile[c] {
            return Err(err(path, "a mobile node cannot be a shared cell"));
        }
        let joined: Vec<(&String, &Vec<u32>)> = topo
            .link_dirs
            .iter()
            .filter(|(_, dirs)| dirs.iter().any(|&d| topo.links[d as usize].from as usize == c || topo.links[d as usize].to as usize == c))
            .collect();
        let [(name, dirs)] = joined.as_slice() else {
            let msg = format!(
                "a shared cell joins exactly one link (its downlink and uplink); `{}` joins {} ({})",
                node.name,
                joined.len(),
                list(joined.iter().map(|(n, _)| n))
            );
            return Err(err(path, msg));
        };
        if dirs.len() != 2 {
            return Err(err(path, format!("the cell's link `{name}` must be duplex (`between`): the cell's downlink and uplink")));
        }
    }
    Ok(())
}

/// Resolve one mobile node's table at `path`; its care-of addresses are numbered from
/// `next_address` on, its interfaces' names are shared through `names`.
fn one(path: &str, spec: &MobileSpec, topo: &Topology, next_address: &mut u32, names: &mut Vec<Arc<str>>) -> Result<MobileModel> {
    let p = |k: &str| join(path, k);
    let mn = topo.node(&spec.node, &p("node"))?;
    let anchor = topo.node(&spec.anchor, &p("anchor"))?;
    if anchor == mn {
        return Err(err(p("anchor"), "the anchor must be another node than the mobile node"));
    }
    if topo.mobile[anchor as usize] {
        return Err(err(p("anchor"), format!("`{}` is a mobile node; the anchor is a node of the network", spec.anchor)));
    }
    if topo.nodes[anchor as usize].cell {
        return Err(err(p("anchor"), format!("`{}` is a shared cell; the anchor is where the interfaces' paths part", spec.anchor)));
    }
    if spec.interfaces.is_empty() {
        return Err(err(p("interfaces"), "a mobile node needs at least one interface"));
    }
    let initial = spec.interfaces.get_index_of(&spec.initial).ok_or_else(|| {
        err(p("initial"), format!("unknown interface `{}` (interfaces: {})", spec.initial, list(spec.interfaces.keys())))
    })?;
    let mut interfaces: Vec<InterfaceModel> = Vec::with_capacity(spec.interfaces.len());
    for (name, i) in &spec.interfaces {
        let ipath = join(&p("interfaces"), name);
        let iface = interface(&ipath, super::shared(names, name), i, mn, topo, *next_address)?;
        *next_address += 1;
        if let Some(other) = interfaces.iter().find(|o| o.attach_node == iface.attach_node && o.attach.is_none() && iface.attach.is_none()) {
            let msg = format!("interface `{}` is attached to the cell `{}` already", other.name, topo.names[iface.attach_node as usize]);
            return Err(err(join(&ipath, "cell"), msg));
        }
        if iface.attach.is_some() && interfaces.iter().any(|o| o.attach == iface.attach) {
            let (key, name) = match &i.attach {
                Some(a) => ("attach", a),
                None => ("access", i.access.as_ref().expect("a link interface has `access`")),
            };
            return Err(err(join(&ipath, key), format!("link `{name}` is already another interface's link")));
        }
        reaches(topo, anchor, iface.attach_node).ok_or_else(|| {
            err(p("anchor"), format!("the anchor `{}` cannot reach the mobile node through interface `{name}`", spec.anchor))
        })?;
        interfaces.push(iface);
    }
    let binding = spec.binding.as_ref();
    let binding = BindingModel {
        latency: binding.and_then(|b| b.latency).map_or(SimDuration::ZERO, |d| d.0),
        old_path: match binding.and_then(|b| b.old_path) {
            None | Some(OldPathSpec::Drop) => OldPath::Drop,
            Some(OldPathSpec::Forward) => OldPath::Forward,
        },
    };
    Ok(MobileModel {
        node: mn,
        anchor,
        initial: initial as u32,
        interfaces,
        mobility: None,
        binding,
        // Resolved once the flows are known (resolve/warning.rs).
        warning: SimDuration::ZERO,
        warning_rule: Default::default(),
    })
}

/// Hops from `from` to `to` over the network without mobile nodes.
fn reaches(topo: &Topology, from: u32, to: u32) -> Option<u32> {
    topo.dist[from as usize][to as usize]
}

/// One interface: a shared cell, or an access link with the mobile node's own link.
fn interface(
    path: &str,
    name: Arc<str>,
    spec: &crate::schema::InterfaceSpec,
    mn: u32,
    topo: &Topology,
    address: u32,
) -> Result<InterfaceModel> {
    let p = |k: &str| join(path, k);
    if let Some(cell) = &spec.cell {
        for (key, present) in [("access", spec.access.is_some()), ("attach", spec.attach.is_some())] {
            if present {
                return Err(err(p(key), "an interface attached to a shared cell (`cell`) has no links of its own"));
            }
        }
        let c = topo.node(cell, &p("cell"))?;
        if !topo.nodes[c as usize].cell {
            return Err(err(p("cell"), format!("node `{cell}` is not a shared cell (give it `cell = true`)")));
        }
        let downlink = topo.links.iter().position(|l| l.to == c).expect("a cell joins one duplex link") as u32;
        return Ok(InterfaceModel { name, access: Vec::new(), downlink, attach_node: c, attach: None, address });
    }
    let access_name =
        spec.access.as_deref().ok_or_else(|| err(path, "an interface needs `access` (its access link) or `cell` (a shared cell)"))?;
    let access = topo.link(access_name, &p("access"))?.to_vec();
    let (att_name, att_path) = match &spec.attach {
        Some(a) => (a.as_str(), p("attach")),
        None => (access_name, p("access")),
    };
    let att = topo.link(att_name, &att_path)?;
    let end = |d: u32| {
        let l = &topo.links[d as usize];
        (l.from, l.to)
    };
    if !att.iter().any(|&d| end(d).0 == mn || end(d).1 == mn) {
        let msg = format!(
            "link `{att_name}` does not end at the mobile node `{}`{}",
            topo.names[mn as usize],
            if spec.attach.is_none() { " (give `attach` = the MN's own link on this side)" } else { "" }
        );
        return Err(err(att_path, msg));
    }
    let &[a, b] = att else {
        return Err(err(att_path, format!("the mobile node's own link `{att_name}` must be duplex (`between`): it carries both directions")));
    };
    let (down, up) = if end(a).1 == mn { (a, b) } else { (b, a) };
    let attach_node = end(down).0;
    // The access link's direction towards the mobile node: the one that gets nearer to it.
    let hops = |x: u32| if x == mn { Some(0) } else { reaches(topo, x, attach_node).map(|h| h + 1) };
    let downlink = access
        .iter()
        .copied()
        .find(|&d| hops(end(d).1).unwrap_or(u32::MAX) < hops(end(d).0).unwrap_or(u32::MAX))
        .unwrap_or(access[0]);
    Ok(InterfaceModel { name, access, downlink, attach_node, attach: Some([down, up]), address })
}

/// Every link that touches a mobile node is one of its interfaces' own links.
fn check_leaves(topo: &Topology, list: &[MobileModel], of_node: &[Option<u32>]) -> Result<()> {
    let own: std::collections::HashSet<u32> =
        list.iter().flat_map(|m| m.interfaces.iter().filter_map(|i| i.attach)).flatten().collect();
    for (name, dirs) in &topo.link_dirs {
        for &d in dirs {
            let l = &topo.links[d as usize];
            let at = of_node[l.from as usize].or(of_node[l.to as usize]);
            if let (Some(k), false) = (at, own.contains(&d)) {
                let msg = format!(
                    "link `{name}` joins the mobile node `{}` but is none of its interfaces' own links: a mobile \
                     node is a leaf of the network, reached by its interfaces (give the interface `attach = \"{name}\"`)",
                    topo.names[list[k as usize].node as usize]
                );
                return Err(err(format!("links.{name}"), msg));
            }
        }
    }
    Ok(())
}

/// The first hop from `v` towards mobile node `m` through interface `i`: its own link if `v`
/// is the interface's neighbour (`None` for a cell: the attachment), else towards that
/// neighbour. The outer `None`: `v` cannot reach it.
fn step(topo: &Topology, v: usize, m: &MobileModel, i: usize) -> Option<Option<u32>> {
    let iface = &m.interfaces[i];
    if v == iface.attach_node as usize {
        Some(iface.attach.map(|[down, _]| down))
    } else {
        topo.nodes[v].routes[iface.attach_node as usize].map(Some)
    }
}

/// Fill every other node's route towards each mobile node (the module's rule).
fn fill_routes(topo: &mut Topology, mobiles: &Mobiles) -> Result<()> {
    let fixed: Vec<usize> = (0..topo.names.len()).filter(|&v| !topo.mobile[v]).collect();
    let mut found: Vec<(usize, u32, Option<u32>)> = Vec::new();
    for (k, m) in mobiles.list.iter().enumerate() {
        let initial = m.initial as usize;
        for &v in &fixed {
            let hop = if v == m.anchor as usize {
                step(topo, v, m, initial).flatten()
            } else {
                let dist = |i: usize| {
                    let a = m.interfaces[i].attach_node as usize;
                    if v == a { Some(0) } else { topo.dist[v][a] }
                };
                let Some(best) = (0..m.interfaces.len()).filter_map(dist).min() else { continue };
                let tied: Vec<usize> = (0..m.interfaces.len()).filter(|&i| dist(i) == Some(best)).collect();
                let steps: Vec<Option<Option<u32>>> = tied.iter().map(|&i| step(topo, v, m, i)).collect();
                if steps.windows(2).any(|w| w[0] != w[1]) {
                    let msg = format!(
                        "node `{}` reaches `{}` through interfaces {} at the same distance by different links: \
                         it is a second branching point; make it the anchor or change the topology",
                        topo.names[v],
                        topo.names[m.node as usize],
                        list(tied.iter().map(|&i| &m.interfaces[i].name))
                    );
                    return Err(err(join(&mobiles.paths[k], "anchor"), msg));
                }
                let home = if tied.contains(&initial) { initial } else { tied[0] };
                step(topo, v, m, home).flatten()
            };
            found.push((v, m.node, hop));
        }
    }
    for (v, mn, hop) in found {
        topo.nodes[v].routes[mn as usize] = hop;
    }
    Ok(())
}

impl Mobiles {
    /// The first hop at time 0 from node `at` towards node `to`: a link direction (`Some`) or
    /// an attachment to a shared cell (`None`), and the node it leads to. A mobile node leaves
    /// by its initial interface.
    pub fn hop(&self, topo: &Topology, at: u32, to: u32) -> Option<(Option<u32>, u32)> {
        if let Some((_, m)) = self.at(at) {
            let i = &m.interfaces[m.initial as usize];
            return Some((i.attach.map(|[_, up]| up), i.attach_node));
        }
        if let Some((_, m)) = self.at(to) {
            if m.interfaces.iter().any(|i| i.attach.is_none() && i.attach_node == at) {
                return Some((None, to));
            }
        }
        let l = topo.nodes[at as usize].routes[to as usize]?;
        Some((Some(l), topo.links[l as usize].to))
    }

    /// The care-of address of interface `iface` (a name) of the mobile node at `node`; errors
    /// at `path`.
    pub fn care_of(&self, node: u32, iface: &str, path: &str) -> Result<u32> {
        let Some((_, m)) = self.at(node) else {
            return Err(err(path, "only a flow to the mobile node can name one of its interfaces"));
        };
        let i = m.interfaces.iter().find(|i| &*i.name == iface).ok_or_else(|| {
            err(path, format!("unknown interface `{iface}` (interfaces: {})", list(m.interfaces.iter().map(|i| &i.name))))
        })?;
        Ok(i.address)
    }
}
