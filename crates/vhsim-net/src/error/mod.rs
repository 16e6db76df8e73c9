//! Error models: decide, per packet leaving a link direction, whether it is lost.
//!
//! Dispatch is an enum (no `Box<dyn>` in the hot path); each model lives in its own file.
//! The loss decision is taken when the packet finishes serialization, so a lost packet still
//! occupied the link (as ns-2's error model placed after the queue does).

mod bernoulli;
mod drop_list;

pub use bernoulli::Bernoulli;
pub use drop_list::DropList;

use crate::packet::Packet;
use serde::{Deserialize, Serialize};
use vhsim_core::{RngStream, SimTime};

/// Resolved configuration of an error model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ErrorModelConfig {
    /// Nothing is lost.
    None,
    /// Each packet is lost independently with probability `p`.
    Bernoulli {
        /// Loss probability per packet, in [0, 1].
        p: f64,
    },
    /// Drop given data segments of one flow (for tests): the first `copies` transmissions of
    /// each listed segment.
    DropList {
        /// Flow index.
        flow: u32,
        /// Segment numbers to drop.
        seqs: Vec<u64>,
        /// How many transmissions of each listed segment to drop (1 = only the original).
        copies: u32,
    },
}

/// A running error model.
#[derive(Clone, Debug)]
pub enum ErrorModel {
    /// Nothing is lost.
    None,
    /// Independent per-packet loss.
    Bernoulli(Bernoulli),
    /// Scripted drops.
    DropList(DropList),
}

impl ErrorModel {
    /// Build from its configuration and its own random stream.
    pub fn new(cfg: &ErrorModelConfig, rng: RngStream) -> Self {
        match cfg {
            ErrorModelConfig::None => ErrorModel::None,
            ErrorModelConfig::Bernoulli { p } => ErrorModel::Bernoulli(Bernoulli::new(*p, rng)),
            ErrorModelConfig::DropList { flow, seqs, copies } => {
                ErrorModel::DropList(DropList::new(*flow, seqs, *copies))
            }
        }
    }

    /// True if `pkt`, leaving the link at `now`, is lost.
    #[inline]
    pub fn drops(&mut self, now: SimTime, pkt: &Packet) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Bernoulli(m) => m.drops(now, pkt),
            ErrorModel::DropList(m) => m.drops(now, pkt),
        }
    }
}
