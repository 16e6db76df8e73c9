//! The run summary: per-flow and per-link counters, serializable to `summary.json`.

use crate::agents::{AgentCounts, NodeAgent};
use crate::aggregate::AggregateBuilder;
use crate::app::AppState;
use vhsim_scenario::{AppModel, FlowModel};
use crate::flow::Flow;
use crate::observe::handover_metrics::FlowHandoverStats;
use crate::observe::verdicts::LossConfusion;
use crate::named_counts::NamedCounts;
use crate::summary_table::Table;
use crate::world::World;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use vhsim_net::{DropCounts, Endpoint};
use vhsim_sctp::SctpSummary;
use vhsim_tcp::TcpSender;

/// Summary of one flow: a transport-neutral part, counted by the observers from the packets
/// and the endpoints' reports, plus the transport's own part.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct FlowSummary {
    /// Scheme preset.
    pub scheme: String,
    /// The mobile node the flow has an endpoint on (its receiver's, else its sender's); only
    /// when the scenario has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mobile: Option<String>,
    /// When the flow started (s); drawn for flows with a `start_spread`.
    pub start_s: f64,
    /// Application goodput from the flow's start to the end of the run (kb/s, 1 kb = 1000 b).
    pub goodput_kbps: f64,
    /// Payload bytes delivered in order.
    pub delivered_bytes: u64,
    /// Data packets sent, retransmissions included.
    pub segments_sent: u64,
    /// Retransmissions.
    pub retransmissions: u64,
    /// Retransmissions whose earlier copy had not been lost (ground truth).
    pub spurious_retransmissions: u64,
    /// Retransmission timeouts.
    pub rto_count: u64,
    /// Timeouts whose retransmission was spurious (ground truth).
    pub spurious_rto_count: u64,
    /// Drops of this flow's packets by cause.
    #[schemars(with = "BTreeMap<String, u64>")]
    pub drops: NamedCounts,
    /// Goodput (kb/s) in each named window.
    pub windows: BTreeMap<String, f64>,
    /// Measurements around each handover, in the order of the run's `handovers`.
    pub handovers: Vec<FlowHandoverStats>,
    /// Loss-classifier decisions against ground truth (only with a classifier):
    /// `ld_<truth>_as_<verdict>` for truth in not_lost, congestion, wireless, link_down and
    /// verdict in congestion, wireless; plus `ld_decisions` and `ld_accuracy` (share of
    /// decisions on real losses whose verdict matched the cause; link-down losses count as
    /// wireless).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub loss_classification: Option<Box<LossConfusion>>,
    /// The application, if it is not bulk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app: Option<Box<AppSummary>>,
    /// The decisions the flow's endpoints reported (TCP's cross-layer A1-A3: the numbers each
    /// rule read and set), in time order; absent when there were none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<DecisionRecord>,
    /// What only a TCP sender knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpPart>,
    /// What only an SCTP association knows, per destination in `paths` (docs/sctp.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sctp: Option<Box<SctpSummary>>,
    /// Engagement counters of the schemes' mechanisms, from both endpoints (how often each
    /// configured mechanism acted; 0 = configured but never acted; docs/schemes.md lists them).
    /// Absent when the flow's schemes have none.
    #[serde(skip_serializing_if = "NamedCounts::is_empty")]
    #[schemars(with = "BTreeMap<String, u64>")]
    pub engagement: NamedCounts,
}

/// One decision an endpoint's rule took (`vhsim_net::Decision`), as the summary holds it:
/// its numbers keyed `<name>_<unit>` like the time-series columns (`flight_pkts`, `rto_s`).
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct DecisionRecord {
    /// When it was taken (s).
    pub time_s: f64,
    /// The rule (docs/schemes.md lists TCP's: `a1_case1`, `a2_cut`, ...).
    pub rule: String,
    /// What it read.
    pub inputs: BTreeMap<String, f64>,
    /// What it set (empty when the rule decided to do nothing).
    pub outputs: BTreeMap<String, f64>,
}

