//! Run fingerprints (OMNeT++/INET style): one hash per trace table and one of the summary's
//! simulation figures, so that a refactor can prove it moved nothing.
//!
//! * `packets`: every packet-trace row's time, event, flow, sequence, link, drop cause and
//!   ground-truth label, in trace order. Columns added later (sizes, addresses, flags) are
//!   deliberately not part of it: they add information, they do not change what happened.
//! * `timeseries`: every sender-state row's time, flow and values, in trace order (TCP's
//!   columns first, as when the store was written; later columns with the row's path after).
//! * `summary`: the summary flattened to `path=value` lines, sorted, without the figures of the
//!   engine rather than of the simulation (wall time, event count, version). Zero, false, null
//!   and empty leaves are left out, so adding a counter that stays zero in an old scenario
//!   (a new drop cause, say) moves nothing, while any non-zero change does. Figures that moved
//!   within the summary keep their original path here ([`MOVED`]), so a restructuring of the
//!   summary moves no fingerprint. The `aggregate` figures are left out: they are functions of
//!   the per-flow figures. A flow's `engagement` counters are left out: they count
//!   what the mechanisms did, which the trace and the other figures already fix, so adding a
//!   counter to a scheme moves nothing. So are the links' `window_drops` (their drops in the
//!   handover windows, issue #28): the packet trace's drops with their times fix them.
//!
//! The store of fingerprints of every shipped scenario is `tests/fingerprints.tsv`, checked by
//! `tests/test_fingerprints.py` and rewritten by `vhsim fingerprints --update`.

use crate::{RunOutput, RunSummary};
use serde_json::Value;
use xxhash_rust::xxh3::Xxh3;

/// Hashes of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// Hash of the packet trace (0 rows hash too).
    pub packets: u64,
    /// Hash of the time series.
    pub timeseries: u64,
    /// Hash of the summary's simulation figures.
    pub summary: u64,
}

/// Paths of summary figures that moved, mapped to where they were when the store was written:
/// (prefix of the new path after `flows.<name>.`, replacement).
const MOVED: [(&str, &str); 1] = [
    // Transport-neutral core (issue #10): TCP-only figures went into the flow's `tcp` part.
    ("tcp.", ""),
];

/// (name, unit) of the time-series columns the store was first written with (TCP's).
const LEGACY_COLUMNS: [(&str, &str); 8] = [
    ("cwnd", "pkts"),
    ("ssthresh", "pkts"),
    ("srtt", "s"),
    ("rto", "s"),
    ("ld_tcur", "s"),
    ("ld_threshold", "s"),
    ("flight", "pkts"),
    ("state", "code"),
];

/// Summary keys that describe the engine, not the simulated network, and the aggregates, which
/// are computed from the per-flow figures (`crate::aggregate`).
const ENGINE_FIGURES: [&str; 5] = ["vhsim_version", "wall_s", "events", "events_per_s", "aggregate"];

/// Fingerprint a finished run (recorded at `packets` detail for a complete packet hash).
pub fn fingerprint(out: &RunOutput) -> Fingerprint {
    let mut p = Xxh3::new();
    if let Some(t) = &out.traces.packets {
        for i in 0..t.time_ns.len() {
            p.update(&t.time_ns[i].to_le_bytes());
            p.update(&t.flow[i].to_le_bytes());
            p.update(&[t.event[i], t.cause[i], t.spurious[i] as u8]);
            p.update(&t.seq[i].to_le_bytes());
            p.update(&t.link[i].to_le_bytes());
        }
    }
    let mut ts = Xxh3::new();
    if let Some(t) = &out.traces.timeseries {
        // The columns of the time series as it was when the store was first written; a
        // variable an endpoint does not report reads as NaN, as those columns held then.
        let col = |(name, unit): (&str, &str)| t.column_in(name, unit);
        let [cwnd, ssthresh, srtt, rto, tcur, threshold, flight, state] = LEGACY_COLUMNS.map(col);
        // Columns added since (SCTP's per-path variables), with the row's path, after them.
        let extra: Vec<&[f64]> = t
            .columns
            .iter()
            .filter(|c| !LEGACY_COLUMNS.contains(&(c.name, c.unit)))
            .map(|c| c.values.as_slice())
            .collect();
        let at = |c: Option<&[f64]>, i: usize| c.map_or(f64::NAN, |c| c[i]);
        for i in 0..t.time_ns.len() {
            ts.update(&t.time_ns[i].to_le_bytes());
            ts.update(&t.flow[i].to_le_bytes());
            for v in [at(cwnd, i), at(ssthresh, i), at(srtt, i), at(rto, i), at(tcur, i), at(threshold, i)] {
                ts.update(&v.to_bits().to_le_bytes());
            }
            ts.update(&(at(flight, i) as i64).to_le_bytes());
            ts.update(&[at(state, i) as u8]);
            if !extra.is_empty() {
                ts.update(&t.path[i].to_le_bytes());
                for c in &extra {
                    ts.update(&c[i].to_bits().to_le_bytes());
                }
            }
        }
    }
    let mut s = Xxh3::new();
    for line in summary_figures(&out.summary) {
        s.update(line.as_bytes());
        s.update(b"\n");
    }
    Fingerprint { packets: p.digest(), timeseries: ts.digest(), summary: s.digest() }
}

