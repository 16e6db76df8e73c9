//! Figures over all flows and handovers of a run, so that a run with thousands of users reads in
//! a few numbers (`summary.json`'s `aggregate`): total goodput, Jain's fairness index, the
//! distribution of goodput across flows and of interruption times across (flow, handover)
//! pairs, and of handover lengths across mobile nodes.
//!
//! They are computed from the per-flow and per-handover figures of the summary, so they add no
//! information to it: the summary fingerprint leaves them out (`crate::fingerprint`).

use crate::summary::{FlowSummary, HandoverSummary};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

/// Figures over the run's flows and handovers.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct AggregateSummary {
    /// Number of flows.
    pub flows: u64,
    /// Sum of the flows' goodput (kb/s).
    pub total_goodput_kbps: f64,
    /// Jain's fairness index of the flows' goodput, (Σx)² / (n Σx²): 1 when every flow gets the
    /// same, 1/n when one gets everything (Jain, Chiu & Hawe, DEC-TR-301, 1984; Park et al.'s
    /// fairness criterion). 1 when no flow delivered anything.
    pub jain_index: f64,
    /// The flows' goodput (kb/s).
    pub goodput_kbps: Distribution,
    /// Interruption of every flow at every handover it measures (s): last in-order delivery
    /// before the handover to the first after it (docs/handover.md). Absent without handovers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interruption_s: Option<Distribution>,
    /// (flow, handover) pairs whose interruption did not end before the end of the run.
    #[serde(skip_serializing_if = "is_zero")]
    pub interruptions_open: u64,
    /// Length of every handover (s): from its start until traffic took the new interface.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handover_s: Option<Distribution>,
    /// Drops of all flows' packets by cause.
    pub drops: BTreeMap<String, u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A distribution: count, mean and quantiles (linear interpolation between order statistics,
/// as numpy's default: the q-quantile of n sorted values is at position q (n - 1)).
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct Distribution {
    /// Values.
    pub n: u64,
    /// Mean.
    pub mean: f64,
    /// Smallest.
    pub min: f64,
    /// 5th percentile.
    pub p5: f64,
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest.
    pub max: f64,
}

impl Distribution {
    /// The distribution of `values` (`None` if there are none).
    pub fn of(mut values: Vec<f64>) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let q = |p: f64| {
            let pos = p * (values.len() - 1) as f64;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            values[lo] + (pos - lo as f64) * (values[hi] - values[lo])
        };
        Some(Distribution {
            n: values.len() as u64,
            mean: values.iter().sum::<f64>() / values.len() as f64,
            min: values[0],
            p5: q(0.05),
            p50: q(0.5),
            p95: q(0.95),
            p99: q(0.99),
            max: values[values.len() - 1],
        })
    }
}

/// Jain's index of `x` (see [`AggregateSummary::jain_index`]).
pub fn jain(x: &[f64]) -> f64 {
    let (sum, squares) = x.iter().fold((0.0, 0.0), |(s, q), v| (s + v, q + v * v));
    if squares > 0.0 {
        sum * sum / (x.len() as f64 * squares)
    } else {
        1.0
    }
}

/// The figures of `flows` (in the summary's order: the order the goodputs are summed in) and
/// `handovers`.
pub fn aggregate<'a>(flows: impl Iterator<Item = &'a FlowSummary>, handovers: &[HandoverSummary]) -> AggregateSummary {
    let mut b = AggregateBuilder::default();
    flows.for_each(|f| b.add(f));
    b.finish(handovers)
}

/// [`aggregate`] fed one flow at a time, so that the flows' summaries need not all exist at
/// once (`summary::summarize_as_table`).
#[derive(Default)]
pub struct AggregateBuilder {
    goodput: Vec<f64>,
    interruptions: Vec<f64>,
    open: u64,
    drops: BTreeMap<String, u64>,
}

impl AggregateBuilder {
    /// Count flow `f`.
    pub fn add(&mut self, f: &FlowSummary) {
        self.goodput.push(f.goodput_kbps);
        for h in &f.handovers {
            match h.interruption_s {
                Some(s) => self.interruptions.push(s),
                None => self.open += 1,
            }
        }
        for (cause, n) in f.drops.iter() {
            *self.drops.entry(cause.to_owned()).or_default() += n;
        }
    }

    /// The figures of the flows added and of `handovers`.
    pub fn finish(self, handovers: &[HandoverSummary]) -> AggregateSummary {
        let AggregateBuilder { goodput, interruptions, open, drops } = self;
        AggregateSummary {
            flows: goodput.len() as u64,
            total_goodput_kbps: goodput.iter().sum(),
            jain_index: jain(&goodput),
            goodput_kbps: Distribution::of(goodput).unwrap_or(Distribution {
                n: 0,
                mean: 0.0,
                min: 0.0,
                p5: 0.0,
                p50: 0.0,
                p95: 0.0,
                p99: 0.0,
                max: 0.0,
            }),
            interruption_s: Distribution::of(interruptions),
            interruptions_open: open,
            handover_s: Distribution::of(handovers.iter().map(|h| h.done_s - h.start_s).collect()),
            drops,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_is_one_for_equal_shares_and_one_over_n_for_one_taker() {
        assert_eq!(jain(&[3.0, 3.0, 3.0, 3.0]), 1.0);
        assert_eq!(jain(&[8.0, 0.0, 0.0, 0.0]), 0.25);
        assert!((jain(&[1.0, 2.0]) - 0.9).abs() < 1e-12, "(3)^2 / (2 * 5)");
        assert_eq!(jain(&[0.0, 0.0]), 1.0);
    }

    #[test]
    fn quantiles_interpolate_as_numpy_does() {
        let d = Distribution::of(vec![4.0, 1.0, 3.0, 2.0, 5.0]).unwrap();
        assert_eq!((d.n, d.mean, d.min, d.p50, d.max), (5, 3.0, 1.0, 3.0, 5.0));
        // numpy.percentile([1..5], 95) = 4.8, 5 -> 1.2, 99 -> 4.96.
        assert!((d.p95 - 4.8).abs() < 1e-12 && (d.p5 - 1.2).abs() < 1e-12 && (d.p99 - 4.96).abs() < 1e-12);
        assert!(Distribution::of(Vec::new()).is_none());
    }
}