impl DecisionRecord {
    /// The record of decision `d` taken at `time_s`.
    pub fn of(time_s: f64, d: &vhsim_net::Decision) -> Self {
        let map = |vars: &[vhsim_core::TracedVar]| {
            vars.iter().map(|v| (format!("{}_{}", v.name, v.unit), v.value)).collect()
        };
        DecisionRecord { time_s, rule: d.rule.to_string(), inputs: map(&d.inputs), outputs: map(&d.outputs) }
    }
}

/// The TCP part of a flow's summary.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct TcpPart {
    /// Fast retransmits (recovery episodes entered by duplicate ACKs or TCP-DCR's delay).
    pub fast_retransmits: u64,
}

impl TcpPart {
    /// The part of `sender`.
    pub fn of(sender: &TcpSender) -> Self {
        TcpPart { fast_retransmits: u64::from(sender.stats().fast_retransmits) }
    }
}

/// A transport's part of the flow summary.
#[derive(Clone, Debug, PartialEq)]
pub enum TransportPart {
    /// TCP.
    Tcp(TcpPart),
    /// SCTP.
    Sctp(Box<SctpSummary>),
}

/// What a node agent did.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct AgentSummary {
    /// Node it runs at.
    pub node: String,
    /// Its kind.
    pub kind: String,
    /// Its counters.
    #[serde(flatten)]
    pub counts: AgentCounts,
}

/// What a non-bulk application did.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
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
    /// Send buffer in segments (`app.send_buffer`; absent = unlimited).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub send_buffer_segments: Option<u64>,
    /// Writes refused because the send buffer was full (their data was discarded).
    pub refused_writes: u64,
}

/// The movement of the mobile node and the times it implies (`mobile.mobility`).
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
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
    /// When the MN started moving (s; left out when 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depart_s: Option<f64>,
    /// When the MN entered the new cell (s).
    pub overlap_enter_s: f64,
    /// When the handover started (s).
    pub handover_s: f64,
    /// When the MN left the old cell (s; may be after the end of the run).
    pub overlap_exit_s: f64,
    /// When the mobile node got the `Imminent` link event (s): `handover_s` minus the warning,
    /// or, with `mobile.warning = "srtt"`, when the mobile node's own estimate made it due.
    pub imminent_s: f64,
    /// How long the handover lasted (s): its gap, pause or detection; 0 for make-before-break.
    pub handoff_s: f64,
    /// Band-crossing handoff: the band crossed without a usable link (m).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handoff_band_m: Option<f64>,
    /// Band-crossing handoff: the fixed L2/L3 latency (s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handoff_latency_s: Option<f64>,
}

/// One handover of the run.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct HandoverSummary {
    /// The mobile node that handed over (its node's name); only when the scenario has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mobile: Option<String>,
    /// Kind (`make_before_break`, `break_before_make`, `pause`, `forced`).
    pub kind: String,
    /// Interface before.
    pub from: String,
    /// Interface after.
    pub to: String,
    /// Start (s).
    pub start_s: f64,
    /// When traffic took the new interface (s); for a forced handover, when a node agent
    /// declared the old interface failed or its `detection` time passed.
    pub done_s: f64,
}

/// Summary of one link direction.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct LinkSummary {
    /// Packets that finished serialization.
    pub packets_sent: u64,
    /// Drops by cause.
    pub drops: BTreeMap<String, u64>,
    /// Drops by cause while a handover's window was open, from its start to the end of its
    /// window (`[start, done + metrics.handover_window)` of any handover): exact in a run
    /// stopped early (`metrics.stop = "when_complete"`), unlike `drops`.
    pub window_drops: BTreeMap<String, u64>,
}

/// Summary of a run.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
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
    /// Figures over all flows and handovers (total goodput, Jain's index, distributions).
    pub aggregate: crate::aggregate::AggregateSummary,
    /// Per flow, by name.
    pub flows: BTreeMap<String, FlowSummary>,
    /// Per link direction, by name.
    pub links: BTreeMap<String, LinkSummary>,
    /// Handovers, in time order.
    pub handovers: Vec<HandoverSummary>,
    /// The mobile node's movement, if the scenario gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mobility: Option<MobilitySummary>,
    /// When the run stopped because every handover metric and goodput window was determined
    /// (`metrics.stop = "when_complete"`); `null` for a run to its end. When set, the figures
    /// over the whole run (flow totals, link counters, `delivered_segments`) cover only
    /// `[0, stopped_at_s]` and are truncated; per-handover metrics and goodput windows are
    /// exactly those of a run to the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at_s: Option<f64>,
    /// Packets the anchor forwarded to a new care-of address during binding updates
    /// (`mobile.binding.old_path = "forward"`).
    #[serde(skip_serializing_if = "is_zero")]
    pub binding_forwarded: u64,
    /// Node agents, in file order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentSummary>,
    /// Per mobile node, in order; only when the scenario has several (with one, the run's
    /// `handovers` and `binding_forwarded` are its).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mobiles: Vec<MobileSummary>,
}

