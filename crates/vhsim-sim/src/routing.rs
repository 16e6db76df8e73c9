//! Routing by destination address, and the mobile nodes' bindings.
//!
//! Every node that is not a mobile node has a first hop per destination address
//! (`table[row of node][addr]`), computed when the world is built from the resolved routes.
//! Two rows per mobile node depend on its state, as in Mobile IP:
//!
//! * the mobile node's own: it leaves by the interface of the packet's source address if that
//!   is one of its care-of addresses (a multihomed endpoint choosing its path), else by the
//!   interface it currently uses ([`MobileRouting::mn_iface`], switched when a handover
//!   completes);
//! * its anchor's route to its home address: the anchor is the home agent and forwards such
//!   packets to the care-of address its binding names ([`MobileRouting::bound`]). A binding
//!   update may lag the handover by a registration latency; meanwhile packets for the old
//!   care-of address are lost (cause `binding`) or forwarded to the new one, as configured.
//!
//! Packets addressed to a care-of address take that interface's path whatever the binding
//! says, so both access paths stay usable at once by an endpoint that addresses them. A
//! mobile node attached to a shared cell crosses its attachment ([`Hop::Attach`]): a hop
//! between the cell node and the mobile node that takes no time (the cell's link is the air).
//! Each decision is a few array look-ups whatever the number of mobile nodes.

use vhsim_core::prefetch::prefetch;
use vhsim_core::SimTime;
use vhsim_net::{Addr, DropCause, Packet};
use vhsim_scenario::{OldPath, Scenario};

/// Where a node sends a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// Leave on this link direction.
    Link(u32),
    /// Cross this attachment to a shared cell (to the mobile node, or from it to the cell).
    Attach(u32),
    /// The node has no route for it.
    Unroutable,
    /// It is lost here (the anchor's binding).
    Drop(DropCause),
}

/// A table entry: a link direction, `ATTACH | attachment`, `NONE`, or `ANCHOR` (the anchor's
/// entry for a mobile node's home address, decided by the binding: [`Routing::decide`]).
const NONE: u32 = u32::MAX;
const ATTACH: u32 = 1 << 31;
const ANCHOR: u32 = u32::MAX - 1;

fn encode(hop: Hop) -> u32 {
    match hop {
        Hop::Link(l) => l,
        Hop::Attach(a) => ATTACH | a,
        _ => NONE,
    }
}

fn decode(e: u32) -> Hop {
    match e {
        NONE => Hop::Unroutable,
        e if e & ATTACH != 0 => Hop::Attach(e & !ATTACH),
        l => Hop::Link(l),
    }
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

/// One mobile node's part of routing.
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
    /// Per interface, its first hop leaving by it and the anchor's first hop towards it
    /// through it (one allocation per mobile node: issue #29, memory per flow).
    hops: Box<[InterfaceHops]>,
    /// Packets forwarded to the new care-of address during binding updates.
    pub forwarded: u64,
    /// Packets for it lost during binding updates (cause `binding`).
    pub binding_drops: u64,
}

/// The first hops by one interface of a mobile node.
#[derive(Clone, Copy, Debug)]
struct InterfaceHops {
    /// The mobile node's, leaving by it.
    uplink: Hop,
    /// The anchor's, towards the mobile node through it.
    anchor: Hop,
}

/// A mobile node's interface attached to a shared cell.
#[derive(Clone, Copy, Debug)]
pub struct Attachment {
    /// The mobile node (index).
    pub mobile: u32,
    /// Its interface.
    pub iface: u32,
    /// The mobile node's node.
    pub node: u32,
    /// The cell's node.
    pub cell: u32,
    /// The cell's downlink (into the cell node) and uplink (out of it).
    pub links: [u32; 2],
}

/// Which mobile node an address belongs to, and through which interface (`HOME` for its home
/// address); `NONE` for other nodes' addresses.
const HOME: u32 = u32::MAX - 1;

/// The routing state of a run.
#[derive(Clone, Debug)]
pub struct Routing {
    n_addr: usize,
    /// Row of each node in `table` (`NONE` for a mobile node).
    row: Vec<u32>,
    /// `table[row * n_addr + addr]`, encoded.
    table: Vec<u32>,
    /// Node owning each address.
    owner: Vec<u32>,
    /// (mobile node, interface or `HOME`) of each address; `(NONE, NONE)` for other nodes'.
    of_addr: Vec<(u32, u32)>,
    /// The mobile node at each node (`NONE` elsewhere).
    mobile_at: Vec<u32>,
    /// The mobile nodes' state.
    pub mobiles: Vec<MobileRouting>,
    /// The attachments to shared cells.
    pub attachments: Vec<Attachment>,
}

