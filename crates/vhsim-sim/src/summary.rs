//! The run summary: per-flow and per-link counters, serializable to `summary.json`.

use crate::app::AppState;
use crate::handover::FlowHandoverStats;
use crate::world::World;
use serde::Serialize;
use std::collections::BTreeMap;
use vhsim_net::DropCause;

/// Summary of one flow.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowSummary {
    /// Scheme preset.
    pub scheme: String,
    /// When the flow started (s); drawn for flows with a `start_spread`.
    pub start_s: f64,
    /// Application goodput from the flow's start to the end of the run (kb/s, 1 kb = 1000 b).
    pub goodput_kbps: f64,
    /// Payload bytes delivered in order.
    pub delivered_bytes: u64,
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    /// Retransmissions.
    pub retransmissions: u64,
    /// Retransmissions whose earlier copy had not been lost (ground truth).
    pub spurious_retransmissions: u64,
    /// Retransmission timeouts.
    pub rto_count: u64,
    /// Timeouts whose retransmission was spurious (ground truth).
    pub spurious_rto_count: u64,
    /// Fast retransmits.
    pub fast_retransmits: u64,
    /// Drops of this flow's packets by cause.
    pub drops: BTreeMap<String, u64>,
    /// Goodput (kb/s) in each named window.
    pub windows: BTreeMap<String, f64>,
    /// Measurements around each handover, in the order of the run's `handovers`.
    pub handovers: Vec<FlowHandoverStats>,
    /// Loss-classifier decisions against ground truth (only with a classifier):
    /// `ld_<truth>_as_<verdict>` for truth in not_lost, congestion, wireless, link_down and
    /// verdict in congestion, wireless; plus `ld_decisions` and `ld_accuracy` (share of
    /// decisions on real losses whose verdict matched the cause; link-down losses count as
    /// wireless).
    #[serde(flatten)]
    pub loss_classification: BTreeMap<String, f64>,
    /// The application, if it is not bulk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app: Option<AppSummary>,
}

/// What a non-bulk application did.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AppSummary {
    /// `cbr`.
    pub kind: String,
    /// Nominal payload rate of the writes (kb/s).
    pub rate_kbps: f64,
    /// Writes made.
    pub writes: u64,
    /// Bytes written (writes x packet_size).
    pub written_bytes: u64,
    /// Segments the writes made available.
    pub written_segments: u64,
    /// Of those, never sent by the end of the run (the sender's backlog).
    pub unsent_segments: u64,
}

/// The movement of the mobile node and the times it implies (`mobile.mobility`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MobilitySummary {
    /// Speed (m/s).
    pub speed_mps: f64,
    /// Cell radius (m).
    pub cell_radius_m: f64,
    /// Distance between the base stations (m).
    pub spacing_m: f64,
    /// Position at time 0 (m from the old base station).
    pub start_position_m: f64,
    /// `enter`, `midpoint` or `exit`.
    pub trigger: String,
    /// When the MN entered the new cell (s).
    pub overlap_enter_s: f64,
    /// When the handover started (s).
    pub handover_s: f64,
    /// When the MN left the old cell (s; may be after the end of the run).
    pub overlap_exit_s: f64,
}

/// One handover of the run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HandoverSummary {
    /// Kind (`make_before_break`, `break_before_make`, `pause`).
    pub kind: String,
    /// Interface before.
    pub from: String,
    /// Interface after.
    pub to: String,
    /// Start (s).
    pub start_s: f64,
    /// When traffic took the new interface (s).
    pub done_s: f64,
}

/// Summary of one link direction.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkSummary {
    /// Packets that finished serialization.
    pub packets_sent: u64,
    /// Drops by cause.
    pub drops: BTreeMap<String, u64>,
}

/// Summary of a run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunSummary {
    /// vhsim version.
    pub vhsim_version: String,
    /// Scenario name.
    pub scenario: String,
    /// Master seed.
    pub seed: u64,
    /// Simulated seconds.
    pub sim_s: f64,
    /// Wall-clock seconds of the event loop.
    pub wall_s: f64,
    /// Events processed.
    pub events: u64,
    /// Events per wall-clock second.
    pub events_per_s: f64,
    /// Data segments delivered in order, all flows.
    pub delivered_segments: u64,
    /// Per flow, by name.
    pub flows: BTreeMap<String, FlowSummary>,
    /// Per link direction, by name.
    pub links: BTreeMap<String, LinkSummary>,
    /// Handovers, in time order.
    pub handovers: Vec<HandoverSummary>,
    /// The mobile node's movement, if the scenario gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mobility: Option<MobilitySummary>,
}

fn drops_map(counts: &[u64; 4]) -> BTreeMap<String, u64> {
    DropCause::ALL.iter().map(|&c| (c.name().to_string(), counts[c as usize])).collect()
}

fn ld_summary(f: &crate::flow::Flow) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    if f.sender.loss_classifier().ld().is_none() {
        return out;
    }
    let m = &f.ld_matrix;
    for (t, truth) in ["not_lost", "congestion", "wireless", "link_down"].iter().enumerate() {
        for (v, verdict) in ["congestion", "wireless"].iter().enumerate() {
            out.insert(format!("ld_{truth}_as_{verdict}"), m[t][v] as f64);
        }
    }
    let decisions: u64 = m.iter().flatten().sum();
    let real = m[1][0] + m[1][1] + m[2][0] + m[2][1] + m[3][0] + m[3][1];
    let right = m[1][0] + m[2][1] + m[3][1];
    out.insert("ld_decisions".into(), decisions as f64);
    out.insert("ld_accuracy".into(), if real > 0 { right as f64 / real as f64 } else { f64::NAN });
    out
}