/// What happened to one mobile node.
#[derive(Clone, Debug, Serialize, PartialEq, JsonSchema)]
pub struct MobileSummary {
    /// Its node's name.
    pub name: String,
    /// Its handovers.
    pub handovers: u64,
    /// Packets for it its anchor dropped during binding updates (cause `binding`).
    pub binding_drops: u64,
    /// Packets for it its anchor forwarded to the new care-of address during binding updates.
    pub binding_forwarded: u64,
    /// Time it spent in handovers (s): the sum of their lengths, start to completion.
    pub handover_s: f64,
    /// The longest interruption of its flows at its handovers (s); absent if none ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interruption_s: Option<f64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The JSON Schema (draft 2020-12) of `summary.json`, pretty-printed. Python derives the
/// campaign metric names from it (`vhsim.metrics`), and docs/summary.schema.json is it.
pub fn json_schema() -> String {
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<RunSummary>();
    serde_json::to_string_pretty(&schema).expect("a JSON Schema serializes")
}

fn drops_map(counts: &DropCounts) -> BTreeMap<String, u64> {
    counts.iter().map(|(c, n)| (c.name().to_string(), n)).collect()
}

/// The engagement counters of a flow's endpoints (both sides: a Freeze-TCP receiver counts
/// its own, its sender its own; a name reported by both is added up).
fn engagement(endpoints: &[crate::transports::AnyEndpoint; 2]) -> NamedCounts {
    let mut both = Vec::new();
    for e in endpoints {
        let mut own = vhsim_net::Engagement::new();
        e.engagement(&mut own);
        both.extend(own);
    }
    NamedCounts::new(both)
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
    let handovers = handover_summaries(world);
    // Inserted one by one: collecting would first gather every flow's summary in a vector and
    // sort it (two more copies of the largest part of the summary at its peak).
    let mut flows = BTreeMap::new();
    let mut aggregate = AggregateBuilder::default();
    for i in by_name(&world.scenario) {
        let summary = flow_summary(world, i, &world.flows[i]);
        aggregate.add(&summary);
        flows.insert(world.scenario.flows[i].name.clone(), summary);
    }
    let aggregate = aggregate.finish(&handovers);
    RunSummary { flows, ..summarize_run(world, events, wall_s, aggregate, handovers) }
}

/// [`summarize`] with the flows as a [`Table`] (rows in the order of their names, as the
/// summary's map has them) instead of in the summary, whose `flows` stay empty: each flow's
/// summary becomes its row while the world is still there, and the flow's endpoints and
/// application are freed as soon as it has, so that the world, the flows' summaries and the
/// table are never whole at once (issue #29). The world is left without flows.
pub fn summarize_as_table(world: &mut World, events: u64, wall_s: f64) -> (RunSummary, Table) {
    let handovers = handover_summaries(world);
    let mut flows: Vec<Option<Flow>> = std::mem::take(&mut world.flows).into_iter().map(Some).collect();
    let mut aggregate = AggregateBuilder::default();
    let mut table = Table::default();
    for i in by_name(&world.scenario) {
        let flow = flows[i].take().expect("every flow is summarized once");
        let summary = flow_summary(world, i, &flow);
        drop(flow);
        aggregate.add(&summary);
        table.push_flow(world.scenario.flows[i].name.clone(), &summary);
    }
    let aggregate = aggregate.finish(&handovers);
    (summarize_run(world, events, wall_s, aggregate, handovers), table.finish())
}

/// The flows' indices in the order of their names (the summary's map's order).
fn by_name(sc: &vhsim_scenario::Scenario) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sc.flows.len()).collect();
    order.sort_by(|&a, &b| sc.flows[a].name.cmp(&sc.flows[b].name));
    order
}

