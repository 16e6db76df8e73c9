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
use crate::model::{Action, MobileModel, MobilityModel, TimelineEntry, Trigger};
use crate::schema::{ActionKind, HandoverKindSpec, MobilitySpec, TimelineSpec, TriggerSpec};
use crate::units::fmt_duration;
use vhsim_core::{SimDuration, SimTime};

const PATH: &str = "mobile.mobility";

/// Nanoseconds per hour: a length in mm over a speed in mm/h, times this, is a time in ns.
const NS_PER_HOUR: u128 = 3_600_000_000_000;

/// Format a length given in half-millimetres.
fn fmt_m(half_mm: u64) -> String {
    let m = half_mm as f64 / 2000.0;
    format!("{m}m")
}

/// Resolve the movement; returns its model and the handover it generates (from the initial
/// interface). `timeline` is the file's timeline: it must not have handovers of its own.
pub(super) fn resolve(
    spec: &MobilitySpec,
    mobile: &MobileModel,
    timeline: &[TimelineSpec],
    duration: SimDuration,
) -> Result<(MobilityModel, TimelineEntry)> {
    let p = |k: &str| join(PATH, k);
    if let Some(i) = timeline.iter().position(|e| e.action == ActionKind::Handover) {
        let msg = format!(
            "timeline[{i}] is a handover, but with `mobility` the handover comes from the movement; \
             give either the speed and cells or handover entries, not both"
        );
        return Err(err(PATH, msg));
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
    // Time at position x (half-mm): (x - x0) / v, rounded to the nearest ns.
    let time_at = |x: u64| {
        let den = 2 * u128::from(v);
        let ns = (u128::from(x - x0) * NS_PER_HOUR + den / 2) / den;
        SimTime(u64::try_from(ns).unwrap_or(u64::MAX))
    };
    let handover_at = time_at(at_x);
    let keys = KindKeys { gap: spec.gap, duration: spec.duration, detection: spec.detection };
    let kind = handover_kind(spec.kind.unwrap_or(HandoverKindSpec::MakeBeforeBreak), &keys, PATH)?;
    if handover_at + kind.outage() >= SimTime::ZERO + duration {
        let msg = format!(
            "the MN reaches the handover point x = {} at {}{}, not before the end of the run (duration {}); \
             raise the speed or the duration",
            fmt_m(at_x),
            fmt_duration(handover_at - SimTime::ZERO),
            if kind.outage() > SimDuration::ZERO { " and the handover takes until later" } else { "" },
            fmt_duration(duration)
        );
        return Err(err(PATH, msg));
    }
    let names = || list(mobile.interfaces.iter().map(|i| &i.name));
    let from = mobile.initial;
    let to = match &spec.to {
        Some(name) => {
            let to = mobile.interfaces.iter().position(|i| &i.name == name).ok_or_else(|| {
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
        overlap_enter: time_at(d - r),
        handover: handover_at,
        overlap_exit: time_at(r),
    };
    let entry = TimelineEntry { at: handover_at, action: Action::Handover { kind, from, to, notify_delay } };
    Ok((model, entry))
}
