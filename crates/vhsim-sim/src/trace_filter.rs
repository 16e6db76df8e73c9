//! Trace filters: record only the rows a user asked for, so that a long run at `packets` detail
//! stays within memory and disk (docs/cli.md, "Trace filters").
//!
//! A filter is applied where rows are pushed, before they are stored. It selects packet rows by
//! time window, flow, link direction and event kind, and sender-state rows by time window and
//! flow. The goodput table is never filtered (it is one row per flow per interval).
//!
//! Time-series rows are written only when the sender's state changes, so the state in force
//! when the window opens would be lost with a plain cut: the last row before the window is kept
//! back and written, stamped at the window's start, just before the first row at or after it
//! (or at the end of the run).

use crate::trace::PacketEvent;
use vhsim_core::{SimTime, TracedVar};
use vhsim_scenario::Scenario;

/// Which trace rows to keep. The default keeps everything.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceFilter {
    /// Keep rows with `from <= t < to` (`None`: no time limit).
    pub window: Option<(SimTime, SimTime)>,
    /// `flows[i]`: keep flow `i` (`None`: every flow).
    pub flows: Option<Vec<bool>>,
    /// `links[l]`: keep packet rows on link direction `l`; rows without a link are dropped
    /// (`None`: every row).
    pub links: Option<Vec<bool>>,
    /// Bit `e` set: keep packet events of code `e` (`None`: every kind). One bit per
    /// [`PacketEvent`] code; the assertion below keeps the type wide enough for all of them.
    pub events: Option<EventMask>,
}

/// A set of packet event codes, one bit per code.
pub type EventMask = u16;

// A mask narrower than the number of event codes would wrap the shift and keep the wrong rows
// (`control_receive` selecting `send`, issue #27).
const _: () = assert!(PacketEvent::NAMES.len() <= EventMask::BITS as usize);

/// What the user wrote, by name; [`TraceFilter::resolve`] checks it against a scenario.
#[derive(Clone, Debug, Default)]
pub struct TraceFilterSpec {
    /// `"295s..320s"`, `"295s.."` or `"..320s"`.
    pub window: Option<String>,
    /// Flow names.
    pub flows: Vec<String>,
    /// Link names (`access` = both directions) or directions (`access/forward`).
    pub links: Vec<String>,
    /// Packet event names ([`PacketEvent::NAMES`]).
    pub events: Vec<String>,
}

/// A resolution error: the option at fault (`trace_window`, ...) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    /// `trace_window`, `trace_flows`, `trace_links` or `trace_events`.
    pub key: &'static str,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl std::fmt::Display for FilterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

