//! Shared cells: mobile nodes attached to a cell node share the queues of its one link (the
//! cell's downlink and uplink; docs/handover.md "Shared cells").
//!
//! A packet crosses a mobile node's attachment ([`crate::routing::Hop::Attach`]) at once: from
//! the cell node to the mobile node it is addressed to when it has crossed the cell's downlink,
//! from the mobile node to the cell node when it leaves the mobile node. A handover of one
//! mobile node acts on its attachment only, as it would on an access link of its own: a
//! break-before-make or forced handover takes it down (what crosses it meanwhile is lost, cause
//! `link_down`, counted on the cell's link direction), a pause holds what reaches it until the
//! pause ends; a forced handover's `in_flight` decides the fate of the packets that were on
//! the cell's downlink for the mobile node when its attachment failed. Packets the mobile node
//! handed to the cell's uplink before it left go on: they are the cell's.

use crate::world::{InTransit, World};
use vhsim_net::{DropCause, Packet};

/// The state of one attachment.
#[derive(Clone, Debug)]
pub struct AttachState {
    /// Whether packets cross it.
    pub(crate) up: bool,
    /// Whether packets wait at it (a pause).
    pub(crate) paused: bool,
    /// Packets that waited during a pause, with whether they were going to the mobile node;
    /// made by the first (a user's attachment carries one pointer until then: issue #29,
    /// memory per flow).
    held: Option<Box<Vec<(Packet, bool)>>>,
    /// The packets on the cell's downlink for the mobile node when its attachment failed.
    pub(crate) in_transit: Option<InTransit>,
}

impl Default for AttachState {
    fn default() -> Self {
        AttachState { up: true, paused: false, held: None, in_transit: None }
    }
}

impl World {
    /// The attachment of mobile node `m`'s interface `iface` to a shared cell, if it has one.
    pub(crate) fn attachment(&self, m: u32, iface: u32) -> Option<u32> {
        self.routing.attachment(m, iface)
    }

    /// `pkt`, at `node`, crosses attachment `a`: to the mobile node, or from it to the cell.
    pub(crate) fn cross_attachment(&mut self, node: u32, a: u32, pkt: Packet) {
        let att = self.routing.attachments[a as usize];
        let down = node != att.node;
        let st = &mut self.cells[a as usize];
        let lost = match st.in_transit {
            Some(t) if down && self.now <= t.until => !t.delivered,
            _ => !st.up,
        };
        if lost {
            self.drop_packet(Some(att.links[usize::from(!down)]), &pkt, DropCause::LinkDown);
        } else if st.paused {
            st.held.get_or_insert_with(Box::default).push((pkt, down));
        } else if down {
            self.at_node(att.node, pkt, Some(att.links[0]), 0);
        } else {
            self.at_node(att.cell, pkt, None, 0);
        }
    }

    /// The pause of attachment `a` ends: what waited at it crosses it now, in order.
    pub(crate) fn resume_attachment(&mut self, a: u32) {
        let st = &mut self.cells[a as usize];
        st.paused = false;
        let att = self.routing.attachments[a as usize];
        for (pkt, down) in st.held.take().map_or_else(Vec::new, |h| *h) {
            let node = if down { att.cell } else { att.node };
            self.cross_attachment(node, a, pkt);
        }
    }
}
