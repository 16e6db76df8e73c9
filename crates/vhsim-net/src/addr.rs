//! Network addresses.
//!
//! An address is an index into the run's address table, built from the scenario: one address
//! per node (`Addr(node id)`), then, when the scenario has a mobile node, one care-of address
//! per interface of the mobile node. The mobile node's own node address is its *home address*:
//! packets sent to it reach the anchor, which forwards them to the care-of address its binding
//! names (Mobile IP's home agent). Packets sent to an interface address take that interface's
//! path whatever the binding says (SCTP multihoming).

use serde::{Deserialize, Serialize};

/// An address: index into the run's address table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Addr(pub u32);

impl Addr {
    /// The address as a table index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
