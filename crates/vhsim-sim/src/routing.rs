//! Routing by destination address, and the mobile node's binding.
//!
//! Every node has a first hop per destination address (`table[node][addr]`), computed when the
//! scenario is resolved. Two rows depend on the mobile node's state, as in Mobile IP:
//!
//! * the mobile node's own row: it leaves by the interface of the packet's source address if
//!   that is one of its care-of addresses (a multihomed endpoint choosing its path), else by the
//!   interface it currently uses ([`MobileRouting::mn_iface`], switched when a handover
//!   completes);
//! * the anchor's route to the mobile node's home address: the anchor is the home agent and
//!   forwards such packets to the care-of address its binding names ([`MobileRouting::bound`]).
//!   A binding update may lag the handover by a registration latency; meanwhile packets for the
//!   old care-of address are lost (cause `binding`) or forwarded to the new one, as configured.
//!
//! Packets addressed to a care-of address take that interface's path whatever the binding
//! says, so both access paths stay usable at once by an endpoint that addresses them.

use vhsim_core::SimTime;
use vhsim_net::{Addr, DropCause, Packet};
use vhsim_scenario::{OldPath, Scenario};

/// Where a node sends a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// Leave on this link direction.
    Link(u32),
    /// The node has no route for it.
    Unroutable,
    /// It is lost here (the anchor's binding).
    Drop(DropCause),
}

/// A binding update on its way: until `until`, packets for the old care-of address meet
/// `old_path`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingBinding {
    /// Interface the binding will name.
    pub new: u32,
    /// When it does.
    pub until: SimTime,
}

/// The mobile node's part of routing.
#[derive(Clone, Debug)]
pub struct MobileRouting {
    /// The mobile node.
    pub node: u32,
    /// Its anchor (home agent).
    pub anchor: u32,
    /// Its home address.
    pub home: Addr,
    /// Interface whose care-of address the anchor's binding names.
    pub bound: u32,
    /// Binding update in progress, if any.
    pub pending: Option<PendingBinding>,
    /// What happens to packets for the old care-of address during an update.
    pub old_path: OldPath,
    /// Interface the mobile node sends by (for packets from its home address).
    pub mn_iface: u32,
    /// `uplink[iface][addr]`: the mobile node's first hop when leaving by `iface`.
    uplink: Vec<Vec<Option<u32>>>,
    /// The anchor's first hop towards the mobile node through each interface.
    anchor_hop: Vec<Option<u32>>,
    /// Interface of each care-of address (`None` for node addresses).
    iface_of: Vec<Option<u32>>,
    /// Packets forwarded to the new care-of address during binding updates.
    pub forwarded: u64,
}

/// The routing state of a run.
#[derive(Clone, Debug)]
pub struct Routing {
    n_addr: usize,
    /// `table[node * n_addr + addr]`.
    table: Vec<Option<u32>>,
    /// Node owning each address.
    owner: Vec<u32>,
    /// The mobile node's state, if the scenario has one.
    pub mobile: Option<MobileRouting>,
}

impl Routing {
    /// The routing of `sc` at time 0.
    pub fn new(sc: &Scenario) -> Self {
        let n_nodes = sc.nodes.len();
        let n_addr = sc.addresses.len();
        let owner: Vec<u32> = sc.addresses.iter().map(|a| a.node).collect();
        let mut table = vec![None; n_nodes * n_addr];
        for (v, node) in sc.nodes.iter().enumerate() {
            for (a, addr) in sc.addresses.iter().enumerate() {
                table[v * n_addr + a] = match addr.interface {
                    None => node.routes[addr.node as usize],
                    Some(k) => sc.mobile.as_ref().and_then(|m| m.interfaces[k as usize].address_routes[v]),
                };
            }
        }
        let mobile = sc.mobile.as_ref().map(|m| {
            let (mn, anchor) = (m.node as usize, m.anchor as usize);
            let uplink = m
                .interfaces
                .iter()
                .map(|i| sc.addresses.iter().map(|a| if a.interface.is_some() { None } else { i.routes[mn][a.node as usize] }).collect())
                .collect();
            MobileRouting {
                node: m.node,
                anchor: m.anchor,
                home: Addr(m.node),
                bound: m.initial,
                pending: None,
                old_path: m.binding.old_path,
                mn_iface: m.initial,
                uplink,
                anchor_hop: m.interfaces.iter().map(|i| i.routes[anchor][mn]).collect(),
                iface_of: sc.addresses.iter().map(|a| a.interface).collect(),
                forwarded: 0,
            }
        });
        Routing { n_addr, table, owner, mobile }
    }

    /// Whether `addr` belongs to `node`.
    pub fn is_local(&self, node: u32, addr: Addr) -> bool {
        self.owner[addr.index()] == node
    }

    /// The node owning `addr`.
    pub fn owner(&self, addr: Addr) -> u32 {
        self.owner[addr.index()]
    }

    /// Where `node` sends `pkt` (which is not addressed to it). Counts packets a binding update
    /// forwards.
    pub fn next_hop(&mut self, node: u32, pkt: &Packet) -> Hop {
        let (hop, forwarded) = self.decide(node, pkt);
        if forwarded {
            if let Some(m) = self.mobile.as_mut() {
                m.forwarded += 1;
            }
        }
        hop
    }

    /// The first hop `node` would give `pkt` now, for traces (no counter touched).
    pub fn peek_hop(&self, node: u32, pkt: &Packet) -> Option<u32> {
        match self.decide(node, pkt).0 {
            Hop::Link(l) => Some(l),
            _ => None,
        }
    }

    /// The routing decision, and whether a binding update forwards the packet.
    fn decide(&self, node: u32, pkt: &Packet) -> (Hop, bool) {
        let hop = |l: Option<u32>| l.map_or(Hop::Unroutable, Hop::Link);
        if let Some(m) = self.mobile.as_ref() {
            if node == m.node {
                let iface = m.iface_of[pkt.src.index()].unwrap_or(m.mn_iface);
                return (hop(m.uplink[iface as usize][pkt.dst.index()]), false);
            }
            if node == m.anchor && pkt.dst == m.home {
                return match m.pending {
                    None => (hop(m.anchor_hop[m.bound as usize]), false),
                    Some(_) if m.old_path == OldPath::Drop => (Hop::Drop(DropCause::Binding), false),
                    Some(p) => (hop(m.anchor_hop[p.new as usize]), true),
                };
            }
        }
        (hop(self.table[node as usize * self.n_addr + pkt.dst.index()]), false)
    }

    /// The interface of the mobile node a packet uses: the interface of a care-of address it
    /// is sent from or to; for the home address, the interface the binding names (towards the
    /// mobile node) or the one the mobile node sends by (from it). `None` for packets that do
    /// not involve the mobile node.
    pub fn path_of(&self, pkt: &Packet) -> Option<u32> {
        let m = self.mobile.as_ref()?;
        m.iface_of[pkt.dst.index()].or(m.iface_of[pkt.src.index()]).or(if pkt.dst == m.home {
            Some(match m.pending {
                Some(p) if m.old_path == OldPath::Forward => p.new,
                _ => m.bound,
            })
        } else if pkt.src == m.home {
            Some(m.mn_iface)
        } else {
            None
        })
    }
}