/// The summary's simulation figures as sorted `path=value` lines (see the module docs).
pub fn summary_figures(summary: &RunSummary) -> Vec<String> {
    let mut v = serde_json::to_value(summary).expect("the summary serializes");
    strip_unhashed(&mut v);
    let mut lines = Vec::new();
    flatten("", &v, &mut lines);
    for line in &mut lines {
        *line = original_path(line);
    }
    lines.sort();
    lines
}

/// Remove what the summary hash leaves out: the engine's figures, the flows' engagement
/// counters and the links' drops in the handover windows (see the module docs).
fn strip_unhashed(v: &mut Value) {
    if let Value::Object(m) = v {
        for k in ENGINE_FIGURES {
            m.remove(k);
        }
    }
    if let Some(Value::Object(flows)) = v.get_mut("flows") {
        for flow in flows.values_mut() {
            if let Value::Object(f) = flow {
                f.remove("engagement");
            }
        }
    }
    if let Some(Value::Object(links)) = v.get_mut("links") {
        for link in links.values_mut() {
            if let Value::Object(l) = link {
                l.remove("window_drops");
            }
        }
    }
}

/// `line` with a moved figure's path as it was (see [`MOVED`]).
fn original_path(line: &str) -> String {
    let Some(rest) = line.strip_prefix("flows.") else { return line.to_owned() };
    // Flow names may contain dots (`cross.3`), so look for the moved prefix after any dot.
    for (i, _) in rest.match_indices('.') {
        let tail = &rest[i + 1..];
        for (from, to) in MOVED {
            if let Some(after) = tail.strip_prefix(from) {
                return format!("flows.{}.{to}{after}", &rest[..i]);
            }
        }
    }
    line.to_owned()
}

fn flatten(path: &str, v: &Value, out: &mut Vec<String>) {
    let join = |k: &str| if path.is_empty() { k.to_owned() } else { format!("{path}.{k}") };
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| flatten(&join(k), x, out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| flatten(&format!("{path}[{i}]"), x, out)),
        Value::Null | Value::Bool(false) => {}
        Value::Number(n) if n.as_f64() == Some(0.0) => {}
        Value::String(s) if s.is_empty() => {}
        other => out.push(format!("{path}={other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_figures_engagement_counters_and_window_drops_are_not_hashed() {
        let mut v = serde_json::json!({
            "wall_s": 0.5, "events": 10, "sim_s": 2.0,
            "flows": {"bulk": {"goodput_kbps": 9.0, "engagement": {"wave_decisions": 3}}},
            "links": {"a/forward": {"drops": {"link_down": 2}, "window_drops": {"link_down": 2}}}
        });
        strip_unhashed(&mut v);
        let mut lines = Vec::new();
        flatten("", &v, &mut lines);
        lines.sort();
        assert_eq!(lines, ["flows.bulk.goodput_kbps=9.0", "links.a/forward.drops.link_down=2", "sim_s=2.0"]);
    }

    #[test]
    fn flattening_drops_zero_leaves_and_keeps_the_rest_sorted_by_path() {
        let v = serde_json::json!({"b": {"x": 0, "y": 2.5, "z": [0, 3]}, "a": true, "c": null, "d": ""});
        let mut lines = Vec::new();
        flatten("", &v, &mut lines);
        lines.sort();
        assert_eq!(lines, ["a=true", "b.y=2.5", "b.z[1]=3"]);
    }

    #[test]
    fn moved_figures_keep_their_original_path() {
        assert_eq!(original_path("flows.cross.3.tcp.fast_retransmits=2"), "flows.cross.3.fast_retransmits=2");
        assert_eq!(original_path("flows.bulk.rto_count=1"), "flows.bulk.rto_count=1");
    }
}