impl Routing {
    /// The routing of `sc` at time 0.
    pub fn new(sc: &Scenario) -> Self {
        let n_addr = sc.addresses.len();
        let owner: Vec<u32> = sc.addresses.iter().map(|a| a.node).collect();
        let mut mobile_at = vec![NONE; sc.nodes.len()];
        let mut of_addr = vec![(NONE, NONE); n_addr];
        let mut attachments = Vec::new();
        // Each cell's uplink: the direction of its one link that leaves it.
        let mut cell_uplink = vec![NONE; sc.nodes.len()];
        for (id, l) in sc.links.iter().enumerate() {
            if sc.nodes[l.from as usize].cell {
                cell_uplink[l.from as usize] = id as u32;
            }
        }
        // The attachment of each (mobile node, interface) on a cell.
        let mut attachment: Vec<Vec<Option<u32>>> = Vec::with_capacity(sc.mobiles.len());
        for (k, m) in sc.mobiles.iter().enumerate() {
            mobile_at[m.node as usize] = k as u32;
            of_addr[m.node as usize] = (k as u32, HOME);
            let mut mine = Vec::with_capacity(m.interfaces.len());
            for (i, iface) in m.interfaces.iter().enumerate() {
                of_addr[iface.address as usize] = (k as u32, i as u32);
                mine.push(iface.attach.is_none().then(|| {
                    let up = cell_uplink[iface.attach_node as usize];
                    attachments.push(Attachment {
                        mobile: k as u32,
                        iface: i as u32,
                        node: m.node,
                        cell: iface.attach_node,
                        links: [iface.downlink, up],
                    });
                    (attachments.len() - 1) as u32
                }));
            }
            attachment.push(mine);
        }
        // Towards interface `i` of mobile node `k` from node `v`: its own link or attachment
        // at its neighbour, else towards that neighbour.
        let step = |v: usize, k: usize, i: usize| -> Hop {
            let iface = &sc.mobiles[k].interfaces[i];
            if v == iface.attach_node as usize {
                match (iface.attach, attachment[k][i]) {
                    (Some([down, _]), _) => Hop::Link(down),
                    (None, Some(a)) => Hop::Attach(a),
                    (None, None) => unreachable!("a cell interface has an attachment"),
                }
            } else {
                sc.nodes[v].routes[iface.attach_node as usize].map_or(Hop::Unroutable, Hop::Link)
            }
        };
        let mut row = vec![NONE; sc.nodes.len()];
        let mut table = Vec::new();
        for (v, node) in sc.nodes.iter().enumerate() {
            if mobile_at[v] != NONE {
                continue;
            }
            row[v] = (table.len() / n_addr.max(1)) as u32;
            for (a, addr) in sc.addresses.iter().enumerate() {
                let (k, i) = of_addr[a];
                let hop = match (addr.interface, node.routes[addr.node as usize]) {
                    (Some(_), _) => step(v, k as usize, i as usize),
                    (None, Some(l)) => Hop::Link(l),
                    // A mobile node attached to this cell, reached by its attachment.
                    (None, None) if k != NONE => {
                        let m = &sc.mobiles[k as usize];
                        (0..m.interfaces.len())
                            .find(|&i| m.interfaces[i].attach.is_none() && m.interfaces[i].attach_node as usize == v)
                            .map_or(Hop::Unroutable, |i| step(v, k as usize, i))
                    }
                    (None, None) => Hop::Unroutable,
                };
                // The anchor's route to a home address follows the binding (read per packet).
                let anchored = i == HOME && sc.mobiles[k as usize].anchor as usize == v;
                table.push(if anchored { ANCHOR } else { encode(hop) });
            }
        }
        let mobiles = sc
            .mobiles
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let hops = m
                    .interfaces
                    .iter()
                    .enumerate()
                    .map(|(i, iface)| InterfaceHops {
                        uplink: match (iface.attach, attachment[k][i]) {
                            (Some([_, up]), _) => Hop::Link(up),
                            (None, Some(a)) => Hop::Attach(a),
                            (None, None) => unreachable!("a cell interface has an attachment"),
                        },
                        anchor: step(m.anchor as usize, k, i),
                    })
                    .collect();
                MobileRouting {
                    node: m.node,
                    anchor: m.anchor,
                    home: Addr(m.node),
                    bound: m.initial,
                    pending: None,
                    old_path: m.binding.old_path,
                    mn_iface: m.initial,
                    hops,
                    forwarded: 0,
                    binding_drops: 0,
                }
            })
            .collect();
        Routing { n_addr, row, table, owner, of_addr, mobile_at, mobiles, attachments }
    }

    /// Whether `addr` belongs to `node`.
    pub fn is_local(&self, node: u32, addr: Addr) -> bool {
        self.owner[addr.index()] == node
    }

    /// The node owning `addr`.
    pub fn owner(&self, addr: Addr) -> u32 {
        self.owner[addr.index()]
    }

    /// The attachment of mobile node `m`'s interface `iface` to a shared cell, if it has one.
    pub fn attachment(&self, m: u32, iface: u32) -> Option<u32> {
        match self.mobiles[m as usize].hops[iface as usize].uplink {
            Hop::Attach(a) => Some(a),
            _ => None,
        }
    }

    /// The mobile node (index) at `node`, if it is one.
    pub fn mobile_at(&self, node: u32) -> Option<u32> {
        Some(self.mobile_at[node as usize]).filter(|&k| k != NONE)
    }

    /// Where `node` sends `pkt` (which is not addressed to it). Counts packets a binding update
    /// forwards or drops.
    pub fn next_hop(&mut self, node: u32, pkt: &Packet) -> Hop {
        let (hop, forwarded) = self.decide(node, pkt);
        if forwarded || hop == Hop::Drop(DropCause::Binding) {
            let k = self.of_addr[pkt.dst.index()].0;
            let m = &mut self.mobiles[k as usize];
            if forwarded {
                m.forwarded += 1;
            } else {
                m.binding_drops += 1;
            }
        }
        hop
    }

    /// The first link `node` would give `pkt` now, for traces and agents (no counter touched):
    /// from a mobile node attached to a cell, the cell's uplink (its attachment is no link);
    /// `None` towards a mobile node from its cell, for a drop, or without a route.
    pub fn peek_hop(&self, node: u32, pkt: &Packet) -> Option<u32> {
        match self.decide(node, pkt).0 {
            Hop::Link(l) => Some(l),
            Hop::Attach(a) if self.attachments[a as usize].node == node => Some(self.attachments[a as usize].links[1]),
            _ => None,
        }
    }

    /// A prefetch hint (issue #29, `world_prefetch.rs`): the routing records of the mobile
    /// nodes `pkt` comes from or goes to; with `deep`, what those records point to (only once
    /// they were fetched: reading them must not wait for memory). Changes nothing.
    #[inline(always)]
    pub(crate) fn prefetch(&self, pkt: &Packet, deep: bool) {
        for a in [pkt.dst, pkt.src] {
            let Some(m) = self.of_addr.get(a.index()).and_then(|&(k, _)| self.mobiles.get(k as usize)) else { continue };
            if deep {
                prefetch(&m.hops[..], usize::MAX);
            } else {
                prefetch(m, usize::MAX);
            }
        }
    }

    /// A prefetch hint (issue #29, `world_prefetch.rs`): the table entry `node` reads to send
    /// a packet to `dst` (nothing for a mobile node, which has no row). Changes nothing.
    #[inline(always)]
    pub(crate) fn prefetch_route(&self, node: u32, dst: Addr) {
        let Some(&row) = self.row.get(node as usize) else { return };
        if row != NONE {
            if let Some(e) = self.table.get(row as usize * self.n_addr + dst.index()) {
                prefetch(e, usize::MAX);
            }
        }
    }

    /// The routing decision, and whether a binding update forwards the packet. A node that is
    /// not a mobile node reads its table; only a mobile node (no row) and the anchor's entries
    /// for home addresses (`ANCHOR`) look at the mobile node's state.
    #[inline(always)]
    fn decide(&self, node: u32, pkt: &Packet) -> (Hop, bool) {
        let row = self.row[node as usize];
        if row == NONE {
            let k = self.mobile_at[node as usize];
            let m = &self.mobiles[k as usize];
            let (owner, i) = self.of_addr[pkt.src.index()];
            let iface = if owner == k && i != HOME { i } else { m.mn_iface };
            return (m.hops[iface as usize].uplink, false);
        }
        let e = self.table[row as usize * self.n_addr + pkt.dst.index()];
        if e != ANCHOR {
            return (decode(e), false);
        }
        let m = &self.mobiles[self.of_addr[pkt.dst.index()].0 as usize];
        debug_assert_eq!(node, m.anchor);
        match m.pending {
            None => (m.hops[m.bound as usize].anchor, false),
            Some(_) if m.old_path == OldPath::Drop => (Hop::Drop(DropCause::Binding), false),
            Some(p) => (m.hops[p.new as usize].anchor, true),
        }
    }

    /// The interface of a mobile node a packet uses: the interface of a care-of address it is
    /// sent from or to; for a home address, the interface the binding names (towards the
    /// mobile node) or the one the mobile node sends by (from it). `None` for packets that do
    /// not involve a mobile node.
    pub fn path_of(&self, pkt: &Packet) -> Option<u32> {
        let (dst, src) = (self.of_addr[pkt.dst.index()], self.of_addr[pkt.src.index()]);
        let care_of = |(k, i): (u32, u32)| (k != NONE && i != HOME).then_some(i);
        care_of(dst).or(care_of(src)).or_else(|| {
            if dst.1 == HOME {
                let m = &self.mobiles[dst.0 as usize];
                Some(match m.pending {
                    Some(p) if m.old_path == OldPath::Forward => p.new,
                    _ => m.bound,
                })
            } else if src.1 == HOME {
                Some(self.mobiles[src.0 as usize].mn_iface)
            } else {
                None
            }
        })
    }
}
