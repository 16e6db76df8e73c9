//! Run control (stop flag, progress) and trace filters on whole runs.

use std::sync::Arc;
use std::time::{Duration, Instant};
use vhsim_scenario::{load, Detail};
use vhsim_sim::trace_filter::{TraceFilter, TraceFilterSpec};
use vhsim_sim::{run, run_controlled, RunControl};

/// One lossy bulk flow over a 1 Mb/s access link (retransmissions, spurious ones included).
const LOSSY: &str = r#"
name = "lossy"
duration = "30s"
[nodes.cn]
[nodes.r]
[nodes.mn]
[links.wired]
between = ["cn", "r"]
rate = "100Mbps"
delay = "1ms"
queue = "100pkt"
[links.access]
between = ["r", "mn"]
rate = "1Mbps"
delay = "50ms"
queue = "10pkt"
[links.access.forward]
error = { kind = "bernoulli", p = 0.02 }
[flows.bulk]
from = "cn"
to = "mn"
[flows.other]
from = "cn"
to = "mn"
start = "2s"
"#;

#[test]
fn a_stop_request_ends_a_long_run_within_a_second_and_progress_is_published() {
    let sc = load(LOSSY, &[("duration".into(), "100000000s".into())]).unwrap();
    let control = Arc::new(RunControl::new());
    let c = control.clone();
    let worker =
        std::thread::spawn(move || run_controlled(&sc, Some(Detail::Summary), &TraceFilter::default(), &c));
    std::thread::sleep(Duration::from_millis(300));
    let p = control.progress();
    assert_eq!(p.end_ns, 100_000_000 * 1_000_000_000);
    assert!(p.events > 0 && p.sim_ns > 0, "{p:?}");
    let asked = Instant::now();
    control.request_stop();
    let out = worker.join().unwrap();
    assert!(asked.elapsed() < Duration::from_secs(1), "{:?}", asked.elapsed());
    let stopped = out.err().expect("an interrupted run returns no output");
    assert!(stopped.sim_ns >= p.sim_ns && stopped.sim_ns < p.end_ns);
}

#[test]
fn a_run_with_a_control_that_is_never_stopped_equals_a_plain_run() {
    let sc = load(LOSSY, &[]).unwrap();
    let control = RunControl::new();
    let a = run_controlled(&sc, Some(Detail::Packets), &TraceFilter::default(), &control).unwrap();
    let b = run(&sc, Some(Detail::Packets));
    assert_eq!(vhsim_sim::fingerprint::fingerprint(&a), vhsim_sim::fingerprint::fingerprint(&b));
    let p = control.progress();
    assert_eq!((p.sim_ns, p.end_ns, p.events), (30_000_000_000, 30_000_000_000, a.summary.events));
}

fn spec(window: Option<&str>, flows: &[&str], links: &[&str], events: &[&str]) -> TraceFilterSpec {
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect();
    TraceFilterSpec { window: window.map(str::to_owned), flows: v(flows), links: v(links), events: v(events) }
}

#[test]
fn a_filtered_trace_is_exactly_the_matching_rows_of_the_full_trace() {
    let sc = load(LOSSY, &[]).unwrap();
    let full = run(&sc, Some(Detail::Packets));
    // Data leaves on `wired/forward` (a send's link is its first hop) and is lost on `access/forward`.
    let s = spec(Some("10s..20s"), &["bulk"], &["wired", "access/forward"], &["send", "retransmit", "drop"]);
    let filter = TraceFilter::resolve(&s, &sc).unwrap();
    let part = run_controlled(&sc, Some(Detail::Packets), &filter, &RunControl::new()).unwrap();
    assert_eq!(part.summary.flows["bulk"].retransmissions, full.summary.flows["bulk"].retransmissions);
    let (f, p) = (full.traces.packets.as_ref().unwrap(), part.traces.packets.as_ref().unwrap());
    let link = |name: &str| sc.links.iter().position(|l| l.name == name).unwrap() as i32;
    let links = [link("wired/forward"), link("wired/reverse"), link("access/forward")];
    let keep: Vec<usize> = (0..f.time_ns.len())
        .filter(|&i| {
            (10_000_000_000..20_000_000_000).contains(&f.time_ns[i])
                && f.flow[i] == 0
                && links.contains(&f.link[i])
                && [0, 1, 5].contains(&f.event[i])
        })
        .collect();
    assert!(keep.len() > 100 && keep.len() < f.time_ns.len() / 4, "{}", keep.len());
    let pick = |v: &Vec<i8>| keep.iter().map(|&i| v[i]).collect::<Vec<_>>();
    assert_eq!(p.time_ns, keep.iter().map(|&i| f.time_ns[i]).collect::<Vec<_>>());
    assert_eq!(p.seq, keep.iter().map(|&i| f.seq[i]).collect::<Vec<_>>());
    assert_eq!(p.event, keep.iter().map(|&i| f.event[i]).collect::<Vec<_>>());
    assert_eq!(p.spurious, pick(&f.spurious), "ground-truth labels land on the kept rows");
    assert!(p.spurious.contains(&1) || p.spurious.contains(&0), "some retransmissions in the window");
}

#[test]
fn a_windowed_time_series_starts_with_the_state_in_force() {
    let sc = load(LOSSY, &[]).unwrap();
    let full = run(&sc, Some(Detail::Timeseries));
    let filter = TraceFilter::resolve(&spec(Some("10s..20s"), &[], &[], &[]), &sc).unwrap();
    let part = run_controlled(&sc, Some(Detail::Timeseries), &filter, &RunControl::new()).unwrap();
    let (f, p) = (full.traces.timeseries.as_ref().unwrap(), part.traces.timeseries.as_ref().unwrap());
    let (fc, pc) = (f.column("cwnd").unwrap(), p.column("cwnd").unwrap());
    let (from, to) = (10_000_000_000u64, 20_000_000_000u64);
    assert!(p.time_ns.iter().all(|&t| (from..to).contains(&t)));
    for flow in [0u32, 1] {
        let last_before = (0..f.time_ns.len()).rfind(|&i| f.flow[i] == flow && f.time_ns[i] < from).unwrap();
        let first = (0..p.time_ns.len()).find(|&i| p.flow[i] == flow).unwrap();
        assert_eq!((p.time_ns[first], pc[first]), (from, fc[last_before]), "flow {flow}");
        let inside: Vec<f64> = (0..f.time_ns.len())
            .filter(|&i| f.flow[i] == flow && (from..to).contains(&f.time_ns[i]))
            .map(|i| fc[i])
            .collect();
        let got: Vec<f64> =
            (0..p.time_ns.len()).filter(|&i| p.flow[i] == flow).skip(1).map(|i| pc[i]).collect();
        assert_eq!(got, inside, "flow {flow}");
    }
}
