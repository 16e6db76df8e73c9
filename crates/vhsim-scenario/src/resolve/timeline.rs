//! Timeline actions and metrics settings.

use super::before_end;
use super::mobile::Mobiles;
use super::topology::Topology;
use crate::error::list;
use crate::error::{err, join, Result};
use crate::model::{
    Action, GoodputWindow, HandoverKind, InFlight, MetricsModel, MobileModel, MobilityModel, TimelineEntry, Uplink,
};
use crate::schema::{
    ActionKind, DirectionSel, GoodputWindowSpec, HandoverKindSpec, InFlightSpec, MetricsSpec, TimelineSpec, UplinkSpec,
};
use crate::units::{fmt_duration, Duration};
use vhsim_core::{SimDuration, SimTime};

/// Resolve the timeline and sort it by time (ties keep file order).
pub(super) fn resolve(
    entries: &[TimelineSpec],
    topo: &Topology,
    duration: SimDuration,
    mobiles: &Mobiles,
) -> Result<Vec<TimelineEntry>> {
    let mut out = Vec::new();
    let mut handovers = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let path = format!("timeline[{i}]");
        if e.action == ActionKind::Handover {
            handovers.push((i, e));
        } else {
            out.push((i, entry(e, &path, topo, duration)?));
        }
    }
    // Handovers in time order: each of a mobile node's starts from the interface its previous
    // one moved to.
    handovers.sort_by_key(|(_, e)| e.at.0);
    let mut current: Vec<u32> = mobiles.list.iter().map(|m| m.initial).collect();
    let mut busy_until = vec![SimTime::ZERO; mobiles.list.len()];
    for (i, e) in handovers {
        let path = format!("timeline[{i}]");
        let k = which_mobile(e, &path, topo, mobiles)?;
        let mut h = handover(e, &path, &mobiles.list[k], current[k], duration, busy_until[k])?;
        if let Action::Handover { to, kind, mobile, .. } = &mut h.action {
            *mobile = k as u32;
            current[k] = *to;
            busy_until[k] = h.at + kind.outage();
        }
        out.push((i, h));
    }
    out.sort_by_key(|(i, e)| (e.at, *i));
    Ok(out.into_iter().map(|(_, e)| e).collect())
}

/// The mobile node handover entry `e` moves: its `mobile`, or the only one.
fn which_mobile(e: &TimelineSpec, path: &str, topo: &Topology, mobiles: &Mobiles) -> Result<usize> {
    let names = || list(mobiles.list.iter().map(|m| &topo.names[m.node as usize]));
    match (&e.mobile, mobiles.list.len()) {
        (_, 0) => Err(err(
            join(path, "action"),
            "a handover needs a [mobile] section naming the mobile node and its interfaces",
        )),
        (None, 1) => Ok(0),
        (None, _) => Err(err(path, format!("with several mobile nodes a handover names its `mobile` (mobile nodes: {})", names()))),
        (Some(name), _) => {
            let node = topo.node(name, &join(path, "mobile"))?;
            let (k, _) = mobiles.at(node).ok_or_else(|| {
                err(join(path, "mobile"), format!("node `{name}` is not a mobile node (mobile nodes: {})", names()))
            })?;
            Ok(k)
        }
    }
}

