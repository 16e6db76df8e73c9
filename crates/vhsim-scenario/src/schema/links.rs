//! Links: rate (or a recorded trace), delay, queue, and per direction the error model, ARQ and
//! reordering.

use crate::units::{Amount, Duration, RateValue, Size};
use schemars::JsonSchema;
use serde::Deserialize;

/// A link: either `between = [a, b]` (two directions, "forward" = a -> b, "reverse" = b -> a)
/// or `from` + `to` (one direction).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two nodes of a duplex link.
    pub between: Option<[String; 2]>,
    /// Sending node of a simplex link.
    pub from: Option<String>,
    /// Receiving node of a simplex link.
    pub to: Option<String>,
    /// Rate of both directions, e.g. "100Mbps".
    pub rate: Option<RateValue>,
    /// A recorded delivery-opportunity trace driving both directions instead of `rate`.
    pub trace: Option<TraceSpec>,
    /// One-way propagation delay of both directions, e.g. "1ms".
    pub delay: Option<Duration>,
    /// Drop-tail queue limit of both directions (default "100pkt").
    pub queue: Option<Amount>,
    /// Error model of both directions (default none); per transmission attempt if `arq` is set.
    pub error: Option<ErrorSpec>,
    /// Link-layer ARQ of both directions (default none).
    pub arq: Option<ArqSpec>,
    /// Reordering model of both directions (default none).
    pub reorder: Option<ReorderSpec>,
    /// Overrides for the forward direction (first node -> second) of a duplex link.
    pub forward: Option<DirectionSpec>,
    /// Overrides for the reverse direction (second node -> first) of a duplex link.
    pub reverse: Option<DirectionSpec>,
}

/// Per-direction overrides of a duplex link.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DirectionSpec {
    /// Rate of this direction.
    pub rate: Option<RateValue>,
    /// A recorded trace driving this direction instead of a rate.
    pub trace: Option<TraceSpec>,
    /// Propagation delay of this direction.
    pub delay: Option<Duration>,
    /// Queue limit of this direction.
    pub queue: Option<Amount>,
    /// Error model of this direction.
    pub error: Option<ErrorSpec>,
    /// Link-layer ARQ of this direction.
    pub arq: Option<ArqSpec>,
    /// Reordering model of this direction.
    pub reorder: Option<ReorderSpec>,
}

/// Error model kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Nothing is lost.
    None,
    /// Each packet is lost with probability `p`.
    Bernoulli,
    /// The first `copies` transmissions of segments `seqs` of flow `flow` are lost.
    DropList,
    /// Gilbert-Elliott, per-packet Markov form: `p` (Good -> Bad), `r` (Bad -> Good),
    /// `loss_good`, `loss_bad`.
    GilbertElliott,
    /// Gilbert-Elliott, time-based with deterministic sojourns (Lim & Jang's WLAN):
    /// `good_duration`, `bad_duration`, `p_bad`, `loss_good`, `loss_bad`.
    GilbertElliottTimed,
    /// Bernoulli loss only inside time windows: `p`, `start`, `end`, or `windows`.
    TimeWindow,
}

impl ErrorKind {
    /// The name as written in files.
    pub(crate) fn name(self) -> &'static str {
        ERROR_KIND_NAMES[self as usize]
    }
}

/// Names of [`ErrorKind`] variants, in declaration order.
pub(crate) const ERROR_KIND_NAMES: &[&str] =
    &["none", "bernoulli", "drop_list", "gilbert_elliott", "gilbert_elliott_timed", "time_window"];

