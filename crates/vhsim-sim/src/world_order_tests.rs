//! Frames leaving early change no order: every fingerprinted case (`tests/fingerprints.tsv`:
//! shipped scenarios and presets) runs with and without early departures, and the events
//! that remain (all but `TxDone`) must come in the same order at the same times, with the same
//! fingerprints (packet trace, time series, summary with the links' counters).

use crate::event::Event;
use crate::fingerprint::{fingerprint, Fingerprint};
use crate::RunOutput;
use vhsim_scenario::{Detail, Scenario};

/// An event as the comparison sees it: an arrival by the uid of its packet (slots differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Logged {
    Arrive { link: u32, uid: u64 },
    Other(Event),
}

impl super::World {
    /// Log `ev` (about to be handled at `self.now`) unless it is a `TxDone`.
    pub(crate) fn log_event(&mut self, ev: &Event) {
        let entry = match *ev {
            Event::TxDone(_) => return,
            Event::Arrive(link, slot) => {
                let uid = self.in_flight.slots[slot as usize].as_ref().expect("an arriving packet").uid;
                Logged::Arrive { link, uid }
            }
            other => Logged::Other(other),
        };
        if let Some(log) = self.log.as_mut() {
            log.push((self.now.0, entry));
        }
    }
}

fn run_case(sc: &Scenario, leave_early: bool) -> (Fingerprint, Vec<(u64, Logged)>, u64) {
    let mut world = crate::build::build(sc, Detail::Packets);
    world.leave_early = leave_early;
    world.log = Some(Vec::new());
    let events = world.run();
    world.finish();
    let summary = crate::summary::summarize(&world, events, 0.0);
    let traces = std::mem::take(&mut world.obs.traces);
    let out = RunOutput { summary, traces, captures: Vec::new(), flow_table: None };
    (fingerprint(&out), world.log.take().expect("logged"), events)
}

/// The cases of the fingerprint store: (scenario file, overrides).
fn cases(root: &std::path::Path) -> Vec<(String, Vec<(String, String)>)> {
    let store = std::fs::read_to_string(root.join("tests/fingerprints.tsv")).expect("the fingerprint store");
    store
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("scenario\t"))
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            // The `set` column is CSV-quoted when it holds quotes.
            let set = cols[1].strip_prefix('"').and_then(|s| s.strip_suffix('"')).map_or(cols[1].to_string(), |s| s.replace("\"\"", "\""));
            let overrides = set
                .split(';')
                .filter(|kv| !kv.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').expect("key=value");
                    (k.to_string(), v.to_string())
                })
                .collect();
            (cols[0].to_string(), overrides)
        })
        .collect()
}

/// `flows.*.KEY` for every flow of the scenario file (as `vhsim fingerprints` does).
fn expand(text: &str, overrides: &[(String, String)]) -> Vec<(String, String)> {
    let doc: toml::Table = text.parse().expect("TOML");
    let flows: Vec<String> = doc.get("flows").and_then(|f| f.as_table()).map_or(Vec::new(), |t| t.keys().cloned().collect());
    let mut out = Vec::new();
    for (k, v) in overrides {
        match k.strip_prefix("flows.*.") {
            Some(rest) => out.extend(flows.iter().map(|f| (format!("flows.{f}.{rest}"), v.clone()))),
            None => out.push((k.clone(), v.clone())),
        }
    }
    out
}

#[test]
fn early_departures_keep_the_order_of_every_remaining_event() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cases = cases(&root);
    assert!(cases.len() > 50, "the fingerprint store lists the shipped scenarios");
    let (mut skipped, mut all) = (0u64, 0u64);
    for (file, overrides) in &cases {
        let text = std::fs::read_to_string(root.join(file)).expect("scenario file");
        let mut sc = vhsim_scenario::load(&text, &expand(&text, overrides)).unwrap_or_else(|e| panic!("{file}: {e}"));
        sc.seed = 1;
        let (fp_on, log_on, events_on) = run_case(&sc, true);
        let (fp_off, log_off, events_off) = run_case(&sc, false);
        let first_difference = log_on.iter().zip(&log_off).position(|(a, b)| a != b);
        assert!(
            first_difference.is_none() && log_on.len() == log_off.len(),
            "{file} {overrides:?}: events differ at {first_difference:?}: {:?} vs {:?}",
            first_difference.map(|i| log_on[i]),
            first_difference.map(|i| log_off[i])
        );
        assert_eq!(fp_on, fp_off, "{file} {overrides:?}: fingerprints differ");
        skipped += events_off - events_on;
        all += events_off;
    }
    // Not a speed assertion: the mechanism must actually act on the shipped scenarios.
    assert!(skipped * 10 > all, "only {skipped} of {all} events skipped");
}

#[test]
fn frames_leave_early_on_a_trace_link_at_the_end_their_trace_gives() {
    // A trace link's end of transmission comes from its pacer, which moves on once per
    // transmission: a frame that leaves early must ask it exactly once, as one that waits for
    // its TxDone does. CBR frames every 40 ms over the 3G trace (burst and spread readings): most
    // find the link idle and leave early; during the trace's outages they queue behind one
    // another (TxDone). Both ways, the same events at the same times and the same fingerprints.
    for delivery in ["burst", "spread"] {
        let text = format!(
            "duration = \"40s\"\n[nodes.a]\n[nodes.b]\n[links.ab]\nbetween = [\"a\", \"b\"]\nrate = \"100Mbps\"\n\
             delay = \"10ms\"\nqueue = \"100000pkt\"\n[links.ab.forward]\n\
             trace = {{ shipped = \"3g-outages\", delivery = \"{delivery}\" }}\n\
             [flows.f]\nfrom = \"a\"\nto = \"b\"\nprotocol = \"datagram\"\nstop = \"35s\"\n\
             app = {{ kind = \"cbr\", interval = \"40ms\", packet_size = \"300B\" }}\n"
        );
        let sc = vhsim_scenario::load(&text, &[]).unwrap();
        let (fp_on, log_on, events_on) = run_case(&sc, true);
        let (fp_off, log_off, events_off) = run_case(&sc, false);
        assert_eq!(log_on, log_off, "{delivery}: the events that remain differ");
        assert_eq!(fp_on, fp_off, "{delivery}: fingerprints differ");
        let frames = 35_000 / 40;
        let skipped = events_off - events_on;
        assert!(skipped > frames / 2 && skipped < frames, "{delivery}: {skipped} of ~{frames} TxDones skipped");
        // The outages of the trace (10.4-12.0 s, 14.8-16.6 s, 29.4-31.1 s) delay what was sent in them.
        let arrivals: Vec<u64> = log_on.iter().filter(|(_, e)| matches!(e, Logged::Arrive { .. })).map(|&(t, _)| t).collect();
        assert!(!arrivals.iter().any(|&t| (10_500_000_000..12_000_000_000).contains(&t)), "{delivery}: nothing arrives in an outage");
    }
}