fn handover(
    e: &TimelineSpec,
    path: &str,
    m: &MobileModel,
    from: u32,
    duration: SimDuration,
    busy_until: SimTime,
) -> Result<TimelineEntry> {
    let p = |k: &str| join(path, k);
    for (key, present) in [
        ("link", e.link.is_some()),
        ("direction", e.direction.is_some()),
        ("rate", e.rate.is_some()),
        ("delay", e.delay.is_some()),
    ] {
        if present {
            return Err(err(p(key), format!("`{key}` is not a field of action = \"handover\" (fields: mobile, kind, to, gap, duration, detection, in_flight, uplink, notify_delay)")));
        }
    }
    let at = before_end(e.at.0, duration, &p("at"))?;
    if at < busy_until {
        let msg = format!(
            "the previous handover is still under way until {}",
            fmt_duration(SimDuration(busy_until.0))
        );
        return Err(err(p("at"), msg));
    }
    let names = || list(m.interfaces.iter().map(|i| &i.name));
    let to_name =
        e.to.as_deref()
            .ok_or_else(|| err(path, format!("a handover needs `to` (interfaces: {})", names())))?;
    let to = m
        .interfaces
        .iter()
        .position(|i| &*i.name == to_name)
        .ok_or_else(|| err(p("to"), format!("unknown interface `{to_name}` (interfaces: {})", names())))?
        as u32;
    if to == from {
        let msg = format!("the mobile node is already on interface `{to_name}` at {}", fmt_duration(e.at.0));
        return Err(err(p("to"), msg));
    }
    let kind_spec = e.kind.ok_or_else(|| {
        err(path, "a handover needs `kind` (make_before_break, break_before_make, pause or forced)")
    })?;
    let keys = KindKeys { gap: e.gap, duration: e.duration, detection: e.detection, in_flight: e.in_flight, uplink: e.uplink };
    let kind = handover_kind(kind_spec, &keys, path)?;
    let done = e.at.0 + kind.outage();
    if done >= duration {
        let msg = format!(
            "the handover ends at {}, not before the end of the run (duration {})",
            fmt_duration(done),
            fmt_duration(duration)
        );
        return Err(err(
            match kind {
                HandoverKind::MakeBeforeBreak => p("at"),
                HandoverKind::BreakBeforeMake { .. } => p("gap"),
                HandoverKind::Pause { .. } => p("duration"),
                HandoverKind::Forced { .. } => p("detection"),
            },
            msg,
        ));
    }
    let notify_delay = e.notify_delay.map_or(SimDuration::ZERO, |d| d.0);
    Ok(TimelineEntry { at, action: Action::Handover { mobile: 0, kind, from, to, notify_delay } })
}

/// The keys of a handover table (a timeline entry or `mobile.mobility`) that shape its kind.
pub(super) struct KindKeys {
    pub gap: Option<Duration>,
    pub duration: Option<Duration>,
    pub detection: Option<Duration>,
    pub in_flight: Option<InFlightSpec>,
    pub uplink: Option<UplinkSpec>,
}

/// The handover kind from its `kind` and `keys` in the table at `path`.
pub(super) fn handover_kind(kind_spec: HandoverKindSpec, keys: &KindKeys, path: &str) -> Result<HandoverKind> {
    let p = |k: &str| join(path, k);
    // Each kind's own key; a key of another kind is an error naming the kind it belongs to.
    let own = match kind_spec {
        HandoverKindSpec::MakeBeforeBreak => "",
        HandoverKindSpec::BreakBeforeMake => "gap",
        HandoverKindSpec::Pause => "duration",
        HandoverKindSpec::Forced => "detection",
    };
    for (key, present, kind) in [
        ("gap", keys.gap.is_some(), "break_before_make"),
        ("duration", keys.duration.is_some(), "pause"),
        ("detection", keys.detection.is_some(), "forced"),
        ("in_flight", keys.in_flight.is_some(), "forced"),
        ("uplink", keys.uplink.is_some(), "forced"),
    ] {
        let allowed = key == own || (kind_spec == HandoverKindSpec::Forced && kind == "forced");
        if present && !allowed {
            return Err(err(p(key), format!("`{key}` is only allowed with kind = \"{kind}\"")));
        }
    }
    Ok(match kind_spec {
        HandoverKindSpec::MakeBeforeBreak => HandoverKind::MakeBeforeBreak,
        HandoverKindSpec::BreakBeforeMake => {
            let gap =
                keys.gap.ok_or_else(|| err(path, "kind = \"break_before_make\" needs `gap` (e.g. \"500ms\")"))?.0;
            HandoverKind::BreakBeforeMake { gap }
        }
        HandoverKindSpec::Pause => {
            let d = keys.duration.ok_or_else(|| err(path, "kind = \"pause\" needs `duration` (e.g. \"30s\")"))?.0;
            if d == SimDuration::ZERO {
                return Err(err(p("duration"), "a pause must last longer than 0s"));
            }
            HandoverKind::Pause { duration: d }
        }
        HandoverKindSpec::Forced => {
            let msg = "kind = \"forced\" needs `detection` (e.g. \"1s\"): when the mobile node itself \
                       completes the handover if no node agent has declared the old interface failed";
            let d = keys.detection.ok_or_else(|| err(path, msg))?.0;
            if d == SimDuration::ZERO {
                return Err(err(p("detection"), "must be greater than 0s"));
            }
            let in_flight = match keys.in_flight {
                None | Some(InFlightSpec::Lost) => InFlight::Lost,
                Some(InFlightSpec::Delivered) => InFlight::Delivered,
            };
            let uplink = match keys.uplink {
                None | Some(UplinkSpec::AtCompletion) => Uplink::AtCompletion,
                Some(UplinkSpec::AtFailure) => Uplink::AtFailure,
            };
            HandoverKind::Forced { detection: d, in_flight, uplink }
        }
    })
}

