//! Error models, link-layer ARQ and reordering models of a link direction: each spec is checked
//! (fields fit the kind, probabilities in [0, 1], durations > 0, counts >= 1, windows ordered)
//! and resolved into its vhsim-net configuration. The models themselves, their parameters and
//! analytic values are described in docs/link-models.md (docs/references.md §12).

use crate::error::{err, join, list, Result};
use crate::schema::{ArqKind, ArqSpec, ErrorKind, ErrorSpec, ReorderKind, ReorderSpec, WindowSpec};
use crate::units::{fmt_duration, Duration};
use vhsim_core::{SimDuration, SimTime};
use vhsim_net::{ArqConfig, ErrorModelConfig, LossWindow, ReorderConfig};

/// A probability in [0, 1] at `path`.
fn probability(v: f64, path: &str) -> Result<f64> {
    if !(0.0..=1.0).contains(&v) {
        return Err(err(path, format!("{v} is not a probability; expected a number in [0, 1]")));
    }
    Ok(v)
}

/// An optional probability with a default.
fn probability_or(v: Option<f64>, default: f64, path: &str) -> Result<f64> {
    v.map_or(Ok(default), |v| probability(v, path))
}

/// A duration that must be greater than zero.
fn positive(d: Duration, path: &str, what: &str) -> Result<SimDuration> {
    if d.0 == SimDuration::ZERO {
        return Err(err(path, format!("must be greater than 0s ({what})")));
    }
    Ok(d.0)
}

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
fn kinds_text(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Reject the first present field whose kind list does not include `kind`.
fn fields_fit(path: &str, fields: &[(&str, bool, &[&str])], kind: &str) -> Result<()> {
    for &(key, present, kinds) in fields {
        if present && !kinds.contains(&kind) {
            let msg = format!("`{key}` is only allowed with kind = {}", kinds_text(kinds));
            return Err(err(join(path, key), msg));
        }
    }
    Ok(())
}

/// Resolve an error model at `path`, checking that its fields fit its kind.
pub(super) fn error_model(e: &ErrorSpec, path: &str, flow_names: &[&str]) -> Result<ErrorModelConfig> {
    const P: &[&str] = &["bernoulli", "gilbert_elliott", "time_window"];
    const GE: &[&str] = &["gilbert_elliott"];
    const GE_ANY: &[&str] = &["gilbert_elliott", "gilbert_elliott_timed"];
    const GET: &[&str] = &["gilbert_elliott_timed"];
    const TW: &[&str] = &["time_window"];
    const DL: &[&str] = &["drop_list"];
    let fields: [(&str, bool, &[&str]); 13] = [
        ("p", e.p.is_some(), P),
        ("r", e.r.is_some(), GE),
        ("loss_good", e.loss_good.is_some(), GE_ANY),
        ("loss_bad", e.loss_bad.is_some(), GE_ANY),
        ("good_duration", e.good_duration.is_some(), GET),
        ("bad_duration", e.bad_duration.is_some(), GET),
        ("p_bad", e.p_bad.is_some(), GET),
        ("start", e.start.is_some(), TW),
        ("end", e.end.is_some(), TW),
        ("windows", e.windows.is_some(), TW),
        ("flow", e.flow.is_some(), DL),
        ("seqs", e.seqs.is_some(), DL),
        ("copies", e.copies.is_some(), DL),
    ];
    fields_fit(path, &fields, e.kind.name())?;
    let p = |k: &str| join(path, k);
    let required = |v: Option<f64>, k: &str, what: &str| {
        let v = v.ok_or_else(|| {
            err(p(k), format!("missing field `{k}` (kind = \"{}\" needs {what} in [0, 1])", e.kind.name()))
        })?;
        probability(v, &p(k))
    };
    Ok(match e.kind {
        ErrorKind::None => ErrorModelConfig::None,
        ErrorKind::Bernoulli => ErrorModelConfig::Bernoulli { p: required(e.p, "p", "a loss probability")? },
        // Gurtov & Floyd's per-packet chain (docs/references.md §12).
        ErrorKind::GilbertElliott => ErrorModelConfig::GilbertElliott {
            p: required(e.p, "p", "the Good -> Bad probability `p` and the Bad -> Good probability `r`")?,
            r: required(e.r, "r", "the Good -> Bad probability `p` and the Bad -> Good probability `r`")?,
            loss_good: probability_or(e.loss_good, 0.0, &p("loss_good"))?,
            loss_bad: probability_or(e.loss_bad, 1.0, &p("loss_bad"))?,
        },
        // Defaults are Lim & Jang's WLAN (§5.1, Table 1; docs/references.md §12).
        ErrorKind::GilbertElliottTimed => ErrorModelConfig::GilbertElliottTimed {
            good_duration: match e.good_duration {
                Some(d) => positive(d, &p("good_duration"), "a Good sojourn must last")?,
                None => SimDuration::from_secs(1),
            },
            bad_duration: match e.bad_duration {
                Some(d) => positive(d, &p("bad_duration"), "a Bad sojourn must last")?,
                None => SimDuration::from_millis(100),
            },
            p_bad: probability_or(e.p_bad, 0.5, &p("p_bad"))?,
            loss_good: probability_or(e.loss_good, 0.001, &p("loss_good"))?,
            loss_bad: probability_or(e.loss_bad, 0.1, &p("loss_bad"))?,
        },
        ErrorKind::TimeWindow => ErrorModelConfig::TimeWindow { windows: time_windows(e, path)? },
        ErrorKind::DropList => {
            let missing = |k: &str| {
                err(p(k), format!("missing field `{k}` (kind = \"drop_list\" needs `flow` and `seqs`)"))
            };
            let flow_name = e.flow.as_deref().ok_or_else(|| missing("flow"))?;
            let flow = flow_names.iter().position(|f| *f == flow_name).ok_or_else(|| {
                err(p("flow"), format!("unknown flow `{flow_name}` (flows: {})", list(flow_names)))
            })?;
            let seqs = e.seqs.clone().ok_or_else(|| missing("seqs"))?;
            let copies = e.copies.unwrap_or(1);
            if copies == 0 {
                return Err(err(p("copies"), "must be at least 1 (the original transmission)"));
            }
            ErrorModelConfig::DropList { flow: flow as u32, seqs, copies }
        }
    })
}

/// The windows of a time_window model: one from `p`/`start`/`end`, or the `windows` list.
/// Each needs start < end; windows must not overlap (they may touch).
fn time_windows(e: &ErrorSpec, path: &str) -> Result<Vec<LossWindow>> {
    let single = e.p.is_some() || e.start.is_some() || e.end.is_some();
    let mut windows = Vec::new();
    match &e.windows {
        Some(_) if single => {
            let msg = "give either `p`, `start` and `end` (one window) or `windows` (a list), not both";
            return Err(err(join(path, "windows"), msg));
        }
        Some(list) if list.is_empty() => {
            return Err(err(join(path, "windows"), "at least one window is required"));
        }
        Some(list) => {
            for (i, w) in list.iter().enumerate() {
                windows.push((window(w, &format!("{}[{i}]", join(path, "windows")))?, i));
            }
        }
        None => {
            let missing = |k: &str| {
                err(
                    join(path, k),
                    format!("missing field `{k}` (kind = \"time_window\" needs `p`, `start` and `end`, or `windows`)"),
                )
            };
            let w = WindowSpec {
                p: e.p.ok_or_else(|| missing("p"))?,
                start: e.start.ok_or_else(|| missing("start"))?,
                end: e.end.ok_or_else(|| missing("end"))?,
            };
            windows.push((window(&w, path)?, 0));
        }
    }
    windows.sort_by_key(|(w, _)| w.start);
    for pair in windows.windows(2) {
        let ((a, ia), (b, ib)) = (pair[0], pair[1]);
        if b.start < a.end {
            let msg = format!(
                "window [{}, {}) overlaps windows[{ia}] [{}, {})",
                fmt_duration(b.start.saturating_since(SimTime::ZERO)),
                fmt_duration(b.end.saturating_since(SimTime::ZERO)),
                fmt_duration(a.start.saturating_since(SimTime::ZERO)),
                fmt_duration(a.end.saturating_since(SimTime::ZERO)),
            );
            return Err(err(format!("{}[{ib}]", join(path, "windows")), msg));
        }
    }
    Ok(windows.into_iter().map(|(w, _)| w).collect())
}

/// One window at `path` (the window's table, or the error table for the single form).
fn window(w: &WindowSpec, path: &str) -> Result<LossWindow> {
    let p = probability(w.p, &join(path, "p"))?;
    if w.start.0 >= w.end.0 {
        let msg = format!("start {} must be before end {}", fmt_duration(w.start.0), fmt_duration(w.end.0));
        return Err(err(join(path, "start"), msg));
    }
    Ok(LossWindow { start: SimTime(w.start.0.as_nanos()), end: SimTime(w.end.0.as_nanos()), p })
}

/// Resolve a link-layer ARQ at `path` (`None` for kind = "none").
pub(super) fn arq(a: &ArqSpec, path: &str) -> Result<Option<ArqConfig>> {
    const SW: &[&str] = &["stop_and_wait"];
    let fields: [(&str, bool, &[&str]); 4] = [
        ("frame_loss", a.frame_loss.is_some(), SW),
        ("retry_limit", a.retry_limit.is_some(), SW),
        ("retry_delay", a.retry_delay.is_some(), SW),
        ("backoff_max", a.backoff_max.is_some(), SW),
    ];
    let kind = match a.kind {
        ArqKind::None => "none",
        ArqKind::StopAndWait => "stop_and_wait",
    };
    fields_fit(path, &fields, kind)?;
    Ok(match a.kind {
        ArqKind::None => None,
        // 802.11 stop-and-wait; the limit counts all attempts (docs/references.md §12).
        ArqKind::StopAndWait => {
            let retry_limit = a.retry_limit.unwrap_or(4);
            if retry_limit == 0 {
                let msg =
                    "must be at least 1: it counts all attempts, the first included (ns-2 LongRetryLimit_ 4)";
                return Err(err(join(path, "retry_limit"), msg));
            }
            let retry_delay = a.retry_delay.ok_or_else(|| {
                err(
                    join(path, "retry_delay"),
                    "missing field `retry_delay` (kind = \"stop_and_wait\" needs the time a failed attempt \
                     adds before the next: ACK timeout + backoff, e.g. \"1ms\")",
                )
            })?;
            Some(ArqConfig::StopAndWait {
                frame_loss: probability_or(a.frame_loss, 0.0, &join(path, "frame_loss"))?,
                retry_limit,
                retry_delay: retry_delay.0,
                backoff_max: a.backoff_max.map_or(SimDuration::ZERO, |d| d.0),
            })
        }
    })
}

/// Resolve a reordering model at `path` (`None` for kind = "none").
pub(super) fn reorder(r: &ReorderSpec, path: &str) -> Result<Option<ReorderConfig>> {
    const SWAP: &[&str] = &["swap"];
    let fields: [(&str, bool, &[&str]); 3] = [
        ("q", r.q.is_some(), SWAP),
        ("depth", r.depth.is_some(), SWAP),
        ("hold_timeout", r.hold_timeout.is_some(), SWAP),
    ];
    let kind = match r.kind {
        ReorderKind::None => "none",
        ReorderKind::Swap => "swap",
    };
    fields_fit(path, &fields, kind)?;
    Ok(match r.kind {
        ReorderKind::None => None,
        // Lim & Jang's swap; depth is ambiguity A10 (docs/references.md §12, §15).
        ReorderKind::Swap => {
            let q = r.q.ok_or_else(|| {
                err(
                    join(path, "q"),
                    "missing field `q` (kind = \"swap\" needs the probability that a packet is held, in [0, 1])",
                )
            })?;
            let depth = r.depth.unwrap_or(1);
            if depth == 0 {
                return Err(err(join(path, "depth"), "must be at least 1 (packets that pass a held one)"));
            }
            let hold_timeout = r
                .hold_timeout
                .map(|d| positive(d, &join(path, "hold_timeout"), "a hold timeout"))
                .transpose()?;
            Some(ReorderConfig::Swap { q: probability(q, &join(path, "q"))?, depth, hold_timeout })
        }
    })
}