fn quoted(names: impl IntoIterator<Item = impl std::fmt::Display>) -> String {
    names.into_iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// Text quoted in a message, cut to a readable length.
fn shown(text: &str) -> String {
    vhsim_scenario::shorten(text, 40)
}

impl TraceFilter {
    /// Check `spec` against `scenario` and turn names into indices.
    pub fn resolve(spec: &TraceFilterSpec, scenario: &Scenario) -> Result<Self, FilterError> {
        Ok(TraceFilter {
            window: spec.window.as_deref().map(|w| parse_window(w, scenario)).transpose()?,
            flows: select(
                &spec.flows,
                "trace_flows",
                "flow",
                scenario.flows.iter().map(|f| f.name.as_str()),
            )?,
            links: select(
                &spec.links,
                "trace_links",
                "link",
                scenario.links.iter().map(|l| l.name.as_str()),
            )?,
            events: events_mask(&spec.events)?,
        })
    }

    fn keeps_time(&self, t: SimTime) -> bool {
        self.window.is_none_or(|(from, to)| from <= t && t < to)
    }

    fn keeps_flow(&self, flow: u32) -> bool {
        self.flows.as_ref().is_none_or(|f| f.get(flow as usize).copied().unwrap_or(false))
    }

    /// Whether a packet row is kept.
    pub fn keeps_packet(&self, t: SimTime, flow: u32, event: PacketEvent, link: Option<u32>) -> bool {
        self.keeps_time(t)
            && self.keeps_flow(flow)
            && self.events.is_none_or(|m| m & (1 << event as EventMask) != 0)
            && self
                .links
                .as_ref()
                .is_none_or(|l| link.is_some_and(|l2| l.get(l2 as usize).copied().unwrap_or(false)))
    }
}

/// Parse `A..B` (either side may be empty) into `[A, B)`, within the run.
fn parse_window(text: &str, scenario: &Scenario) -> Result<(SimTime, SimTime), FilterError> {
    let bad = |message: String| FilterError { key: "trace_window", message };
    let Some((a, b)) = text.split_once("..") else {
        return Err(bad(format!(
            "{:?} is not a window; write START..END, e.g. \"295s..320s\" (either side may be left out)",
            shown(text)
        )));
    };
    let end_of_run = SimTime::ZERO + scenario.duration;
    let side = |s: &str, default: SimTime| -> Result<SimTime, FilterError> {
        if s.trim().is_empty() {
            return Ok(default);
        }
        vhsim_scenario::parse_duration(s).map(|d| SimTime::ZERO + d).map_err(bad)
    };
    let (from, to) = (side(a, SimTime::ZERO)?, side(b, SimTime(u64::MAX))?);
    if from >= to {
        return Err(bad(format!("{:?}: the start must be before the end", shown(text))));
    }
    if from > end_of_run {
        let msg = format!(
            "{:?} starts after the end of the run ({} s)",
            shown(text),
            scenario.duration.as_secs_f64()
        );
        return Err(bad(msg));
    }
    Ok((from, to))
}

/// A keep-mask over `names` from the names or `name/direction`s the user gave (empty: no filter).
fn select<'a>(
    wanted: &[String],
    key: &'static str,
    what: &str,
    names: impl Iterator<Item = &'a str> + Clone,
) -> Result<Option<Vec<bool>>, FilterError> {
    if wanted.is_empty() {
        return Ok(None);
    }
    let mut keep: Vec<bool> = names.clone().map(|_| false).collect();
    for w in wanted {
        let mut found = false;
        for (i, n) in names.clone().enumerate() {
            // A link direction is named `link/forward`; the bare link name selects both.
            if n == w || n.rsplit_once('/').is_some_and(|(base, _)| base == w) {
                keep[i] = true;
                found = true;
            }
        }
        if !found {
            let mut known: Vec<&str> =
                names.clone().map(|n| n.rsplit_once('/').map_or(n, |(b, _)| b)).collect();
            known.dedup();
            return Err(FilterError {
                key,
                message: format!("no {what} named `{}` (known: {})", shown(w), quoted(known)),
            });
        }
    }
    Ok(Some(keep))
}

fn events_mask(wanted: &[String]) -> Result<Option<EventMask>, FilterError> {
    if wanted.is_empty() {
        return Ok(None);
    }
    let mut mask: EventMask = 0;
    for w in wanted {
        let Some(i) = PacketEvent::NAMES.iter().position(|n| n == w) else {
            let message =
                format!("unknown packet event `{}` (events: {})", shown(w), quoted(PacketEvent::NAMES));
            return Err(FilterError { key: "trace_events", message });
        };
        mask |= 1 << i;
    }
    Ok(Some(mask))
}

/// The time-series side of a filter: flow and window selection, with the state in force at the
/// window's start kept back until it can be written (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct SampleGate {
    filter: TraceFilter,
    /// Last variables before the window, per (flow, path), in that order.
    held: Vec<((u32, u32), Vec<TracedVar>)>,
}

impl SampleGate {
    /// A gate applying `filter`.
    pub fn new(filter: TraceFilter) -> Self {
        SampleGate { filter, held: Vec::new() }
    }

    /// Whether every row goes through unchanged (no flow or window selection).
    pub fn passes_all(&self) -> bool {
        self.filter.window.is_none() && self.filter.flows.is_none()
    }

