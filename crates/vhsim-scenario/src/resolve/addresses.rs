//! The address table: one IPv4 address per node, then one care-of address per interface of
//! each mobile node, mobile node by mobile node (`vhsim_net::Addr` is an index into it).
//!
//! Defaults: node i (file order, from 0) gets 10.0.x.y with x.y = i + 1 as a 16-bit number
//! (10.0.0.1, 10.0.0.2, ...); interface k of mobile node j gets 10.(k+1).x.y with x.y = j + 1
//! (the first mobile node's: 10.(k+1).0.1). Given addresses must be dotted IPv4 quads, and no
//! two entries may share one.

use crate::error::{err, join, Result};
use crate::model::{AddressModel, MobileModel};
use crate::schema::{MobileSpec, NodeSpec};
use indexmap::IndexMap;
use std::collections::HashMap;
use std::net::Ipv4Addr;

fn parse(text: &str, path: &str) -> Result<Ipv4Addr> {
    text.parse::<Ipv4Addr>()
        .map_err(|_| err(path, format!("`{text}` is not an IPv4 address (write a dotted quad, e.g. \"10.0.0.1\")")))
}

/// Resolve the address table of `nodes` and the mobile nodes' interfaces (`specs` as written,
/// with their key paths, and `mobiles` as resolved).
///
/// An entry's key path is written only for an error (`path`): a population's table has an
/// entry per node and per interface, resolved at loading's peak, where a path kept per entry
/// cost about 0.1 KB per user (issue #29, memory per flow).
pub(super) fn resolve(
    nodes: &IndexMap<String, NodeSpec>,
    specs: &[(String, &MobileSpec)],
    mobiles: &[MobileModel],
) -> Result<Vec<AddressModel>> {
    let path = |i: usize| key_path(nodes, specs, i);
    let interfaces: usize = specs.iter().map(|(_, m)| m.interfaces.len()).sum();
    let mut out: Vec<AddressModel> = Vec::with_capacity(nodes.len() + interfaces);
    for (i, (_, spec)) in nodes.iter().enumerate() {
        let ip = match &spec.address {
            Some(a) => parse(a, &path(out.len()))?,
            None => {
                let n = u16::try_from(i + 1).map_err(|_| err(path(out.len()), "too many nodes for default addresses; give `address`"))?;
                Ipv4Addr::new(10, 0, (n >> 8) as u8, (n & 0xff) as u8)
            }
        };
        out.push(AddressModel { ipv4: ip, node: i as u32, interface: None });
    }
    for (j, ((_, m), model)) in specs.iter().zip(mobiles).enumerate() {
        for (k, (_, spec)) in m.interfaces.iter().enumerate() {
            let ip = match &spec.address {
                Some(a) => parse(a, &path(out.len()))?,
                None => {
                    let b = u8::try_from(k + 1).map_err(|_| err(path(out.len()), "too many interfaces for default addresses"))?;
                    let n = u16::try_from(j + 1)
                        .map_err(|_| err(path(out.len()), "too many mobile nodes for default addresses; give `address`"))?;
                    Ipv4Addr::new(10, b, (n >> 8) as u8, (n & 0xff) as u8)
                }
            };
            debug_assert_eq!(model.interfaces[k].address as usize, out.len());
            out.push(AddressModel { ipv4: ip, node: model.node, interface: Some(k as u32) });
        }
    }
    let mut seen: HashMap<Ipv4Addr, usize> = HashMap::with_capacity(out.len());
    for (i, a) in out.iter().enumerate() {
        if let Some(other) = seen.insert(a.ipv4, i) {
            let msg = format!("address {} is already `{}`; every address must be unique", a.ipv4, path(other));
            return Err(err(path(i), msg));
        }
    }
    Ok(out)
}

/// The key path of entry `i` of the address table (nodes first, then the mobile nodes'
/// interfaces in order).
fn key_path(nodes: &IndexMap<String, NodeSpec>, specs: &[(String, &MobileSpec)], i: usize) -> String {
    if let Some((name, _)) = nodes.get_index(i) {
        return format!("nodes.{name}.address");
    }
    let mut rest = i - nodes.len();
    for (prefix, m) in specs {
        if let Some((name, _)) = m.interfaces.get_index(rest) {
            return join(prefix, &format!("interfaces.{name}.address"));
        }
        rest -= m.interfaces.len();
    }
    unreachable!("entry {i} is beyond the address table")
}