/// The summary of flow `i` (`flow`: its state, which may have left `world.flows`).
fn flow_summary(world: &World, i: usize, f: &Flow) -> FlowSummary {
    let sc = &world.scenario;
    let (m, o) = (&sc.flows[i], &world.obs.flows[i]);
    let obs = &world.obs;
    // Handover windows are clipped to the run's duration; whole-run totals cover what was
    // simulated.
    let end = sc.duration.as_secs_f64();
    let simulated = world.stopped_at.map_or(end, |t| t.as_secs_f64());
    let windows = sc
        .metrics
        .windows
        .iter()
        .zip(o.window_bytes())
        .map(|(w, &b)| (w.name.clone(), kbps(b, (w.end - w.start).as_secs_f64())))
        .collect();
    let w = sc.metrics.handover_window.as_secs_f64();
    let handovers = (o.handovers.ids().iter().map(|&k| &obs.handovers[k as usize]))
        .zip(o.handovers.stats())
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
    let truth = o.truth.as_ref().map(|t| t.counts()).unwrap_or_default();
    let c = &o.counters;
    let mobile_of = |n: u32| world.routing.mobile_at(n).map(|_| sc.nodes[n as usize].name.clone());
    let summary = FlowSummary {
        scheme: m.scheme.to_string(),
        mobile: if sc.mobiles.len() > 1 { mobile_of(m.dst).or_else(|| mobile_of(m.src)) } else { None },
        start_s: f.start.as_secs_f64(),
        goodput_kbps: kbps(c.delivered_bytes, simulated - f.start.as_secs_f64()),
        delivered_bytes: c.delivered_bytes,
        segments_sent: c.data_sent,
        retransmissions: c.retransmissions,
        spurious_retransmissions: u64::from(truth.spurious_retransmissions),
        rto_count: c.timeouts,
        spurious_rto_count: u64::from(truth.spurious_rtos),
        drops: NamedCounts::new(o.drops().iter().map(|(c, n)| (c.name(), n))),
        windows,
        handovers,
        loss_classification: o.verdicts.clone(),
        app: app_summary(f, m).map(Box::new),
        decisions: o.decisions().to_vec(),
        tcp: None,
        sctp: None,
        engagement: engagement(&f.endpoints),
    };
    match f.endpoints[0].summary_part(&f.endpoints[1]) {
        Some(TransportPart::Tcp(t)) => FlowSummary { tcp: Some(t), ..summary },
        Some(TransportPart::Sctp(s)) => FlowSummary { sctp: Some(s), ..summary },
        None => summary,
    }
}

/// Everything of the summary but the flows (left empty).
fn summarize_run(
    world: &World,
    events: u64,
    wall_s: f64,
    aggregate: crate::aggregate::AggregateSummary,
    handovers: Vec<HandoverSummary>,
) -> RunSummary {
    let sc = &world.scenario;
    let simulated = world.stopped_at.map_or(sc.duration.as_secs_f64(), |t| t.as_secs_f64());
    let obs = &world.obs;
    let links = sc
        .links
        .iter()
        .zip(world.links.iter().zip(obs.link_drops.iter().zip(&obs.link_window_drops)))
        .map(|(m, (l, (d, w)))| {
            let summary = LinkSummary { packets_sent: l.packets_sent, drops: drops_map(d), window_drops: drops_map(w) };
            (m.name.clone(), summary)
        })
        .collect();
    let agents = sc
        .agents
        .iter()
        .zip(&world.agents)
        .map(|(m, a)| AgentSummary {
            node: sc.nodes[m.node as usize].name.clone(),
            kind: a.kind_name().to_owned(),
            counts: a.summary(),
        })
        .collect();
    RunSummary {
        vhsim_version: crate::VERSION.to_string(),
        scenario: sc.name.clone(),
        seed: sc.seed,
        sim_s: simulated,
        wall_s,
        events,
        events_per_s: if wall_s > 0.0 { events as f64 / wall_s } else { 0.0 },
        delivered_segments: obs.flows.iter().map(|o| o.counters.delivered_units).sum(),
        aggregate,
        flows: BTreeMap::new(),
        links,
        handovers,
        mobility: mobility_summary(sc, world.handovers.first().and_then(|h| h.warned_at)),
        stopped_at_s: world.stopped_at.map(|t| t.as_secs_f64()),
        binding_forwarded: world.routing.mobiles.iter().map(|m| m.forwarded).sum(),
        agents,
        mobiles: mobile_summaries(world),
    }
}

