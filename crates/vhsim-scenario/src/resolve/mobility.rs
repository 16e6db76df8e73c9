//! `mobile.mobility`: the handover time from the MN's speed and the cells' geometry.
//!
//! Park et al. §4.1: "a handoff occurs only once, and in an overlapping area of network cells
//! ... The radio coverage from the AP is 500 m, and the MN moves from the old network cell to
//! the new network cell with various speeds" (10-100 km/h, 50 km/h in the error sweep). The
//! paper gives neither the distance between the APs nor the handoff trigger, so both are
//! parameters here (docs/mobility.md):
//!
//! * the old base station is at x = 0, the new one at x = d (`spacing`, default 1.5 R), both
//!   cells of radius R (`cell_radius`); R < d < 2R, so the cells overlap on [d - R, R];
//! * the MN starts at x0 (`start_position`, default 0) at time 0 and moves towards x = d at
//!   speed v, so it is at x at time (x - x0) / v;
//! * it enters the overlap at x = d - R, leaves it (and the old cell) at x = R, and hands over
//!   at x = d - R (`trigger = "enter"`), d / 2 (`"midpoint"`, default: where the new cell's
//!   signal becomes the stronger, the perpendicular bisector of the two stations, for equal
//!   transmit powers) or R (`"exit"`).
//!
//! Arithmetic is exact: lengths in mm, speeds in mm/h, times rounded to the nearest ns.

use super::timeline::{handover_kind, KindKeys};
use crate::error::{err, join, list, Result};
use crate::model::{Action, BandCrossing, MobileModel, MobilityModel, TimelineEntry, Trigger};
use crate::schema::{ActionKind, HandoverKindSpec, MobilitySpec, TimelineSpec, TriggerSpec};
use crate::units::{fmt_duration, Duration};
use vhsim_core::{SimDuration, SimTime};

/// Nanoseconds per hour: a length in mm over a speed in mm/h, times this, is a time in ns.
const NS_PER_HOUR: u128 = 3_600_000_000_000;

/// Format a length given in half-millimetres.
fn fmt_m(half_mm: u64) -> String {
    let m = half_mm as f64 / 2000.0;
    format!("{m}m")
}

/// The mobile node a movement belongs to.
pub(super) struct Context<'a> {
    /// Key path of its table (`mobile`, `mobiles[2]`).
    pub path: &'a str,
    /// Its index.
    pub index: u32,
    /// It, as resolved.
    pub mobile: &'a MobileModel,
    /// The file's timeline: it must not have handovers of this mobile node.
    pub timeline: &'a [TimelineSpec],
    /// Whether the scenario has several mobile nodes (a handover entry then names its own).
    pub several: bool,
    /// Its node's name.
    pub mobile_node_name: &'a str,
}

