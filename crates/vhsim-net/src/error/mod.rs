//! Error models: decide, per packet leaving a link direction, whether it is lost.
//!
//! Dispatch is an enum (no `Box<dyn>` in the hot path); each model lives in its own file.
//! The loss decision is taken when the packet finishes serialization, so a lost packet still
//! occupied the link (as ns-2's error model placed after the queue does). On a link direction
//! with link-layer ARQ ([`crate::arq`]) the model is asked once per transmission *attempt*.
//!
//! Random streams (docs/references.md §12 models; ARCHITECTURE §2.4 naming): the model of link
//! direction `<name>` draws its losses from `link/<name>/error`; the Gilbert–Elliott models
//! draw their state transitions from `link/<name>/error/state`.

mod bernoulli;
mod drop_list;
mod gilbert_elliott;
mod gilbert_elliott_timed;
mod time_window;

pub use bernoulli::Bernoulli;
pub use drop_list::DropList;
pub use gilbert_elliott::{ChannelState, GilbertElliott};
pub use gilbert_elliott_timed::GilbertElliottTimed;
pub use time_window::{LossWindow, TimeWindow};

use crate::packet::Packet;
use serde::{Deserialize, Serialize};
use vhsim_core::{RngStreams, SimDuration, SimTime};

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
    /// Gilbert–Elliott, per-packet Markov form (see [`GilbertElliott`]).
    GilbertElliott {
        /// Probability of Good -> Bad per packet.
        p: f64,
        /// Probability of Bad -> Good per packet.
        r: f64,
        /// Loss probability in Good.
        loss_good: f64,
        /// Loss probability in Bad.
        loss_bad: f64,
    },
    /// Gilbert–Elliott, time-based form with deterministic sojourns (see [`GilbertElliottTimed`]).
    GilbertElliottTimed {
        /// Length of a Good sojourn (> 0).
        good_duration: SimDuration,
        /// Length of a Bad sojourn (> 0).
        bad_duration: SimDuration,
        /// Probability that the next sojourn is Bad.
        p_bad: f64,
        /// Loss probability in Good.
        loss_good: f64,
        /// Loss probability in Bad.
        loss_bad: f64,
    },
    /// Bernoulli loss only inside time windows (see [`TimeWindow`]).
    TimeWindow {
        /// Non-overlapping windows, sorted by start.
        windows: Vec<LossWindow>,
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
    /// Per-packet Gilbert–Elliott.
    GilbertElliott(GilbertElliott),
    /// Time-based Gilbert–Elliott.
    GilbertElliottTimed(GilbertElliottTimed),
    /// Loss inside time windows.
    TimeWindow(TimeWindow),
}

impl ErrorModel {
    /// Build the model of link direction `link` from its configuration, with its own random
    /// streams `link/<link>/error` (and `link/<link>/error/state` for Gilbert–Elliott).
    pub fn new(cfg: &ErrorModelConfig, streams: &RngStreams, link: &str) -> Self {
        let rng = || streams.stream(&format!("link/{link}/error"));
        let state_rng = || streams.stream(&format!("link/{link}/error/state"));
        match cfg {
            ErrorModelConfig::None => ErrorModel::None,
            ErrorModelConfig::Bernoulli { p } => ErrorModel::Bernoulli(Bernoulli::new(*p, rng())),
            ErrorModelConfig::DropList { flow, seqs, copies } => {
                ErrorModel::DropList(DropList::new(*flow, seqs, *copies))
            }
            &ErrorModelConfig::GilbertElliott { p, r, loss_good, loss_bad } => {
                ErrorModel::GilbertElliott(GilbertElliott::new(p, r, loss_good, loss_bad, rng(), state_rng()))
            }
            &ErrorModelConfig::GilbertElliottTimed {
                good_duration,
                bad_duration,
                p_bad,
                loss_good,
                loss_bad,
            } => ErrorModel::GilbertElliottTimed(GilbertElliottTimed::new(
                good_duration,
                bad_duration,
                p_bad,
                loss_good,
                loss_bad,
                rng(),
                state_rng(),
            )),
            ErrorModelConfig::TimeWindow { windows } => {
                ErrorModel::TimeWindow(TimeWindow::new(windows, rng()))
            }
        }
    }

    /// True if `pkt`, leaving the link at `now`, is lost. Calls come in non-decreasing `now`.
    #[inline]
    pub fn drops(&mut self, now: SimTime, pkt: &Packet) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Bernoulli(m) => m.drops(now, pkt),
            ErrorModel::DropList(m) => m.drops(now, pkt),
            ErrorModel::GilbertElliott(m) => m.drops(now, pkt),
            ErrorModel::GilbertElliottTimed(m) => m.drops(now, pkt),
            ErrorModel::TimeWindow(m) => m.drops(now, pkt),
        }
    }
}