fn entry(e: &TimelineSpec, path: &str, topo: &Topology, duration: SimDuration) -> Result<TimelineEntry> {
    let p = |k: &str| format!("{path}.{k}");
    for (key, present) in [
        ("mobile", e.mobile.is_some()),
        ("kind", e.kind.is_some()),
        ("to", e.to.is_some()),
        ("gap", e.gap.is_some()),
        ("duration", e.duration.is_some()),
        ("detection", e.detection.is_some()),
        ("in_flight", e.in_flight.is_some()),
        ("uplink", e.uplink.is_some()),
        ("notify_delay", e.notify_delay.is_some()),
    ] {
        if present {
            return Err(err(p(key), format!("`{key}` is only allowed with action = \"handover\"")));
        }
    }
    let at = before_end(e.at.0, duration, &p("at"))?;
    let link_name =
        e.link.as_deref().ok_or_else(|| err(path, "missing field `link` (the link this action acts on)"))?;
    let dirs = topo.link(link_name, &p("link"))?;
    let links = match (e.direction.unwrap_or_default(), dirs) {
        (DirectionSel::Both, _) => dirs.to_vec(),
        (DirectionSel::Forward, _) => vec![dirs[0]],
        (DirectionSel::Reverse, [_, r]) => vec![*r],
        (DirectionSel::Reverse, _) => {
            let msg = format!(
                "link `{link_name}` is simplex; it has no reverse direction (use \"both\" or \"forward\")"
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
            if let Some(l) = links.iter().map(|&l| &topo.links[l as usize]).find(|l| l.trace.is_some() && e.rate.is_some()) {
                let msg = format!("link direction `{}` follows a recorded trace; set_link can change its `delay` only", l.name);
                return Err(err(p("rate"), msg));
            }
            Action::SetLink { links, rate: e.rate.map(|r| r.0), delay: e.delay.map(|d| d.0) }
        }
        ActionKind::Handover => unreachable!("handovers are resolved by `handover`"),
    };
    Ok(TimelineEntry { at, action })
}

/// Resolve the metrics settings; `mobility` is the movement, if any ("overlap" windows).
pub(super) fn metrics(m: &MetricsSpec, duration: SimDuration, mobility: Option<&MobilityModel>) -> Result<MetricsModel> {
    let goodput_interval = m.goodput_interval.map_or(SimDuration::from_secs(1), |d| d.0);
    if goodput_interval == SimDuration::ZERO {
        return Err(err("metrics.goodput_interval", "must be greater than 0s"));
    }
    let windows = m
        .windows
        .iter()
        .map(|(name, spec)| {
            let path = format!("metrics.windows.{name}");
            let (s, e) = match spec {
                GoodputWindowSpec::Span([start, end]) => (start.0, end.0),
                GoodputWindowSpec::Overlap => {
                    let Some(m) = mobility else {
                        return Err(err(path, "\"overlap\" is the movement through the cells' overlap: it needs mobile.mobility"));
                    };
                    // The exit may lie after the run: the window ends with the run then.
                    let since = |t: SimTime| t.saturating_since(SimTime::ZERO);
                    (since(m.overlap_enter), since(m.overlap_exit).min(duration))
                }
            };
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
    let handover_window = m.handover_window.map_or(SimDuration::from_secs(10), |d| d.0);
    if handover_window == SimDuration::ZERO {
        return Err(err("metrics.handover_window", "must be greater than 0s"));
    }
    let handover_packets = m.handover_packets.unwrap_or(100);
    if handover_packets == 0 {
        return Err(err("metrics.handover_packets", "must be at least 1"));
    }
    Ok(MetricsModel { goodput_interval, windows, handover_window, handover_packets, stop: m.stop.unwrap_or_default() })
}