/// Resolve the movement of `cx.mobile`; returns its model and the handover it generates (from
/// the initial interface).
pub(super) fn resolve(spec: &MobilitySpec, cx: &Context, duration: SimDuration) -> Result<(MobilityModel, TimelineEntry)> {
    let (mobile, path) = (cx.mobile, join(cx.path, "mobility"));
    let path = path.as_str();
    let p = |k: &str| join(path, k);
    let mine = |e: &TimelineSpec| {
        e.action == ActionKind::Handover && if cx.several { e.mobile.as_deref() == Some(cx.mobile_node_name) } else { true }
    };
    if let Some(i) = cx.timeline.iter().position(mine) {
        let msg = format!(
            "timeline[{i}] is a handover, but with `mobility` the handover comes from the movement; \
             give either the speed and cells or handover entries, not both"
        );
        return Err(err(path, msg));
    }
    // Lengths in half-millimetres keep the midpoint d / 2 exact.
    let (v, r) = (spec.speed.0, spec.cell_radius.0 * 2);
    if r == 0 {
        return Err(err(p("cell_radius"), "must be greater than 0m"));
    }
    let d = match spec.spacing {
        Some(s) => s.0 * 2,
        None => r + r / 2,
    };
    if d <= r || d >= 2 * r {
        let msg = format!(
            "{} does not make the cells overlap: the spacing must be more than cell_radius ({}) and \
             less than twice it ({})",
            fmt_m(d),
            fmt_m(r),
            fmt_m(2 * r)
        );
        return Err(err(if spec.spacing.is_some() { p("spacing") } else { p("cell_radius") }, msg));
    }
    let x0 = spec.start_position.map_or(0, |x| x.0 * 2);
    if x0 > d - r {
        let msg = format!(
            "{} is inside the new cell already; the MN must start at most at spacing - cell_radius ({})",
            fmt_m(x0),
            fmt_m(d - r)
        );
        return Err(err(p("start_position"), msg));
    }
    let trigger = match spec.trigger.unwrap_or(TriggerSpec::Midpoint) {
        TriggerSpec::Enter => Trigger::Enter,
        TriggerSpec::Midpoint => Trigger::Midpoint,
        TriggerSpec::Exit => Trigger::Exit,
    };
    let at_x = match trigger {
        Trigger::Enter => d - r,
        Trigger::Midpoint => d / 2,
        Trigger::Exit => r,
    };
    // Travel time from x0 to position x (half-mm units: (x - x0) half-mm at v mm/h).
    let travel = |x: u64| travel_time(x - x0, 2 * v);
    let depart = match spec.handover_at {
        None => SimTime::ZERO,
        Some(at) if at.0 >= travel(at_x) => SimTime::ZERO + (at.0 - travel(at_x)),
        Some(at) => {
            let msg = format!(
                "the MN needs {} to travel from start_position {} to the handover point x = {} at this speed, \
                 more than {}; give a later time or a start position nearer the handover point",
                fmt_duration(travel(at_x)),
                fmt_m(x0),
                fmt_m(at_x),
                fmt_duration(at.0)
            );
            return Err(err(p("handover_at"), msg));
        }
    };
    let time_at = |x: u64| depart + travel(x);
    let handover_at = time_at(at_x);
    let kind_spec = spec.kind.unwrap_or(HandoverKindSpec::MakeBeforeBreak);
    let band_crossing = band_crossing(spec, kind_spec, path)?;
    let mut keys =
        KindKeys { gap: spec.gap, duration: spec.duration, detection: spec.detection, in_flight: None, uplink: None };
    if let Some(b) = &band_crossing {
        let length = Some(Duration(travel_time(b.band_mm, v) + b.latency));
        match kind_spec {
            HandoverKindSpec::BreakBeforeMake => keys.gap = length,
            HandoverKindSpec::Pause => keys.duration = length,
            HandoverKindSpec::Forced => keys.detection = length,
            HandoverKindSpec::MakeBeforeBreak => unreachable!("refused by band_crossing"),
        }
    }
    let kind = handover_kind(kind_spec, &keys, path)?;
    if handover_at + kind.outage() >= SimTime::ZERO + duration {
        let msg = format!(
            "the MN reaches the handover point x = {} at {}{}, not before the end of the run (duration {}); \
             raise the speed or the duration",
            fmt_m(at_x),
            fmt_duration(handover_at - SimTime::ZERO),
            if kind.outage() > SimDuration::ZERO { " and the handover takes until later" } else { "" },
            fmt_duration(duration)
        );
        return Err(err(path, msg));
    }
    let names = || list(mobile.interfaces.iter().map(|i| &i.name));
    let from = mobile.initial;
    let to = match &spec.to {
        Some(name) => {
            let to = mobile.interfaces.iter().position(|i| *i.name == **name).ok_or_else(|| {
                err(p("to"), format!("unknown interface `{name}` (interfaces: {})", names()))
            })? as u32;
            if to == from {
                let msg = format!("the mobile node starts on interface `{name}` already (`initial`)");
                return Err(err(p("to"), msg));
            }
            to
        }
        None if mobile.interfaces.len() == 2 => 1 - from,
        None => {
            let msg =
                format!("with more than two interfaces, say which one to move to (interfaces: {})", names());
            return Err(err(p("to"), msg));
        }
    };
    let notify_delay = spec.notify_delay.map_or(SimDuration::ZERO, |d| d.0);
    let m = |x: u64| x as f64 / 2000.0;
    let model = MobilityModel {
        speed_mps: v as f64 / 3_600_000.0,
        cell_radius_m: m(r),
        spacing_m: m(d),
        start_position_m: m(x0),
        trigger,
        depart,
        overlap_enter: time_at(d - r),
        handover: handover_at,
        overlap_exit: time_at(r),
        handoff: kind.outage(),
        band_crossing: band_crossing
            .map(|b| BandCrossing { band_m: b.band_mm as f64 / 1000.0, latency: b.latency }),
        warning_distance_m: spec.warning_distance.map(|w| w.0 as f64 / 1000.0),
    };
    let action = Action::Handover { mobile: cx.index, kind, from, to, notify_delay };
    Ok((model, TimelineEntry { at: handover_at, action }))
}

/// The time to travel `length_mm` at `speed` mm/h, rounded to the nearest ns.
pub(super) fn travel_time(length_mm: u64, speed: u64) -> SimDuration {
    let den = u128::from(speed);
    let ns = (u128::from(length_mm) * NS_PER_HOUR + den / 2) / den;
    SimDuration::from_nanos(u64::try_from(ns).unwrap_or(u64::MAX))
}

/// The band-crossing handoff's parameters, as given.
struct BandSpec {
    band_mm: u64,
    latency: SimDuration,
}

/// `handoff_band` / `handoff_latency`, if given: they set the length of a handover that has one
/// (break-before-make gap, pause duration, forced detection), in place of that kind's own key.
fn band_crossing(spec: &MobilitySpec, kind: HandoverKindSpec, path: &str) -> Result<Option<BandSpec>> {
    let p = |k: &str| join(path, k);
    let key = match (spec.handoff_band, spec.handoff_latency) {
        (None, None) => return Ok(None),
        (Some(_), _) => "handoff_band",
        (None, Some(_)) => "handoff_latency",
    };
    let own = match kind {
        HandoverKindSpec::MakeBeforeBreak => {
            let msg = "a make_before_break handover has no length; the band-crossing handoff needs \
                       kind = \"break_before_make\", \"pause\" or \"forced\"";
            return Err(err(p(key), msg));
        }
        HandoverKindSpec::BreakBeforeMake => ("gap", spec.gap.is_some()),
        HandoverKindSpec::Pause => ("duration", spec.duration.is_some()),
        HandoverKindSpec::Forced => ("detection", spec.detection.is_some()),
    };
    if own.1 {
        let msg = format!(
            "`{}` and `{key}` both set the handover's length; give either `{}` or handoff_band/handoff_latency",
            own.0, own.0
        );
        return Err(err(p(own.0), msg));
    }
    let band_mm = spec.handoff_band.map_or(0, |b| b.0);
    let latency = spec.handoff_latency.map_or(SimDuration::ZERO, |d| d.0);
    if band_mm == 0 && latency == SimDuration::ZERO {
        return Err(err(
            p(key),
            "the handover would last 0s: give a band greater than 0m or a latency greater than 0s",
        ));
    }
    Ok(Some(BandSpec { band_mm, latency }))
}
