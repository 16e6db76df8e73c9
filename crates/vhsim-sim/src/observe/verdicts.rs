//! Loss-classifier verdicts scored against the ground truth (issue #5 item 5: the simulator
//! knows whether a loss was a queue overflow or a wireless drop).

use serde::ser::SerializeMap;
use std::collections::BTreeMap;
use serde::{Serialize, Serializer};
use vhsim_net::DropCause;

/// What really happened to a unit a classifier judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    /// No copy was lost (it was reordered or delayed).
    NotLost = 0,
    /// A queue overflowed.
    Congestion = 1,
    /// An error model dropped it.
    Wireless = 2,
    /// A link was down (or another non-congestion cause).
    LinkDown = 3,
}

impl Truth {
    /// Names in code order, as in the summary keys.
    pub const NAMES: [&'static str; 4] = ["not_lost", "congestion", "wireless", "link_down"];

    /// The truth of a unit whose latest lost copy had drop-cause code `code` (0: none was
    /// lost).
    pub fn of_code(code: u8) -> Self {
        match code {
            0 => Truth::NotLost,
            c if c == DropCause::QueueOverflow as u8 => Truth::Congestion,
            c if c == DropCause::ErrorModel as u8 => Truth::Wireless,
            _ => Truth::LinkDown,
        }
    }
}

/// Counts of (truth, verdict) pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LossConfusion {
    /// `counts[truth][verdict]`, verdict 0 = congestion, 1 = wireless.
    counts: [[u64; 2]; 4],
}

impl LossConfusion {
    /// Count one verdict.
    pub fn add(&mut self, truth: Truth, wireless: bool) {
        self.counts[truth as usize][usize::from(wireless)] += 1;
    }

    /// Verdicts on units whose truth is `truth`: (called congestion, called wireless).
    pub fn row(&self, truth: Truth) -> (u64, u64) {
        let r = self.counts[truth as usize];
        (r[0], r[1])
    }

    /// Share of verdicts on real losses whose verdict matched the cause (link-down losses
    /// count as wireless); NaN without real losses.
    pub fn accuracy(&self) -> f64 {
        let real: u64 = self.counts[1..].iter().flatten().sum();
        let right = self.counts[1][0] + self.counts[2][1] + self.counts[3][1];
        if real > 0 {
            right as f64 / real as f64
        } else {
            f64::NAN
        }
    }
}

impl Serialize for LossConfusion {
    /// `ld_<truth>_as_<verdict>` for every pair, then `ld_decisions` and `ld_accuracy` (the
    /// summary's flat keys).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut keys = BTreeMap::new();
        for (t, truth) in Truth::NAMES.iter().enumerate() {
            for (v, verdict) in ["congestion", "wireless"].iter().enumerate() {
                keys.insert(format!("ld_{truth}_as_{verdict}"), self.counts[t][v] as f64);
            }
        }
        let decisions: u64 = self.counts.iter().flatten().sum();
        keys.insert("ld_decisions".to_owned(), decisions as f64);
        keys.insert("ld_accuracy".to_owned(), self.accuracy());
        let mut m = s.serialize_map(Some(keys.len()))?;
        for (k, v) in &keys {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl schemars::JsonSchema for LossConfusion {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "LossConfusion".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut props = serde_json::Map::new();
        for truth in Truth::NAMES {
            for verdict in ["congestion", "wireless"] {
                let d = format!("Verdicts `{verdict}` on units whose truth is `{truth}`.");
                props.insert(format!("ld_{truth}_as_{verdict}"), serde_json::json!({"type": "number", "description": d}));
            }
        }
        props.insert("ld_decisions".into(), serde_json::json!({"type": "number", "description": "Verdicts in all."}));
        props.insert(
            "ld_accuracy".into(),
            serde_json::json!({"type": ["number", "null"], "description": "Share of verdicts on real losses that matched the cause (null without real losses)."}),
        );
        schemars::json_schema!({ "type": "object", "properties": props })
    }
}
