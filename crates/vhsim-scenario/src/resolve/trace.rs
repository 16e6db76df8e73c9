//! Recorded link traces: a link's `trace` table resolved into a vhsim-net [`TraceConfig`]
//! (the trace read, checked and parsed once, here; errors name the key, and for a file its
//! line). docs/scenario-format.md "Recorded link traces".

use crate::error::{err, join, list, Result};
use crate::schema::{TraceDeliverySpec, TraceSpec};
use std::sync::Arc;
use vhsim_net::{DeliveryTrace, TraceConfig, TraceDelivery};
use xxhash_rust::xxh3::xxh3_64;

/// The traces shipped with vhsim, made by tools/make_traces.py (each model documented there
/// and in crates/vhsim-scenario/traces/README.md).
const SHIPPED: &[(&str, &str)] = &[
    ("3g-outages", include_str!("../../traces/3g-outages.trace")),
    ("wlan-outages", include_str!("../../traces/wlan-outages.trace")),
    ("constant", include_str!("../../traces/constant.trace")),
];

/// Largest trace file read (bytes): a minute of a 1 Gb/s link is 30 MB of lines.
const MAX_TRACE_BYTES: u64 = 256 * 1024 * 1024;

/// Opportunity size when the file gives none: an Ethernet MTU (Mahimahi's packets are 1500 B
/// of IP plus its 4-byte tunnel header).
const DEFAULT_OPPORTUNITY: u32 = 1500;

/// Resolve the trace table at `path` (`links.<l>.trace` or `links.<l>.<dir>.trace`).
pub(super) fn resolve(spec: &TraceSpec, path: &str) -> Result<TraceConfig> {
    let (source, text) = match (&spec.shipped, &spec.file) {
        (Some(_), Some(_)) => {
            return Err(err(join(path, "file"), "give `shipped` (a trace shipped with vhsim) or `file`, not both"))
        }
        (None, None) => {
            let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
            let msg = format!(
                "missing field `shipped` or `file` (a trace shipped with vhsim: {}; or a trace file)",
                list(names)
            );
            return Err(err(path, msg));
        }
        (Some(name), None) => {
            let Some((_, text)) = SHIPPED.iter().find(|(n, _)| n == name) else {
                let msg = format!("unknown shipped trace `{name}` (shipped: {})", list(SHIPPED.iter().map(|(n, _)| *n)));
                return Err(err(join(path, "shipped"), msg));
            };
            (format!("shipped:{name}"), (*text).to_owned())
        }
        (None, Some(file)) => (format!("file:{file}"), read(file, &join(path, "file"))?),
    };
    let trace = DeliveryTrace::parse(&text).map_err(|e| {
        let at = if spec.file.is_some() { "file" } else { "shipped" };
        let name = spec.file.as_deref().or(spec.shipped.as_deref()).unwrap_or_default();
        let sep = if e.line.is_some() { " " } else { ": " };
        err(join(path, at), format!("{name}{sep}{e}"))
    })?;
    let opportunity_size = match spec.opportunity_size {
        None => DEFAULT_OPPORTUNITY,
        Some(s) => u32::try_from(s.0).ok().filter(|&b| b > 0).ok_or_else(|| {
            err(join(path, "opportunity_size"), format!("{} B: expected 1 B to 4 GB (e.g. \"1500B\")", s.0))
        })?,
    };
    let delivery = match spec.delivery {
        None | Some(TraceDeliverySpec::Burst) => TraceDelivery::Burst,
        Some(TraceDeliverySpec::Spread) => TraceDelivery::Spread,
    };
    Ok(TraceConfig {
        source,
        digest: format!("{:016x}", xxh3_64(text.as_bytes())),
        opportunities: trace.opportunities(),
        period_ms: trace.period_ms(),
        opportunity_size,
        delivery,
        trace: Arc::new(trace),
    })
}

/// The text of trace file `file`, with a one-line error at `path` if it cannot be read.
fn read(file: &str, path: &str) -> Result<String> {
    let cannot = |why: String| err(path, format!("cannot read trace file `{file}`: {why}"));
    let meta = std::fs::metadata(file).map_err(|e| cannot(e.to_string()))?;
    if meta.is_dir() {
        return Err(cannot("it is a folder".into()));
    }
    if meta.len() > MAX_TRACE_BYTES {
        return Err(cannot(format!("larger than {} MB", MAX_TRACE_BYTES >> 20)));
    }
    let bytes = std::fs::read(file).map_err(|e| cannot(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        err(path, format!("{file} line {line}: not text (byte {at} is not UTF-8); a trace has one time per line"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_trace_parses() {
        for (name, text) in SHIPPED {
            let t = DeliveryTrace::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(t.opportunities() > 0, "{name}");
        }
    }
}
