//! The Freeze family and DEMO-Vegas through the world (issue #14): the mobile node's link
//! events reach the sink's policy, its ZWA / TR-ACKs / SIG bit travel as real ACKs, and the
//! sender reacts. Daniel & Kojo's break-before-make handover (500 ms gap at 8.2 s, fast to
//! slow access link) with a handover warning of 200 ms (`mobile.warning`; more than one RTT of
//! the fast path, the paper's preferred value), window_ 20 packets (with the scenario's 100 a
//! slow-start overshoot times out before the handover). Runs cut at 8.9 s see the sender during the
//! break (the TR-ACKs sent at 8.7 s take the slow path's 300 ms); full runs see it after. (After
//! the resume the old RTO is far below the slow path's RTT, so timeouts then are expected: the
//! problem of Freeze-TCP in heterogeneous cells that Freeze-TCPv2 addresses.)

use std::path::Path;
use vhsim_scenario::{load, Scenario};
use vhsim_sim::run_world;
use vhsim_tcp::AnyHandoverPolicy;

fn scenario(scheme: &str, duration: &str, extra: &[(&str, &str)]) -> Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/danielkojo/fig08-bbm.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    let sets = [("flows.bulk.scheme", scheme), ("mobile.warning", "200ms"), ("duration", duration),
        ("flows.bulk.tcp.window", "20pkt")];
    let o: Vec<(String, String)> = sets.iter().chain(extra).map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(&text, &o).unwrap_or_else(|e| panic!("{scheme}: {e}"))
}

struct Outcome {
    rtos: u64,
    link_down_drops: u64,
    goodput_kbps: f64,
    sender: vhsim_tcp::TcpSender,
}

fn run(scheme: &str, duration: &str) -> Outcome {
    run_with(scheme, duration, &[])
}

fn run_with(scheme: &str, duration: &str, extra: &[(&str, &str)]) -> Outcome {
    let (out, world) = run_world(&scenario(scheme, duration, extra), None);
    let f = &out.summary.flows["bulk"];
    Outcome {
        rtos: f.rto_count,
        link_down_drops: f.drops.get("link_down").copied().unwrap_or(0),
        goodput_kbps: f.goodput_kbps,
        sender: world.endpoint(0, 0).tcp_sender().expect("a TCP sender").clone(),
    }
}

#[test]
fn freeze_tcp_sends_nothing_into_the_break_and_never_times_out() {
    let reno = run("reno", "8.9s");
    assert!(reno.rtos >= 1 && reno.link_down_drops > 2, "baseline: {} RTOs, {} drops", reno.rtos, reno.link_down_drops);
    let freeze = run("freeze", "8.9s");
    assert!(freeze.sender.core().persisting(), "frozen through the break");
    assert_eq!(freeze.rtos, 0, "the freeze stops the retransmission timer");
    // At most the window probes of persist mode are lost with the old link.
    assert!(freeze.link_down_drops <= 2, "{} packets lost in the break", freeze.link_down_drops);
    let freeze = run("freeze", "20s");
    assert!(!freeze.sender.core().persisting(), "the TR-ACKs resumed the sender");
    assert!(freeze.goodput_kbps > 0.0);
}

#[test]
fn freeze_tcpv2_decides_once_it_resumes() {
    // Park et al.'s cells: the new one slower (1 Mb/s) with a similar delay (20 ms). (On the
    // scenario's 300 ms link the restored RTO of the fast path expires before P's ACK: a
    // spurious timeout ends WAVE before its first decision.)
    let cell = [("links.slow.rate", "1Mbps"), ("links.slow.delay", "20ms")];
    assert_eq!(run_with("ftv2", "8.9s", &cell).rtos, 0);
    let ftv2 = run_with("ftv2", "20s", &cell);
    let f = ftv2.sender.core().congestion_control().ftv2().expect("ftv2");

    assert!(f.rtt_prev().is_some() && f.rtt_curr().is_some());
    assert!(!f.decisions().is_empty(), "no WAVE decision after the PACK");
    // RTT_curr is measured on the slower, longer path: above RTT_prev.
    assert!(f.rtt_curr().unwrap() > f.rtt_prev().unwrap(), "{:?} {:?}", f.rtt_prev(), f.rtt_curr());
}

#[test]
fn demo_vegas_halts_on_sig_and_relearns_base_rtt_on_the_new_path() {
    // SIG from the warning (`set_at = "imminent"`): halted through the break, nothing lost.
    let imminent = [("flows.bulk.sink.policy.set_at", "imminent")];
    let during = run_with("demo-vegas", "8.9s", &imminent);
    assert!(during.sender.core().halted());
    assert_eq!(during.rtos, 0);
    assert!(during.link_down_drops <= 2, "{} packets lost in the break", during.link_down_drops);
    let demo = run_with("demo-vegas", "20s", &imminent);
    let AnyHandoverPolicy::DemoSig(d) = demo.sender.handover_policy() else { panic!("demo_sig") };
    assert_eq!(d.halts(), 1);
    assert!(!demo.sender.core().halted());
    // BaseRTT from the slow path (300 ms one way), not the fast one it started on.
    let base = demo.sender.core().congestion_control().vegas().unwrap().base_rtt();
    assert!(base > 0.6, "BaseRTT {base} s");
    let vegas = run("vegas", "20s");
    assert!(vegas.sender.core().congestion_control().vegas().unwrap().base_rtt() < 0.1);
    // The preset, as the original (SIG at the care-of-address change): it sends into the
    // break like Vegas, then halts and resumes at the new link and learns the slow path's
    // BaseRTT.
    let original = run("demo-vegas", "8.9s");
    assert!(!original.sender.core().halted());
    assert!(original.link_down_drops > 2, "{} packets lost in the break", original.link_down_drops);
    let original = run("demo-vegas", "20s");
    let AnyHandoverPolicy::DemoSig(d) = original.sender.handover_policy() else { panic!("demo_sig") };
    assert_eq!(d.halts(), 1);
    let base = original.sender.core().congestion_control().vegas().unwrap().base_rtt();
    assert!(base > 0.6, "BaseRTT {base} s");
}