/// An error model, e.g. `{ kind = "bernoulli", p = 0.01 }`,
/// `{ kind = "gilbert_elliott", p = 0.01, r = 0.1 }`, `{ kind = "gilbert_elliott_timed" }`
/// (Lim & Jang's WLAN by default), `{ kind = "time_window", p = 0.03, start = "48s", end = "50s" }`
/// or `{ kind = "drop_list", flow = "bulk", seqs = [5, 6], copies = 1 }`. Each kind accepts only
/// its own keys; see docs/link-models.md.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorSpec {
    /// Which model.
    pub kind: ErrorKind,
    /// bernoulli: loss probability per packet; gilbert_elliott: probability of Good -> Bad per
    /// packet; time_window: loss probability inside the window. In [0, 1].
    pub p: Option<f64>,
    /// gilbert_elliott: probability of Bad -> Good per packet, in [0, 1].
    pub r: Option<f64>,
    /// gilbert_elliott(_timed): loss probability in Good (default 0 / 0.001), in [0, 1].
    pub loss_good: Option<f64>,
    /// gilbert_elliott(_timed): loss probability in Bad (default 1 / 0.1), in [0, 1].
    pub loss_bad: Option<f64>,
    /// gilbert_elliott_timed: length of a Good sojourn (default "1s", > 0).
    pub good_duration: Option<Duration>,
    /// gilbert_elliott_timed: length of a Bad sojourn (default "100ms", > 0).
    pub bad_duration: Option<Duration>,
    /// gilbert_elliott_timed: probability that the next sojourn is Bad (default 0.5), in [0, 1].
    pub p_bad: Option<f64>,
    /// time_window: start of the single window (inclusive).
    pub start: Option<Duration>,
    /// time_window: end of the single window (exclusive; after `start`).
    pub end: Option<Duration>,
    /// time_window: several windows instead of `p`/`start`/`end` (non-overlapping).
    pub windows: Option<Vec<WindowSpec>>,
    /// drop_list: name of the flow whose segments are dropped.
    pub flow: Option<String>,
    /// drop_list: segment numbers to drop.
    pub seqs: Option<Vec<u64>>,
    /// drop_list: transmissions of each listed segment to drop (default 1 = only the original).
    pub copies: Option<u32>,
}

/// One loss window of a time_window error model: `{ p = 0.03, start = "48s", end = "50s" }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WindowSpec {
    /// Loss probability per packet leaving the link inside the window, in [0, 1].
    pub p: f64,
    /// Start (inclusive).
    pub start: Duration,
    /// End (exclusive; after `start`).
    pub end: Duration,
}

/// Link-layer ARQ kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArqKind {
    /// No ARQ (e.g. to switch off, on one direction, an ARQ given for the whole link).
    None,
    /// IEEE 802.11 stop-and-wait ARQ: `frame_loss`, `retry_limit`, `retry_delay`, `backoff_max`.
    StopAndWait,
}

/// A link-layer ARQ, e.g. `{ kind = "stop_and_wait", frame_loss = 0.1, retry_limit = 4,
/// retry_delay = "1ms" }`. With an ARQ, the error model acts on each transmission attempt.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArqSpec {
    /// Which ARQ.
    pub kind: ArqKind,
    /// Probability that one attempt fails (default 0), in [0, 1], on top of the error model.
    pub frame_loss: Option<f64>,
    /// Total attempts per frame, the first included (default 4 = ns-2 LongRetryLimit_; >= 1).
    pub retry_limit: Option<u32>,
    /// Time a failed attempt adds before the next one (ACK timeout + backoff), e.g. "1ms".
    pub retry_delay: Option<Duration>,
    /// Extra uniform random backoff in [0, backoff_max] per failed attempt (default "0s").
    pub backoff_max: Option<Duration>,
}

/// Reordering model kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReorderKind {
    /// No reordering.
    None,
    /// "Swap with the next packet(s)" (Lim & Jang's 3G): `q`, `depth`, `hold_timeout`.
    Swap,
}

/// A reordering model, e.g. `{ kind = "swap", q = 0.05, depth = 1 }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReorderSpec {
    /// Which model.
    pub kind: ReorderKind,
    /// Probability that a packet is held back, in [0, 1].
    pub q: Option<f64>,
    /// How many following packets pass a held one (default 1; >= 1).
    pub depth: Option<u32>,
    /// Longest wait for the next following packet (default: one serialization time of the held
    /// packet; > 0).
    pub hold_timeout: Option<Duration>,
}

/// A recorded delivery-opportunity trace in Mahimahi's format in place of a rate, e.g.
/// `{ shipped = "3g-outages" }` or `{ file = "traces/lte.down", delivery = "spread" }`
/// (docs/scenario-format.md "Recorded link traces").
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceSpec {
    /// A trace shipped with vhsim: "3g-outages", "wlan-outages" or "constant".
    pub shipped: Option<String>,
    /// A trace file (one millisecond time per line); a relative path is relative to the working
    /// directory.
    pub file: Option<String>,
    /// Bytes one delivery opportunity carries (default "1500B", an Ethernet MTU; > 0).
    pub opportunity_size: Option<Size>,
    /// How an opportunity's bytes leave: "burst" (at its instant, Mahimahi's; default) or
    /// "spread" (evenly over its millisecond).
    pub delivery: Option<TraceDeliverySpec>,
}

/// How an opportunity's bytes leave a traced link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TraceDeliverySpec {
    /// At the opportunity's instant (Mahimahi).
    Burst,
    /// Evenly over the millisecond that ends at the opportunity.
    Spread,
}