fn kbps(bytes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        bytes as f64 * 8.0 / secs / 1000.0
    } else {
        0.0
    }
}

/// Summarize a finished world.
pub fn summarize(world: &World, events: u64, wall_s: f64) -> RunSummary {
    let sc = &world.scenario;
    let end = sc.duration.as_secs_f64();
    let flows = sc
        .flows
        .iter()
        .zip(&world.flows)
        .map(|(m, f)| {
            let st = f.sender.stats();
            let delivered = f.delivered_segments * f.segment_size;
            let windows = sc
                .metrics
                .windows
                .iter()
                .zip(&f.window_bytes)
                .map(|(w, &b)| (w.name.clone(), kbps(b, (w.end - w.start).as_secs_f64())))
                .collect();
            let w = sc.metrics.handover_window.as_secs_f64();
            let handovers = world
                .handovers
                .iter()
                .zip(&f.handover_stats)
                .map(|(h, st)| {
                    // Windows are clipped to the run: [max(0, start - W), start), [done, min(end, done + W)).
                    let before = w.min(h.start.as_secs_f64());
                    let after = w.min(end - h.done.as_secs_f64());
                    FlowHandoverStats {
                        goodput_before_kbps: kbps(st.delivered_bytes[0], before),
                        goodput_after_kbps: kbps(st.delivered_bytes[1], after),
                        throughput_before_kbps: kbps(st.received_bytes[0], before),
                        throughput_after_kbps: kbps(st.received_bytes[1], after),
                        ..st.clone()
                    }
                })
                .collect();
            let summary = FlowSummary {
                scheme: m.scheme.clone(),
                start_s: f.start.as_secs_f64(),
                goodput_kbps: kbps(delivered, end - f.start.as_secs_f64()),
                delivered_bytes: delivered,
                segments_sent: st.segments_sent,
                retransmissions: st.retransmissions,
                spurious_retransmissions: f.truth.counts.spurious_retransmissions,
                rto_count: st.rto_count,
                spurious_rto_count: f.truth.counts.spurious_rtos,
                fast_retransmits: st.fast_retransmits,
                drops: drops_map(&f.drops),
                windows,
                handovers,
                app: app_summary(f),
                loss_classification: ld_summary(f),
            };
            (m.name.clone(), summary)
        })
        .collect();
    let links = sc
        .links
        .iter()
        .zip(world.links.iter().zip(&world.link_drops))
        .map(|(m, (l, d))| {
            (m.name.clone(), LinkSummary { packets_sent: l.packets_sent, drops: drops_map(d) })
        })
        .collect();
    RunSummary {
        vhsim_version: crate::VERSION.to_string(),
        scenario: sc.name.clone(),
        seed: sc.seed,
        sim_s: end,
        wall_s,
        events,
        events_per_s: if wall_s > 0.0 { events as f64 / wall_s } else { 0.0 },
        delivered_segments: world.flows.iter().map(|f| f.delivered_segments).sum(),
        flows,
        links,
        handovers: world
            .handovers
            .iter()
            .map(|h| {
                let iface = |i: u32| {
                    sc.mobile.as_ref().map_or_else(String::new, |m| m.interfaces[i as usize].name.clone())
                };
                let kind = match h.kind {
                    vhsim_scenario::HandoverKind::MakeBeforeBreak => "make_before_break",
                    vhsim_scenario::HandoverKind::BreakBeforeMake { .. } => "break_before_make",
                    vhsim_scenario::HandoverKind::Pause { .. } => "pause",
                };
                HandoverSummary {
                    kind: kind.to_owned(),
                    from: iface(h.from),
                    to: iface(h.to),
                    start_s: h.start.as_secs_f64(),
                    done_s: h.done.as_secs_f64(),
                }
            })
            .collect(),
        mobility: mobility_summary(sc),
    }
}

fn app_summary(f: &crate::flow::Flow) -> Option<AppSummary> {
    let AppState::Cbr(c) = &f.app else { return None };
    let m = &c.model;
    let rate_kbps = match m.rate {
        Some(r) => r.bits_per_sec() as f64 / 1000.0,
        None => kbps(u64::from(m.packet_size), m.interval.as_secs_f64()),
    };
    let written_segments = c.writes * m.segments_per_write;
    Some(AppSummary {
        kind: "cbr".to_owned(),
        rate_kbps,
        writes: c.writes,
        written_bytes: c.writes * u64::from(m.packet_size),
        written_segments,
        unsent_segments: written_segments.saturating_sub(f.sender.core().snd_max()),
    })
}

fn mobility_summary(sc: &vhsim_scenario::Scenario) -> Option<MobilitySummary> {
    let m = sc.mobile.as_ref()?.mobility.as_ref()?;
    let trigger = match m.trigger {
        vhsim_scenario::Trigger::Enter => "enter",
        vhsim_scenario::Trigger::Midpoint => "midpoint",
        vhsim_scenario::Trigger::Exit => "exit",
    };
    Some(MobilitySummary {
        speed_mps: m.speed_mps,
        cell_radius_m: m.cell_radius_m,
        spacing_m: m.spacing_m,
        start_position_m: m.start_position_m,
        trigger: trigger.to_owned(),
        overlap_enter_s: m.overlap_enter.as_secs_f64(),
        handover_s: m.handover.as_secs_f64(),
        overlap_exit_s: m.overlap_exit.as_secs_f64(),
    })
}