    /// Rows to write for the variables of `flow`'s `path` at `t`: the held rows that become due
    /// (stamped at the window's start), then this one if it is kept. Calls `write` for each.
    pub fn offer(
        &mut self,
        t: SimTime,
        flow: u32,
        path: u32,
        vars: &[TracedVar],
        mut write: impl FnMut(SimTime, u32, u32, &[TracedVar]),
    ) {
        if !self.filter.keeps_flow(flow) {
            return;
        }
        let Some((from, to)) = self.filter.window else {
            write(t, flow, path, vars);
            return;
        };
        if t < from {
            match self.held.binary_search_by_key(&(flow, path), |h| h.0) {
                Ok(i) => self.held[i].1 = vars.to_vec(),
                Err(i) => self.held.insert(i, ((flow, path), vars.to_vec())),
            }
            return;
        }
        self.release(from, &mut write);
        if t < to {
            write(t, flow, path, vars);
        }
    }

    /// Write what is still held, if the run reached the window (end of run).
    pub fn finish(&mut self, end: SimTime, mut write: impl FnMut(SimTime, u32, u32, &[TracedVar])) {
        if let Some((from, _)) = self.filter.window {
            if end >= from {
                self.release(from, &mut write);
            }
        }
    }

    fn release(&mut self, at: SimTime, write: &mut impl FnMut(SimTime, u32, u32, &[TracedVar])) {
        for ((flow, path), vars) in self.held.drain(..) {
            write(at, flow, path, &vars);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario() -> Scenario {
        let text = r#"
duration = "10s"
[nodes.a]
[nodes.b]
[links.ab]
between = ["a", "b"]
rate = "1Mbps"
delay = "10ms"
[flows.f]
from = "a"
to = "b"
[flows.g]
from = "a"
to = "b"
"#;
        vhsim_scenario::load(text, &[]).unwrap()
    }

    fn spec(window: Option<&str>, flows: &[&str], links: &[&str], events: &[&str]) -> TraceFilterSpec {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect();
        TraceFilterSpec {
            window: window.map(str::to_owned),
            flows: v(flows),
            links: v(links),
            events: v(events),
        }
    }

    const S: u64 = 1_000_000_000;

    #[test]
    fn resolves_names_and_window() {
        let f =
            TraceFilter::resolve(&spec(Some("2s..3.5s"), &["g"], &["ab"], &["send", "drop"]), &scenario())
                .unwrap();
        assert_eq!(f.window, Some((SimTime(2 * S), SimTime(3 * S + S / 2))));
        assert_eq!(f.flows, Some(vec![false, true]));
        assert_eq!(f.links, Some(vec![true, true]), "a bare link name selects both directions");
        assert_eq!(f.events, Some(0b10_0001));
        let open = TraceFilter::resolve(&spec(Some("..1s"), &[], &["ab/reverse"], &[]), &scenario()).unwrap();
        assert_eq!(open.window, Some((SimTime(0), SimTime(S))));
        assert_eq!(open.links, Some(vec![false, true]));
    }

    #[test]
    fn bad_names_and_windows_name_the_option() {
        let sc = scenario();
        let e = |s: TraceFilterSpec| TraceFilter::resolve(&s, &sc).unwrap_err();
        assert_eq!(e(spec(None, &["h"], &[], &[])).key, "trace_flows");
        assert!(e(spec(None, &["h"], &[], &[])).message.contains("`f`, `g`"));
        assert_eq!(e(spec(None, &[], &["x"], &[])).key, "trace_links");
        assert!(e(spec(None, &[], &["x"], &[])).message.contains("(known: `ab`)"));
        assert_eq!(e(spec(None, &[], &[], &["resend"])).key, "trace_events");
        for w in ["3s", "3s..2s", "2s..2s", "11s..", "x..2s", "1s..2"] {
            assert_eq!(e(spec(Some(w), &[], &[], &[])).key, "trace_window", "{w}");
        }
    }

    #[test]
    fn keeps_packets_inside_the_selection_only() {
        let f = TraceFilter::resolve(&spec(Some("1s..2s"), &["f"], &["ab/forward"], &["send"]), &scenario())
            .unwrap();
        let ok = |t: u64, flow, ev, link| f.keeps_packet(SimTime(t), flow, ev, link);
        assert!(ok(S, 0, PacketEvent::Send, Some(0)));
        assert!(!ok(2 * S, 0, PacketEvent::Send, Some(0)), "the window's end is excluded");
        assert!(!ok(S, 1, PacketEvent::Send, Some(0)));
        assert!(!ok(S, 0, PacketEvent::Drop, Some(0)));
        assert!(!ok(S, 0, PacketEvent::Send, Some(1)));
        assert!(!ok(S, 0, PacketEvent::Send, None), "rows without a link fail a link filter");
        assert!(TraceFilter::default().keeps_packet(SimTime(0), 9, PacketEvent::AckDrop, None));
    }

    #[test]
    fn every_event_kind_keeps_its_own_rows_only() {
        // Issue #27: with an 8-bit mask, `control_receive` kept `send` rows and `control_drop`
        // kept `retransmit` rows (the shift wrapped).
        const ALL: [PacketEvent; 10] = [
            PacketEvent::Send,
            PacketEvent::Retransmit,
            PacketEvent::Receive,
            PacketEvent::AckSend,
            PacketEvent::AckReceive,
            PacketEvent::Drop,
            PacketEvent::AckDrop,
            PacketEvent::ControlSend,
            PacketEvent::ControlReceive,
            PacketEvent::ControlDrop,
        ];
        assert_eq!(ALL.len(), PacketEvent::NAMES.len());
        for (i, name) in PacketEvent::NAMES.iter().enumerate() {
            let f = TraceFilter::resolve(&spec(None, &[], &[], &[name]), &scenario()).unwrap();
            for ev in ALL {
                let kept = f.keeps_packet(SimTime(0), 0, ev, Some(0));
                assert_eq!(kept, ev as usize == i, "--trace-event {name} and a {:?} row", ev);
            }
        }
    }

    #[test]
    fn samples_carry_the_state_in_force_into_the_window() {
        let f = TraceFilter::resolve(&spec(Some("2s..4s"), &[], &[], &[]), &scenario()).unwrap();
        let mut gate = SampleGate::new(f);
        let snap = |cwnd: f64| [TracedVar::new("cwnd", "pkts", cwnd), TracedVar::new("rto", "s", 1.0)];
        let mut rows = Vec::new();
        for (t, flow, cwnd) in [(S, 1, 1.0), (S, 0, 2.0), (S + 1, 0, 3.0), (3 * S, 0, 4.0), (5 * S, 0, 5.0)] {
            gate.offer(SimTime(t), flow, 0, &snap(cwnd), |t, f, _, v| rows.push((t.0, f, v[0].value)));
        }
        gate.finish(SimTime(10 * S), |t, f, _, v| rows.push((t.0, f, v[0].value)));
        assert_eq!(rows, vec![(2 * S, 0, 3.0), (2 * S, 1, 1.0), (3 * S, 0, 4.0)]);
        // A window the run never reaches writes nothing; one reached only at the end releases.
        let mut late =
            SampleGate::new(TraceFilter::resolve(&spec(Some("8s.."), &[], &[], &[]), &scenario()).unwrap());
        let mut out = Vec::new();
        late.offer(SimTime(S), 0, 0, &snap(1.0), |t, f, _, _| out.push((t.0, f)));
        late.finish(SimTime(7 * S), |t, f, _, _| out.push((t.0, f)));
        assert!(out.is_empty());
        late.finish(SimTime(9 * S), |t, f, _, _| out.push((t.0, f)));
        assert_eq!(out, vec![(8 * S, 0)]);
    }
}