/// The run's handovers, in time order.
fn handover_summaries(world: &World) -> Vec<HandoverSummary> {
    let sc = &world.scenario;
    world
        .obs
        .handovers
            .iter()
            .map(|h| {
                let m = &sc.mobiles[h.mobile as usize];
                let iface = |i: u32| m.interfaces[i as usize].name.to_string();
                HandoverSummary {
                    mobile: (sc.mobiles.len() > 1).then(|| sc.nodes[m.node as usize].name.clone()),
                    kind: h.kind.name().to_owned(),
                    from: iface(h.from),
                    to: iface(h.to),
                    start_s: h.start.as_secs_f64(),
                    done_s: h.done.as_secs_f64(),
                }
            })
            .collect()
}

fn app_summary(f: &Flow, model: &FlowModel) -> Option<AppSummary> {
    let sent_max = f.endpoints[0].progress().map_or(0, |p| p.sent_max);
    let (AppState::Cbr(c), AppModel::Cbr(m)) = (&f.app, &model.app) else { return None };
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
        unsent_segments: written_segments.saturating_sub(sent_max),
        send_buffer_segments: m.send_buffer,
        refused_writes: c.refused,
    })
}

/// Per mobile node, when there are several.
fn mobile_summaries(world: &World) -> Vec<MobileSummary> {
    let sc = &world.scenario;
    if sc.mobiles.len() < 2 {
        return Vec::new();
    }
    let obs = &world.obs;
    (sc.mobiles.iter().zip(&world.routing.mobiles).enumerate())
        .map(|(k, (m, r))| {
            let hs = &world.by_mobile.handovers[k];
            let interruption = world.by_mobile.flows[k]
                .iter()
                .flat_map(|&f| {
                    let fh = &obs.flows[f as usize].handovers;
                    fh.ids().iter().zip(fh.stats()).filter(|(id, _)| obs.handovers[**id as usize].mobile == k as u32)
                })
                .filter_map(|(_, st)| st.interruption_s)
                .reduce(f64::max);
            MobileSummary {
                name: sc.nodes[m.node as usize].name.clone(),
                handovers: hs.len() as u64,
                binding_drops: r.binding_drops,
                binding_forwarded: r.forwarded,
                handover_s: hs.iter().map(|&h| (obs.handovers[h as usize].done - obs.handovers[h as usize].start).as_secs_f64()).sum(),
                interruption_s: interruption,
            }
        })
        .collect()
}

/// The movement of the mobile node, when the scenario has one mobile node and it moves.
/// `warned_at`: when the handover's `Imminent` event came, if the run decided it
/// (`mobile.warning = "srtt"`); otherwise it is `mobile.warning` before the handover.
fn mobility_summary(sc: &vhsim_scenario::Scenario, warned_at: Option<vhsim_core::SimTime>) -> Option<MobilitySummary> {
    let [mobile] = sc.mobiles.as_slice() else { return None };
    let m = mobile.mobility.as_ref()?;
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
        depart_s: (m.depart > vhsim_core::SimTime::ZERO).then(|| m.depart.as_secs_f64()),
        overlap_enter_s: m.overlap_enter.as_secs_f64(),
        handover_s: m.handover.as_secs_f64(),
        overlap_exit_s: m.overlap_exit.as_secs_f64(),
        imminent_s: warned_at.unwrap_or(m.handover - mobile.warning).as_secs_f64(),
        handoff_s: m.handoff.as_secs_f64(),
        handoff_band_m: m.band_crossing.as_ref().map(|b| b.band_m),
        handoff_latency_s: m.band_crossing.as_ref().map(|b| b.latency.as_secs_f64()),
    })
}
