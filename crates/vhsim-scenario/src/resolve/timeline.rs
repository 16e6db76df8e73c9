//! Timeline actions and metrics settings.

use super::before_end;
use super::topology::Topology;
use crate::error::{err, Result};
use crate::model::{Action, GoodputWindow, MetricsModel, TimelineEntry};
use crate::schema::{ActionKind, DirectionSel, MetricsSpec, TimelineSpec};
use crate::units::fmt_duration;
use vhsim_core::{SimDuration, SimTime};

/// Resolve the timeline and sort it by time (ties keep file order).
pub(super) fn resolve(
    entries: &[TimelineSpec],
    topo: &Topology,
    duration: SimDuration,
) -> Result<Vec<TimelineEntry>> {
    let mut out = entries
        .iter()
        .enumerate()
        .map(|(i, e)| entry(e, &format!("timeline[{i}]"), topo, duration))
        .collect::<Result<Vec<_>>>()?;
    out.sort_by_key(|e| e.at);
    Ok(out)
}

fn entry(e: &TimelineSpec, path: &str, topo: &Topology, duration: SimDuration) -> Result<TimelineEntry> {
    let p = |k: &str| format!("{path}.{k}");
    let at = before_end(e.at.0, duration, &p("at"))?;
    let dirs = topo.link(&e.link, &p("link"))?;
    let links = match (e.direction.unwrap_or_default(), dirs) {
        (DirectionSel::Both, _) => dirs.to_vec(),
        (DirectionSel::Forward, _) => vec![dirs[0]],
        (DirectionSel::Reverse, [_, r]) => vec![*r],
        (DirectionSel::Reverse, _) => {
            let msg = format!(
                "link `{}` is simplex; it has no reverse direction (use \"both\" or \"forward\")",
                e.link
            );
            return Err(err(p("direction"), msg));
        }
    };
    if e.action != ActionKind::SetLink {
        for (key, present) in [("rate", e.rate.is_some()), ("delay", e.delay.is_some())] {
            if present {
                return Err(err(p(key), format!("`{key}` is only allowed with action = \"set_link\"")));
            }
        }
    }
    let action = match e.action {
        ActionKind::LinkDown => Action::LinkDown { links },
        ActionKind::LinkUp => Action::LinkUp { links },
        ActionKind::SetLink if e.rate.is_none() && e.delay.is_none() => {
            return Err(err(path, "action = \"set_link\" needs `rate`, `delay` or both"));
        }
        ActionKind::SetLink => {
            Action::SetLink { links, rate: e.rate.map(|r| r.0), delay: e.delay.map(|d| d.0) }
        }
    };
    Ok(TimelineEntry { at, action })
}

/// Resolve the metrics settings.
pub(super) fn metrics(m: &MetricsSpec, duration: SimDuration) -> Result<MetricsModel> {
    let goodput_interval = m.goodput_interval.map_or(SimDuration::from_secs(1), |d| d.0);
    if goodput_interval == SimDuration::ZERO {
        return Err(err("metrics.goodput_interval", "must be greater than 0s"));
    }
    let windows = m
        .windows
        .iter()
        .map(|(name, [start, end])| {
            let path = format!("metrics.windows.{name}");
            let (s, e) = (start.0, end.0);
            if s >= e {
                let msg = format!("start {} must be before end {}", fmt_duration(s), fmt_duration(e));
                return Err(err(path, msg));
            }
            if e > duration {
                let msg = format!(
                    "end {} is after the end of the run (duration {})",
                    fmt_duration(e),
                    fmt_duration(duration)
                );
                return Err(err(path, msg));
            }
            let t = |d: SimDuration| SimTime(d.as_nanos());
            Ok(GoodputWindow { name: name.clone(), start: t(s), end: t(e) })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(MetricsModel { goodput_interval, windows })
}
