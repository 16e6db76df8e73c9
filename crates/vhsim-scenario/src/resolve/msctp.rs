//! The mSCTP part of an SCTP flow: which endpoint is on the mobile node, its interfaces, and
//! its scripted ASCONF requests (`[[flows.<f>.sctp.actions]]`), checked against the
//! association's address set as it evolves: Add-IP of an address already in it, Set-Primary to
//! one not in it, Delete-IP of the primary or of the last address, and times outside the run
//! are errors naming the key.

use super::before_end;
use crate::error::{err, join, Result};
use crate::model::{AddressOpModel, AsconfActionModel, MobileModel, SctpMobile};
use crate::schema::SctpSpec;
use vhsim_core::SimDuration;
use vhsim_sctp::{MsctpTrigger, SctpConfig};

/// What the association looks like when the run starts.
pub(super) struct Association<'a> {
    /// Sending and receiving nodes.
    pub nodes: [u32; 2],
    /// Addresses of the sending and the receiving endpoint.
    pub addrs: [&'a [u32]; 2],
    /// The primary each side's peer uses towards it: `[from_primary, primary]`.
    pub primaries: [u32; 2],
}

/// The endpoint on the mobile node with its scripted requests, if the association has one.
pub(super) fn resolve(
    s: &SctpSpec,
    cfg: &SctpConfig,
    assoc: &Association,
    mobile: Option<&MobileModel>,
    duration: SimDuration,
    path: &str,
) -> Result<Option<SctpMobile>> {
    let p = |k: &str| join(path, k);
    let scripted = !s.actions.is_empty();
    let triggered = cfg.msctp_trigger != MsctpTrigger::Scripted;
    let key = if scripted { "actions" } else { "trigger" };
    if s.delete_after.is_some() && !triggered {
        return Err(err(p("delete_after"), "only applies with trigger = \"link_up\" or \"warning\""));
    }
    let side = mobile.and_then(|m| assoc.nodes.iter().position(|&n| n == m.node));
    let (Some(m), Some(side)) = (mobile, side) else {
        if scripted || triggered {
            return Err(err(p(key), "needs an endpoint of the association on the mobile node"));
        }
        return Ok(None);
    };
    if (scripted || triggered) && !cfg.asconf {
        let msg = "needs a scheme with ASCONF (RFC 5061): `msctp`, `mt-msctp` or `hr-msctp` (`sctp` ignores ASCONF chunks)";
        return Err(err(p(key), msg));
    }
    let node = assoc.nodes[side];
    let interfaces: Vec<u32> = m.interfaces.iter().map(|i| i.address).collect();
    let mut set: Vec<u32> = assoc.addrs[side].to_vec();
    let mut primary = assoc.primaries[side];
    let mut order: Vec<usize> = (0..s.actions.len()).collect();
    order.sort_by_key(|&i| s.actions[i].at.0); // stable: ties keep file order
    let mut actions = Vec::new();
    for i in order {
        let a = &s.actions[i];
        let ap = p(&format!("actions[{i}]"));
        let at = before_end(a.at.0, duration, &join(&ap, "at"))?;
        let ops: Vec<(&str, &String)> =
            [("add", &a.add), ("set_primary", &a.set_primary), ("delete", &a.delete)]
                .into_iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
                .collect();
        let [(k, name)] = ops[..] else {
            return Err(err(ap, "needs exactly one of `add`, `set_primary`, `delete` (an interface name)"));
        };
        let kp = join(&ap, k);
        debug_assert_eq!(node, m.node);
        let addr = m.interfaces.iter().find(|i| *i.name == **name).map(|i| i.address).ok_or_else(|| {
            err(&kp, format!("unknown interface `{name}` (interfaces: {})", crate::error::list(m.interfaces.iter().map(|i| &i.name))))
        })?;
        let op = match k {
            "add" if set.contains(&addr) => {
                return Err(err(kp, format!("`{name}` is already in the association then")))
            }
            "add" => {
                set.push(addr);
                AddressOpModel::Add(addr)
            }
            _ if !set.contains(&addr) => {
                let msg = format!("`{name}` is not in the association then (add it first)");
                return Err(err(kp, msg));
            }
            "set_primary" => {
                primary = addr;
                AddressOpModel::SetPrimary(addr)
            }
            _ if addr == primary => {
                return Err(err(kp, format!("`{name}` is the primary then: set another primary first")));
            }
            _ if set.len() == 1 => {
                return Err(err(kp, format!("`{name}` is the association's last address")))
            }
            _ => {
                set.retain(|&x| x != addr);
                AddressOpModel::Delete(addr)
            }
        };
        actions.push(AsconfActionModel { at, op });
    }
    Ok(Some(SctpMobile { side: side as u8, interfaces, actions }))
}
